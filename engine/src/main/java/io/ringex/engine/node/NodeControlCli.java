package io.ringex.engine.node;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The operator's {@code node} command: {@code ./ringex node status|promote [options]}.
 * <ul>
 *     <li>{@code status --outbound HOST:PORT [--risk-stream 1004] [--count 1]}: prints the node's next
 *     {@code EngineStatus} lines (node, role, epoch, sequences, state hash).</li>
 *     <li>{@code promote --node ID [--control HOST:PORT] [--control-stream 1020] [--epoch E] [--outbound HOST:PORT]
 *     [--risk-stream 1004]}: sends a {@code NewEpoch} to the standby's control endpoint and, with {@code --outbound},
 *     waits until that node reports itself PRIMARY (exit 0) or the timeout passes (exit 1).</li>
 * </ul>
 * Common options: {@code --aeron-dir DIR} uses a running media driver (otherwise one is embedded for the command's
 * life), {@code --timeout-ms N} (10,000). {@code HOST:PORT} are the node's {@code ringex.engine.control.channel}
 * endpoint and {@code ringex.engine.outbound.channel} control address.
 * <p>
 * Thread safety: one thread (a command-line tool).
 */
public final class NodeControlCli
{
    private static final String USAGE = "usage: node status --outbound HOST:PORT [--risk-stream N] [--count N]\n" +
        "       node promote --node ID [--control HOST:PORT] [--control-stream N] [--epoch E]" +
        " [--outbound HOST:PORT] [--risk-stream N]\n" +
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
        final Map<String, String> options = options(args);
        if (null == options || !(args[0].equals("status") || args[0].equals("promote")))
        {
            err.println(USAGE);
            return 2;
        }
        try
        {
            return withAeron(options, (aeron) -> args[0].equals("status") ? status(aeron, options) :
                promote(aeron, options));
        }
        catch (final IllegalArgumentException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
    }

    private int status(final Aeron aeron, final Map<String, String> options)
    {
        final int count = Integer.parseInt(options.getOrDefault("count", "1"));
        final long deadline = deadline(options);
        try (Subscription statuses = subscribeStatus(aeron, required(options, "outbound"), options))
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
                err.println("no EngineStatus from " + options.get("outbound") + " within the timeout");
                return 1;
            }
            return 0;
        }
    }

    private int promote(final Aeron aeron, final Map<String, String> options)
    {
        final int nodeId = Integer.parseInt(required(options, "node"));
        final String control = "aeron:udp?endpoint=" + options.getOrDefault("control", "localhost:40120");
        final int controlStream = Integer.parseInt(options.getOrDefault("control-stream", "1020"));
        final long epoch = Long.parseLong(options.getOrDefault("epoch", "0"));
        final long deadline = deadline(options);
        final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + new NewEpochEncoder()
            .wrapAndApplyHeader(request, 0, new MessageHeaderEncoder())
            .requestId(System.currentTimeMillis())
            .epoch(epoch)
            .nodeId(nodeId)
            .encodedLength();

        final String outbound = options.get("outbound");
        try (Publication publication = aeron.addPublication(control, controlStream);
            Subscription statuses = null == outbound ? null : subscribeStatus(aeron, outbound, options))
        {
            long result;
            while ((result = publication.offer(request, 0, length)) < 0)
            {
                if (System.nanoTime() > deadline || result == Publication.CLOSED)
                {
                    err.println("could not send the promotion to " + control + " stream " + controlStream + ": " +
                        Publication.errorString(result) + " (is a standby listening there?)");
                    return 1;
                }
                IDLE.idle();
            }
            out.println("promotion sent to node " + nodeId + " on " + control + " stream " + controlStream);
            if (null == statuses)
            {
                return 0;
            }
            final boolean[] promoted = { false };
            while (!promoted[0] && System.nanoTime() < deadline)
            {
                if (pollStatus(statuses, (line) ->
                {
                    if (status.nodeId() == nodeId && status.role() == NodeRole.PRIMARY)
                    {
                        out.println(line);
                        promoted[0] = true;
                    }
                }) == 0)
                {
                    IDLE.idle();
                }
            }
            if (!promoted[0])
            {
                err.println("node " + nodeId + " did not report PRIMARY within the timeout");
                return 1;
            }
            return 0;
        }
    }

    private Subscription subscribeStatus(final Aeron aeron, final String outbound, final Map<String, String> options)
    {
        final int riskStream = Integer.parseInt(options.getOrDefault("risk-stream", "1004"));
        return aeron.addSubscription(
            "aeron:udp?endpoint=localhost:0|control=" + outbound + "|control-mode=dynamic", riskStream);
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
                    " journal=" + status.journalSequence() + " replicated=" + status.replicationSequence() +
                    " processed=" + status.processorSequence() + " stateHash=" +
                    Long.toHexString(status.stateHash()));
            }
        }, 16);
    }

    private static int withAeron(
        final Map<String, String> options, final ToIntFunction<Aeron> command)
    {
        MediaDriver driver = null;
        Path driverDir = null;
        try
        {
            final Aeron.Context context = new Aeron.Context();
            if (options.containsKey("aeron-dir"))
            {
                context.aeronDirectoryName(options.get("aeron-dir"));
            }
            else
            {
                driverDir = Files.createTempDirectory("ringex-node-cli");
                driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(driverDir.toString())
                    .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
                context.aeronDirectoryName(driver.aeronDirectoryName());
            }
            try (Aeron aeron = Aeron.connect(context))
            {
                return command.applyAsInt(aeron);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            CloseHelper.quietClose(driver);
            if (null != driverDir)
            {
                IoUtil.delete(driverDir.toFile(), true);
            }
        }
    }

    private static Map<String, String> options(final String[] args)
    {
        if (args.length == 0 || (args.length & 1) == 0)
        {
            return null;
        }
        final Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i += 2)
        {
            if (!args[i].startsWith("--"))
            {
                return null;
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static String required(final Map<String, String> options, final String name)
    {
        final String value = options.get(name);
        if (null == value)
        {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private static long deadline(final Map<String, String> options)
    {
        return System.nanoTime() +
            TimeUnit.MILLISECONDS.toNanos(Long.parseLong(options.getOrDefault("timeout-ms", "10000")));
    }
}
