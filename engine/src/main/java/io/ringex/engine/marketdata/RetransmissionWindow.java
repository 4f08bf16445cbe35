package io.ringex.engine.marketdata;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The last feed messages by channel sequence, for retransmission: a byte ring of the messages and an index ring of
 * where each starts. A message is held while both rings still have it: at most {@code maxMessages} messages and
 * {@code capacity} bytes back from the newest.
 * <pre>
 *   index[seq % maxMessages] = virtual byte position of the message (position % capacity in the byte ring)
 *   at that position: int32 length, then the message (a message never wraps: the ring skips to its start first)
 * </pre>
 * Thread safety: one thread (the recovery agent's).
 */
final class RetransmissionWindow
{
    private static final int LENGTH_PREFIX = 4;

    private final UnsafeBuffer bytes;
    private final int capacity;
    private final long[] positions;
    private final int maxMessages;
    private long writePosition;
    private long firstSequence = 1;
    private long lastSequence;

    /**
     * @param capacity    bytes held.
     * @param maxMessages messages held.
     */
    RetransmissionWindow(final int capacity, final int maxMessages)
    {
        this.bytes = new UnsafeBuffer(new byte[capacity]);
        this.capacity = capacity;
        this.positions = new long[maxMessages];
        this.maxMessages = maxMessages;
    }

    /**
     * Hold a message. Sequences come in order; one out of order (after a gap the broadcast caused) restarts the
     * window there.
     *
     * @param sequence its channel sequence.
     * @param buffer   holding it.
     * @param offset   where it starts.
     * @param length   its length.
     */
    void add(final long sequence, final DirectBuffer buffer, final int offset, final int length)
    {
        if (sequence != lastSequence + 1)
        {
            firstSequence = sequence;
        }
        final int needed = LENGTH_PREFIX + length;
        if (needed > capacity)
        {
            firstSequence = sequence + 1;
            lastSequence = sequence;
            return;
        }
        int at = (int)(writePosition % capacity);
        if (at + needed > capacity)
        {
            writePosition += capacity - at;
            at = 0;
        }
        bytes.putInt(at, length);
        bytes.putBytes(at + LENGTH_PREFIX, buffer, offset, length);
        positions[(int)(sequence % maxMessages)] = writePosition;
        writePosition += needed;
        lastSequence = sequence;
        firstSequence = Math.max(firstSequence, sequence - maxMessages + 1);
        while (firstSequence <= lastSequence && positions[(int)(firstSequence % maxMessages)] <
            writePosition - capacity)
        {
            firstSequence++;
        }
    }

    /** Forget everything (the agent lost its place in the broadcast). */
    void reset()
    {
        firstSequence = lastSequence + 1;
    }

    /** @return the oldest sequence held, or {@link #lastSequence()} + 1 when empty. */
    long firstSequence()
    {
        return firstSequence;
    }

    /** @return the newest sequence seen. */
    long lastSequence()
    {
        return lastSequence;
    }

    /**
     * @param from  first sequence.
     * @param count how many.
     * @return whether all of them are held.
     */
    boolean holds(final long from, final int count)
    {
        // No sum of a requester's numbers: from + count overflows for a from near Long.MAX_VALUE, and the range
        // would pass as held. lastSequence - from cannot overflow once from is known to lie in the window.
        return count > 0 && from >= firstSequence && from <= lastSequence && count - 1 <= lastSequence - from;
    }

    /**
     * Copy a held message.
     *
     * @param sequence  a sequence {@link #holds held}.
     * @param dst       where to.
     * @param dstOffset at.
     * @return its length.
     */
    int copy(final long sequence, final MutableDirectBuffer dst, final int dstOffset)
    {
        final int at = (int)(positions[(int)(sequence % maxMessages)] % capacity);
        final int length = bytes.getInt(at);
        dst.putBytes(dstOffset, bytes, at + LENGTH_PREFIX, length);
        return length;
    }
}
