package io.ringex.client;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import io.aeron.logbuffer.FragmentHandler;
import io.ringex.protocol.codecs.EventBatchEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a reader of the egress or risk stream is handed for a well-formed EventBatch, a malformed one, and any other
 * message. (The engine's side, over a real media driver, is the engine's OutboundStageTest.)
 */
class EventBatchesTest
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int DATA_LENGTH_AT = HEADER + EventBatchEncoder.BLOCK_LENGTH;
    private static final int FIRST_EVENT_AT = DATA_LENGTH_AT + 4;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final List<String> handed = new ArrayList<>();
    private final FragmentHandler reader = EventBatches.unpacking(
        (b, offset, length, header) -> handed.add(offset + "+" + length));

    @Test
    void eachEventOfABatchIsHandedOnAtItsOwnOffsetAndLength()
    {
        final int length = batch(12, 20, 9);

        reader.onFragment(buffer, 0, length, null);

        final int first = FIRST_EVENT_AT + 4;
        assertEquals(List.of(first + "+12", (first + 12 + 4) + "+20", (first + 12 + 4 + 20 + 4) + "+9"), handed);
    }

    @Test
    void anyOtherMessageIsHandedOnAsItIs()
    {
        new MessageHeaderEncoder().wrap(buffer, 100).blockLength(8).templateId(50).schemaId(
            MessageHeaderEncoder.SCHEMA_ID).version(MessageHeaderEncoder.SCHEMA_VERSION);

        reader.onFragment(buffer, 100, 16, null);
        reader.onFragment(buffer, 100, 3, null);

        assertEquals(List.of("100+16", "100+3"), handed);
    }

    @Test
    void aMalformedBatchIsHandedOnWholeAndNothingOfItInPart()
    {
        final int length = batch(12, 20);
        assertWhole(length, () -> buffer.putInt(HEADER, 1, ByteOrder.LITTLE_ENDIAN), "a count below 2");
        assertWhole(length, () -> buffer.putInt(HEADER, 3, ByteOrder.LITTLE_ENDIAN), "fewer events than counted");
        assertWhole(length, () -> buffer.putInt(DATA_LENGTH_AT, 1000, ByteOrder.LITTLE_ENDIAN),
            "data longer than the message");
        assertWhole(length + 4, () -> buffer.putInt(length, 0), "bytes after the data");
        assertWhole(length, () -> buffer.putInt(FIRST_EVENT_AT, 500, ByteOrder.LITTLE_ENDIAN),
            "an event past the end");
        assertWhole(length, () -> buffer.putInt(FIRST_EVENT_AT, -1, ByteOrder.LITTLE_ENDIAN),
            "a negative event length");
        assertWhole(batch(3, 8), () -> { }, "an event shorter than a message header");
        assertWhole(DATA_LENGTH_AT + 2, () -> batch(12, 20), "a message cut short");
        assertWhole(length, () -> buffer.putShort(0, (short)0, ByteOrder.LITTLE_ENDIAN), "a block too short");
    }

    private void assertWhole(final int length, final Runnable corrupt, final String what)
    {
        batch(12, 20);
        corrupt.run();
        handed.clear();
        reader.onFragment(buffer, 0, length, null);
        assertEquals(List.of("0+" + length), handed, what);
    }

    /** Write a batch at 0 of events of these lengths (each a message header, then zeros). @return its length. */
    private int batch(final int... eventLengths)
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0);
        final EventBatchEncoder batch = new EventBatchEncoder();
        batch.wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).eventCount(eventLengths.length);
        int at = FIRST_EVENT_AT;
        for (final int eventLength : eventLengths)
        {
            buffer.putInt(at, eventLength, ByteOrder.LITTLE_ENDIAN);
            at += 4 + eventLength;
        }
        buffer.putInt(DATA_LENGTH_AT, at - FIRST_EVENT_AT, ByteOrder.LITTLE_ENDIAN);
        return at;
    }
}
