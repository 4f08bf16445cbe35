package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After warm-up, a million mixed commands (orders of every kind, stops, icebergs and GTD orders included, cancels,
 * replaces, mass cancels, kill switches, end of day, deposits, epochs, phase changes with their auctions, dynamic
 * bands, Ticks), with order status and mass status queries interleaved (one per eight commands) and end-of-batch
 * risk updates, allocate nothing on the processing thread, measured
 * with {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}.
 */
final class AllocationTest
{
    private static final int WARM_UP = 200_000;
    private static final int MAX_WARM_UP_ROUNDS = 8;
    private static final int MEASURED = 1_000_000;
    private static final long SLACK_BYTES = 4096;
    private static final int MAX_ATTEMPTS = 8;

    @Test
    void steadyStateAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final CapturingEventSink sink = new CapturingEventSink(1 << 20, 4096);
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink, 1 << 14, null);
        final CommandEncoder encoder = new CommandEncoder();
        final RandomCommands commands = new RandomCommands(2024, encoder, processor, 0, 100);
        long sequence = 0;
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            processor.onCommand(++sequence, sequence, 1, encoder.buffer(), 0, commands.setupCommand(i));
        }

        // warm up until the JIT has settled: a deoptimisation materialises scalar-replaced objects, which the
        // allocation counter sees, so warm-up rounds continue until one of them allocates nothing
        final long threadId = Thread.currentThread().getId();
        for (int round = 0; round < MAX_WARM_UP_ROUNDS; round++)
        {
            final long start = threads.getThreadAllocatedBytes(threadId);
            sequence = run(processor, sink, encoder, commands, sequence, WARM_UP);
            if (threads.getThreadAllocatedBytes(threadId) - start == 0 && round > 0)
            {
                break;
            }
        }
        processor.stateHash();

        // The code allocates nothing (with -Xint the counter reads 0 for every round); in compiled mode the JIT's
        // runtime (deoptimisation, recompilation) now and then charges a few KB to the thread, for longer on a loaded
        // machine (a few KB shrinking over four runs was seen, and a best of exactly 1 KB of eight on a CI machine).
        // So the measurement is repeated up to eight times and the best run must be within the slack: a real
        // allocation (>= 16 bytes each time) on any path taken more than 256 times in the million commands exceeds
        // it in every run.
        final StringBuilder runs = new StringBuilder();
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < MAX_ATTEMPTS && best >= SLACK_BYTES; attempt++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            sequence = run(processor, sink, encoder, commands, sequence, MEASURED);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            runs.append(allocated).append(' ');
            best = Math.min(best, allocated);
        }

        assertEquals(0, processor.errorCount());
        assertTrue(processor.state().lastTradeId() > 10_000, "the flow trades");
        assertTrue(best < SLACK_BYTES, "bytes allocated per " + MEASURED + " commands, each run: " + runs);
    }

    private static long run(
        final BusinessLogicProcessor processor,
        final CapturingEventSink sink,
        final CommandEncoder encoder,
        final RandomCommands commands,
        final long start,
        final int count)
    {
        long sequence = start;
        for (int i = 0; i < count; i++)
        {
            final int length = commands.next();
            processor.onCommand(++sequence, sequence * 100, 1, encoder.buffer(), 0, length);
            if ((i & 7) == 3)
            {
                final int queryLength = commands.nextQuery();
                processor.onCommand(++sequence, sequence * 100, 1, encoder.buffer(), 0, queryLength);
            }
            if ((i & 15) == 15)
            {
                processor.onEndOfBatch();
                sink.clear();
            }
        }
        processor.onEndOfBatch();
        sink.clear();
        return sequence;
    }
}
