package io.ringex.systemtests.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.AdminKeys;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.TestClusterMembers;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.testing.Await;
import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import io.ringex.testing.FreePorts;
import org.agrona.CloseHelper;

/**
 * A venue as an operator runs one with quorum: three engine members ({@code ./ringex engine member.properties}, each
 * a child process with its own media driver, journal and cluster directory) and a gateway
 * ({@code ./ringex gateway gateway.properties}) that knows all three, onboarded with {@code ./ringex admin apply}.
 * Members may each run in a network namespace of their own ({@link Network}), so a test can cut the links between
 * them while the gateway, in the test's own namespace, still reaches every one.
 * <p>
 * The test watches each member's {@code EngineStatus} on its risk stream through a media driver of its own.
 * <p>
 * Used from the test's thread.
 */
final class ClusterVenue implements AutoCloseable
{
    static final Path PROJECT = Path.of(System.getProperty("ringex.project.dir", "..")).toAbsolutePath().normalize();
    static final int CLIENT_STREAM = 2001;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final ChildProcesses children;
    private final Path directory;
    private final Path adminKeys;
    private final Network network;
    private final List<Member> members = new ArrayList<>();
    private final String shmPrefix = "/dev/shm/ringex-drill-" + UUID.randomUUID().toString().substring(0, 8);
    private final MediaDriver driver;
    private final Aeron aeron;
    private final int clientPort;
    private final int fixPort;
    private ChildProcess gateway;
    private final long startNs = System.nanoTime();
    private final List<String> timeline = new ArrayList<>();
    private int lastLeader = -1;

    /**
     * @param children the test's child processes.
     * @param directory where every member and the gateway keep their files.
     * @param size     how many members.
     * @param network  namespaces for the members, or null to run them all on localhost.
     */
    ClusterVenue(final ChildProcesses children, final Path directory, final int size, final Network network)
    {
        this.children = children;
        this.directory = directory;
        this.network = network;
        // The venue's admin keys, which every member holds and the operator's tool signs with.
        adminKeys = directory.resolve("admin.keys");
        AdminKeys.generate("drill").writeTo(adminKeys);
        final List<String> hosts = new ArrayList<>();
        for (int id = 1; id <= size; id++)
        {
            hosts.add(null == network ? "localhost" : network.address(id));
        }
        final TestClusterMembers engines = new TestClusterMembers(directory, adminKeys, hosts)
            .set(EngineContext.Configuration.CLUSTER_LOG_TERM_LENGTH_PROP_NAME, "4m")
            .set(EngineContext.Configuration.STATUS_INTERVAL_PROP_NAME, "100ms");
        for (final TestClusterMembers.Member engine : engines.members())
        {
            // In /dev/shm, whatever the test's directory, as a deployment keeps it; close() deletes it.
            engine.set(EngineContext.Configuration.AERON_DIR_PROP_NAME, shmPrefix + "-" + engine.id());
            members.add(new Member(engine));
        }
        clientPort = FreePorts.udp();
        fixPort = FreePorts.tcp();
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .aeronDirectoryName(shmPrefix + "-test").dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        for (final Member member : members)
        {
            member.watch = new StatusWatch(aeron, subscriberChannel(member), 1004);
        }
    }

    /**
     * @return the test's Aeron client (for SBE clients).
     */
    Aeron aeron()
    {
        return aeron;
    }

    /**
     * @return how many members.
     */
    int size()
    {
        return members.size();
    }

    /**
     * @return the gateway's SBE client channel.
     */
    String gatewayChannel()
    {
        return "aeron:udp?endpoint=localhost:" + clientPort;
    }

    /**
     * @return the gateway's FIX port.
     */
    int fixPort()
    {
        return fixPort;
    }

    /**
     * @param id a member.
     * @return its status as last heard.
     */
    StatusWatch status(final int id)
    {
        return member(id).watch;
    }

    /**
     * @param id a member.
     * @return its process, or null when not running.
     */
    ChildProcess process(final int id)
    {
        return member(id).process;
    }

