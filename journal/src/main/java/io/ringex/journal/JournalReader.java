package io.ringex.journal;

import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringex.journal.JournalRecordDescriptor.HEADER_LENGTH;
import static io.ringex.journal.JournalRecordDescriptor.LENGTH_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.SOURCE_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.TEMPLATE_ID_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.TIMESTAMP_OFFSET;

/**
 * Replays journal records in sequence order and refuses to go past anything that would make the replayed state
 * differ from the live one.
 * <p>
 * Rules: a bad record (torn or corrupted) directly followed by a good record of the sequence it should have had is a
 * write that a crash tore and the restarted writer redid: it is skipped and counted ({@link #repairedRecords()}).
 * A bad record at the very end is a torn tail ({@link #tornTail()}): no command after it was ever journaled, so none
 * was ever processed. Anything else (a bad record followed by a later sequence, or a jump in sequences between good
 * records) is a gap in the middle: the reader stops with {@link #problem()} set, unless gaps were allowed, in which
 * case it reports and goes on. It never skips silently.
 * <p>
 * Thread safety: owned by one thread.
 */
public final class JournalReader implements AutoCloseable
{
    private final ExcerptScanner scanner;
    private final UnsafeBuffer payload = new UnsafeBuffer(0, 0);
    private final ExcerptScanner.Visitor visitor = this::onExcerpt;

    private JournalRecordHandler handler;
    private long fromSequence = 1;
    private long expectedSequence;
    private boolean allowGaps;
    private long pendingBadIndex = -1;
    private ExcerptScanner.Verdict pendingBadVerdict;
    private long repairedRecords;
    private long skippedGaps;
    private String problem;
    private boolean delivered;
    private int lastChecksum;

    JournalReader(final ExcerptTailer tailer)
    {
        this.scanner = new ExcerptScanner(tailer);
    }

    /**
     * Deliver only records from this sequence on; the ones before are read and checked but not delivered.
     *
     * @param sequence first sequence to deliver.
     * @return this.
     */
    public JournalReader fromSequence(final long sequence)
    {
        this.fromSequence = sequence;
        return this;
    }

    /**
     * Go on over a gap in the middle instead of stopping (operator's explicit choice; each one is still reported).
     *
     * @param allowGaps whether to go on.
     * @return this.
     */
    public JournalReader allowGaps(final boolean allowGaps)
    {
        this.allowGaps = allowGaps;
        return this;
    }

    /**
     * Read up to {@code limit} good records and hand those at or after {@link #fromSequence(long)} to the handler.
     *
     * @param handler receives the records.
     * @param limit   most records to read in this call.
     * @return how many records were read (delivered or not), 0 at the end, -1 if stopped by a problem.
     */
    public int read(final JournalRecordHandler handler, final int limit)
    {
        if (problem != null && !allowGaps)
        {
            return -1;
        }
        this.handler = handler;
        int read = 0;
        while (read < limit)
        {
            delivered = false;
            final ExcerptScanner.Verdict verdict = scanner.next(visitor);
            if (verdict == ExcerptScanner.Verdict.END)
            {
                break;
            }
            if (problem != null && !allowGaps)
            {
                return -1;
            }
            if (delivered)
            {
                read++;
            }
        }
        return read;
    }

    private void onExcerpt(final ExcerptScanner.Verdict verdict, final long index, final UnsafeBuffer record)
    {
        if (verdict != ExcerptScanner.Verdict.GOOD)
        {
            // Several bad records in a row are fine if the next good one has the expected sequence: a writer that
            // crashed more than once at the same place.
            pendingBadIndex = index;
            pendingBadVerdict = verdict;
            return;
        }

        final long sequence = ExcerptScanner.sequence(record);
        if (expectedSequence != 0 && sequence != expectedSequence)
        {
            reportGap("sequence " + sequence + " follows " + (expectedSequence - 1) + " at index " +
                Long.toHexString(index) + (pendingBadIndex >= 0 ? " after a bad record (" + pendingBadVerdict + ")" :
                ""));
            if (!allowGaps)
            {
                return;
            }
        }
        else if (pendingBadIndex >= 0)
        {
            repairedRecords++;
        }
        pendingBadIndex = -1;
        expectedSequence = sequence + 1;
        delivered = true;
        final int length = record.getInt(LENGTH_OFFSET);
        lastChecksum = record.getInt(HEADER_LENGTH + length);

        if (sequence >= fromSequence)
        {
            payload.wrap(record, HEADER_LENGTH, length);
            handler.onRecord(
                sequence,
                record.getLong(TIMESTAMP_OFFSET),
                record.getLong(SOURCE_OFFSET),
                record.getInt(TEMPLATE_ID_OFFSET),
                payload,
                0,
                length);
        }
    }

    private void reportGap(final String description)
    {
        skippedGaps++;
        if (problem == null)
        {
            problem = description;
        }
    }

    /**
     * @return the sequence the next good record should have (0 before the first).
     */
    public long expectedSequence()
    {
        return expectedSequence;
    }

    /**
     * @return sequence of the last good record read, 0 if none.
     */
    public long lastSequence()
    {
        return expectedSequence == 0 ? 0 : expectedSequence - 1;
    }

    /**
     * The CRC-32C trailer of the last good record read (delivered or not): with {@link #lastSequence()}, an identity
     * of the record that two journals can compare without shipping it. Inside the handler it is the record being
     * delivered's.
     *
     * @return the checksum, 0 if no record was read.
     */
    public int lastChecksum()
    {
        return lastChecksum;
    }

    /**
     * @return true if the excerpts read so far end with a bad record (a torn tail, if nothing follows).
     */
    public boolean tornTail()
    {
        return pendingBadIndex >= 0;
    }

    /**
     * @return bad records that the writer redid right after (torn writes a restart repaired).
     */
    public long repairedRecords()
    {
        return repairedRecords;
    }

    /**
     * @return gaps in the middle met so far.
     */
    public long gaps()
    {
        return skippedGaps;
    }

    /**
     * @return the first gap in the middle, or null.
     */
    public String problem()
    {
        return problem;
    }

    /**
     * Close the tailer.
     */
    public void close()
    {
        scanner.close();
    }
}
