package io.ringex.engine.node;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.ringex.common.aeron.AeronBootstrap;
import io.ringex.common.config.CommandLineOptions;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.status.CountersReader;

/**
 * The operator's {@code node} command: {@code ./ringex node status|latency|counters [options]} (docs/operations.md,
 * "Reading the cluster's state", "Where a command's time goes", "Counters").
 * <p>
 * An option the command does not take, an option without its value and a value that does not parse stop it (exit 2)
 * with a message naming the option, before it connects ({@link CommandLineOptions}).
 * <p>
 * Thread safety: one thread (a command-line tool).
 */
public final class NodeControlCli
{
    private static final String USAGE = "usage: node status --outbound HOST:PORT[,HOST:PORT...] [--risk-stream N] " +
        "[--count N]\n" +
        "       node latency [--data DIR] [--count N]\n" +
        "       node counters [--data DIR]\n" +
        "       common: [--aeron-dir DIR] [--timeout-ms N]";

    /** A command-line tool waiting for the network: a millisecond between polls is plenty. */
    private static final IdleStrategy IDLE = new SleepingMillisIdleStrategy(1);

    private final PrintStream out;
    private final PrintStream err;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final EngineStatusDecoder status = new EngineStatusDecoder();

    /**
     * @param out where results go.
     * @param err where problems go.
     */
    public NodeControlCli(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * @param args command and options.
     */
    public static void main(final String[] args)
    {
        System.exit(new NodeControlCli(System.out, System.err).run(args));
    }

    /**
     * Run one command (tools and tests call this; {@link #main} exits with its result).
     *
     * @param args command and options.
     * @return 0 done, 1 failed (the reason on err), 2 bad usage.
     */
    public int run(final String[] args)
    {
        if (args.length == 0 || !(args[0].equals("status") || args[0].equals("latency") ||
            args[0].equals("counters")))
        {
            err.println(USAGE);
            return 2;
        }
        if (args[0].equals("latency") || args[0].equals("counters"))
        {
            return latency(args);
        }
        final Command command;
        try
        {
            command = new Command(args);
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        try
        {
            return withAeron(command.aeronDirectory, (aeron) -> status(aeron, command));
        }
        catch (final IllegalArgumentException ex)
        {
            // Aeron's refusal of a channel built from --outbound
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
    }

    private int status(final Aeron aeron, final Command command)
    {
        final String[] nodes = command.outbound.split(",");
        return nodes.length == 1 ? nodeStatus(aeron, command) : clusterStatus(aeron, command, nodes);
    }

    private int nodeStatus(final Aeron aeron, final Command command)
    {
        final int count = command.count;
        final long deadline = System.nanoTime() + command.timeoutNs;
        try (Subscription statuses = subscribeStatus(aeron, command.outbound, command.riskStream))
        {
            final int[] printed = { 0 };
            while (printed[0] < count && System.nanoTime() < deadline)
            {
                if (pollStatus(statuses, (line) ->
                {
                    out.println(line);
                    printed[0]++;
                }) == 0)
                {
                    IDLE.idle();
                }
            }
            if (printed[0] < count)
            {
                err.println("no EngineStatus from " + command.outbound + " within the timeout");
                return 1;
            }
            return 0;
        }
    }

    /**
     * Every member's next status, one line each, and a summary: which member leads which term, and how far each is
     * behind the most advanced (the commit lag). Members not heard from within the timeout are named; exit 1 if no
     * member leads.
     */
    private int clusterStatus(final Aeron aeron, final Command command, final String[] nodes)
    {
        final long deadline = System.nanoTime() + command.timeoutNs;
        final String[] lines = new String[nodes.length];
        final long[] committed = new long[nodes.length];
        final long[] epochs = new long[nodes.length];
        final NodeRole[] roles = new NodeRole[nodes.length];
        final int[] ids = new int[nodes.length];
        final Subscription[] statuses = new Subscription[nodes.length];
        try
        {
            for (int i = 0; i < nodes.length; i++)
            {
                statuses[i] = subscribeStatus(aeron, nodes[i].trim(), command.riskStream);
            }
            int heard = 0;
            while (heard < nodes.length && System.nanoTime() < deadline)
            {
                int work = 0;
                for (int i = 0; i < nodes.length; i++)
                {
                    if (null != lines[i])
                    {
                        continue;
                    }
                    final int member = i;
                    work += pollStatus(statuses[i], (line) ->
                    {
                        lines[member] = line;
                        committed[member] = status.replicationSequence();
                        epochs[member] = status.epoch();
                        roles[member] = status.role();
                        ids[member] = status.nodeId();
                    });
                    heard += null == lines[i] ? 0 : 1;
                }
                if (work == 0)
                {
                    IDLE.idle();
                }
            }
        }
        finally
        {
            CloseHelper.closeAll(statuses);
        }
        long highest = 0;
        int leader = -1;
        for (int i = 0; i < nodes.length; i++)
        {
            if (null != lines[i])
            {
                highest = Math.max(highest, committed[i]);
                leader = roles[i] == NodeRole.PRIMARY && (leader < 0 || epochs[i] > epochs[leader]) ? i : leader;
            }
        }
        for (int i = 0; i < nodes.length; i++)
        {
            out.println(null == lines[i] ? nodes[i].trim() + ": no status within the timeout (down, or unreachable)" :
                lines[i] + " lag=" + (highest - committed[i]));
        }
        if (leader < 0)
        {
            out.println("no member leads: no majority of the members can reach each other, or an election is on");
            return 1;
        }
        out.println("leader: node " + ids[leader] + ", term " + epochs[leader]);
        return 0;
    }

    /**
     * {@code latency [--data DIR] [--count N]}: each hop's latency of the node's last status interval, read from its
     * counters file ({@code DIR/counters.dat}, DIR the parent of the node's journal directory, {@code data} by
     * default), once a second for N lines; or {@code counters [--data DIR]}: every counter of that file.
     */
    private int latency(final String[] args)
    {
        final Path directory;
        final int count;
        try
        {
            final CommandLineOptions options = CommandLineOptions.parse(args[0],
                Arrays.asList(args).subList(1, args.length), args[0].equals("counters") ? Set.of("--data") :
                Set.of("--data", "--count"), Set.of());
            options.requirePositionals(0, "options only");
            directory = Path.of(options.string("--data", "data"));
            count = args[0].equals("counters") ? 1 : options.intValue("--count", 1, 1);
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (!Files.isRegularFile(directory.resolve(NodeCounters.FILE_NAME)))
        {
            err.println("no " + NodeCounters.FILE_NAME + " in " + directory.toAbsolutePath() +
                " (--data: the directory holding the node's journal directory)");
            return 1;
        }
        final CountersReader counters = NodeCounters.reader(directory);
        if (args[0].equals("counters"))
        {
            counters.forEach((counterId, label) -> out.println(label + " " + counters.getCounterValue(counterId)));
            return 0;
        }
        for (int line = 0; line < count; line++)
        {
            if (line > 0)
            {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
            out.println(latencyLine(counters));
        }
        return 0;
    }

    /**
     * @return "journal p50=.. p99=.. max=.. n=.. | replication ... | ..." in microseconds, hops without commands
     * left out.
     */
    static String latencyLine(final CountersReader counters)
    {
        final java.util.Map<String, Long> values = new java.util.HashMap<>();
        counters.forEach((counterId, label) -> values.put(label, counters.getCounterValue(counterId)));
        final StringBuilder line = new StringBuilder("stage latency, last status interval (us):");
        boolean any = false;
        for (final StageTrace.Hop hop : StageTrace.Hop.values())
        {
            final long n = values.getOrDefault(StageTrace.COUNTER_PREFIXES[3] + hop.label(), 0L);
            if (n == 0)
            {
                continue;
            }
            any = true;
            line.append(' ').append(hop.label())
                .append(" p50=").append(micros(values.get(StageTrace.COUNTER_PREFIXES[0] + hop.label())))
                .append(" p99=").append(micros(values.get(StageTrace.COUNTER_PREFIXES[1] + hop.label())))
                .append(" max=").append(micros(values.get(StageTrace.COUNTER_PREFIXES[2] + hop.label())))
                .append(" n=").append(n).append(';');
        }
        return any ? line.substring(0, line.length() - 1) : line.append(" no commands").toString();
    }

    private static String micros(final long nanos)
    {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1000.0);
    }

    private Subscription subscribeStatus(final Aeron aeron, final String outbound, final int riskStream)
    {
        return aeron.addSubscription(
            "aeron:udp?endpoint=localhost:0|control=" + outbound + "|control-mode=dynamic", riskStream);
    }

    private static String replicated(final long replicationSequence)
    {
        return replicationSequence == EngineStatusDecoder.replicationSequenceNullValue() ? "off" :
            Long.toString(replicationSequence);
    }

    private int pollStatus(final Subscription statuses, final Consumer<String> onStatus)
    {
        return statuses.poll((buffer, offset, length, frame) ->
        {
            header.wrap(buffer, offset);
            if (header.schemaId() == EngineStatusDecoder.SCHEMA_ID &&
                header.templateId() == EngineStatusDecoder.TEMPLATE_ID)
            {
                status.wrapAndApplyHeader(buffer, offset, header);
                onStatus.accept("node=" + status.nodeId() + " role=" + status.role() + " epoch=" + status.epoch() +
                    " journal=" + status.journalSequence() + " replicated=" + replicated(status.replicationSequence()) +
                    " processed=" + status.processorSequence() + " stateHash=" +
                    Long.toHexString(status.stateHash()));
            }
        }, 16);
    }

    /**
     * Run the command with an Aeron client: on the running media driver in {@code aeronDirectory}, or on one embedded
     * for the command's life (in a directory of its own, deleted after), through the common bootstrap whose error
     * handler logs instead of exiting the JVM.
     */
    private static int withAeron(final String aeronDirectory, final ToIntFunction<Aeron> command)
    {
        Path driverDir = null;
        try
        {
            if (null == aeronDirectory)
            {
                driverDir = Files.createTempDirectory("ringex-node-cli");
            }
            try (AeronBootstrap bootstrap = null == aeronDirectory ?
                AeronBootstrap.launchEmbedded("ringex-node-cli", driverDir.resolve("aeron").toString(), null, null,
                null) :
                AeronBootstrap.connect("ringex-node-cli", aeronDirectory, 0, null))
            {
                return command.applyAsInt(bootstrap.aeron());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            if (null != driverDir)
            {
                IoUtil.delete(driverDir.toFile(), true);
            }
        }
    }

    /** A command line, read whole before anything connects. */
    private static final class Command
    {
        private static final Set<String> STATUS_OPTIONS = Set.of(
            "--outbound", "--risk-stream", "--count", "--aeron-dir", "--timeout-ms");

        final String aeronDirectory;
        final long timeoutNs;
        final String outbound;
        final int riskStream;
        final int count;

        Command(final String[] args)
        {
            final CommandLineOptions options = CommandLineOptions.parse(args[0],
                Arrays.asList(args).subList(1, args.length), STATUS_OPTIONS, Set.of());
            options.requirePositionals(0, "options only");
            aeronDirectory = options.string("--aeron-dir", null);
            timeoutNs = TimeUnit.MILLISECONDS.toNanos(options.longValue("--timeout-ms", 10_000, 1));
            outbound = options.required("--outbound");
            riskStream = options.intValue("--risk-stream", 1004, 1);
            count = options.intValue("--count", 1, 1);
        }
    }
}