    /**
     * @param id a member.
     * @return its journal directory.
     */
    Path journal(final int id)
    {
        return member(id).home.resolve("journal");
    }

    /**
     * Start every member (they elect a leader among themselves), then the gateway.
     */
    void start()
    {
        for (final Member member : members)
        {
            start(member.id);
        }
        for (final Member member : members)
        {
            member.process.awaitLine("RINGEX ENGINE READY", START_TIMEOUT,
                (line) -> line.startsWith("RINGEX ENGINE READY"));
        }
        startGateway();
    }

    /**
     * Start one member (again) on its directories.
     *
     * @param id the member.
     */
    void start(final int id)
    {
        final Member member = member(id);
        final List<String> command = new ArrayList<>();
        if (null != network)
        {
            command.addAll(network.exec(id));
        }
        command.add(PROJECT.resolve("ringex").toString());
        command.add("engine");
        command.add(member.properties.toString());
        member.process = children.start(ChildProcess.builder("member " + id)
            .command(command)
            .directory(PROJECT)
            .environment("RINGEX_JAVA_OPTS", "-Xmx384m -Daeron.term.buffer.length=4194304 " +
                "-Daeron.ipc.term.buffer.length=4194304")
            .log(directory.resolve("member" + id + "-" + member.starts++ + ".log")));
    }

    /**
     * Start one member and wait until it says it is up, doing some work meanwhile (the clients keep trading).
     *
     * @param id   the member.
     * @param work run while waiting.
     */
    void restart(final int id, final Runnable work)
    {
        event("start member " + id);
        start(id);
        final ChildProcess process = member(id).process;
        Await.until("member " + id + " up again", START_TIMEOUT, () ->
        {
            if (!process.isAlive())
            {
                throw new AssertionError("member " + id + " exited:\n" + process.tail());
            }
            return process.hasLine((line) -> line.startsWith("RINGEX ENGINE READY"));
        }, work, this::describe);
    }

    private void startGateway()
    {
        final StringBuilder properties = new StringBuilder()
            .append("ringex.gateway.id=1\n")
            .append("ringex.gateway.embedded.driver=true\n")
            .append("ringex.gateway.aeron.dir=").append(shmPrefix).append("-gateway\n")
            .append("ringex.gateway.archive.dir=").append(directory.resolve("gateway-archive")).append('\n')
            .append("ringex.gateway.fix.log.dir=").append(directory.resolve("gateway-fix")).append('\n')
            .append("ringex.gateway.client.channel=").append(gatewayChannel()).append('\n')
            .append("ringex.gateway.fix.port=").append(fixPort).append('\n')
            .append("ringex.gateway.fix.host=localhost\n")
            .append("ringex.gateway.throttle.messages.per.second=100000\n")
            .append("ringex.gateway.engine.status.timeout=1s\n");
        for (final Member member : members)
        {
            final String prefix = "ringex.gateway.engine." + member.id + ".";
            properties.append(prefix).append("ingress.channel=").append(member.engine.ingressChannel()).append('\n')
                .append(prefix).append("egress.channel=").append(subscriberChannel(member)).append('\n')
                .append(prefix).append("marketdata.request.channel=").append(member.engine.marketDataRequestChannel())
                .append('\n');
        }
        final Path file = directory.resolve("gateway.properties");
        write(file, properties.toString());
        gateway = children.start(ChildProcess.builder("gateway")
            .command(List.of(PROJECT.resolve("ringex").toString(), "gateway", file.toString()))
            .directory(PROJECT)
            .environment("RINGEX_JAVA_OPTS", "-Xmx384m")
            .log(directory.resolve("gateway.log")));
        gateway.awaitLine("the gateway's up line", START_TIMEOUT, (line) -> line.startsWith("ringex gateway 1 up"));
    }

