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
        encoder.operatorName("op").reason("");
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, length));

        final int countOffset = MessageHeaderEncoder.ENCODED_LENGTH + SetLimitsEncoder.BLOCK_LENGTH + 2;
        buffer.putShort(countOffset, (short)claimedEntries);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, length));
    }

    @Test
    void aChangeWrittenBeforeVersion4IsWholeWithoutItsOperatorAndReasonAndOneOfVersion4NeedsThem()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final SetLimitsEncoder encoder = new SetLimitsEncoder()
            .wrapAndApplyHeader(buffer, 0, header)
            .requestId(1).accountId(2).maxOrderQuantity(3).maxOrderNotional(4).creditLimit(5)
            .defaultPositionLimit(6).maxOpenOrders(7).allowShort(io.ringex.protocol.codecs.BooleanType.FALSE);
        encoder.positionLimitsCount(1).next().instrumentId(9).positionLimit(10);
        final int withoutAudit = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();

        // What version 3 wrote: the group, nothing after it.
        header.version(3);
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, withoutAudit));
        // The same bytes claiming version 4 lack the operator and reason.
        header.version(4);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, withoutAudit));

        encoder.operatorName("alice").reason("new desk");
        final int withAudit = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        assertEquals(RejectReason.NONE, validator.validate(buffer, 0, withAudit));
        // Version 3 did not have them: trailing bytes.
        header.version(3);
        assertEquals(RejectReason.MALFORMED, validator.validate(buffer, 0, withAudit));
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
