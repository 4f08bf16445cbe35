package io.ringex.engine.processor;

import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Writes the little-endian fields of one SBE message at fixed offsets from its start, with ONE bounds check for the
 * whole message instead of one per field (docs/matching.md, "Allocation", says why).
 * <p>
 * The offsets are the generated encoders' {@code *EncodingOffset()} constants, so the bytes are what the encoder would
 * write. Usage: {@code long at = begin(buffer, offset, ...)}, then {@code putLong(array, at + fieldOffset, value)} with
 * {@code array = buffer.byteArray()}, the base and address kept in locals.
 * <p>
 * Threading: stateless; each caller writes its own message.
 */
final class FixedFieldWriter
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final int ID_LENGTH = 20;

    private FixedFieldWriter()
    {
    }

    /**
     * Start a message: check that it fits, then write its SBE message header.
     *
     * @param buffer      the sink's buffer.
     * @param offset      where the message (its header) starts.
     * @param length      the most bytes the message will take, header included.
     * @param blockLength the message's block length.
     * @param templateId  its template id.
     * @param schemaId    the schema id.
     * @param version     the schema version.
     * @return the message's address relative to {@code buffer.byteArray()}: add a field's offset to it.
     */
    static long begin(
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final int blockLength,
        final int templateId,
        final int schemaId,
        final int version)
    {
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        putShort(array, address, blockLength);
        putShort(array, address + 2, templateId);
        putShort(array, address + 4, schemaId);
        putShort(array, address + 6, version);
        return address;
    }

    static void putLong(final byte[] array, final long address, final long value)
    {
        UnsafeApi.putLong(array, address, NATIVE_LITTLE_ENDIAN ? value : Long.reverseBytes(value));
    }

    static void putInt(final byte[] array, final long address, final int value)
    {
        UnsafeApi.putInt(array, address, NATIVE_LITTLE_ENDIAN ? value : Integer.reverseBytes(value));
    }

    static void putShort(final byte[] array, final long address, final int value)
    {
        UnsafeApi.putShort(array, address, NATIVE_LITTLE_ENDIAN ? (short)value : Short.reverseBytes((short)value));
    }

    static void putByte(final byte[] array, final long address, final int value)
    {
        UnsafeApi.putByte(array, address, (byte)value);
    }

    /**
     * Copy a 20-byte id (client order id) as two longs and an int: cheaper than a general copy of 20 bytes.
     *
     * @param array   the message's base.
     * @param address where the field starts.
     * @param id      exactly 20 bytes.
     * @throws IllegalArgumentException if {@code id} is not 20 bytes long.
     */
    static void putId20(final byte[] array, final long address, final byte[] id)
    {
        if (id.length != ID_LENGTH)
        {
            throw new IllegalArgumentException("id of " + id.length + " bytes, expected " + ID_LENGTH);
        }
        final long base = BufferUtil.ARRAY_BASE_OFFSET;
        UnsafeApi.putLong(array, address, UnsafeApi.getLong(id, base));
        UnsafeApi.putLong(array, address + 8, UnsafeApi.getLong(id, base + 8));
        UnsafeApi.putInt(array, address + 16, UnsafeApi.getInt(id, base + 16));
    }
}