    /**
     * Onboard the venue with the demo's reference data ({@code ./ringex admin apply}), through the leader.
     *
     * @param leader the member that leads.
     */
    void onboard(final int leader)
    {
        final Member member = member(leader);
        final ChildProcess admin = children.start(ChildProcess.builder("admin apply")
            .command(List.of(PROJECT.resolve("ringex").toString(), "admin", "apply",
                PROJECT.resolve("app/src/main/resources/reference-data/demo.yml").toString(),
                "--operator", "drill", "--embedded-driver",
                "--ingress", member.engine.ingressChannel(),
                "--outbound", subscriberChannel(member), "--key-file", adminKeys.toString(), "--timeout-ms", "60000"))
            .directory(PROJECT)
            .log(directory.resolve("admin-apply-" + System.nanoTime() + ".log")));
        final int status = admin.awaitExit(Duration.ofMinutes(2));
        if (status != 0)
        {
            throw new AssertionError("./ringex admin apply exited " + status + ":\n" + admin.tail());
        }
    }

    /**
     * Wait for a member, other than those given, to say it serves clients as PRIMARY.
     *
     * @param timeout how long.
     * @param not     members that do not count (a member just killed, whose last status still says PRIMARY).
     * @return the leader.
     */
    int awaitLeader(final Duration timeout, final int... not)
    {
        final int[] leader = { -1 };
        Await.until("a member serving as PRIMARY", timeout, () ->
        {
            leader[0] = leader(not);
            return leader[0] > 0;
        }, this::poll, this::describe);
        return leader[0];
    }

    /**
     * As {@link #awaitLeader}, while the clients keep trading.
     *
     * @param clients the drill's clients.
     * @param timeout how long.
     * @param not     members that do not count.
     * @return the leader.
     */
    int awaitLeaderWhileTrading(final DrillClients clients, final Duration timeout, final int... not)
    {
        final int[] leader = { -1 };
        clients.tradeUntil("a member serving as PRIMARY", timeout, () ->
        {
            leader[0] = leader(not);
            return leader[0] > 0;
        });
        return leader[0];
    }

    /**
     * @param id a member.
     * @return its journal, as {@code ./ringex journal dump} prints it.
     */
    String dumpJournal(final int id)
    {
        final ChildProcess dump = children.start(ChildProcess.builder("journal dump " + id)
            .command(List.of(PROJECT.resolve("ringex").toString(), "journal", "dump", journal(id).toString()))
            .directory(PROJECT)
            .log(directory.resolve("journal-dump-" + id + "-" + System.nanoTime() + ".txt")));
        final int status = dump.awaitExit(Duration.ofMinutes(2));
        if (status != 0)
        {
            throw new AssertionError("./ringex journal dump exited " + status + ":\n" + dump.tail());
        }
        // The commands only (each line starts with its sequence), not what the tool says about the file.
        return String.join("\n", dump.lines().stream().filter((line) -> line.matches("^\\d+ .*")).toList());
    }

    /**
     * @param not members that do not count.
     * @return the member claiming PRIMARY at the highest epoch in a fresh status, or -1.
     */
    int leader(final int... not)
    {
        int leader = -1;
        long epoch = -1;
        for (final Member member : members)
        {
            boolean excluded = false;
            for (final int id : not)
            {
                excluded |= id == member.id;
            }
            if (!excluded && member.watch.isFresh(Duration.ofMillis(600)) && member.watch.role() == NodeRole.PRIMARY &&
                member.watch.epoch() > epoch)
            {
                leader = member.id;
                epoch = member.watch.epoch();
            }
        }
        return leader;
    }

    /**
     * Wait until the given members report the same processed sequence and state hash.
     *
     * @param ids     the members.
     * @param timeout how long.
     */
    void awaitConverged(final List<Integer> ids, final Duration timeout)
    {
        Await.until("members " + ids + " at one sequence with one state hash", timeout, () ->
        {
            long sequence = Long.MIN_VALUE;
            long hash = 0;
            for (final int id : ids)
            {
                final StatusWatch watch = member(id).watch;
                if (!watch.isFresh(Duration.ofMillis(600)))
                {
                    return false;
                }
                if (sequence == Long.MIN_VALUE)
                {
                    sequence = watch.processed();
                    hash = watch.stateHash();
                }
                else if (watch.processed() != sequence || watch.stateHash() != hash)
                {
                    return false;
                }
            }
            return true;
        }, this::poll, this::describe);
    }

