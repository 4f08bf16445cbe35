package io.ringex.engine.processor;

import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

/**
 * An in-memory {@link EventSink} for tests, tools and benchmarks: events are appended to one growable buffer and
 * indexed by offset and length. After {@link #clear()} the storage is reused, so a caller that clears it regularly
 * allocates nothing once it has grown.
 * <p>
 * Threading: not thread-safe; the business-logic thread writes, and reads happen on the same thread or after a
 * happens-before edge (e.g. a test reading after the processor returned).
 */
public final class CapturingEventSink implements EventSink
{
    private final ExpandableArrayBuffer buffer;
    private final int maxEventLength;
    private int[] offsets = new int[1024];
    private int[] lengths = new int[1024];
    private int count;
    private int position;
    private int claimedOffset = -1;
    private int claimedMax;

    /**
     * A sink with room for 1 MiB of events before it grows and events of at most 4 KiB.
     */
    public CapturingEventSink()
    {
        this(1 << 20, 4096);
    }

    /**
     * @param initialCapacity bytes before the buffer grows.
     * @param maxEventLength  longest event accepted.
     */
    public CapturingEventSink(final int initialCapacity, final int maxEventLength)
    {
        buffer = new ExpandableArrayBuffer(initialCapacity);
        this.maxEventLength = maxEventLength;
    }

    /** {@inheritDoc} */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** {@inheritDoc} */
    public int claim(final int maxLength)
    {
        if (claimedOffset >= 0)
        {
            throw new IllegalStateException("previous claim not committed");
        }
        if (maxLength > maxEventLength)
        {
            throw new IllegalArgumentException("claim beyond maxEventLength: " + maxLength);
        }
        buffer.checkLimit(position + maxLength);
        claimedOffset = position;
        claimedMax = maxLength;
        return position;
    }

    /** {@inheritDoc} */
    public void commit(final int length)
    {
        if (claimedOffset < 0 || length > claimedMax)
        {
            throw new IllegalStateException("commit without claim or longer than claimed");
        }
        if (count == offsets.length)
        {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        offsets[count] = claimedOffset;
        lengths[count] = length;
        count++;
        position = claimedOffset + length;
        claimedOffset = -1;
    }

    /** {@inheritDoc} */
    public int maxEventLength()
    {
        return maxEventLength;
    }

    /** Forget every event; storage is kept. */
    public void clear()
    {
        count = 0;
        position = 0;
        claimedOffset = -1;
    }

    /** @return events held. */
    public int size()
    {
        return count;
    }

    /** @return the buffer the events are in. */
    public DirectBuffer events()
    {
        return buffer;
    }

    /**
     * @param index 0..size-1.
     * @return offset of the event's header.
     */
    public int offset(final int index)
    {
        return offsets[index];
    }

    /**
     * @param index 0..size-1.
     * @return length of the event, header included.
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @param index 0..size-1.
     * @return template id of the event.
     */
    public int templateId(final int index)
    {
        return buffer.getShort(offsets[index] + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
    }

    /**
     * Copy an event out (allocates; for tests).
     *
     * @param index 0..size-1.
     * @return its bytes.
     */
    public byte[] eventBytes(final int index)
    {
        final byte[] bytes = new byte[lengths[index]];
        buffer.getBytes(offsets[index], bytes);
        return bytes;
    }
}
