package io.ringex.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.checksum.Crc32c;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringex.journal.JournalRecordDescriptor.HEADER_LENGTH;
import static io.ringex.journal.JournalRecordDescriptor.LENGTH_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.MAX_PAYLOAD_LENGTH;
import static io.ringex.journal.JournalRecordDescriptor.SEQUENCE_OFFSET;
import static io.ringex.journal.JournalRecordDescriptor.TRAILER_LENGTH;

/**
 * Walks the excerpts of a journal and classifies each one as a good record or a bad one, with the reason. The reader
 * and the verifier share it so that both judge records by the same rules.
 * <p>
 * Thread safety: owned by one thread.
 */
final class ExcerptScanner implements AutoCloseable
{
    /** What the last {@link #next(Visitor)} found. */
    enum Verdict
    {
        /** No excerpt (yet). */
        END,
        /** A record whose length and checksum are right. */
        GOOD,
        /** Shorter than a header and trailer. */
        TOO_SHORT,
        /** The length field disagrees with the excerpt's size. */
        BAD_LENGTH,
        /** The checksum does not match. */
        BAD_CHECKSUM
    }

    /** Receives each excerpt while its bytes are mapped. */
    interface Visitor
    {
        /**
         * @param verdict what the excerpt is.
         * @param index   Chronicle index of the excerpt.
         * @param record  the record bytes (valid during the call; undefined content unless GOOD).
         */
        void onExcerpt(Verdict verdict, long index, UnsafeBuffer record);
    }

    private final ExcerptTailer tailer;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);

    ExcerptScanner(final ExcerptTailer tailer)
    {
        this.tailer = tailer;
    }

    ExcerptTailer tailer()
    {
        return tailer;
    }

    /**
     * Read the next excerpt, if any, and hand it to the visitor.
     *
     * @param visitor called once unless the verdict is END.
     * @return the verdict.
     */
    Verdict next(final Visitor visitor)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return Verdict.END;
            }
            final long index = context.index();
            final Bytes<?> bytes = context.wire().bytes();
            final long remaining = bytes.readRemaining();
            final Verdict verdict;
            if (remaining < HEADER_LENGTH + TRAILER_LENGTH || remaining > MAX_PAYLOAD_LENGTH + HEADER_LENGTH +
                TRAILER_LENGTH)
            {
                verdict = Verdict.TOO_SHORT;
                record.wrap(0, 0);
            }
            else
            {
                record.wrap(bytes.addressForRead(bytes.readPosition(), (int)remaining), (int)remaining);
                final int length = record.getInt(LENGTH_OFFSET);
                if (length < 0 || HEADER_LENGTH + length + TRAILER_LENGTH != remaining)
                {
                    verdict = Verdict.BAD_LENGTH;
                }
                else
                {
                    final int expected = Crc32c.INSTANCE.compute(record.addressOffset(), 0, HEADER_LENGTH + length);
                    verdict = expected == record.getInt(HEADER_LENGTH + length) ? Verdict.GOOD : Verdict.BAD_CHECKSUM;
                }
            }
            visitor.onExcerpt(verdict, index, record);
            return verdict;
        }
    }

    /**
     * Sequence of a GOOD record.
     *
     * @param record from the visitor.
     * @return its sequence.
     */
    static long sequence(final UnsafeBuffer record)
    {
        return record.getLong(SEQUENCE_OFFSET);
    }

    public void close()
    {
        tailer.close();
    }
}
