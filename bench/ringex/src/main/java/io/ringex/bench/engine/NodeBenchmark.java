package io.ringex.bench.engine;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.journal.Journal;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * "Engine node": the whole primary, journal on, driven over Aeron IPC by a client in the same JVM, or with {@code
 * --replication CLUSTER} the leader of a three-member cluster in the same JVM (docs/benchmarks-engine.md, "The
 * harnesses"). The clock runs from the first timed offer until the last command's ExecutionReport or CancelReject; each
 * pass also reports the process's CPU time per command ({@code -Dringex.bench.replication=CLUSTER} stands for {@code
 * --replication CLUSTER}).
 * <pre>
 * java ${ringex.jvm.flags} -Xms2g -Xmx2g -cp ... io.ringex.bench.engine.NodeBenchmark --workload FILE --dir DIR \
 *     [--passes 2] [--replication OFF|CLUSTER] [--idle backoff|yield|spin] [--threading SHARED|DEDICATED]
 * </pre>
 */
public final class NodeBenchmark
{
    private static final long TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    private static final int CLUSTER_PORT_BASE = 41000;

    private NodeBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final BenchArgs options = new BenchArgs(args);
        final Path workload = Path.of(options.required("--workload"));
        final Path dir = Path.of(options.required("--dir"));
        final int passes = options.integer("--passes", 2);
        final EngineContext.ReplicationMode replication = EngineContext.ReplicationMode.valueOf(
            options.string("--replication", System.getProperty("ringex.bench.replication", "OFF")));
        final String idle = options.string("--idle", "backoff");
        final EngineContext.Threading threading = EngineContext.Threading.valueOf(
            options.string("--threading", "DEDICATED"));

