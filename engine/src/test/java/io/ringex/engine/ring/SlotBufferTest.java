package io.ringex.engine.ring;

import java.nio.ByteOrder;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlotBufferTest
{
    private static final int LENGTH = 64;

    private final SlotBuffer unchecked = new SlotBuffer(BufferUtil.allocateDirectAligned(LENGTH, 64));
    private final UnsafeBuffer checked = new UnsafeBuffer(unchecked.byteBuffer());

    @Test
    void writesAndReadsTheSameBytesAsAgronasBufferInEitherOrder()
    {
        for (final ByteOrder order : new ByteOrder[]{ ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN })
        {
            unchecked.putLong(0, 0x0102030405060708L, order);
            unchecked.putInt(8, 0x0A0B0C0D, order);
            unchecked.putShort(12, (short)0x0E0F, order);
            unchecked.putByte(14, (byte)-3);
            assertEquals(0x0102030405060708L, checked.getLong(0, order));
            assertEquals(0x0A0B0C0D, checked.getInt(8, order));
            assertEquals((short)0x0E0F, checked.getShort(12, order));
            assertEquals((byte)-3, checked.getByte(14));

            checked.putLong(16, -42L, order);
            checked.putInt(24, Integer.MIN_VALUE, order);
            checked.putShort(28, Short.MAX_VALUE, order);
            assertEquals(-42L, unchecked.getLong(16, order));
            assertEquals(Integer.MIN_VALUE, unchecked.getInt(24, order));
            assertEquals(Short.MAX_VALUE, unchecked.getShort(28, order));
        }
        unchecked.putLong(LENGTH - Long.BYTES, 7L);
        assertEquals(7L, unchecked.getLong(LENGTH - Long.BYTES));
        assertEquals(7L, checked.getLong(LENGTH - Long.BYTES));
    }

    @Test
    void checksEveryAccessWhereAssertionsAreOn()
    {
        // the tests run with assertions enabled: an access that strays is caught here, never skipped
        boolean assertionsOn = false;
        assert assertionsOn = true;
        assertTrue(assertionsOn, "the build runs tests with -ea");
        assertThrows(IndexOutOfBoundsException.class, () -> unchecked.getLong(LENGTH - Long.BYTES + 1));
        assertThrows(IndexOutOfBoundsException.class, () -> unchecked.putInt(-1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> unchecked.getShort(LENGTH - 1));
        assertThrows(IndexOutOfBoundsException.class, () -> unchecked.putByte(LENGTH, (byte)1));
    }

    @Test
    void aRingBuiltUncheckedHandsItsStagesTheUncheckedBuffer()
    {
        try (Ring ring = Ring.builder().capacity(8).slotLength(64).uncheckedSlots().build();
            Ring plain = Ring.builder().capacity(8).slotLength(64).build())
        {
            assertTrue(ring.buffer() instanceof SlotBuffer);
            assertEquals(UnsafeBuffer.class, plain.buffer().getClass());
        }
    }
}
