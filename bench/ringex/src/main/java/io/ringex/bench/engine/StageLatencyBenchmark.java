package io.ringex.bench.engine;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.client.EventBatches;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * "Where a command's time goes": an engine node in this JVM driven open loop over Aeron IPC at fixed rates, once per
 * threading profile, printing the node's per-stage latency ({@link EngineNode#stageLatencies()}) beside the client's
 * round trip and the process's CPU (docs/benchmarks.md, "Where an idle engine's time goes").
 * <pre>
 * java ${ringex.jvm.flags} -cp ... io.ringex.bench.engine.StageLatencyBenchmark --workload FILE --dir DIR \
 *     [--profiles SHARED,SHARED:nowake,DEDICATED,COMPACT] [--rates 200,10000] [--duration 10] [--warmup 3] \
 *     [--idle backoff]
 * </pre>
 */
public final class StageLatencyBenchmark
{
    private static final long SPIN_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long SETTLE_MS = 400;

    private StageLatencyBenchmark()
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
        final String[] profiles = options.string("--profiles", "SHARED,DEDICATED,COMPACT").split(",");
        final String[] rates = options.string("--rates", "200,10000").split(",");
        final int duration = options.integer("--duration", 10);
        final int warmup = options.integer("--warmup", 3);
        final String idle = options.string("--idle", "backoff");

