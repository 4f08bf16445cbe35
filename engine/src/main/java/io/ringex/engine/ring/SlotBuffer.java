package io.ringex.engine.ring;

import static org.agrona.BufferUtil.NATIVE_BYTE_ORDER;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A ring's slot memory read and written without Agrona's per-access bounds check, for a ring whose every byte its
 * own process wrote ({@link Ring.Builder#uncheckedSlots()}): the ring proves a slot's place once (a slot offset is
 * {@code (sequence & mask) * slotLength}, always inside the buffer), and its handlers keep to their slot.
 * <p>
 * Only the scalar accessors handlers use per field (8, 16, 32 and 64-bit integers) skip the check; bulk copies,
 * atomic and ordered accesses keep Agrona's. With assertions enabled (the tests) every skipped check is made anyway,
 * so a handler that strays fails there rather than in production. A ring carrying bytes from outside (a client's
 * message whose lengths may lie) keeps Agrona's checks: its decoders must fail loudly on a bad length.
 * <p>
 * Threading: as {@link UnsafeBuffer}. It is never re-wrapped.
 */
final class SlotBuffer extends UnsafeBuffer
{
    SlotBuffer(final ByteBuffer buffer)
    {
        super(buffer);
    }

    /**
     * {@inheritDoc}
     */
    public long getLong(final int index)
    {
        assert inside(index, Long.BYTES);
        return UnsafeApi.getLong(addressOffset() + index);
    }

    /**
     * {@inheritDoc}
     */
    public long getLong(final int index, final ByteOrder byteOrder)
    {
        final long bits = getLong(index);
        return NATIVE_BYTE_ORDER == byteOrder ? bits : Long.reverseBytes(bits);
    }

    /**
     * {@inheritDoc}
     */
    public void putLong(final int index, final long value)
    {
        assert inside(index, Long.BYTES);
        UnsafeApi.putLong(addressOffset() + index, value);
    }

    /**
     * {@inheritDoc}
     */
    public void putLong(final int index, final long value, final ByteOrder byteOrder)
    {
        putLong(index, NATIVE_BYTE_ORDER == byteOrder ? value : Long.reverseBytes(value));
    }

    /**
     * {@inheritDoc}
     */
    public int getInt(final int index)
    {
        assert inside(index, Integer.BYTES);
        return UnsafeApi.getInt(addressOffset() + index);
    }

    /**
     * {@inheritDoc}
     */
    public int getInt(final int index, final ByteOrder byteOrder)
    {
        final int bits = getInt(index);
        return NATIVE_BYTE_ORDER == byteOrder ? bits : Integer.reverseBytes(bits);
    }

    /**
     * {@inheritDoc}
     */
    public void putInt(final int index, final int value)
    {
        assert inside(index, Integer.BYTES);
        UnsafeApi.putInt(addressOffset() + index, value);
    }

    /**
     * {@inheritDoc}
     */
    public void putInt(final int index, final int value, final ByteOrder byteOrder)
    {
        putInt(index, NATIVE_BYTE_ORDER == byteOrder ? value : Integer.reverseBytes(value));
    }

    /**
     * {@inheritDoc}
     */
    public short getShort(final int index)
    {
        assert inside(index, Short.BYTES);
        return UnsafeApi.getShort(addressOffset() + index);
    }

    /**
     * {@inheritDoc}
     */
    public short getShort(final int index, final ByteOrder byteOrder)
    {
        final short bits = getShort(index);
        return NATIVE_BYTE_ORDER == byteOrder ? bits : Short.reverseBytes(bits);
    }

    /**
     * {@inheritDoc}
     */
    public void putShort(final int index, final short value)
    {
        assert inside(index, Short.BYTES);
        UnsafeApi.putShort(addressOffset() + index, value);
    }

    /**
     * {@inheritDoc}
     */
    public void putShort(final int index, final short value, final ByteOrder byteOrder)
    {
        putShort(index, NATIVE_BYTE_ORDER == byteOrder ? value : Short.reverseBytes(value));
    }

    /**
     * {@inheritDoc}
     */
    public byte getByte(final int index)
    {
        assert inside(index, Byte.BYTES);
        return UnsafeApi.getByte(addressOffset() + index);
    }

    /**
     * {@inheritDoc}
     */
    public void putByte(final int index, final byte value)
    {
        assert inside(index, Byte.BYTES);
        UnsafeApi.putByte(addressOffset() + index, value);
    }

    private boolean inside(final int index, final int length)
    {
        if (index < 0 || index > capacity() - length)
        {
            throw new IndexOutOfBoundsException(
                "index=" + index + " length=" + length + " outside the ring's " + capacity() + " bytes");
        }
        return true;
    }
}
