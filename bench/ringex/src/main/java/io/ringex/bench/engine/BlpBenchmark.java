package io.ringex.bench.engine;

import io.ringex.bench.workload.WorkloadFile;
import io.ringex.engine.processor.BusinessLogicProcessor;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;

/**
 * "BLP alone": the business-logic processor on the calling thread, replaying a workload file's commands pre-encoded
 * as SBE in one off-heap buffer ({@link WorkloadEncoder}), its events encoded into a scratch slot and only counted
 * ({@link TallyingEventSink}). No ring, no journal, no other thread.
 * <p>
 * Each pass starts from a fresh processor: preamble and prefill untimed, then the timed commands, with
 * {@code onEndOfBatch} every {@code --batch} commands (a ring hands the processor batches; 64 by default). Passes
 * 1..N-1 are warm-up for passes that follow; the RESULT reports the last throughput pass. Then one more fresh pass
 * times every command with {@code System.nanoTime()} around {@code onCommand} (plus the end of batch when it falls
 * there) into an HdrHistogram: the timing itself costs about two nanoTime calls per command, which is measured and
 * printed ({@code nanoTimeNs}), and the throughput of that pass is printed too ({@code timedMcps}).
 * <p>
 * {@code cpuMcps} divides by the thread's CPU time instead of wall time: on a shared, oversubscribed machine the
 * thread is descheduled for much of the wall time, and this shows what the processor does per second it runs.
 * <pre>
 * java ${ringex.jvm.flags} -Xms2g -Xmx2g -cp ... io.ringex.bench.engine.BlpBenchmark --workload FILE \
 *     [--passes 2] [--batch 64] [--latency-out FILE]
 * </pre>
 * Prints {@code RESULT impl=ringex-blp ... mcps=...} and the refusals by reason (expected none).
 */
public final class BlpBenchmark
{
    private BlpBenchmark()
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
        final int passes = options.integer("--passes", 2);
        final int batch = options.integer("--batch", 64);
        final String latencyOut = options.string("--latency-out", null);

        final WorkloadEncoder.Encoded encoded;
        final int instruments;
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
            instruments = file.instruments();
        }
        final int expectedOrders = Math.max(1 << 16, Integer.highestOneBit(encoded.prefill().count()) * 4);
        final long timed = encoded.timed().count();

        final double[] mcps = new double[passes];
        final double[] cpuMcps = new double[passes];
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        EventTally tally = null;
        long stateHash = 0;
        for (int pass = 0; pass < passes; pass++)
        {
            tally = new EventTally();
            final BusinessLogicProcessor processor = setUp(encoded, tally, expectedOrders);
            // Quiesce the heap before the clock, as both sides' harnesses do: else the garbage of the passes
            // before starts G1's concurrent marking inside a timed one, on one of the machine's two cores.
            System.gc();
            final long startCpu = threads.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            replay(processor, encoded.timed(), encoded.preamble().count() + encoded.prefill().count(), batch);
            final long ns = System.nanoTime() - start;
            mcps[pass] = timed * 1_000.0 / ns;
            cpuMcps[pass] = timed * 1_000.0 / Math.max(1, threads.getCurrentThreadCpuTime() - startCpu);
            final long hash = processor.stateHash();
            System.out.printf(Locale.ROOT, "pass=%d commands=%d ms=%.1f mcps=%.3f cpuMcps=%.3f events=%d " +
                "rejects=%d stateHash=%016x errors=%d%n", pass, timed, ns / 1e6, mcps[pass], cpuMcps[pass],
                tally.events(), tally.rejects(), hash, processor.errorCount());
            if (pass > 0 && hash != stateHash)
            {
                throw new IllegalStateException("state hash differs between passes: not deterministic");
            }
            stateHash = hash;
        }

        final EventTally latencyTally = new EventTally();
        final BusinessLogicProcessor processor = setUp(encoded, latencyTally, expectedOrders);
        final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
        final long start = System.nanoTime();
        replayTimed(processor, encoded.timed(), encoded.preamble().count() + encoded.prefill().count(), batch,
            histogram);
        final double timedMcps = timed * 1_000.0 / (System.nanoTime() - start);
        Percentiles.write(histogram, latencyOut);

        System.out.println("REJECTS " + tally.rejectSummary());
        System.out.println("EVENTS " + tally.templateSummary());
        System.out.printf(Locale.ROOT, "RESULT impl=ringex-blp instruments=%d commands=%d passes=%d batch=%d " +
            "mcps=%.3f cpuMcps=%.3f perPass=%s rejects=%d events=%d timedMcps=%.3f nanoTimeNs=%.1f %s%n",
            instruments, timed, passes, batch, mcps[passes - 1], cpuMcps[passes - 1], perPass(mcps), tally.rejects(),
            tally.events(), timedMcps,
            nanoTimeCostNs(), Percentiles.summary(histogram));
    }

    private static BusinessLogicProcessor setUp(
        final WorkloadEncoder.Encoded encoded, final EventTally tally, final int expectedOrders)
    {
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(
            new TallyingEventSink(1 << 16, tally), expectedOrders, Throwable::printStackTrace);
        replay(processor, encoded.preamble(), 0, 1);
        replay(processor, encoded.prefill(), encoded.preamble().count(), 1024);
        if (tally.rejects() != 0)
        {
            throw new IllegalStateException("preamble or prefill refused: " + tally.rejectSummary());
        }
        tally.reset();
        return processor;
    }

    private static void replay(
        final BusinessLogicProcessor processor, final EncodedCommands commands, final long firstIndex,
        final int batch)
    {
        final org.agrona.concurrent.UnsafeBuffer buffer = commands.buffer();
        final int limit = commands.limit();
        long sequence = firstIndex;
        int inBatch = 0;
        for (int frame = 0; frame < limit; frame = commands.next(frame))
        {
            sequence++;
            processor.onCommand(sequence, sequence, commands.sourceId(frame), buffer,
                EncodedCommands.messageOffset(frame), commands.length(frame));
            if (++inBatch == batch)
            {
                processor.onEndOfBatch();
                inBatch = 0;
            }
        }
        processor.onEndOfBatch();
    }

    private static void replayTimed(
        final BusinessLogicProcessor processor, final EncodedCommands commands, final long firstIndex,
        final int batch, final Histogram histogram)
    {
        final org.agrona.concurrent.UnsafeBuffer buffer = commands.buffer();
        final int limit = commands.limit();
        long sequence = firstIndex;
        int inBatch = 0;
        for (int frame = 0; frame < limit; frame = commands.next(frame))
        {
            sequence++;
            final long t0 = System.nanoTime();
            processor.onCommand(sequence, sequence, commands.sourceId(frame), buffer,
                EncodedCommands.messageOffset(frame), commands.length(frame));
            if (++inBatch == batch)
            {
                processor.onEndOfBatch();
                inBatch = 0;
            }
            histogram.recordValue(System.nanoTime() - t0);
        }
        processor.onEndOfBatch();
    }

    private static double nanoTimeCostNs()
    {
        long sink = 0;
        final int n = 2_000_000;
        final long start = System.nanoTime();
        for (int i = 0; i < n; i++)
        {
            sink += System.nanoTime();
        }
        final long ns = System.nanoTime() - start;
        return sink == 42 ? -1 : (double)ns / n;
    }

    static String perPass(final double[] values)
    {
        final StringBuilder out = new StringBuilder();
        for (final double v : values)
        {
            out.append(out.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", v));
        }
        return out.toString();
    }
}
