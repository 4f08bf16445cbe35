package io.ringex.protocol;

import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

/**
 * The validator on arbitrary bytes and on messages that lie about their length.
 * <p>
 * The random cases come from QuickTheories, which shrinks a failing case and ends its report with
 * {@code Seed was N}; {@code -DQT_SEED=N} replays it, e.g.
 * {@code mvn -B -o test -pl protocol -Dtest=MessageValidatorTest -DQT_SEED=N}.
 */
class MessageValidatorTest
{
    private final MessageValidator validator = new MessageValidator(1024);

    @Test
    void arbitraryBytesNeverThrowAndAreNeverMistakenForAGroupedMessage()
    {
        qt().withExamples(2000)
            .forAll(Generate.byteArrays(integers().between(0, 300), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE,
                (byte)0)))
            .checkAssert((bytes) -> assertNotNull(validator.validate(new UnsafeBuffer(bytes), 0, bytes.length)));
    }

    @Test
    void aGroupCountPointingPastTheEndIsMalformed()
    {
        qt().withExamples(500)
            .forAll(integers().between(1, 65535))
            .checkAssert(this::aGroupCountPointingPastTheEndIsMalformed);
    }

    private void aGroupCountPointingPastTheEndIsMalformed(final int claimedEntries)
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
