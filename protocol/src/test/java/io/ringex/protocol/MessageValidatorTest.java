package io.ringex.protocol;

import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsEncoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class MessageValidatorTest
{
    private final MessageValidator validator = new MessageValidator(1024);

    @Property(tries = 2000)
    void arbitraryBytesNeverThrowAndAreNeverMistakenForAGroupedMessage(
        @ForAll @Size(max = 300) final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        assertNotNull(validator.validate(buffer, 0, bytes.length));
    }

    @Property(tries = 500)
    void aGroupCountPointingPastTheEndIsMalformed(@ForAll @IntRange(min = 1, max = 65535) final int claimedEntries)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SetLimitsEncoder encoder = new SetLimitsEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(1).accountId(2).maxOrderQuantity(3).maxOrderNotional(4).creditLimit(5)
            .defaultPositionLimit(6).maxOpenOrders(7).allowShort(io.ringex.protocol.codecs.BooleanType.FALSE);
        encoder.positionLimitsCount(0);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length));

        final int countOffset = MessageHeaderEncoder.ENCODED_LENGTH + SetLimitsEncoder.BLOCK_LENGTH + 2;
        buffer.putShort(countOffset, (short)claimedEntries);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length));
    }

    @Test
    void validNewOrderPassesAndEveryShorterPrefixIsMalformed()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final NewOrderEncoder encoder = new NewOrderEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder());
        encoder.sessionId(1).accountId(2).clientOrderId("A1").instrumentId(3);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + NewOrderEncoder.BLOCK_LENGTH;

        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length));
        for (int prefix = 0; prefix < length; prefix++)
        {
            assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, prefix), "prefix " + prefix);
        }
    }

    @Test
    void offsetOrLengthOutsideTheBufferIsMalformed()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 60, 16));
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, -1, 16));
    }
}