    /**
     * Wait, while the clients trade, until a member has caught up with the leader (same processed sequence and hash
     * as the most advanced member at some moment).
     *
     * @param clients the drill's clients.
     * @param id      the member.
     */
    void awaitConvergedWhileTrading(final DrillClients clients, final int id)
    {
        clients.tradeUntil("member " + id + " caught up", Duration.ofSeconds(60), () ->
        {
            final StatusWatch watch = member(id).watch;
            final int leader = leader();
            return leader > 0 && watch.isFresh(Duration.ofMillis(600)) &&
                watch.processed() >= member(leader).watch.processed() - DrillClients.ORDERS_PER_SECOND;
        });
    }

    /**
     * Read every member's status stream.
     */
    void poll()
    {
        for (final Member member : members)
        {
            member.watch.poll();
        }
        final int leader = leader();
        if (leader != lastLeader)
        {
            event(leader < 0 ? "no leader" : "member " + leader + " leads term " + member(leader).watch.epoch());
            lastLeader = leader;
        }
    }

    /**
     * Note what happened when, for the story a failed drill tells.
     *
     * @param what the event.
     */
    void event(final String what)
    {
        timeline.add(String.format(java.util.Locale.ROOT, "%7.3f s %s", millis(System.nanoTime()) / 1000.0, what));
    }

    /**
     * @param nanoTime a time by {@link System#nanoTime()}.
     * @return milliseconds since the venue started.
     */
    long millis(final long nanoTime)
    {
        return (nanoTime - startNs) / 1_000_000;
    }

    /**
     * @param clientOrderIds orders to look for.
     * @return for each running member, the journal lines naming each order (what a failed drill needs to tell an
     * order the engine never got from one whose answer was lost).
     */
    String findInJournals(final List<String> clientOrderIds)
    {
        if (clientOrderIds.isEmpty())
        {
            return "";
        }
        final StringBuilder out = new StringBuilder("\n  in the journals:");
        for (final Member member : members)
        {
            try
            {
                final String dump = dumpJournal(member.id);
                for (final String id : clientOrderIds)
                {
                    out.append("\n    member ").append(member.id).append(", ").append(id).append(": ");
                    dump.lines().filter((line) -> line.contains("=" + id + "|"))
                        .forEach((line) -> out.append("\n      ").append(line, 0, Math.min(line.length(), 300)));
                }
            }
            catch (final RuntimeException | AssertionError ex)
            {
                out.append("\n    member ").append(member.id).append(": ").append(ex.getMessage());
            }
        }
        return out.toString();
    }

    /**
     * @return what happened when, one event a line.
     */
    String timeline()
    {
        return "\n  timeline:\n    " + String.join("\n    ", timeline);
    }

    /**
     * @return every member's last status, one line each, and the counters that tell a failover's story: the
     * gateway's (commands in doubt, re-submitted, answered unknown, forgotten) and each member's non-zero ones.
     */
    String describe()
    {
        final StringBuilder out = new StringBuilder();
        for (final Member member : members)
        {
            out.append("\n  member ").append(member.id).append(": ").append(member.watch)
                .append(null == member.process ? " (not running)" : member.process.isAlive() ? "" : " (exited)");
            counters(out, member.home.resolve("counters.dat"), "");
        }
        counters(out, Path.of(shmPrefix + "-gateway", "cnc.dat"), "ringex-gateway");
        return out.toString();
    }

