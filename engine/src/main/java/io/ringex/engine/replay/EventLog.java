package io.ringex.engine.replay;

import io.ringex.engine.processor.EventSink;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

/**
 * The events of the command being replayed: an {@link EventSink} that keeps what the processor wrote since the last
 * {@link #clear()}, indexed by offset and length, so a replay tool can read the events command by command. Once grown
 * it allocates nothing.
 * <p>
 * Threading: the replaying thread.
 */
public final class EventLog implements EventSink
{
    private static final int MAX_EVENT_LENGTH = 64 * 1024;

    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1 << 16);
    private int[] offsets = new int[64];
    private int[] lengths = new int[64];
    private int count;
    private int position;
    private int claimed = -1;

    /** {@inheritDoc} */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** {@inheritDoc} */
    public int claim(final int maxLength)
    {
        buffer.checkLimit(position + maxLength);
        claimed = position;
        return position;
    }

    /** {@inheritDoc} */
    public void commit(final int length)
    {
        if (count == offsets.length)
        {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        offsets[count] = claimed;
        lengths[count] = length;
        count++;
        position = claimed + length;
        claimed = -1;
    }

    /** {@inheritDoc} */
    public int maxEventLength()
    {
        return MAX_EVENT_LENGTH;
    }

    /** Forget the events kept so far; the storage is reused. */
    public void clear()
    {
        count = 0;
        position = 0;
    }

    /** @return events kept since the last {@link #clear()}. */
    public int count()
    {
        return count;
    }

    /** @return the buffer the events are in (valid until the next command). */
    public DirectBuffer events()
    {
        return buffer;
    }

    /**
     * @param index event index, 0 first.
     * @return where the event (SBE header included) starts.
     */
    public int offset(final int index)
    {
        return offsets[index];
    }

    /**
     * @param index event index.
     * @return its length, header included.
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @param index event index.
     * @return its SBE template id.
     */
    public int templateId(final int index)
    {
        return buffer.getShort(offsets[index] + MessageHeaderDecoder.templateIdEncodingOffset()) & 0xFFFF;
    }

    /**
     * A 64-bit digest of the events kept, bytes and boundaries: two builds that wrote the same events for a command
     * give the same digest.
     *
     * @param seed the digest so far (chain commands by passing the previous digest).
     * @return the digest.
     */
    public long digest(final long seed)
    {
        long hash = seed ^ count;
        for (int i = 0; i < count; i++)
        {
            hash = Digests.mix(hash, lengths[i]);
            hash = Digests.mixBytes(hash, buffer, offsets[i], lengths[i]);
        }
        return hash;
    }
}
