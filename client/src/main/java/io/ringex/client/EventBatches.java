package io.ringex.client;

import java.nio.ByteOrder;

import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.codecs.EventBatchDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;

/**
 * Reads the engine's {@code EventBatch}: a reader of the egress or risk stream wraps its handler in one of these, and
 * the handler then sees each event of a batch as if it had come in an Aeron message of its own (same buffer, the
 * event's own offset and length, the batch's frame header); any other message is handed on as it is. The layout is
 * docs/protocol.md's ("Event batches").
 * <p>
 * A batch that breaks the layout is handed on whole, as a message its reader does not know; nothing of it is delivered
 * in part.
 * <p>
 * Thread safety: a wrapper belongs to the thread that polls with it.
 */
public final class EventBatches
{
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int TEMPLATE_ID_OFFSET = 2;
    private static final int SCHEMA_ID_OFFSET = 4;
    private static final int LENGTH_PREFIX = EventBatchDecoder.eventsHeaderLength();

    private EventBatches()
    {
    }

    /**
     * @param handler what each event goes to.
     * @return a handler that hands each event of a batch to {@code handler}, and any other message as it is.
     */
    public static FragmentHandler unpacking(final FragmentHandler handler)
    {
        return (buffer, offset, length, header) ->
        {
            final int data = batchData(buffer, offset, length);
            if (data < 0)
            {
                handler.onFragment(buffer, offset, length, header);
                return;
            }
            final int end = offset + length;
            for (int at = data; at < end; )
            {
                final int eventLength = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
                handler.onFragment(buffer, at + LENGTH_PREFIX, eventLength, header);
                at += LENGTH_PREFIX + eventLength;
            }
        };
    }

    /**
     * As {@link #unpacking(FragmentHandler)}, for a controlled poll. When the handler asks for an event again
     * ({@code ABORT}), the batch is redelivered from that event: the events before it are not handed on twice. A
     * {@code BREAK} or {@code COMMIT} is returned once the batch's last event is delivered.
     *
     * @param handler what each event goes to.
     * @return a handler that hands each event of a batch to {@code handler}, and any other message as it is.
     */
    public static ControlledFragmentHandler unpackingControlled(final ControlledFragmentHandler handler)
    {
        return new ControlledUnpacker(handler);
    }

    /**
     * @return the offset of the first event's length prefix when the message is a well-formed EventBatch of this
     * schema, else -1.
     */
    static int batchData(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER + LENGTH_PREFIX ||
            buffer.getShort(offset + TEMPLATE_ID_OFFSET, ByteOrder.LITTLE_ENDIAN) != EventBatchDecoder.TEMPLATE_ID ||
            buffer.getShort(offset + SCHEMA_ID_OFFSET, ByteOrder.LITTLE_ENDIAN) != EventBatchDecoder.SCHEMA_ID)
        {
            return -1;
        }
        final int blockLength = buffer.getShort(offset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        final int end = offset + length;
        final int dataLengthAt = offset + HEADER + blockLength;
        if (blockLength < EventBatchDecoder.BLOCK_LENGTH || dataLengthAt + LENGTH_PREFIX > end)
        {
            return -1;
        }
        final int count = buffer.getInt(offset + HEADER + EventBatchDecoder.eventCountEncodingOffset(),
            ByteOrder.LITTLE_ENDIAN);
        final long dataLength = buffer.getInt(dataLengthAt, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        final int data = dataLengthAt + LENGTH_PREFIX;
        if (count < 2 || dataLength != end - data)
        {
            return -1;
        }
        int at = data;
        for (int i = 0; i < count; i++)
        {
            if (at + LENGTH_PREFIX > end)
            {
                return -1;
            }
            final long eventLength = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
            if (eventLength < HEADER || eventLength > end - at - LENGTH_PREFIX)
            {
                return -1;
            }
            at += LENGTH_PREFIX + (int)eventLength;
        }
        return at == end ? data : -1;
    }

    /** Remembers, by image and position, how far into a batch a handler got before it asked for an event again. */
    private static final class ControlledUnpacker implements ControlledFragmentHandler
    {
        private final ControlledFragmentHandler handler;
        private int abortedSessionId;
        private long abortedPosition = -1;
        private int abortedEvent;

        ControlledUnpacker(final ControlledFragmentHandler handler)
        {
            this.handler = handler;
        }

        public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            final int data = batchData(buffer, offset, length);
            if (data < 0)
            {
                return handler.onFragment(buffer, offset, length, header);
            }
            final boolean resumed = header.position() == abortedPosition && header.sessionId() == abortedSessionId;
            final int first = resumed ? abortedEvent : 0;
            abortedPosition = -1;
            Action result = Action.CONTINUE;
            final int end = offset + length;
            int event = 0;
            for (int at = data; at < end; event++)
            {
                final int eventLength = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
                if (event >= first)
                {
                    final Action action = handler.onFragment(buffer, at + LENGTH_PREFIX, eventLength, header);
                    if (Action.ABORT == action)
                    {
                        abortedSessionId = header.sessionId();
                        abortedPosition = header.position();
                        abortedEvent = event;
                        return Action.ABORT;
                    }
                    if (Action.BREAK == action || (Action.COMMIT == action && Action.BREAK != result))
                    {
                        result = action;
                    }
                }
                at += LENGTH_PREFIX + eventLength;
            }
            return result;
        }
    }
}