        final WorkloadEncoder.Encoded encoded;
        final int instruments;
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
            instruments = file.instruments();
        }
        final long untimed = (long)encoded.preamble().count() + encoded.prefill().count();
        final long timed = encoded.timed().count();

        final double[] mcps = new double[passes];
        final double[] cpuUs = new double[passes];
        String threadCpu = "";
        final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
        EventTally tally = null;
        long journalBytes = 0;
        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        try
        {
            for (int pass = 0; pass < passes; pass++)
            {
                final Path passDir = dir.resolve("pass-" + pass);
                IoUtil.delete(passDir.toFile(), true);
                final EngineNode[] members = replication == EngineContext.ReplicationMode.CLUSTER ?
                    launchCluster(passDir, pass, idle, threading) : null;
                final EngineContext primary = null == members ?
                    context(driver, passDir.resolve("primary"), idle, threading) : clientContext(members);
                final EngineNode node = null == members ? EngineNode.launch(primary) : leader(members);
                final IdleStrategy clientIdle = PipelineBenchmark.idleStrategy(idle);
                try (EgressCounter client = new EgressCounter(driver.aeronDirectoryName(), primary,
                    PipelineBenchmark.idleStrategy(idle)))
                {
                    client.awaitConnected(TimeUnit.SECONDS.toNanos(30));
                    client.send(encoded.preamble(), clientIdle);
                    client.send(encoded.prefill(), clientIdle);
                    client.awaitAnswered(untimed, clientIdle, TIMEOUT_NS);

                    // Quiesce the heap before the clock, as both sides' harnesses do: else the garbage of the passes
                    // before starts G1's concurrent marking inside a timed one, on one of the machine's two cores.
                    System.gc();
                    final long start = System.nanoTime();
                    final long startCpu = os.getProcessCpuTime();
                    final Map<String, Long> threadCpuStart = threadCpuNs();
                    client.send(encoded.timed(), clientIdle);
                    client.awaitAnswered(untimed + timed, clientIdle, TIMEOUT_NS);
                    final long ns = System.nanoTime() - start;
                    mcps[pass] = timed * 1_000.0 / ns;
                    cpuUs[pass] = (os.getProcessCpuTime() - startCpu) / 1_000.0 / timed;
                    threadCpu = perCommand(threadCpuStart, threadCpuNs(), timed);
                    client.close();
                    tally = client.tally();
                    System.out.printf(Locale.ROOT, "pass=%d commands=%d ms=%.1f mcps=%.3f cpuUsPerCommand=%.2f " +
                        "journaled=%d processed=%d events=%d rejects=%d%n", pass, timed, ns / 1e6, mcps[pass],
                        cpuUs[pass],
                        node.journaledSequence(), node.processedSequence(), tally.events(), tally.rejects());
                }
                finally
                {
                    if (null == members)
                    {
                        CloseHelper.quietClose(node);
                    }
                    else
                    {
                        CloseHelper.quietCloseAll(members);
                    }
                }
                journalBytes = size(passDir.resolve(null == members ? "primary" : "member-" + node.context().nodeId())
                    .resolve("journal"));
                IoUtil.delete(passDir.toFile(), true);
            }
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
        System.out.println("THREAD_CPU_NS_PER_COMMAND " + threadCpu);
        System.out.println("REJECTS " + tally.rejectSummary());
        System.out.println("EVENTS " + tally.templateSummary());
        System.out.printf(Locale.ROOT, "RESULT impl=ringex-node instruments=%d commands=%d passes=%d " +
            "replication=%s idle=%s threading=%s durability=PROCESS mcps=%.3f perPass=%s cpuUsPerCommand=%.2f " +
            "cpuPerPass=%s rejects=%d events=%d journalBytes=%d%n", instruments, timed, passes, replication, idle,
            threading, mcps[passes - 1], BlpBenchmark.perPass(mcps), cpuUs[passes - 1], BlpBenchmark.perPass(cpuUs),
            tally.rejects(), tally.events(), journalBytes);
    }

    static EngineContext context(final MediaDriver driver, final Path dir, final String idle,
        final EngineContext.Threading threading)
    {
        return BenchAdmin.configure(new EngineContext())
            .aeronDirectoryName(driver.aeronDirectoryName())
            .ingressChannel("aeron:ipc")
            .outboundChannel("aeron:ipc")
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .durability(Journal.Durability.PROCESS)
            .snapshotEveryCommands(Long.MAX_VALUE / 2)
            .idleStrategy(idle)
            .threading(threading);
    }

    /** CPU time of every live thread, by name (threads of the same name summed). */
    private static Map<String, Long> threadCpuNs()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final Map<String, Long> cpu = new TreeMap<>();
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
        {
            if (info != null)
            {
                final long ns = threads.getThreadCpuTime(info.getThreadId());
                if (ns > 0)
                {
                    cpu.merge(info.getThreadName(), ns, Long::sum);
                }
            }
        }
        return cpu;
    }

    /** The last pass's CPU per command by thread, largest first: where the CPU goes, idling included. */
    private static String perCommand(final Map<String, Long> start, final Map<String, Long> end, final long commands)
    {
        final StringBuilder out = new StringBuilder();
        end.entrySet().stream()
            .map((e) -> Map.entry(e.getKey(), (e.getValue() - start.getOrDefault(e.getKey(), 0L)) / commands))
            .filter((e) -> e.getValue() > 0)
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .forEach((e) -> out.append(out.length() == 0 ? "" : " ").append(e.getKey().replace(' ', '_'))
                .append('=').append(e.getValue()));
        return out.toString();
    }

    /**
     * Three cluster members in this JVM, each with its own embedded media driver (a member's archive and consensus
     * module take their default local streams), on UDP loopback ports of their own for each pass.
     */
    private static EngineNode[] launchCluster(
        final Path passDir, final int pass, final String idle, final EngineContext.Threading threading)
    {
        final int base = CLUSTER_PORT_BASE + pass * 100;
        final String members = "1=localhost:" + base + ",2=localhost:" + (base + 10) + ",3=localhost:" + (base + 20);
        final EngineNode[] nodes = new EngineNode[3];
        for (int i = 0; i < 3; i++)
        {
            final Path home = passDir.resolve("member-" + (i + 1));
            nodes[i] = EngineNode.launch(BenchAdmin.configure(new EngineContext())
                .nodeId(i + 1)
                .embeddedMediaDriver(true)
                .aeronDirectoryName(home.resolve("aeron").toString())
                .replicationMode(EngineContext.ReplicationMode.CLUSTER)
                .clusterMembers(members)
                .clusterSecret("the benchmark's cluster secret")
                // A throughput run, not a failover drill: no election over a pause the loaded machine takes.
                .clusterLeaderHeartbeatTimeoutNs(TimeUnit.SECONDS.toNanos(2))
                .clusterDirectory(home.resolve("cluster"))
                .ingressChannel("aeron:udp?endpoint=localhost:" + (base + 50 + i))
                .outboundChannel("aeron:udp?control=localhost:" + (base + 60 + i) + "|control-mode=dynamic")
                .journalDirectory(home.resolve("journal"))
                .snapshotDirectory(home.resolve("snapshots"))
                .durability(Journal.Durability.PROCESS)
                .snapshotEveryCommands(Long.MAX_VALUE / 2)
                .idleStrategy(idle)
                .threading(threading));
        }
        return nodes;
    }

    /** The member that serves clients, once the cluster has elected it and its processor took over. */
    private static EngineNode leader(final EngineNode[] members)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (System.nanoTime() < deadline)
        {
            for (final EngineNode member : members)
            {
                if (member.role() == NodeRole.PRIMARY)
                {
                    return member;
                }
            }
            LockSupport.parkNanos(10_000_000L);
        }
        throw new IllegalStateException("no cluster member became the leader");
    }

    /** The channels a client of the leader uses: its ingress, and its outbound publication joined as a subscriber. */
    private static EngineContext clientContext(final EngineNode[] members)
    {
        final EngineContext leader = leader(members).context();
        return BenchAdmin.configure(new EngineContext())
            .ingressChannel(leader.ingressChannel())
            .outboundChannel(leader.outboundChannel().replace("aeron:udp?", "aeron:udp?endpoint=localhost:0|"));
    }

    static long size(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(Files::isRegularFile).mapToLong((file) ->
            {
                try
                {
                    return Files.size(file);
                }
                catch (final IOException ex)
                {
                    return 0;
                }
            }).sum();
        }
    }
}
