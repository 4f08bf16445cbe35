package io.ringex.engine.processor;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Reads the little-endian fields of a command's root block at the schema's fixed offsets, with ONE bounds check for
 * the block instead of one per field (the reading side of {@link FixedFieldWriter}).
 * <p>
 * Why: the generated SBE decoders check bounds, and with Agrona's default also the field access order, on every
 * field read; the processor reads about ten fields of each order command. The offsets come from the generated
 * decoders' {@code *EncodingOffset()} constants, so the values are exactly what the decoder returns; a field added in
 * a later schema version is read only when the message's block length (its version's) holds it ({@link
 * #blockLength()}). The ingress's {@code MessageValidator} has checked the block length; the check here only keeps
 * the reads inside the buffer.
 * <p>
 * Threading: single business-logic thread; one reader per processor, wrapped on one command at a time.
 */
final class CommandReader
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final long ARRAY_BASE = BufferUtil.ARRAY_BASE_OFFSET;

    private byte[] array;
    private long address;
    private int blockLength;

    /**
     * @param buffer      holding the command.
     * @param offset      where its root block starts (after the message header).
     * @param blockLength the block length as written (the version's): every field read lies within it.
     * @return this.
     */
    CommandReader wrap(final DirectBuffer buffer, final int offset, final int blockLength)
    {
        buffer.boundsCheck(offset, blockLength);
        this.blockLength = blockLength;
        array = buffer.byteArray();
        address = buffer.addressOffset() + offset;
        return this;
    }

    /** @return the block length it was wrapped with: a field added in a later version lies within it or not. */
    int blockLength()
    {
        return blockLength;
    }

    long getLong(final int field)
    {
        final long value = UnsafeApi.getLong(array, address + field);
        return NATIVE_LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    int getInt(final int field)
    {
        final int value = UnsafeApi.getInt(array, address + field);
        return NATIVE_LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }

    /** A uint8 field (an enum's raw value), as the decoders' {@code *Raw()} return it. */
    short getUnsignedByte(final int field)
    {
        return (short)(UnsafeApi.getByte(array, address + field) & 0xFF);
    }

    /**
     * Copy a 20-byte id field (client order id).
     *
     * @param field its offset in the block.
     * @param dst   20 bytes.
     */
    void getId20(final int field, final byte[] dst)
    {
        if (dst.length != 20)
        {
            throw new IllegalArgumentException("id of " + dst.length + " bytes, expected 20");
        }
        UnsafeApi.putLong(dst, ARRAY_BASE, UnsafeApi.getLong(array, address + field));
        UnsafeApi.putLong(dst, ARRAY_BASE + 8, UnsafeApi.getLong(array, address + field + 8));
        UnsafeApi.putInt(dst, ARRAY_BASE + 16, UnsafeApi.getInt(array, address + field + 16));
    }
}
