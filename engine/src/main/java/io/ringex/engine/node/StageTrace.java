package io.ringex.engine.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Where each command's time goes inside the node: a {@link System#nanoTime()} stamp per command at each point of its
 * path (received, journaled, replicated, processed, published) and a latency histogram per {@link Hop}, which {@code
 * ./ringex node latency} reads (docs/operations.md, "Where a command's time goes").
 * <p>
 * The trace never reaches the processor's logic, which reads time only from the ring, so it cannot change what the
 * processor decides. Nothing is allocated per command (docs/architecture.md, "Inside the node").
 * <p>
 * Thread safety: {@link #received} on the input ring's producer's thread; {@link #journaled}'s and {@link
 * #replicated}'s handlers on their stages' threads; {@link #processed} on the processor's; {@link #published}'s handler
 * on the publishers'; {@link #report()} on the status agent's; {@link #totals} and {@link #resetTotals()} from any
 * thread.
 */
final class StageTrace
{
    /** A hop of a command's path through the node. */
    enum Hop
    {
        /** Received by the ingress to journaled. */
        JOURNAL("journal"),
        /** Received to replicated (only when the node replicates). */
        REPLICATION("replication"),
        /** The later of journaled and replicated to processed. */
        PROCESSOR("processor"),
        /** Processed to offered on the outbound publications. */
        PUBLISHERS("publishers"),
        /** Received to published. */
        TOTAL("total");

        private final String label;

        Hop(final String label)
        {
            this.label = label;
        }

        /**
         * @return the hop's name in counters and reports.
         */
        String label()
        {
            return label;
        }
    }

    /** Longest latency recorded; longer ones are recorded as this (a stalled node). */
    static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(60);
    /** Counters per hop, in this order: p50, p99, max (ns) and count, of the last status interval. */
    static final String[] COUNTER_PREFIXES = { "stage-latency-p50-ns: ", "stage-latency-p99-ns: ",
        "stage-latency-max-ns: ", "stage-latency-count: " };

    private static final int SIGNIFICANT_DIGITS = 2;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final Hop[] HOPS = Hop.values();

    private final int mask;
    private final SequenceBase sequences;
    private final long[] receivedNs;
    private final long[] receivedTag;
    private final long[] journaledNs;
    private final long[] replicatedNs;
    /** The processor's copy of a command's stamps for the publishers, under {@link #processedTag}. */
    private final long[] processedNs;
    private final long[] processedReceivedNs;
    private final long[] processedTag;
    private final SingleWriterRecorder[] recorders = new SingleWriterRecorder[HOPS.length];
    private final Histogram[] intervals = new Histogram[HOPS.length];
    private final Histogram[] totals = new Histogram[HOPS.length];
    private final AtomicCounter[][] counters = new AtomicCounter[HOPS.length][];
    private boolean replicating;

    /**
     * @param ringCapacity the input ring's capacity.
     * @param sequences    ring to command sequences (the output ring's events carry command sequences).
     * @param nodeCounters where each hop's figures of the last status interval are published.
     */
    StageTrace(final int ringCapacity, final SequenceBase sequences, final NodeCounters nodeCounters)
    {
        this.mask = ringCapacity - 1;
        this.sequences = sequences;
        receivedNs = new long[ringCapacity];
        receivedTag = new long[ringCapacity];
        journaledNs = new long[ringCapacity];
        replicatedNs = new long[ringCapacity];
        processedNs = new long[ringCapacity];
        processedReceivedNs = new long[ringCapacity];
        processedTag = new long[ringCapacity];
        Arrays.fill(receivedTag, -1);
        Arrays.fill(processedTag, -1);
        for (final Hop hop : HOPS)
        {
            recorders[hop.ordinal()] = new SingleWriterRecorder(1, HIGHEST_NS, SIGNIFICANT_DIGITS);
            totals[hop.ordinal()] = new Histogram(1, HIGHEST_NS, SIGNIFICANT_DIGITS);
            if (null != nodeCounters)
            {
                final AtomicCounter[] hopCounters = new AtomicCounter[COUNTER_PREFIXES.length];
                for (int i = 0; i < COUNTER_PREFIXES.length; i++)
                {
                    hopCounters[i] = nodeCounters.newCounter(COUNTER_PREFIXES[i] + hop.label());
                }
                counters[hop.ordinal()] = hopCounters;
            }
        }
    }

    /**
     * A command was put in the input ring by the ingress (before the ring's publish).
     *
     * @param sequence its ring sequence.
     * @param nowNs    when the ingress polled it ({@link System#nanoTime()}).
     */
    void received(final long sequence, final long nowNs)
    {
        final int index = (int)sequence & mask;
        receivedNs[index] = nowNs;
        receivedTag[index] = sequence;
    }

    /**
     * @param journal the journal stage's handler.
     * @return it, stamping each batch journaled.
     */
    SlotHandler journaled(final SlotHandler journal)
    {
        return new Stamping(journal, journaledNs);
    }

    /**
     * @param replication the replication stage's handler.
     * @return it, stamping each batch replicated; the processor hop then starts at the later of the two stamps.
     */
    SlotHandler replicated(final SlotHandler replication)
    {
        replicating = true;
        return new Stamping(replication, replicatedNs);
    }

    /**
     * @param publishers the output ring's publishers' handler.
     * @return it, stamping each command whose events it offered.
     */
    SlotHandler published(final SlotHandler publishers)
    {
        return new Publishing(publishers);
    }

    /**
     * The processor has applied this command, and its events are about to be published: record its journal,
     * replication and processor hops, and hand its stamps to the publishers (before its events are visible to them).
     *
     * @param sequence the command's ring sequence.
     * @param nowNs    when it was applied ({@link System#nanoTime()}).
     */
    void processed(final long sequence, final long nowNs)
    {
        final int index = (int)sequence & mask;
        if (receivedTag[index] == sequence)
        {
            final long received = receivedNs[index];
            final long journaled = journaledNs[index];
            long gate = journaled;
            recorders[Hop.JOURNAL.ordinal()].recordValue(clamp(journaled - received));
            if (replicating)
            {
                final long replicated = replicatedNs[index];
                recorders[Hop.REPLICATION.ordinal()].recordValue(clamp(replicated - received));
                gate = Math.max(gate, replicated);
            }
            recorders[Hop.PROCESSOR.ordinal()].recordValue(clamp(nowNs - gate));

            // Seqlock for the publishers: invalidate, write, then tag (release).
            LONGS.setOpaque(processedTag, index, -1L);
            VarHandle.storeStoreFence();
            processedNs[index] = nowNs;
            processedReceivedNs[index] = received;
            LONGS.setRelease(processedTag, index, sequence);
        }
    }

    /**
     * Swap each hop's interval out and publish its p50, p99, max and count to the node's counters; add it to the
     * totals. Called by the status agent once per status interval.
     */
    void report()
    {
        for (final Hop hop : HOPS)
        {
            final int i = hop.ordinal();
            final Histogram interval = recorders[i].getIntervalHistogram(intervals[i]);
            intervals[i] = interval;
            final AtomicCounter[] hopCounters = counters[i];
            if (null != hopCounters)
            {
                final boolean empty = interval.getTotalCount() == 0;
                hopCounters[0].setRelease(empty ? 0 : interval.getValueAtPercentile(50));
                hopCounters[1].setRelease(empty ? 0 : interval.getValueAtPercentile(99));
                hopCounters[2].setRelease(empty ? 0 : interval.getMaxValue());
                hopCounters[3].setRelease(interval.getTotalCount());
            }
        }
        // One step for every hop, so a reader of the totals never sees one hop's interval without the others'.
        synchronized (totals)
        {
            for (final Hop hop : HOPS)
            {
                totals[hop.ordinal()].add(intervals[hop.ordinal()]);
            }
        }
    }

    /**
     * @return a copy of each hop's histogram since the start or the last {@link #resetTotals()}, up to the last
     * {@link #report()}.
     */
    Map<Hop, Histogram> totals()
    {
        final Map<Hop, Histogram> copy = new EnumMap<>(Hop.class);
        synchronized (totals)
        {
            for (final Hop hop : HOPS)
            {
                copy.put(hop, totals[hop.ordinal()].copy());
            }
        }
        return copy;
    }

    /**
     * Forget the totals (a benchmark's warm-up).
     */
    void resetTotals()
    {
        synchronized (totals)
        {
            for (final Histogram total : totals)
            {
                total.reset();
            }
        }
    }

    private static long clamp(final long latencyNs)
    {
        return Math.max(0, Math.min(HIGHEST_NS, latencyNs));
    }

    /** Stamps every slot of a batch with the time the batch was done, before the stage releases its sequence. */
    private final class Stamping implements SlotHandler
    {
        private final SlotHandler handler;
        private final long[] stamps;
        private long batchFirst = -1;

        Stamping(final SlotHandler handler, final long[] stamps)
        {
            this.handler = handler;
            this.stamps = stamps;
        }

        public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence,
            final boolean endOfBatch) throws Exception
        {
            if (batchFirst < 0)
            {
                batchFirst = sequence;
            }
            try
            {
                handler.onSlot(buffer, slotOffset, sequence, endOfBatch);
            }
            finally
            {
                // A throw ends the batch too (the stage halts or skips): stamp what it passed and start afresh.
                if (endOfBatch)
                {
                    final long nowNs = System.nanoTime();
                    for (long s = batchFirst; s <= sequence; s++)
                    {
                        stamps[(int)s & mask] = nowNs;
                    }
                    batchFirst = -1;
                }
            }
        }
    }

    /**
     * Records PUBLISHERS and TOTAL once per command, at the end of the publishers' batch that offered its events.
     * Only a command newer than the last recorded counts: events written for no command (a late-joiner refresh)
     * carry the last command's sequence and must not record it again.
     */
    private final class Publishing implements SlotHandler
    {
        private final SlotHandler handler;
        private final LongArrayList batchCommands = new LongArrayList(1024, Long.MIN_VALUE);
        private long lastRecorded = -1;

        Publishing(final SlotHandler handler)
        {
            this.handler = handler;
        }

        public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence,
            final boolean endOfBatch) throws Exception
        {
            try
            {
                handler.onSlot(buffer, slotOffset, sequence, endOfBatch);
            }
            finally
            {
                final long ringSequence = buffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET) -
                    sequences.firstCommandSequence();
                final int n = batchCommands.size();
                final long newest = n == 0 ? lastRecorded : batchCommands.getLong(n - 1);
                if (ringSequence > newest)
                {
                    batchCommands.addLong(ringSequence);
                }
                if (endOfBatch)
                {
                    record(System.nanoTime());
                }
            }
        }

        private void record(final long nowNs)
        {
            final SingleWriterRecorder publishers = recorders[Hop.PUBLISHERS.ordinal()];
            final SingleWriterRecorder total = recorders[Hop.TOTAL.ordinal()];
            for (int i = 0, n = batchCommands.size(); i < n; i++)
            {
                final long sequence = batchCommands.getLong(i);
                final int index = (int)sequence & mask;
                if ((long)LONGS.getAcquire(processedTag, index) != sequence)
                {
                    continue;
                }
                final long processed = processedNs[index];
                final long received = processedReceivedNs[index];
                VarHandle.loadLoadFence();
                if ((long)LONGS.getOpaque(processedTag, index) != sequence)
                {
                    continue;
                }
                publishers.recordValue(clamp(nowNs - processed));
                total.recordValue(clamp(nowNs - received));
            }
            if (batchCommands.size() > 0)
            {
                lastRecorded = batchCommands.getLong(batchCommands.size() - 1);
            }
            batchCommands.clear();
        }
    }
}
