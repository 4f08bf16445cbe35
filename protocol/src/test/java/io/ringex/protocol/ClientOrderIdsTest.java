package io.ringex.protocol;

import io.ringex.protocol.codecs.NewOrderEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientOrderIdsTest
{
    private final UnsafeBuffer field = new UnsafeBuffer(new byte[ClientOrderIds.MAX_LENGTH]);

    private boolean sbe(final byte... bytes)
    {
        field.setMemory(0, field.capacity(), (byte)0);
        field.putBytes(0, bytes);
        return ClientOrderIds.isValid(field, 0, field.capacity());
    }

    @Test
    void theLengthIsTheSchemaLength()
    {
        assertEquals(NewOrderEncoder.clientOrderIdLength(), ClientOrderIds.MAX_LENGTH);
    }

    @ParameterizedTest
    @ValueSource(strings = { "A", "ord-1", "!", "~", "ABCDEFGHIJKLMNOPQRST", "12345678901234567890", "a.b/c:d|e" })
    void validIdsPassInBothForms(final String id)
    {
        assertTrue(ClientOrderIds.isValid(id), id);
        assertTrue(sbe(id.getBytes(StandardCharsets.US_ASCII)), id);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "ABCDEFGHIJKLMNOPQRSTU", " A", "A B", "A\t", "\u0002", "A\u007F", "\u00e9", "A\u0000B",
        "\u0001" })
    void invalidTextIdsFail(final String id)
    {
        assertFalse(ClientOrderIds.isValid(id), id);
    }

    @Test
    void everyByteOutsideThePrintableRangeFailsInBothForms()
    {
        for (int b = 0; b < 256; b++)
        {
            final boolean allowed = b >= 0x21 && b <= 0x7E;
            assertEquals(allowed, ClientOrderIds.isValid(String.valueOf((char)b)), "char " + b);
            if (b != 0)
            {
                assertEquals(allowed, sbe((byte)'X', (byte)b), "byte " + b);
                assertEquals(allowed, sbe((byte)b), "leading byte " + b);
            }
        }
        assertFalse(ClientOrderIds.isValid((CharSequence)null));
    }

    @Test
    void sbePaddingMustBeZerosAfterTheFirstZero()
    {
        assertFalse(sbe(), "empty");
        assertFalse(sbe((byte)0, (byte)'A'), "hidden behind a leading zero");
        assertFalse(sbe((byte)'A', (byte)0, (byte)'B'), "hidden behind the padding");
        assertTrue(sbe((byte)'A', (byte)0, (byte)0));
        assertFalse(ClientOrderIds.isAbsent(field, 0, field.capacity()));
        field.setMemory(0, field.capacity(), (byte)0);
        assertTrue(ClientOrderIds.isAbsent(field, 0, field.capacity()));
        field.putByte(field.capacity() - 1, (byte)'Z');
        assertFalse(ClientOrderIds.isAbsent(field, 0, field.capacity()), "not absent, and not valid either");
        assertFalse(ClientOrderIds.isValid(field, 0, field.capacity()));
    }

    @Test
    void outOfBoundsFieldsAreInvalidNotAnException()
    {
        assertFalse(ClientOrderIds.isValid(field, 1, ClientOrderIds.MAX_LENGTH));
        assertFalse(ClientOrderIds.isValid(field, -1, 4));
        assertFalse(ClientOrderIds.isValid(field, 0, 0));
        assertFalse(ClientOrderIds.isValid(field, 0, ClientOrderIds.MAX_LENGTH + 1));
    }
}
