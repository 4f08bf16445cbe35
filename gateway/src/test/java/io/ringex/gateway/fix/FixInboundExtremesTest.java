package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.testing.SeededRandom;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import quickfix.Message;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client FIX messages with extreme values in every field the gateway reads, through the same steps as
 * {@link FixGatewayAgent} ({@link FixFields}, {@link FixDictionaryCheck}, {@link FixCommandTranslator}) and the
 * answer it would send. Explicit tables give every numeric and enumerated field of D, F, G and q the edge texts
 * (the decimal forms of 0, 1, -1, 10^17..{@link Long#MAX_VALUE}, {@link Long#MIN_VALUE} at scales 0, 2 and 4, one
 * past the int64 range, signs, exponents, padding, control bytes); a seeded run mutates every field at once.
 * Properties: nothing throws; a message is refused at the FIX level (a Reject(3) with reason, tag and text), or by
 * the translator (a reason and a text, answered by a valid FIX message), or forwarded as a valid SBE command whose
 * price and quantity are exactly the text's value; and everything forwarded can be echoed back exactly: an engine
 * report of the command comes out of {@link FixEventTranslator} with the client's price and quantity, nothing fitted.
 */
class FixInboundExtremesTest
{
    private static final String[] MSG_TYPES = { "D", "F", "G", "q" };
    private static final int[] SCALES = { 0, 2, 4 };

    private final FixFields fields = new FixFields();
    private final FixDictionaryCheck dictionaryCheck = new FixDictionaryCheck();
    private final FixCommandTranslator translator = new FixCommandTranslator();
    private final FixEventTranslator eventTranslator = new FixEventTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
    private final UnsafeBuffer report = new UnsafeBuffer(new byte[512]);
    private final MessageValidator validator = new MessageValidator(1024);

    FixInboundExtremesTest()
    {
        instruments.put(1, "BTC-USD", 2);
        instruments.put(2, "ETH-USD", 4);
        instruments.put(3, "WHOLE", 0);
    }

    /** What the gateway did with a message. */
    enum Outcome
    {
        SESSION_REJECT,
        BUSINESS_REJECT,
        FORWARDED
    }

    private static Map<Integer, String> validBody(final String msgType)
    {
        final Map<Integer, String> body = new LinkedHashMap<>();
        body.put(11, "C2");
        if (!"D".equals(msgType) && !"q".equals(msgType))
        {
            body.put(41, "C1");
            body.put(37, "77");
        }
        body.put(1, "100");
        if ("q".equals(msgType))
        {
            body.put(530, "1");
        }
        body.put(55, "BTC-USD");
        if (!"q".equals(msgType))
        {
            body.put(54, "1");
        }
        body.put(60, "20260101-00:00:00.000");
        if ("D".equals(msgType) || "G".equals(msgType))
        {
            body.put(40, "2");
            body.put(59, "1");
            body.put(44, "101.25");
            body.put(38, "10");
        }
        return body;
    }

    /** The full message as a client would send it, BodyLength and CheckSum right. */
    private static byte[] message(final String msgType, final Map<Integer, String> body, final String extra)
    {
        final StringBuilder fieldsText = new StringBuilder();
        fieldsText.append("35=").append(msgType).append('\u0001').append("49=ALICE\u000156=RINGEX\u000134=7\u0001")
            .append("52=20260101-00:00:00.000\u0001");
        for (final Map.Entry<Integer, String> field : body.entrySet())
        {
            fieldsText.append(field.getKey()).append('=').append(field.getValue()).append('\u0001');
        }
        fieldsText.append(extra);
        final byte[] afterLength = fieldsText.toString().getBytes(StandardCharsets.ISO_8859_1);
        final byte[] head = ("8=FIX.4.4\u00019=" + afterLength.length + "\u0001").getBytes(StandardCharsets.US_ASCII);
        final byte[] message = new byte[head.length + afterLength.length + 7];
        System.arraycopy(head, 0, message, 0, head.length);
        System.arraycopy(afterLength, 0, message, head.length, afterLength.length);
        int sum = 0;
        for (int i = 0; i < head.length + afterLength.length; i++)
        {
            sum += message[i] & 0xFF;
        }
        final byte[] trailer = String.format("10=%03d\u0001", sum % 256).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(trailer, 0, message, head.length + afterLength.length, trailer.length);
        return message;
    }

    /**
     * What {@link FixGatewayAgent#onFixMessage} does, minus the session: check, translate, answer.
     */
    private Outcome process(final String msgType, final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        fields.scan(buffer, 0, bytes.length);
        final char type = msgType.length() == 1 ? msgType.charAt(0) : '?';
        final int invalid = dictionaryCheck.check(buffer, 0, bytes.length, type, fields);
        if (invalid != FixDictionaryCheck.VALID)
        {
            assertTrue(invalid >= 0 && invalid <= 17 || invalid == 99, "a FIX 4.4 SessionRejectReason: " + invalid);
            assertFalse(dictionaryCheck.text().toString().isEmpty());
            final Message reject = FixWire.encodeAndValidate(eventTranslator.sessionReject(fields, 7,
                dictionaryCheck.invalidTag(), invalid, dictionaryCheck.text()));
            assertEquals("3", FixWire.field(reject, 35));
            assertEquals("7", FixWire.field(reject, 45));
            assertEquals(Integer.toString(invalid), FixWire.field(reject, 373));
            return Outcome.SESSION_REJECT;
        }
        final RejectReason reason = translator.translate(fields, type, TestUsers.ALICE, 5, instruments, out);
        if (reason != RejectReason.NONE)
        {
            assertFalse(translator.text().isEmpty(), "a text for " + reason);
            final Message answer = FixWire.encodeAndValidate(
                eventTranslator.reject(fields, type, 7, reason, translator.text(), "UNKNOWN"));
            assertTrue(answer.toString().contains(reason.name()), answer.toString());
            return Outcome.BUSINESS_REJECT;
        }
        assertEquals(RejectReason.NONE, validator.validate(out, 0, translator.encodedLength()));
        checkForwarded(type);
        return Outcome.FORWARDED;
    }

    private void checkForwarded(final char type)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(out, 0);
        long price = 0;
        long quantity = 0;
        int instrumentId = 0;
        if (type == 'D')
        {
            final NewOrderDecoder d = new NewOrderDecoder().wrap(out, 8, header.blockLength(), header.version());
            price = d.price();
            quantity = d.quantity();
            instrumentId = d.instrumentId();
            assertTrue(TestUsers.ALICE.mayTrade(d.accountId()));
        }
        else if (type == 'G')
        {
            final ReplaceOrderDecoder d = new ReplaceOrderDecoder().wrap(out, 8, header.blockLength(),
                header.version());
            price = d.price();
            quantity = d.quantity();
            instrumentId = d.instrumentId();
        }
        if (type != 'D' && type != 'G')
        {
            return;
        }
        final int scale = instruments.priceScale(instrumentId);
        assertTrue(quantity > 0);
        assertEquals(FixedPoint.parse(fields.value(FixFields.ORDER_QTY), 0), quantity, "quantity exact");
        if (price != 0)
        {
            assertTrue(price > 0);
            assertEquals(FixedPoint.parse(fields.value(FixFields.PRICE), scale), price, "price exact");
        }

        // Echo: the engine's reject of this order goes back with the client's values, nothing fitted.
        new ExecutionReportEncoder().wrapAndApplyHeader(report, 0, new MessageHeaderEncoder())
            .epoch(1).sessionId(5).accountId(100).instrumentId(instrumentId).orderId(0).clientOrderId("C2")
            .origClientOrderId("").execType(ExecType.REJECTED).orderStatus(OrderStatus.REJECTED).side(Side.BUY)
            .orderType(price == 0 ? OrderType.MARKET : OrderType.LIMIT)
            .timeInForce(TimeInForce.GTC).price(price).quantity(quantity).leavesQuantity(0).cumulativeQuantity(0)
            .lastPrice(0).lastQuantity(0).averagePrice(0).tradeId(0).rejectReason(RejectReason.NOTIONAL_OVERFLOW)
            .cancelReason(CancelReason.NONE).transactTimeNs(0).commandSequence(1);
        final Message echo = FixWire.encodeAndValidate(eventTranslator.engineEvent(report, 0, instruments));
        assertEquals(0, eventTranslator.issues(), "nothing fitted: " + eventTranslator.issueNotes());
        assertEquals(0, new BigDecimal(FixWire.field(echo, 38)).compareTo(
            new BigDecimal(fields.value(FixFields.ORDER_QTY).toString())), "OrderQty echoed");
        if (price != 0)
        {
            assertEquals(0, new BigDecimal(FixWire.field(echo, 44)).compareTo(
                new BigDecimal(fields.value(FixFields.PRICE).toString())), "Price echoed");
        }
    }

    // ---------------------------------------------------------------- edge tables

    private static List<String> decimalEdges()
    {
        final List<String> texts = new ArrayList<>();
        for (final long value : SeededRandom.EDGE_LONGS)
        {
            for (final int scale : SCALES)
            {
                texts.add(FixedPoint.format(value, scale));
            }
        }
        texts.add("9223372036854775808");
        texts.add("-9223372036854775809");
        texts.add("99999999999999999999");
        texts.add("92233720368547758.07");
        texts.add("92233720368547758.08");
        texts.add("1000000000000000000");
        texts.add("5000000000000000000");
        texts.add("999999999999999999");
        texts.add("0.000000000000000000001");
        texts.add("00000000000000000000000000000000000001");
        texts.add("1.00000000000000000000000000");
        texts.add("+1");
        texts.add("-0");
        texts.add("1e3");
        texts.add("1E3");
        texts.add(".5");
        texts.add("5.");
        texts.add(".");
        texts.add("-");
        texts.add("1..2");
        texts.add("1.2.3");
        texts.add(" 1");
        texts.add("1 ");
        texts.add("NaN");
        texts.add("Infinity");
        texts.add("0x10");
        texts.add("\u0661");
        texts.add("1\u0002");
        texts.add("\u00ff");
        return texts;
    }

    private static List<String> integerEdges()
    {
        final List<String> texts = new ArrayList<>();
        for (final long value : SeededRandom.EDGE_LONGS)
        {
            texts.add(Long.toString(value));
        }
        texts.add("9223372036854775808");
        texts.add("18446744073709551616");
        texts.add("00000000000000000000000000100");
        texts.add("+100");
        texts.add("100.0");
        texts.add("1e2");
        texts.add("NONE");
        texts.add(" 100");
        texts.add("100\u0007");
        return texts;
    }

    private static List<String> charEdges()
    {
        final List<String> texts = new ArrayList<>();
        for (char c = ' '; c <= '~'; c++)
        {
            texts.add(String.valueOf(c));
        }
        texts.add("11");
        texts.add("12");
        texts.add("6 A");
        texts.add("\u0000");
        texts.add("\u001f");
        texts.add("\u007f");
        texts.add("\u0080");
        texts.add("\u00ff");
        return texts;
    }

    private static List<String> idEdges()
    {
        final List<String> texts = new ArrayList<>(List.of("A", "ABCDEFGHIJKLMNOPQRST", "ABCDEFGHIJKLMNOPQRSTU",
            " ", "A B", "A\tB", "\u0000", "\u0002", "\u007f", "\u0080", "\u00e9", "\u00ff", "=", "A=B", "~!",
            "9".repeat(200)));
        for (final long value : SeededRandom.EDGE_LONGS)
        {
            texts.add(Long.toString(value));
        }
        return texts;
    }

    private static List<String> timestampEdges()
    {
        return List.of("20260101-00:00:00", "20260101-00:00:00.000", "20260101-00:00:00.000000",
            "20260101-00:00:00.000000000", "20260101-23:59:60.999", "20261301-00:00:00", "20260132-00:00:00",
            "20260101-24:00:00", "20260101-00:60:00", "20260101-00:00:61", "2026010100:00:00", "20260101-00:00:00.1",
            "20260101-00:00:00.1234", "garbage", "99999999-99:99:99", "00000101-00:00:00", "20260101-00:00:00Z",
            "-9223372036854775808", "9223372036854775807");
    }

    static Stream<Arguments> everyFieldOfEveryMessage()
    {
        final List<Arguments> cases = new ArrayList<>();
        final Map<Integer, List<String>> edgesByTag = new LinkedHashMap<>();
        edgesByTag.put(38, decimalEdges());
        edgesByTag.put(44, decimalEdges());
        edgesByTag.put(1, integerEdges());
        edgesByTag.put(37, integerEdges());
        edgesByTag.put(530, charEdges());
        edgesByTag.put(54, charEdges());
        edgesByTag.put(40, charEdges());
        edgesByTag.put(59, charEdges());
        edgesByTag.put(18, charEdges());
        edgesByTag.put(11, idEdges());
        edgesByTag.put(41, idEdges());
        edgesByTag.put(55, idEdges());
        edgesByTag.put(60, timestampEdges());
        for (final String msgType : MSG_TYPES)
        {
            for (final Map.Entry<Integer, List<String>> entry : edgesByTag.entrySet())
            {
                for (final String value : entry.getValue())
                {
                    cases.add(Arguments.of(msgType, entry.getKey(), value));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}={2}")
    @MethodSource("everyFieldOfEveryMessage")
    void everyEdgeValueOfEveryFieldIsRefusedWithAReasonOrForwardedExactly(
        final String msgType, final int tag, final String value)
    {
        final Map<Integer, String> body = validBody(msgType);
        body.put(tag, value);
        final Outcome outcome = process(msgType, message(msgType, body, ""));
        if (tag == 38 || tag == 44)
        {
            final boolean read = "D".equals(msgType) || "G".equals(msgType);
            final long parsed = FixedPoint.parse(value, tag == 38 ? 0 : 2);
            if (read && outcome == Outcome.FORWARDED)
            {
                assertNotEquals(FixedPoint.INVALID, parsed);
                assertTrue(parsed > 0);
            }
        }
    }

    @Test
    void theValidBodiesAreForwarded()
    {
        for (final String msgType : MSG_TYPES)
        {
            assertEquals(Outcome.FORWARDED, process(msgType, message(msgType, validBody(msgType), "")), msgType);
        }
    }

    @Test
    void aRepeatedTagOrAMissingTransactTimeIsASessionReject()
    {
        for (final String msgType : MSG_TYPES)
        {
            for (final int tag : new int[]{ 11, 55, 60, 1 })
            {
                final Map<Integer, String> body = validBody(msgType);
                assertEquals(Outcome.SESSION_REJECT, process(msgType, message(msgType, body, tag + "=" +
                    body.get(tag) + "\u0001")), msgType + " " + tag + " twice");
                assertEquals(tag, dictionaryCheck.invalidTag());
                assertTrue(dictionaryCheck.text().toString().startsWith("Tag appears more than once"));
            }
            final Map<Integer, String> noTime = validBody(msgType);
            noTime.remove(60);
            assertEquals(Outcome.SESSION_REJECT, process(msgType, message(msgType, noTime, "")), msgType);
            assertEquals(60, dictionaryCheck.invalidTag());
            assertTrue(dictionaryCheck.text().toString().startsWith("Required tag missing"));
        }
        for (final String msgType : new String[]{ "D", "G" })
        {
            final Map<Integer, String> body = validBody(msgType);
            body.put(38, "1000000000000000000");
            assertEquals(Outcome.SESSION_REJECT, process(msgType, message(msgType, body, "")));
            assertEquals(38, dictionaryCheck.invalidTag());
            assertEquals(FixDictionaryCheck.INCORRECT_DATA_FORMAT, dictionaryCheck.check(
                new UnsafeBuffer(message(msgType, body, "")), 0, message(msgType, body, "").length,
                msgType.charAt(0), fields));
            assertEquals(Outcome.SESSION_REJECT, process(msgType, message(msgType, body, "38=10\u0001")));
        }
    }

    @Test
    void seededRandomMessagesWithEveryFieldExtreme()
    {
        final SeededRandom random = SeededRandom.forTest("seededRandomMessagesWithEveryFieldExtreme");
        final List<String> decimals = decimalEdges();
        final List<String> integers = integerEdges();
        final List<String> chars = charEdges();
        final List<String> ids = idEdges();
        final List<String> times = timestampEdges();
        final int[] outcomes = new int[Outcome.values().length];
        for (int i = 0; i < 5_000; i++)
        {
            final String msgType = random.pick(MSG_TYPES);
            final Map<Integer, String> body = validBody(msgType);
            for (final Integer tag : new ArrayList<>(body.keySet()))
            {
                if (random.nextInt(4) != 0)
                {
                    continue;
                }
                switch (random.nextInt(8))
                {
                    case 0 -> body.remove(tag);
                    case 1 -> body.put(tag, Long.toString(random.extremeLong()));
                    case 2 -> body.put(tag, FixedPoint.format(random.extremeLong(), SCALES[random.nextInt(3)]));
                    default -> body.put(tag, switch (tag)
                    {
                        case 38, 44 -> decimals.get(random.nextInt(decimals.size()));
                        case 1, 37 -> integers.get(random.nextInt(integers.size()));
                        case 11, 41, 55 -> ids.get(random.nextInt(ids.size()));
                        case 60 -> times.get(random.nextInt(times.size()));
                        default -> chars.get(random.nextInt(chars.size()));
                    });
                }
            }
            final String extra = random.nextInt(10) == 0 ? "38=" + random.extremeLong() + "\u0001" : "";
            try
            {
                outcomes[process(msgType, message(msgType, body, extra)).ordinal()]++;
            }
            catch (final AssertionError | RuntimeException ex)
            {
                throw new AssertionError("seed " + random.seed() + " iteration " + i + " " + msgType + " " + body +
                    " + " + extra + ": " + ex.getMessage(), ex);
            }
        }
        System.out.println("outcomes " + java.util.Arrays.toString(outcomes) +
            " (session reject, business reject, forwarded)");
        for (final int count : outcomes)
        {
            assertTrue(count > 0, "every outcome reached: " + java.util.Arrays.toString(outcomes));
        }
    }
}