        final WorkloadEncoder.Encoded encoded;
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
        }
        System.out.printf(Locale.ROOT, "# %d cores; profiles=%s rates=%s duration=%ds warmup=%ds idle=%s%n",
            Runtime.getRuntime().availableProcessors(), String.join(",", profiles), String.join(",", rates),
            duration, warmup, idle);
        final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        try
        {
            for (final String profile : profiles)
            {
                final Path nodeDir = dir.resolve(profile.replace(':', '-'));
                IoUtil.delete(nodeDir.toFile(), true);
                final String[] spec = profile.split(":");
                final EngineContext ctx = NodeBenchmark.context(driver, nodeDir, idle,
                    EngineContext.Threading.valueOf(spec[0])).statusIntervalNs(TimeUnit.MILLISECONDS.toNanos(100));
                for (int i = 1; i < spec.length; i++)
                {
                    if (spec[i].equals("nowake"))
                    {
                        ctx.idleWake(false);
                    }
                    else if (spec[i].startsWith("park="))
                    {
                        ctx.idleMaxParkNs(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(spec[i].substring(5))));
                    }
                    else
                    {
                        throw new IllegalArgumentException("profile " + profile + ": unknown option " + spec[i]);
                    }
                }
                try (EngineNode node = EngineNode.launch(ctx);
                    Client client = new Client(driver.aeronDirectoryName(), ctx))
                {
                    client.awaitConnected();
                    final IdleStrategy clientIdle = PipelineBenchmark.idleStrategy("backoff");
                    final Cursor cursor = new Cursor(encoded.timed());
                    client.sendAll(encoded.preamble(), clientIdle);
                    client.sendAll(encoded.prefill(), clientIdle);
                    client.awaitAnswered(node, encoded.preamble().count() + encoded.prefill().count());
                    for (final String rateText : rates)
                    {
                        final int rate = Integer.parseInt(rateText.trim());
                        client.paced(node, cursor, rate, warmup, null);
                        Thread.sleep(SETTLE_MS);
                        node.resetStageLatencies();
                        final Histogram roundTrip = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);
                        final long cpuStart = os.getProcessCpuTime();
                        final long wallStart = System.nanoTime();
                        final long sent = client.paced(node, cursor, rate, duration, roundTrip);
                        final double cpu = 100.0 * (os.getProcessCpuTime() - cpuStart) /
                            (System.nanoTime() - wallStart);
                        // Two status intervals: the node's last interval is in its totals.
                        Thread.sleep(SETTLE_MS);
                        print(profile, rate, sent, cpu, roundTrip, node.stageLatencies());
                    }
                }
            }
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
    }

    private static void print(
        final String profile, final int rate, final long sent, final double cpu, final Histogram roundTrip,
        final Map<String, Histogram> stages)
    {
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "RESULT profile=%s rate=%d sent=%d cpu=%.0f%% client-rtt p50=%.1f p99=%.1f max=%.1f n=%d", profile, rate,
            sent, cpu,
            us(roundTrip.getValueAtPercentile(50)), us(roundTrip.getValueAtPercentile(99)),
            us(roundTrip.getMaxValue()), roundTrip.getTotalCount()));
        stages.forEach((hop, histogram) ->
        {
            if (histogram.getTotalCount() > 0)
            {
                line.append(String.format(Locale.ROOT, " | %s p50=%.1f p99=%.1f max=%.1f n=%d", hop,
                    us(histogram.getValueAtPercentile(50)), us(histogram.getValueAtPercentile(99)),
                    us(histogram.getMaxValue()), histogram.getTotalCount()));
            }
        });
        System.out.println(line.append(" (us)"));
    }

    private static double us(final long ns)
    {
        return ns / 1000.0;
    }

    /** Where the next timed command is. */
    private static final class Cursor
    {
        private final EncodedCommands commands;
        private int frame;

        Cursor(final EncodedCommands commands)
        {
            this.commands = commands;
        }
    }

    /** The benchmark's client: the ingress publication, and the egress read on a thread of its own. */
    private static final class Client implements AutoCloseable
    {
        private static final int MAX_IN_FLIGHT = 1 << 20;
        private final Aeron aeron;
        private final Publication ingress;
        private final BenchAdmin admin = new BenchAdmin();
        private final Subscription egress;
        private final Thread receiver;
        private final long[] sentNs = new long[MAX_IN_FLIGHT];
        private volatile long firstSequence = Long.MAX_VALUE;
        private volatile Histogram histogram;
        private volatile long maxAnswered;
        private volatile boolean running = true;

        Client(final String aeronDirectory, final EngineContext ctx)
        {
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
            ingress = aeron.addPublication(ctx.ingressChannel(), ctx.ingressStreamId());
            egress = aeron.addSubscription(ctx.outboundChannel(), ctx.egressStreamId());
            final FragmentHandler handler = EventBatches.unpacking(
                (buffer, offset, length, header) -> onEvent(buffer, offset));
            final IdleStrategy idle = PipelineBenchmark.idleStrategy("backoff");
            receiver = new Thread(() ->
            {
                while (running)
                {
                    idle.idle(egress.poll(handler, 256));
                }
            }, "bench-egress");
            receiver.setDaemon(true);
        }

        private void onEvent(final org.agrona.DirectBuffer buffer, final int offset)
        {
            final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
                MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
            final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
            final long sequence;
            if (templateId == ExecutionReportDecoder.TEMPLATE_ID)
            {
                sequence = buffer.getLong(body + ExecutionReportDecoder.commandSequenceEncodingOffset(),
                    MessageHeaderDecoder.BYTE_ORDER);
            }
            else if (templateId == CancelRejectDecoder.TEMPLATE_ID)
            {
                sequence = buffer.getLong(body + CancelRejectDecoder.commandSequenceEncodingOffset(),
                    MessageHeaderDecoder.BYTE_ORDER);
            }
            else
            {
                return;
            }
            if (sequence <= maxAnswered)
            {
                return;
            }
            final long nowNs = System.nanoTime();
            final Histogram measuring = histogram;
            final long first = firstSequence;
            if (null != measuring && sequence >= first && sequence - first < MAX_IN_FLIGHT)
            {
                final long sent = sentNs[(int)(sequence - first)];
                if (sent != 0)
                {
                    measuring.recordValue(Math.min(nowNs - sent, measuring.getHighestTrackableValue()));
                }
            }
            maxAnswered = sequence;
        }

        void awaitConnected()
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!ingress.isConnected() || !egress.isConnected())
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("node not connected over Aeron");
                }
                Thread.yield();
            }
            receiver.start();
        }

        void sendAll(final EncodedCommands commands, final IdleStrategy idle)
        {
            for (int frame = 0; frame < commands.limit(); frame = commands.next(frame))
            {
                offer(commands, frame, idle);
            }
        }

        void awaitAnswered(final EngineNode node, final long commands) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (node.processedSequence() < commands)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("the node did not process the untimed commands");
                }
                Thread.sleep(10);
            }
        }

        /**
         * Send at {@code rate} for {@code seconds}; with a histogram, measure each command's round trip.
         *
         * @return commands sent.
         */
        long paced(final EngineNode node, final Cursor cursor, final int rate, final int seconds,
            final Histogram roundTrip) throws InterruptedException
        {
            final long count = (long)rate * seconds;
            final long periodNs = TimeUnit.SECONDS.toNanos(1) / rate;
            final IdleStrategy idle = PipelineBenchmark.idleStrategy("backoff");
            final EncodedCommands commands = cursor.commands;
            // Every command before these has been answered: the next one's sequence is the processor's next.
            awaitAnswered(node, node.processedSequence());
            final long first = node.processedSequence() + 1;
            java.util.Arrays.fill(sentNs, 0);
            firstSequence = first;
            histogram = roundTrip;
            final long start = System.nanoTime();
            long sent = 0;
            for (; sent < count && cursor.frame < commands.limit(); sent++)
            {
                final long due = start + sent * periodNs;
                long now;
                while ((now = System.nanoTime()) < due)
                {
                    if (due - now > SPIN_NS)
                    {
                        LockSupport.parkNanos(due - now - SPIN_NS);
                    }
                    else
                    {
                        Thread.onSpinWait();
                    }
                }
                if (sent < MAX_IN_FLIGHT)
                {
                    sentNs[(int)sent] = System.nanoTime();
                }
                offer(commands, cursor.frame, idle);
                cursor.frame = commands.next(cursor.frame);
            }
            if (cursor.frame >= commands.limit())
            {
                throw new IllegalStateException("the workload ran out of timed commands: generate a longer one");
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (maxAnswered < first + sent - 1 && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            histogram = null;
            return sent;
        }

        private void offer(final EncodedCommands commands, final int frame, final IdleStrategy idle)
        {
            final int commandOffset = EncodedCommands.messageOffset(frame);
            final int signedLength = admin.signIfOperator(commands.buffer(), commandOffset, commands.length(frame));
            final UnsafeBuffer buffer = signedLength > 0 ? admin.signed() : commands.buffer();
            final int offset = signedLength > 0 ? 0 : commandOffset;
            final int length = signedLength > 0 ? signedLength : commands.length(frame);
            idle.reset();
            long result;
            while ((result = ingress.offer(buffer, offset, length)) < 0)
            {
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
                {
                    throw new IllegalStateException("ingress unusable: " + Publication.errorString(result));
                }
                if (result != Publication.ADMIN_ACTION)
                {
                    idle.idle();
                }
            }
        }

        public void close()
        {
            running = false;
            try
            {
                receiver.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            CloseHelper.quietClose(aeron);
        }
    }
}
