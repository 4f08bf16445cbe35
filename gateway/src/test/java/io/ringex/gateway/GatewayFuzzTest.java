package io.ringex.gateway;

import io.ringex.gateway.fix.FixCommandTranslator;
import io.ringex.gateway.fix.FixFields;
import io.ringex.gateway.sbe.CommandChecker;
import io.ringex.gateway.sbe.SbeMessages;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the two places client bytes enter the gateway: the SBE checks ({@link CommandChecker}) and the FIX
 * translation ({@link FixFields} + {@link FixCommandTranslator}). Properties: no exception escapes; every refusal
 * carries a reason (and, for FIX, a text); everything accepted is a well-formed SBE command whose fields hold the
 * invariants the engine relies on.
 */
class GatewayFuzzTest
{
    private static final int MAX = 1024;

    private final CommandChecker checker = new CommandChecker(MAX);
    private final FixCommandTranslator translator = new FixCommandTranslator();
    private final FixFields fields = new FixFields();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);

    GatewayFuzzTest()
    {
        instruments.put(1, "BTC-USD", 2);
        instruments.put(2, "ETH-USD", 4);
    }

    // ---------------------------------------------------------------- SBE

    @Property(tries = 2000)
    void randomBytesNeverEscapeTheSbeChecks(@ForAll @Size(max = 200) final byte[] bytes)
    {
        checkSbe(new UnsafeBuffer(bytes), bytes.length);
    }

    @Property(tries = 1500)
    void mutatedValidMessagesAreRejectedOrStillValid(
        @ForAll @IntRange(min = 0, max = 3) final int kind,
        @ForAll @Size(max = 6) final List<@IntRange(min = 0, max = 79) Integer> positions,
        @ForAll @Size(max = 6) final List<Byte> values,
        @ForAll @IntRange(min = -8, max = 8) final int lengthDelta)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final int length = switch (kind)
        {
            case 0 -> SbeMessages.newOrder(buffer, 100, 10125, 10);
            case 1 -> SbeMessages.cancel(buffer, 100, "X", 0);
            case 2 -> SbeMessages.replace(buffer, 100, 5, 5);
            default -> SbeMessages.massCancel(buffer, 100);
        };
        for (int i = 0; i < Math.min(positions.size(), values.size()); i++)
        {
            buffer.putByte(positions.get(i), values.get(i));
        }
        checkSbe(buffer, Math.max(0, Math.min(buffer.capacity(), length + lengthDelta)));
    }

    @Property(tries = 1500)
    void anyByteAtAnyOffsetOfAValidMessage(
        @ForAll @IntRange(min = 0, max = 3) final int kind,
        @ForAll @IntRange(min = 0, max = 90) final int position,
        @ForAll final byte value)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final int length = switch (kind)
        {
            case 0 -> SbeMessages.newOrder(buffer, 100, 10125, 10);
            case 1 -> SbeMessages.cancel(buffer, 100, "X", 0);
            case 2 -> SbeMessages.replace(buffer, 100, 5, 5);
            default -> SbeMessages.massCancel(buffer, 100);
        };
        buffer.putByte(Math.min(position, length - 1), value);
        checkSbe(buffer, length);
    }

    private void checkSbe(final UnsafeBuffer buffer, final int length)
    {
        final RejectReason structural = checker.validate(buffer, 0, length);
        assertNotNull(structural);
        if (structural != RejectReason.NONE)
        {
            return;
        }
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        final int templateId = header.templateId();
        if (templateId < 10 || templateId > 13)
        {
            return; // session messages are the agent's
        }
        final RejectReason reason = checker.check(TestUsers.ALICE, buffer, 0);
        assertNotNull(reason);
        if (reason == RejectReason.NONE && templateId == NewOrderDecoder.TEMPLATE_ID)
        {
            final NewOrderDecoder d = new NewOrderDecoder().wrap(buffer, 8, header.blockLength(), header.version());
            assertTrue(TestUsers.ALICE.mayTrade(d.accountId()));
            assertTrue(d.quantity() > 0);
            assertNotEquals(Side.NULL_VAL, d.side());
            assertTrue(d.orderType() == OrderType.MARKET || d.price() > 0);
            assertNotNull(d.timeInForce());
            assertNotNull(d.selfTradePrevention());
            assertNotNull(d.postOnly());
        }
    }

    // ---------------------------------------------------------------- FIX

    @Provide
    Arbitrary<String> fixValues()
    {
        return Arbitraries.oneOf(
            Arbitraries.of("", "0", "1", "2", "3", "4", "6", "7", "-1", "1.5", "101.25", "101.255", "0.0001",
                "1e3", "BTC-USD", "ETH-USD", "NOPE", "100", "101", "200", "99999999999999999999", ".", "1.",
                ".5", "+3", "ABCDEFGHIJKLMNOPQRST", "ABCDEFGHIJKLMNOPQRSTU", " ", "é"),
            Arbitraries.strings().ofMaxLength(25),
            Arbitraries.strings().numeric().ofMaxLength(22),
            Arbitraries.bigDecimals().between(new java.math.BigDecimal("-1e6"), new java.math.BigDecimal("1e9"))
                .ofScale(6).map(java.math.BigDecimal::toPlainString));
    }

    @Provide
    Arbitrary<String> fixMessages()
    {
        final Arbitrary<Integer> tags = Arbitraries.of(1, 11, 18, 37, 38, 40, 41, 44, 54, 55, 59, 530);
        final Arbitrary<String> field = Combinators.combine(tags, fixValues())
            .as((tag, v) -> tag + "=" + v.replace('\u0001', ' ') + "\u0001");
        return field.list().ofMaxSize(12).map(list -> String.join("", list));
    }

    @Property(tries = 2000)
    void fixTranslationNeverThrowsAndAlwaysGivesAReason(
        @ForAll("fixMessages") final String body,
        @ForAll("msgTypes") final char msgType)
    {
        final byte[] bytes = ("35=" + msgType + "\u0001" + body).getBytes(StandardCharsets.ISO_8859_1);
        fields.scan(new UnsafeBuffer(bytes), 0, bytes.length);
        final RejectReason reason = translator.translate(fields, msgType, TestUsers.ALICE, 5, instruments, out);
        assertNotNull(reason);
        if (reason != RejectReason.NONE)
        {
            assertFalse(translator.text().isEmpty(), "a reason text for " + reason);
            return;
        }
        assertEquals(RejectReason.NONE, new MessageValidator(MAX).validate(out, 0, translator.encodedLength()));
        if (msgType == 'D')
        {
            final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(out, 0);
            final NewOrderDecoder d = new NewOrderDecoder().wrap(out, 8, header.blockLength(), header.version());
            assertTrue(d.quantity() > 0);
            assertTrue(TestUsers.ALICE.mayTrade(d.accountId()));
            final String clOrdId = fields.value(FixFields.CL_ORD_ID).toString();
            assertTrue(clOrdId.length() >= 1 && clOrdId.length() <= NewOrderEncoder.clientOrderIdLength());
            if (d.orderType() == OrderType.LIMIT)
            {
                final int scale = instruments.priceScale(d.instrumentId());
                assertEquals(FixedPoint.parse(fields.value(FixFields.PRICE), scale), d.price(), "exact, not rounded");
                assertTrue(d.price() > 0);
            }
        }
    }

    @Provide
    Arbitrary<Character> msgTypes()
    {
        return Arbitraries.of('D', 'F', 'G', 'q', 'x');
    }

    @Property(tries = 1500)
    void rawFixBytesNeverEscape(@ForAll @Size(max = 300) final byte[] bytes, @ForAll("msgTypes") final char msgType)
    {
        fields.scan(new UnsafeBuffer(bytes), 0, bytes.length);
        final RejectReason reason = translator.translate(fields, msgType, TestUsers.ALICE, 5, instruments, out);
        assertNotNull(reason);
    }
}
