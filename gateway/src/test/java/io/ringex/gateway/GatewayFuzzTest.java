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
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

/**
 * Fuzzing the two places client bytes enter the gateway: the SBE checks ({@link CommandChecker}) and the FIX
 * translation ({@link FixFields} + {@link FixCommandTranslator}). Properties: no exception escapes; every refusal
 * carries a reason (and, for FIX, a text); everything accepted is a well-formed SBE command whose fields hold the
 * invariants the engine relies on.
 * <p>
 * The cases come from QuickTheories (the count is each test's {@code withExamples}). A failing case is shrunk and
 * its report ends with {@code Seed was N}; {@code -DQT_SEED=N} replays it, e.g.
 * {@code mvn -B -o test -pl gateway -am -Dtest=GatewayFuzzTest#rawFixBytesNeverEscape
 * -Dsurefire.failIfNoSpecifiedTests=false -DQT_SEED=N}.
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

    @Test
    void randomBytesNeverEscapeTheSbeChecks()
    {
        qt().withExamples(2000)
            .forAll(bytes(200))
            .checkAssert((bytes) -> checkSbe(new UnsafeBuffer(bytes), bytes.length));
    }

    @Test
    void mutatedValidMessagesAreRejectedOrStillValid()
    {
        qt().withExamples(1500)
            .forAll(integers().between(0, 3), lists().of(integers().between(0, 79)).ofSizeBetween(0, 6),
                lists().of(oneByte()).ofSizeBetween(0, 6), integers().between(-8, 8))
            .checkAssert(this::mutatedValidMessagesAreRejectedOrStillValid);
    }

    private void mutatedValidMessagesAreRejectedOrStillValid(
        final int kind, final List<Integer> positions, final List<Byte> values, final int lengthDelta)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final int length = validMessage(kind, buffer);
        for (int i = 0; i < Math.min(positions.size(), values.size()); i++)
        {
            buffer.putByte(positions.get(i), values.get(i));
        }
        checkSbe(buffer, Math.max(0, Math.min(buffer.capacity(), length + lengthDelta)));
    }

    @Test
    void anyByteAtAnyOffsetOfAValidMessage()
    {
        qt().withExamples(1500)
            .forAll(integers().between(0, 3), integers().between(0, 90), oneByte())
            .checkAssert((kind, position, value) ->
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
                final int length = validMessage(kind, buffer);
                buffer.putByte(Math.min(position, length - 1), value);
                checkSbe(buffer, length);
            });
    }

    private static int validMessage(final int kind, final UnsafeBuffer buffer)
    {
        return switch (kind)
        {
            case 0 -> SbeMessages.newOrder(buffer, 100, 10125, 10);
            case 1 -> SbeMessages.cancel(buffer, 100, "X", 0);
            case 2 -> SbeMessages.replace(buffer, 100, 5, 5);
            default -> SbeMessages.massCancel(buffer, 100);
        };
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

    private static Gen<String> fixValues()
    {
        return Generate.oneOf(
            arbitrary().pick("", "0", "1", "2", "3", "4", "6", "7", "-1", "1.5", "101.25", "101.255", "0.0001",
                "1e3", "BTC-USD", "ETH-USD", "NOPE", "100", "101", "200", "99999999999999999999", ".", "1.",
                ".5", "+3", "ABCDEFGHIJKLMNOPQRST", "ABCDEFGHIJKLMNOPQRSTU", " ", "é"),
            strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 25),
            // Latin-1 too: the message is ISO-8859-1, where most of the plane above becomes '?'.
            strings().betweenCodePoints(0, 0xFF).ofLengthBetween(0, 25),
            strings().betweenCodePoints('0', '9').ofLengthBetween(0, 22),
            decimalsOfScale6());
    }

    /** -1e6 to 1e9 with six decimals; half the draws below a random power of ten, where the tick checks bite. */
    private static Gen<String> decimalsOfScale6()
    {
        final long min = -1_000_000_000_000L;
        final long max = 1_000_000_000_000_000L;
        final Gen<Long> small = integers().between(0, 15).flatMap((digits) ->
        {
            final long bound = (long)Math.pow(10, digits);
            return longs().between(Math.max(min, -bound), Math.min(max, bound));
        });
        return longs().between(min, max).mix(small).map((micros) -> BigDecimal.valueOf(micros, 6).toPlainString());
    }

    private static Gen<String> fixMessages()
    {
        final Gen<Integer> tags = arbitrary().pick(1, 11, 18, 37, 38, 40, 41, 44, 54, 55, 59, 530);
        final Gen<String> field = tags.zip(fixValues(), (tag, v) -> tag + "=" + v.replace('\u0001', ' ') + "\u0001");
        return lists().of(field).ofSizeBetween(0, 12).map((list) -> String.join("", list));
    }

    private static Gen<Character> msgTypes()
    {
        return arbitrary().pick('D', 'F', 'G', 'q', 'x');
    }

    private static Gen<byte[]> bytes(final int maxLength)
    {
        return Generate.byteArrays(integers().between(0, maxLength), oneByte());
    }

    private static Gen<Byte> oneByte()
    {
        return Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte)0);
    }

    @Test
    void fixTranslationNeverThrowsAndAlwaysGivesAReason()
    {
        qt().withExamples(2000)
            .forAll(fixMessages(), msgTypes())
            .checkAssert(this::fixTranslationNeverThrowsAndAlwaysGivesAReason);
    }

    private void fixTranslationNeverThrowsAndAlwaysGivesAReason(final String body, final char msgType)
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

    @Test
    void rawFixBytesNeverEscape()
    {
        qt().withExamples(1500)
            .forAll(bytes(300), msgTypes())
            .checkAssert((bytes, msgType) ->
            {
                fields.scan(new UnsafeBuffer(bytes), 0, bytes.length);
                assertNotNull(translator.translate(fields, msgType, TestUsers.ALICE, 5, instruments, out));
            });
    }
}