    private static void counters(final StringBuilder out, final Path file, final String prefix)
    {
        if (!Files.exists(file))
        {
            return;
        }
        try
        {
            final java.nio.MappedByteBuffer mapped = org.agrona.IoUtil.mapExistingFile(file.toFile(), "counters");
            try
            {
                final org.agrona.concurrent.status.CountersReader counters;
                if (file.getFileName().toString().equals("cnc.dat"))
                {
                    final org.agrona.concurrent.UnsafeBuffer meta = io.aeron.CncFileDescriptor.createMetaDataBuffer(
                        mapped);
                    counters = new org.agrona.concurrent.status.CountersReader(
                        io.aeron.CncFileDescriptor.createCountersMetaDataBuffer(mapped, meta),
                        io.aeron.CncFileDescriptor.createCountersValuesBuffer(mapped, meta));
                }
                else
                {
                    final int max = 512;
                    counters = new org.agrona.concurrent.status.CountersReader(
                        new org.agrona.concurrent.UnsafeBuffer(mapped, 0,
                        max * org.agrona.concurrent.status.CountersReader.METADATA_LENGTH),
                        new org.agrona.concurrent.UnsafeBuffer(mapped,
                        max * org.agrona.concurrent.status.CountersReader.METADATA_LENGTH,
                        max * org.agrona.concurrent.status.CountersReader.COUNTER_LENGTH));
                }
                final StringBuilder line = new StringBuilder();
                counters.forEach((id, label) ->
                {
                    final long value = counters.getCounterValue(id);
                    if (label.startsWith(prefix) && value != 0 && !label.contains("-p50") && !label.contains("-p99") &&
                        !label.contains("-max") && !label.contains("sequence") && !label.contains("cursor"))
                    {
                        line.append(label.substring(prefix.length()).trim()).append('=').append(value).append(", ");
                    }
                });
                out.append("\n    ").append(prefix.isEmpty() ? "counters: " : prefix + ": ").append(line);
            }
            finally
            {
                org.agrona.IoUtil.unmap(mapped);
            }
        }
        catch (final RuntimeException ex)
        {
            out.append("\n    (").append(file).append(" unreadable: ").append(ex.getMessage()).append(')');
        }
    }

    /**
     * SIGKILL a member.
     *
     * @param id the member.
     */
    void kill(final int id)
    {
        event("SIGKILL member " + id);
        member(id).process.kill();
        member(id).process = null;
    }

    /**
     * SIGSTOP a member: a long pause, as a GC or a stalled disk would make.
     *
     * @param id the member.
     */
    void pause(final int id)
    {
        event("SIGSTOP member " + id);
        member(id).process.pause();
    }

    /**
     * SIGCONT a paused member.
     *
     * @param id the member.
     */
    void resume(final int id)
    {
        event("SIGCONT member " + id);
        member(id).process.resume();
    }

    /**
     * Delete a stopped member's every file: journal, snapshots, the cluster's log and snapshots.
     *
     * @param id the member.
     */
    void wipe(final int id)
    {
        final Member member = member(id);
        if (null != member.process && member.process.isAlive())
        {
            throw new IllegalStateException("member " + id + " still runs");
        }
        delete(member.home.resolve("journal"));
        delete(member.home.resolve("snapshots"));
        delete(member.home.resolve("cluster"));
    }

    private Member member(final int id)
    {
        return members.get(id - 1);
    }

    private String subscriberChannel(final Member member)
    {
        final String self = null == network ? "localhost" : network.hostAddress();
        return member.engine.subscriberChannel(self);
    }

    public void close()
    {
        for (final Member member : members)
        {
            CloseHelper.quietClose(member.watch);
        }
        CloseHelper.quietCloseAll(aeron, driver);
        for (final Member member : members)
        {
            delete(Path.of(shmPrefix + "-" + member.id));
        }
        delete(Path.of(shmPrefix + "-gateway"));
    }

    static void write(final Path file, final String text)
    {
        try
        {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void delete(final Path path)
    {
        if (!Files.exists(path))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(path))
        {
            files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** One member: its settings, directory and process. */
    private static final class Member
    {
        final TestClusterMembers.Member engine;
        final int id;
        final Path home;
        final Path properties;
        ChildProcess process;
        StatusWatch watch;
        int starts;

        Member(final TestClusterMembers.Member engine)
        {
            this.engine = engine;
            this.id = engine.id();
            this.home = engine.home();
            this.properties = engine.writeProperties();
        }
    }
}
