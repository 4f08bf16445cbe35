package io.ringex.engine.cluster;

import java.nio.ByteBuffer;

import io.ringex.engine.processor.EventSink;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A cluster follower's processor sink: keeps the most recent client-bound events (execution reports, cancel rejects,
 * business rejects) in a bounded off-heap window and drops the rest, so that a member coming to lead re-sends the
 * reports the old primary may never have published ({@link #republish}). Gateways drop events whose command sequence
 * they already delivered, so re-sending is safe; docs/operations.md says how to size the window. Nothing is allocated
 * per event.
 * <p>
 * Thread safety: the processor's thread only (the node's builder before it starts).
 */
public final class ReportWindow implements EventSink
{
    /**
     * Layout: a circular byte buffer (capacity a power of two) of records aligned to 8 bytes; the oldest records are
     * overwritten. A record that would not fit before the end of the buffer is preceded by a padding record filling it.
     * <pre>
     *   0                   1                   2                   3
     *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
     *  +---------------------------------------------------------------+
     *  |                 Record length, aligned (int32)                |
     *  +---------------------------------------------------------------+
     *  |            Template id, or -1 for padding (int32)             |
     *  +---------------------------------------------------------------+
     *  |                  Command sequence (int64)                     |
     *  |                                                               |
     *  +---------------------------------------------------------------+
     *  |               Command timestamp ns (int64)                    |
     *  |                                                               |
     *  +---------------------------------------------------------------+
     *  |                   Event length (int32)                        |
     *  +---------------------------------------------------------------+
     *  |                      Unused (int32)                           |
     *  +---------------------------------------------------------------+
     *  |          Event: the SBE message, header included             ...
     *  +---------------------------------------------------------------+
     * </pre>
     */
    static final int LENGTH_OFFSET = 0;
    static final int TEMPLATE_ID_OFFSET = 4;
    static final int COMMAND_SEQUENCE_OFFSET = 8;
    static final int TIMESTAMP_OFFSET = 16;
    static final int EVENT_LENGTH_OFFSET = 24;
    static final int HEADER_LENGTH = 32;
    static final int ALIGNMENT = 8;
    private static final int PADDING = -1;
    private static final int EPOCH_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH;

    private final UnsafeBuffer scratch;
    private final UnsafeBuffer window;
    private final int capacity;
    private final int mask;
    private long head;
    private long tail;
    private int count;
    private long commandSequence;
    private long timestampNs;

    /**
     * @param capacityBytes  bytes kept, rounded up to a power of two.
     * @param maxEventLength the largest event the processor may write.
     */
    public ReportWindow(final int capacityBytes, final int maxEventLength)
    {
        this.capacity = BitUtil.findNextPositivePowerOfTwo(capacityBytes);
        this.mask = capacity - 1;
        this.scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(maxEventLength));
        this.window = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
    }

    static boolean isClientBound(final int templateId)
    {
        // Not BusinessReject: it carries no commandSequence, so a gateway could not drop the copies it already sent.
        // An OrderStatusReport does: a new leader re-sends the answer to a query its predecessor sequenced.
        return templateId == ExecutionReportEncoder.TEMPLATE_ID || templateId == CancelRejectEncoder.TEMPLATE_ID ||
            templateId == io.ringex.protocol.codecs.OrderStatusReportEncoder.TEMPLATE_ID ||
            templateId == io.ringex.protocol.codecs.MassCancelReportEncoder.TEMPLATE_ID;
    }

    public void command(final long commandSequence, final long timestampNs)
    {
        this.commandSequence = commandSequence;
        this.timestampNs = timestampNs;
    }

    public MutableDirectBuffer buffer()
    {
        return scratch;
    }

    public int claim(final int maxLength)
    {
        return 0;
    }

    public void commit(final int length)
    {
        final int templateId = scratch.getShort(MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        if (isClientBound(templateId))
        {
            append(templateId, commandSequence, timestampNs, length);
        }
    }

    public int maxEventLength()
    {
        return scratch.capacity();
    }

    private void append(final int templateId, final long commandSequence, final long timestampNs, final int length)
    {
        final int recordLength = BitUtil.align(HEADER_LENGTH + length, ALIGNMENT);
        final int untilEnd = capacity - (int)(tail & mask);
        final int padding = untilEnd < recordLength ? untilEnd : 0;
        while (tail + padding + recordLength - head > capacity)
        {
            evictOldest();
        }
        if (padding > 0)
        {
            final int at = (int)(tail & mask);
            window.putInt(at + LENGTH_OFFSET, padding);
            window.putInt(at + TEMPLATE_ID_OFFSET, PADDING);
            tail += padding;
        }
        final int at = (int)(tail & mask);
        window.putInt(at + LENGTH_OFFSET, recordLength);
        window.putInt(at + TEMPLATE_ID_OFFSET, templateId);
        window.putLong(at + COMMAND_SEQUENCE_OFFSET, commandSequence);
        window.putLong(at + TIMESTAMP_OFFSET, timestampNs);
        window.putInt(at + EVENT_LENGTH_OFFSET, length);
        window.putBytes(at + HEADER_LENGTH, scratch, 0, length);
        tail += recordLength;
        count++;
    }

    private void evictOldest()
    {
        final int at = (int)(head & mask);
        if (window.getInt(at + TEMPLATE_ID_OFFSET) != PADDING)
        {
            count--;
        }
        head += window.getInt(at + LENGTH_OFFSET);
    }

    /**
     * @return events held.
     */
    int size()
    {
        return count;
    }

    /**
     * @return the command sequence of the oldest event held, or -1 if none.
     */
    public long oldestCommandSequence()
    {
        long position = head;
        while (position < tail)
        {
            final int at = (int)(position & mask);
            if (window.getInt(at + TEMPLATE_ID_OFFSET) != PADDING)
            {
                return window.getLong(at + COMMAND_SEQUENCE_OFFSET);
            }
            position += window.getInt(at + LENGTH_OFFSET);
        }
        return -1;
    }

    /**
     * Write every event held, oldest first, to the target, each stamped with the new epoch (the new primary vouches
     * for them: its state holds their commands) and told its own command; then empty the window. The caller makes
     * them visible (the output ring's publish).
     *
     * @param target the output ring's sink.
     * @param epoch  the term the member has just come to lead.
     * @return events written.
     */
    public int republish(final EventSink target, final long epoch)
    {
        int written = 0;
        while (head < tail)
        {
            final int at = (int)(head & mask);
            final int recordLength = window.getInt(at + LENGTH_OFFSET);
            final int templateId = window.getInt(at + TEMPLATE_ID_OFFSET);
            if (templateId != PADDING)
            {
                final int length = window.getInt(at + EVENT_LENGTH_OFFSET);
                target.command(window.getLong(at + COMMAND_SEQUENCE_OFFSET), window.getLong(at + TIMESTAMP_OFFSET));
                final int offset = target.claim(length);
                final MutableDirectBuffer out = target.buffer();
                out.putBytes(offset, window, at + HEADER_LENGTH, length);
                out.putLong(offset + EPOCH_OFFSET, epoch, MessageHeaderDecoder.BYTE_ORDER);
                target.commit(length);
                written++;
            }
            head += recordLength;
        }
        count = 0;
        return written;
    }
}
