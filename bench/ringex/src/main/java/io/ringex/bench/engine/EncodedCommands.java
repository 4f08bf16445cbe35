package io.ringex.bench.engine;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * SBE commands encoded ahead of a timed run, back to back in one off-heap buffer, so a benchmark measures the engine
 * and not the encoding. Each command is a frame:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |               Message length, SBE header included (int32)     |  0
 *  |                      SBE template id (int32)                  |  4
 *  |        Source id (int64): session id, or 0 for admin          |  8
 *  +---------------------------------------------------------------+
 *  |                SBE message (header + body) ...               ...  16
 *  +---------------------------------------------------------------+
 * </pre>
 * Frames start on 8-byte boundaries. Walk them with {@code for (int o = 0; o < limit(); o = next(o))}.
 * <p>
 * Threading: filled by one thread; after that, read-only and safe to read from any thread that got it through a
 * happens-before edge (e.g. thread start).
 */
public final class EncodedCommands
{
    /** Offset of the message length in a frame. */
    public static final int LENGTH_OFFSET = 0;

    /** Offset of the template id in a frame. */
    public static final int TEMPLATE_ID_OFFSET = 4;

    /** Offset of the source id in a frame. */
    public static final int SOURCE_ID_OFFSET = 8;

    /** Length of the frame header; the message starts here. */
    public static final int FRAME_HEADER_LENGTH = 16;

    /** Room reserved per command when sizing from a count: header plus the longest order-entry message, aligned. */
    public static final int MAX_FRAME_LENGTH = 128;

    private final UnsafeBuffer buffer;
    private int limit;
    private int count;

    private EncodedCommands(final int capacity)
    {
        buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity, BitUtil.CACHE_LINE_LENGTH));
    }

    /**
     * @param commands how many commands will be appended (admin commands with repeating groups may need more).
     * @return an empty buffer with room for them.
     */
    public static EncodedCommands forCommands(final long commands)
    {
        final long capacity = BitUtil.align(Math.max(1, commands) * MAX_FRAME_LENGTH, BitUtil.CACHE_LINE_LENGTH);
        if (capacity > Integer.MAX_VALUE - BitUtil.CACHE_LINE_LENGTH)
        {
            throw new IllegalArgumentException("too many commands for one buffer: " + commands);
        }
        return new EncodedCommands((int)capacity);
    }

    /**
     * @param bytes room for frames, headers included (messages with repeating groups, e.g. a MassQuote of 10
     *              entries at 469 bytes, need more than {@link #MAX_FRAME_LENGTH} each).
     * @return an empty buffer of that capacity, rounded up to a cache line.
     */
    public static EncodedCommands withCapacity(final long bytes)
    {
        final long capacity = BitUtil.align(Math.max(1, bytes), BitUtil.CACHE_LINE_LENGTH);
        if (capacity > Integer.MAX_VALUE - BitUtil.CACHE_LINE_LENGTH)
        {
            throw new IllegalArgumentException("too many bytes for one buffer: " + bytes);
        }
        return new EncodedCommands((int)capacity);
    }

    /**
     * Append one encoded message.
     *
     * @param sourceId   session id, or 0 for an admin source.
     * @param templateId its SBE template id.
     * @param src        holding the message (SBE header included).
     * @param offset     where it starts.
     * @param length     its length.
     */
    public void append(final long sourceId, final int templateId, final DirectBuffer src, final int offset,
        final int length)
    {
        final int frameLength = BitUtil.align(FRAME_HEADER_LENGTH + length, BitUtil.SIZE_OF_LONG);
        if (limit + frameLength > buffer.capacity())
        {
            throw new IllegalStateException("encoded commands buffer full at " + count + " commands");
        }
        buffer.putInt(limit + LENGTH_OFFSET, length);
        buffer.putInt(limit + TEMPLATE_ID_OFFSET, templateId);
        buffer.putLong(limit + SOURCE_ID_OFFSET, sourceId);
        buffer.putBytes(limit + FRAME_HEADER_LENGTH, src, offset, length);
        limit += frameLength;
        count++;
    }

    /** @return the frames' buffer. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return one past the last frame's last byte. */
    public int limit()
    {
        return limit;
    }

    /** @return commands held. */
    public int count()
    {
        return count;
    }

    /**
     * @param frameOffset a frame's offset.
     * @return its message length.
     */
    public int length(final int frameOffset)
    {
        return buffer.getInt(frameOffset + LENGTH_OFFSET);
    }

    /**
     * @param frameOffset a frame's offset.
     * @return its template id.
     */
    public int templateId(final int frameOffset)
    {
        return buffer.getInt(frameOffset + TEMPLATE_ID_OFFSET);
    }

    /**
     * @param frameOffset a frame's offset.
     * @return its source id.
     */
    public long sourceId(final int frameOffset)
    {
        return buffer.getLong(frameOffset + SOURCE_ID_OFFSET);
    }

    /**
     * @param frameOffset a frame's offset.
     * @return where its SBE message starts.
     */
    public static int messageOffset(final int frameOffset)
    {
        return frameOffset + FRAME_HEADER_LENGTH;
    }

    /**
     * @param frameOffset a frame's offset.
     * @return the next frame's offset.
     */
    public int next(final int frameOffset)
    {
        return frameOffset + BitUtil.align(FRAME_HEADER_LENGTH + length(frameOffset), BitUtil.SIZE_OF_LONG);
    }
}
