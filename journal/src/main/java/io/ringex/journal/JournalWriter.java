package io.ringex.journal;

import java.io.File;
import java.util.concurrent.atomic.AtomicLong;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.checksum.Crc32c;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringex.journal.JournalRecordDescriptor.HEADER_LENGTH;
import static io.ringex.journal.JournalRecordDescriptor.LENGTH_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.MAX_PAYLOAD_LENGTH;
import static io.ringex.journal.JournalRecordDescriptor.SEQUENCE_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.SOURCE_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.TEMPLATE_ID_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.TIMESTAMP_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.recordLength;

/**
 * Appends records to the journal. Sequences must follow one another without gaps: a writer that is handed anything
 * else throws, because a journal with a hole cannot rebuild the state.
 * <p>
 * Each record is copied straight into the mapped queue file and checksummed there; nothing is allocated per record.
 * {@link #endOfBatch()} makes the batch as durable as the journal's {@link Journal.Durability} promises.
 * <p>
 * Thread safety: owned by one thread (the journal stage's); a {@link JournalPretoucher} on another thread reads only
 * the frontier published at each end of batch.
 */
public final class JournalWriter implements AutoCloseable
{
    private final ExcerptAppender appender;
    private final Journal.Durability durability;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);
    private final AtomicLong publishedPosition = new AtomicLong();
    private volatile File publishedFile;
    private int cycle = Integer.MIN_VALUE;
    private long endPosition;
    private long lastSequence;
    private int lastChecksum;
    private boolean dirty;

    JournalWriter(final ExcerptAppender appender, final Journal.Durability durability, final long lastSequence)
    {
        this.appender = appender;
        this.durability = durability;
        this.lastSequence = lastSequence;
    }

    /**
     * Append one record.
     *
     * @param sequence    must be {@link #lastSequence()} + 1.
     * @param timestampNs ingress time.
     * @param sourceId    source (session) id.
     * @param templateId  SBE template id of the command.
     * @param buffer      holding the command.
     * @param offset      where it starts.
     * @param length      its length, at most {@link JournalRecordDescriptor#MAX_PAYLOAD_LENGTH}.
     */
    public void append(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        if (sequence != lastSequence + 1)
        {
            throw new IllegalStateException(
                "journal gap: expected sequence " + (lastSequence + 1) + " got " + sequence);
        }
        if (length < 0 || length > MAX_PAYLOAD_LENGTH)
        {
            throw new IllegalArgumentException("payload length " + length + " outside 0.." + MAX_PAYLOAD_LENGTH);
        }

        final int recordLength = recordLength(length);
        try (DocumentContext context = appender.writingDocument())
        {
            final Bytes<?> bytes = context.wire().bytes();
            final long position = bytes.writePosition();
            bytes.ensureCapacity(position + recordLength);
            record.wrap(bytes.addressForWrite(position), recordLength);
            record.putLong(SEQUENCE_OFFSET, sequence);
            record.putLong(TIMESTAMP_OFFSET, timestampNs);
            record.putLong(SOURCE_OFFSET, sourceId);
            record.putInt(TEMPLATE_ID_OFFSET, templateId);
            record.putInt(LENGTH_OFFSET, length);
            record.putBytes(HEADER_LENGTH, buffer, offset, length);
            final int checksum = Crc32c.INSTANCE.compute(record.addressOffset(), 0, HEADER_LENGTH + length);
            record.putInt(HEADER_LENGTH + length, checksum);
            bytes.writeSkip(recordLength);
            endPosition = position + recordLength;
            lastChecksum = checksum;
        }
        lastSequence = sequence;
        dirty = true;
    }

    /**
     * End of a batch: in {@link Journal.Durability#MACHINE} mode forces the written pages to disk before returning.
     */
    public void endOfBatch()
    {
        if (dirty)
        {
            if (durability == Journal.Durability.MACHINE)
            {
                appender.sync();
            }
            publishFrontier();
        }
        dirty = false;
    }

    private void publishFrontier()
    {
        final int appenderCycle = appender.cycle();
        if (appenderCycle != cycle)
        {
            cycle = appenderCycle;
            publishedFile = appender.currentFile();
        }
        publishedPosition.lazySet(endPosition);
    }

    /**
     * Where the writer was at its last end of batch: the queue file it writes, and (below) the offset in it after the
     * batch's last record. Read by a {@link JournalPretoucher} on its own thread.
     *
     * @return the file, or null before the first batch.
     */
    File frontierFile()
    {
        return publishedFile;
    }

    long frontierPosition()
    {
        return publishedPosition.get();
    }

    /**
     * @return the Chronicle appender, for tests that check what it has synced.
     */
    ExcerptAppender appender()
    {
        return appender;
    }

    /**
     * @return the sequence of the last record appended (or known to be there when the writer was created).
     */
    public long lastSequence()
    {
        return lastSequence;
    }

    /**
     * @return the CRC-32C trailer of the last record this writer appended (0 if none yet): what
     * {@link JournalReader#lastChecksum()} reads back for that record.
     */
    public int lastChecksum()
    {
        return lastChecksum;
    }

    /**
     * Release the appender.
     */
    public void close()
    {
        appender.close();
    }
}
