package io.ringex.journal;

import java.util.NavigableSet;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * Finds the excerpt of a sequence by binary search over the queue's indexes instead of reading every record before it:
 * a tool that starts from a snapshot at sequence 9,000,000 reads from there, not from the first record.
 * <p>
 * Good records' sequences rise with their indexes (each excerpt holds one record; a torn record is a bad excerpt,
 * passed over), so within a cycle (one queue file) the search is a plain bisection, and the cycle is the last one
 * whose first good record is at or before the sequence. Indexes of one cycle are dense from 0.
 * <p>
 * Thread safety: one thread; it owns its tailer.
 */
final class JournalSeek
{
    private final SingleChronicleQueue queue;
    private final ExcerptScanner scanner;
    private final RollCycle rollCycle;
    private long found;

    JournalSeek(final SingleChronicleQueue queue)
    {
        this.queue = queue;
        this.scanner = new ExcerptScanner(queue.createTailer());
        this.rollCycle = queue.rollCycle();
    }

    /**
     * @param sequence a sequence.
     * @return the index of the last good record whose sequence is at most {@code sequence}, or -1 if none is.
     */
    long indexAtOrBefore(final long sequence)
    {
        try
        {
            final NavigableSet<Long> cycles = queue.listCyclesBetween(queue.firstCycle(), queue.lastCycle());
            for (final Long cycleValue : cycles.descendingSet())
            {
                final int cycle = cycleValue.intValue();
                final long firstSequence = sequenceAtOrAfter(cycle, 0);
                if (firstSequence == Long.MAX_VALUE || firstSequence > sequence)
                {
                    continue;
                }
                long lo = 0;
                long hi = 1;
                while (sequenceAtOrAfter(cycle, hi) <= sequence)
                {
                    lo = hi;
                    hi *= 2;
                }
                // sequence(lo) <= target < sequence(hi) (or hi is past the cycle's end)
                while (hi - lo > 1)
                {
                    final long mid = (lo + hi) >>> 1;
                    if (sequenceAtOrAfter(cycle, mid) <= sequence)
                    {
                        lo = mid;
                    }
                    else
                    {
                        hi = mid;
                    }
                }
                return rollCycle.toIndex(cycle, lo);
            }
            return -1;
        }
        finally
        {
            scanner.close();
        }
    }

    /**
     * The sequence of the first good record at or after an index of a cycle, or {@link Long#MAX_VALUE} if there is
     * none in the cycle.
     */
    private long sequenceAtOrAfter(final int cycle, final long indexInCycle)
    {
        final ExcerptTailer tailer = scanner.tailer();
        if (!tailer.moveToIndex(rollCycle.toIndex(cycle, indexInCycle)))
        {
            return Long.MAX_VALUE;
        }
        found = Long.MAX_VALUE;
        for (int i = 0; i < 16; i++)
        {
            final long before = tailer.index();
            final ExcerptScanner.Verdict verdict = scanner.next((v, index, record) ->
            {
                if (v == ExcerptScanner.Verdict.GOOD && rollCycle.toCycle(index) == cycle)
                {
                    found = ExcerptScanner.sequence(record);
                }
            });
            if (verdict == ExcerptScanner.Verdict.END || verdict == ExcerptScanner.Verdict.GOOD ||
                rollCycle.toCycle(before) != cycle)
            {
                break;
            }
        }
        return found;
    }
}
