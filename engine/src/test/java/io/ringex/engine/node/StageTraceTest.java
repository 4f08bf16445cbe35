package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-stage trace counts each command once per hop it took, only commands the ingress stamped, and publishes the
 * interval's figures to the counters an operator reads. Latency values come from the real clock, so only their
 * counts and order are checked here, never a duration.
 */
class StageTraceTest
{
    private static final int CAPACITY = 8;
    private static final long FIRST_COMMAND = 101;

    @TempDir
    Path dir;

    private final UnsafeBuffer inputSlots = new UnsafeBuffer(new byte[CAPACITY * 64]);
    private final UnsafeBuffer outputSlot = new UnsafeBuffer(new byte[64]);
    private final List<Long> passed = new ArrayList<>();
    private final SlotHandler handler = (buffer, slotOffset, sequence, endOfBatch) -> passed.add(sequence);

    @Test
    void eachHopCountsEachCommandTheIngressStampedOnceAndTheCountersShowTheInterval() throws Exception
    {
        try (NodeCounters counters = new NodeCounters(dir))
        {
            final StageTrace trace = new StageTrace(CAPACITY, new SequenceBase(FIRST_COMMAND), counters);
            final SlotHandler journal = trace.journaled(handler);
            final SlotHandler replication = trace.replicated(handler);
            final SlotHandler publishers = trace.published(handler);

            // Ring sequences 0..2: 0 and 1 from the ingress, 2 from another producer (a standby's replicated command).
            trace.received(0, System.nanoTime());
            trace.received(1, System.nanoTime());
            for (long s = 0; s <= 2; s++)
            {
                journal.onSlot(inputSlots, 0, s, s == 2);
                replication.onSlot(inputSlots, 0, s, s == 2);
            }
            for (long s = 0; s <= 2; s++)
            {
                trace.processed(s, System.nanoTime());
            }
            assertEquals(List.of(0L, 0L, 1L, 1L, 2L, 2L), passed, "the stages' own handlers saw every slot");

            // Command 0 makes two events, command 1 one; then a refresh event carrying command 1's sequence again.
            publish(publishers, 0, false);
            publish(publishers, 0, false);
            publish(publishers, 1, true);
            publish(publishers, 1, true);
            trace.report();

            final Map<StageTrace.Hop, Histogram> totals = trace.totals();
            assertEquals(2, totals.get(StageTrace.Hop.JOURNAL).getTotalCount());
            assertEquals(2, totals.get(StageTrace.Hop.REPLICATION).getTotalCount());
            assertEquals(2, totals.get(StageTrace.Hop.PROCESSOR).getTotalCount());
            assertEquals(2, totals.get(StageTrace.Hop.PUBLISHERS).getTotalCount(), "once per command, not event");
            assertEquals(2, totals.get(StageTrace.Hop.TOTAL).getTotalCount());
            assertTrue(totals.get(StageTrace.Hop.TOTAL).getMaxValue() >=
                totals.get(StageTrace.Hop.JOURNAL).getMinValue(), "the total spans the journal hop");

            final String line = NodeControlCli.latencyLine(NodeCounters.reader(dir));
            assertTrue(line.contains("journal p50="), line);
            assertTrue(line.contains("replication p50="), line);
            assertTrue(line.contains("publishers p50="), line);
            assertTrue(line.contains("total p50=") && line.endsWith("n=2"), line);

            // The next interval: nothing new, so the counters say so; the totals keep what was recorded.
            trace.report();
            assertTrue(NodeControlCli.latencyLine(NodeCounters.reader(dir)).endsWith("no commands"));
            assertEquals(2, trace.totals().get(StageTrace.Hop.TOTAL).getTotalCount());
            trace.resetTotals();
            assertEquals(0, trace.totals().get(StageTrace.Hop.TOTAL).getTotalCount());
        }
    }

    @Test
    void aSlotReusedByTheIngressAfterTheRingWrappedIsMeasuredAsTheNewCommand() throws Exception
    {
        final StageTrace trace = new StageTrace(CAPACITY, new SequenceBase(FIRST_COMMAND), null);
        final SlotHandler journal = trace.journaled(handler);
        final SlotHandler publishers = trace.published(handler);
        for (long s = 0; s < CAPACITY + 1; s++)
        {
            trace.received(s, System.nanoTime());
            journal.onSlot(inputSlots, 0, s, true);
            trace.processed(s, System.nanoTime());
        }
        // Command 0's entry now holds ring sequence CAPACITY: a publisher a whole ring behind skips command 0.
        publish(publishers, 0, true);
        publish(publishers, CAPACITY, true);
        trace.report();
        assertEquals(CAPACITY + 1, trace.totals().get(StageTrace.Hop.JOURNAL).getTotalCount());
        assertEquals(1, trace.totals().get(StageTrace.Hop.PUBLISHERS).getTotalCount());
    }

    private void publish(final SlotHandler publishers, final long ringSequence, final boolean endOfBatch)
        throws Exception
    {
        outputSlot.putLong(SlotDescriptor.SOURCE_ID_OFFSET, FIRST_COMMAND + ringSequence);
        publishers.onSlot(outputSlot, 0, 0, endOfBatch);
    }
}
