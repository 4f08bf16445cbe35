package io.ringex.engine.processor;

import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Writes the little-endian fields of one SBE message at fixed offsets from its start, with ONE bounds check for the
 * whole message instead of one per field.
 * <p>
 * Why: the generated SBE encoders check bounds on every field put (Agrona's default); an ExecutionReport has 25
 * fields and the processor writes about four events per command. With the checks disabled JVM-wide
 * ({@code agrona.disable.bounds.checks}) the BLP alone ran ~30% faster, but that also removes them from every other
 * buffer in the process. This keeps the check, once per event. The offsets come from the generated encoders'
 * {@code *EncodingOffset()} constants, so the bytes are exactly what the encoder would write (a test compares them).
 * <p>
 * On a big-endian platform the puts go through the buffer's little-endian accessors instead (checked per field).
 * <p>
 * Threading: single business-logic thread; one writer per encoder.
 */
final class FixedFieldWriter
{
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private byte[] array;
    private long address;
    private int offset;

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
     * @return this.
     */
    FixedFieldWriter wrap(
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final int blockLength,
        final int templateId,
        final int schemaId,
        final int version)
    {
        buffer.boundsCheck(offset, length);
        this.buffer = buffer;
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset() + offset;
        this.offset = offset;
        putShort(0, blockLength);
        putShort(2, templateId);
        putShort(4, schemaId);
        putShort(6, version);
        return this;
    }

    void putLong(final int at, final long value)
    {
        if (NATIVE_LITTLE_ENDIAN)
        {
            UnsafeApi.putLong(array, address + at, value);
        }
        else
        {
            buffer.putLong(offset + at, value, ByteOrder.LITTLE_ENDIAN);
        }
    }

    void putInt(final int at, final int value)
    {
        if (NATIVE_LITTLE_ENDIAN)
        {
            UnsafeApi.putInt(array, address + at, value);
        }
        else
        {
            buffer.putInt(offset + at, value, ByteOrder.LITTLE_ENDIAN);
        }
    }

    void putShort(final int at, final int value)
    {
        if (NATIVE_LITTLE_ENDIAN)
        {
            UnsafeApi.putShort(array, address + at, (short)value);
        }
        else
        {
            buffer.putShort(offset + at, (short)value, ByteOrder.LITTLE_ENDIAN);
        }
    }

    void putByte(final int at, final int value)
    {
        UnsafeApi.putByte(array, address + at, (byte)value);
    }

    /**
     * @param at    field offset from the message start.
     * @param bytes exactly the field's length of bytes.
     */
    void putBytes(final int at, final byte[] bytes)
    {
        UnsafeApi.copyMemory(bytes, BufferUtil.ARRAY_BASE_OFFSET, array, address + at, bytes.length);
    }
}
