package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.testing.SeededRandom;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import quickfix.Message;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Engine events to FIX with extreme values in every field: each numeric field of ExecutionReport, CancelReject and
 * BusinessReject through an explicit table of edges (0, 1, -1, the 18/19-digit boundary, {@link Long#MAX_VALUE},
 * {@link Long#MIN_VALUE}...) at price scales 0, 2 and 8 and for an unknown instrument, every raw value of every enum
 * field, client order ids of any bytes; then seeded random events with every field extreme at once. Properties:
 * nothing throws; the output is a valid FIX 4.4 message for QuickFIX/J (BodyLength, CheckSum, required fields,
 * formats, enums) in printable ASCII; every decimal is sent exactly when it has at most 18 significant digits and
 * otherwise as an independent oracle (BigDecimal rounded down to 18 digits, clamped when the integer part needs
 * more) says, with Text(58) naming the field and its exact value; an event with an enum the gateway does not know
 * becomes a BusinessMessageReject saying so.
 */
class FixEventExtremesTest
{
    private static final int KNOWN_SCALE_2 = 1;
    private static final int KNOWN_SCALE_0 = 2;
    private static final int KNOWN_SCALE_8 = 3;
    private static final int UNKNOWN_INSTRUMENT = 99;
    private static final int[] INSTRUMENTS = { KNOWN_SCALE_2, KNOWN_SCALE_0, KNOWN_SCALE_8, UNKNOWN_INSTRUMENT };
    private static final int BODY = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final MathContext EIGHTEEN_DIGITS_DOWN = new MathContext(18, RoundingMode.DOWN);
    private static final BigDecimal MAX_WIRE = new BigDecimal("999999999999999999");

    private final FixEventTranslator translator = new FixEventTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer sbe = new UnsafeBuffer(new byte[512]);

    FixEventExtremesTest()
    {
        instruments.put(KNOWN_SCALE_2, "BTC-USD", 2);
        instruments.put(KNOWN_SCALE_0, "WHOLE", 0);
        instruments.put(KNOWN_SCALE_8, "SATS", 8);
    }

    /** A long field of ExecutionReport with its setter. */
    enum ErLong
    {
        EPOCH((e, v) -> e.epoch(v)),
        SESSION_ID((e, v) -> e.sessionId(v)),
        ACCOUNT_ID((e, v) -> e.accountId(v)),
        ORDER_ID((e, v) -> e.orderId(v)),
        PRICE((e, v) -> e.price(v)),
        QUANTITY((e, v) -> e.quantity(v)),
        LEAVES_QUANTITY((e, v) -> e.leavesQuantity(v)),
        CUMULATIVE_QUANTITY((e, v) -> e.cumulativeQuantity(v)),
        LAST_PRICE((e, v) -> e.lastPrice(v)),
        LAST_QUANTITY((e, v) -> e.lastQuantity(v)),
        AVERAGE_PRICE((e, v) -> e.averagePrice(v)),
        TRADE_ID((e, v) -> e.tradeId(v)),
        TRANSACT_TIME_NS((e, v) -> e.transactTimeNs(v)),
        COMMAND_SEQUENCE((e, v) -> e.commandSequence(v)),
        STOP_PRICE((e, v) -> e.stopPrice(v)),
        DISPLAY_QUANTITY((e, v) -> e.displayQuantity(v));

        final BiConsumer<ExecutionReportEncoder, Long> setter;

        ErLong(final BiConsumer<ExecutionReportEncoder, Long> setter)
        {
            this.setter = setter;
        }
    }

    static Stream<Arguments> everyLongFieldOfExecutionReport()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final ErLong field : ErLong.values())
        {
            for (final long value : SeededRandom.EDGE_LONGS)
            {
                for (final int instrument : INSTRUMENTS)
                {
                    cases.add(Arguments.of(field, value, instrument));
                }
            }
        }
        return cases.stream();
    }

    private ExecutionReportEncoder baseReport(final int instrumentId)
    {
        return new ExecutionReportEncoder().wrapAndApplyHeader(sbe, 0, new MessageHeaderEncoder())
            .epoch(1).sessionId(5).accountId(100).instrumentId(instrumentId).orderId(77).clientOrderId("A1")
            .origClientOrderId("").execType(ExecType.PARTIAL_FILL).orderStatus(OrderStatus.PARTIALLY_FILLED)
            .side(Side.BUY).orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).price(10125).quantity(10)
            .leavesQuantity(6).cumulativeQuantity(4).lastPrice(10120).lastQuantity(4).averagePrice(10120).tradeId(9)
            .rejectReason(RejectReason.NONE).cancelReason(CancelReason.NONE).transactTimeNs(1_767_225_600_000_000_000L)
            .commandSequence(3);
    }

    @ParameterizedTest(name = "{0}={1} instrument {2}")
    @MethodSource("everyLongFieldOfExecutionReport")
    void executionReportLongFields(final ErLong field, final long value, final int instrumentId)
    {
        field.setter.accept(baseReport(instrumentId), value);
        checkExecutionReport("8");
    }

    @Test
    void executionReportInstrumentIds()
    {
        for (final int instrumentId : SeededRandom.EDGE_INTS)
        {
            baseReport(instrumentId);
            final Message fix = checkExecutionReport("8");
            if (instruments.symbol(instrumentId) == null)
            {
                assertEquals("UNKNOWN", FixWire.field(fix, 55));
                assertTrue(FixWire.field(fix, 58).contains("instrument " + instrumentId + " unknown"));
                assertTrue((translator.issues() & FixWireValues.INSTRUMENT) != 0);
            }
        }
    }

    static Stream<Arguments> everyRawValueOfEveryEnum()
    {
        final List<Arguments> cases = new ArrayList<>();
        final int[] uint8Offsets = { ExecutionReportEncoder.execTypeEncodingOffset(),
            ExecutionReportEncoder.orderStatusEncodingOffset(), ExecutionReportEncoder.sideEncodingOffset(),
            ExecutionReportEncoder.orderTypeEncodingOffset(), ExecutionReportEncoder.timeInForceEncodingOffset(),
            ExecutionReportEncoder.cancelReasonEncodingOffset() };
        final String[] names = { "execType", "orderStatus", "side", "orderType", "timeInForce", "cancelReason" };
        for (int i = 0; i < uint8Offsets.length; i++)
        {
            for (int raw = 0; raw < 256; raw++)
            {
                cases.add(Arguments.of(names[i], uint8Offsets[i], 1, raw));
            }
        }
        for (int raw = 0; raw < 80; raw++)
        {
            cases.add(Arguments.of("rejectReason", ExecutionReportEncoder.rejectReasonEncodingOffset(), 2, raw));
        }
        for (final int raw : new int[]{ 255, 256, 32_767, 32_768, 65_534, 65_535 })
        {
            cases.add(Arguments.of("rejectReason", ExecutionReportEncoder.rejectReasonEncodingOffset(), 2, raw));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} raw {3}")
    @MethodSource("everyRawValueOfEveryEnum")
    void executionReportEnumRawValues(final String name, final int offset, final int size, final int raw)
    {
        for (final ExecType execType : new ExecType[]{ ExecType.REJECTED, ExecType.CANCELED })
        {
            baseReport(KNOWN_SCALE_2).execType(execType).rejectReason(RejectReason.NOTIONAL_OVERFLOW);
            if (size == 1)
            {
                sbe.putByte(BODY + offset, (byte)raw);
            }
            else
            {
                sbe.putShort(BODY + offset, (short)raw, ByteOrder.LITTLE_ENDIAN);
            }
            final boolean vital = name.equals("execType") || name.equals("orderStatus") || name.equals("side");
            final boolean known = switch (name)
            {
                case "execType" -> raw >= 1 && raw <= 8;
                case "orderStatus" -> raw >= 1 && raw <= 6;
                case "side" -> raw == 1 || raw == 2;
                default -> true;
            };
            final Message fix = checkExecutionReport(vital && !known ? "j" : "8");
            if (vital && !known)
            {
                assertEquals("8", FixWire.field(fix, 372));
                assertEquals("A1", FixWire.field(fix, 379));
                assertTrue(FixWire.field(fix, 58).startsWith("gateway could not send ExecutionReport"));
                assertTrue((translator.issues() & FixWireValues.ENUM) != 0);
            }
        }
    }

    @Test
    void clientOrderIdsOfAnyBytesGoOutPrintable()
    {
        final SeededRandom random = SeededRandom.forTest("clientOrderIdsOfAnyBytesGoOutPrintable");
        for (int i = 0; i < 2_000; i++)
        {
            baseReport(KNOWN_SCALE_2).execType(random.nextBoolean() ? ExecType.REJECTED : ExecType.REPLACED);
            final byte[] id = random.bytes(21);
            putId(BODY + ExecutionReportEncoder.clientOrderIdEncodingOffset(), id);
            putId(BODY + ExecutionReportEncoder.origClientOrderIdEncodingOffset(), random.bytes(21));
            final Message fix = checkExecutionReport("8");
            final String sent = FixWire.field(fix, 11);
            final String expected = printableUpToZero(id);
            assertEquals(expected.isEmpty() ? null : expected, sent, "seed " + random.seed());
        }
    }

    @Test
    void seededRandomExecutionReportsWithEveryFieldExtreme()
    {
        final SeededRandom random = SeededRandom.forTest("seededRandomExecutionReportsWithEveryFieldExtreme");
        for (int i = 0; i < 5_000; i++)
        {
            final ExecutionReportEncoder e = baseReport(INSTRUMENTS[random.nextInt(INSTRUMENTS.length)]);
            for (final ErLong field : ErLong.values())
            {
                if (random.nextInt(3) > 0)
                {
                    field.setter.accept(e, random.extremeLong());
                }
            }
            e.execType(random.pick(ExecType.NEW, ExecType.PARTIAL_FILL, ExecType.FILL, ExecType.CANCELED,
                ExecType.REPLACED, ExecType.REJECTED, ExecType.EXPIRED, ExecType.TRIGGERED));
            e.orderType(random.pick(OrderType.LIMIT, OrderType.MARKET, OrderType.STOP, OrderType.STOP_LIMIT));
            e.rejectReason(random.pick(RejectReason.values()));
            if (random.nextInt(10) == 0)
            {
                putId(BODY + ExecutionReportEncoder.clientOrderIdEncodingOffset(), random.bytes(21));
            }
            try
            {
                checkExecutionReport("8");
            }
            catch (final AssertionError | RuntimeException ex)
            {
                throw new AssertionError("seed " + random.seed() + " iteration " + i + ": " + ex.getMessage(), ex);
            }
        }
    }

    @Test
    void cancelRejectsWithEveryFieldExtreme()
    {
        final SeededRandom random = SeededRandom.forTest("cancelRejectsWithEveryFieldExtreme");
        final List<long[]> rows = new ArrayList<>();
        for (final long value : SeededRandom.EDGE_LONGS)
        {
            for (int field = 0; field < 6; field++)
            {
                final long[] row = { 1, 5, 100, 77, 3, 1_767_225_600_000_000_000L };
                row[field] = value;
                rows.add(row);
            }
        }
        for (int i = 0; i < 3_000; i++)
        {
            rows.add(new long[]{ random.extremeLong(), random.extremeLong(), random.extremeLong(),
                random.extremeLong(), random.extremeLong(), random.extremeLong() });
        }
        for (final long[] row : rows)
        {
            for (final int responseTo : new int[]{ 1, 2, 0, 3, 255 })
            {
                final CancelRejectEncoder e = new CancelRejectEncoder()
                    .wrapAndApplyHeader(sbe, 0, new MessageHeaderEncoder())
                    .epoch(row[0]).sessionId(row[1]).accountId(row[2]).instrumentId(random.extremeInt())
                    .orderId(row[3]).clientOrderId("C2").origClientOrderId("C1")
                    .responseTo(CancelRejectResponseTo.CANCEL).rejectReason(RejectReason.UNKNOWN_ORDER)
                    .transactTimeNs(row[5]).commandSequence(row[4]);
                sbe.putByte(BODY + CancelRejectEncoder.responseToEncodingOffset(), (byte)responseTo);
                sbe.putShort(BODY + CancelRejectEncoder.rejectReasonEncodingOffset(),
                    (short)(random.nextBoolean() ? random.nextInt(40) : random.nextInt(65_536)),
                    ByteOrder.LITTLE_ENDIAN);
                if (random.nextInt(4) == 0)
                {
                    putId(BODY + CancelRejectEncoder.clientOrderIdEncodingOffset(), random.bytes(21));
                }
                assertNotNull(e);
                final boolean known = responseTo == 1 || responseTo == 2;
                final Message fix = FixWire.encodeAndValidate(translator.engineEvent(sbe, 0, instruments));
                assertEquals(known ? "9" : "j", FixWire.field(fix, 35), "seed " + random.seed());
                if (known)
                {
                    assertEquals(row[3] == 0 ? "NONE" : Long.toString(row[3]), FixWire.field(fix, 37));
                    assertEquals(Long.toString(row[2]), FixWire.field(fix, 1));
                }
            }
        }
    }

    @Test
    void businessRejectsWithEveryFieldExtreme()
    {
        final SeededRandom random = SeededRandom.forTest("businessRejectsWithEveryFieldExtreme");
        for (int i = 0; i < 3_000; i++)
        {
            final int refTemplateId = i < 10 ? NewOrderDecoder.TEMPLATE_ID + i - 2 : random.nextInt(65_536);
            final BusinessRejectEncoder e = new BusinessRejectEncoder()
                .wrapAndApplyHeader(sbe, 0, new MessageHeaderEncoder())
                .epoch(random.extremeLong()).sessionId(random.extremeLong()).refTemplateId(refTemplateId)
                .refClientOrderId("X").rejectReason(RejectReason.MALFORMED);
            e.text(random.nextBoolean() ? "" : "detail");
            sbe.putShort(BODY + BusinessRejectEncoder.rejectReasonEncodingOffset(),
                (short)(random.nextBoolean() ? random.nextInt(40) : random.nextInt(65_536)), ByteOrder.LITTLE_ENDIAN);
            putId(BODY + BusinessRejectEncoder.refClientOrderIdEncodingOffset(), random.bytes(21));
            final Message fix = FixWire.encodeAndValidate(translator.engineEvent(sbe, 0, instruments));
            assertEquals("j", FixWire.field(fix, 35), "seed " + random.seed());
            assertNotNull(FixWire.field(fix, 372));
        }
    }

    @Test
    void undeliverableNoticeEncodesWhateverTheEventAndTheExceptionHold()
    {
        final SeededRandom random = SeededRandom.forTest("undeliverableNoticeEncodesWhatever");
        for (int i = 0; i < 500; i++)
        {
            baseReport(INSTRUMENTS[random.nextInt(INSTRUMENTS.length)]).orderId(random.extremeLong());
            putId(BODY + ExecutionReportEncoder.clientOrderIdEncodingOffset(), random.bytes(21));
            final String message = new String(random.bytes(400), java.nio.charset.StandardCharsets.ISO_8859_1);
            final Message fix = FixWire.encodeAndValidate(
                translator.undeliverable(sbe, 0, new ArithmeticException(message)));
            assertEquals("j", FixWire.field(fix, 35));
            assertEquals("8", FixWire.field(fix, 372));
            assertTrue(FixWire.field(fix, 58).startsWith("gateway could not send ExecutionReport"));
            assertTrue(FixWire.field(fix, 58).contains("ArithmeticException"));
        }
    }

    /**
     * Translate what {@link #sbe} holds and check the result against the oracle.
     */
    private Message checkExecutionReport(final String expectedMsgType)
    {
        final ExecutionReportDecoder d = new ExecutionReportDecoder()
            .wrap(sbe, BODY, ExecutionReportEncoder.BLOCK_LENGTH, ExecutionReportEncoder.SCHEMA_VERSION);
        final Message fix = FixWire.encodeAndValidate(translator.engineEvent(sbe, 0, instruments));
        assertEquals(expectedMsgType, FixWire.field(fix, 35));
        if (!"8".equals(expectedMsgType))
        {
            return fix;
        }
        final int knownScale = instruments.priceScale(d.instrumentId());
        final int scale = Math.max(0, knownScale);
        final String text = FixWire.field(fix, 58);
        boolean anyFitted = false;
        final boolean market = d.orderTypeRaw() == OrderType.MARKET.value() ||
            d.orderTypeRaw() == OrderType.STOP.value();
        if (!market)
        {
            anyFitted |= checkDecimal(fix, 44, "Price(44)", d.price(), scale, text);
        }
        else
        {
            assertFalse(fix.isSetField(44), "no Price on a market or stop order");
        }
        if (d.stopPrice() > 0)
        {
            anyFitted |= checkDecimal(fix, 99, "StopPx(99)", d.stopPrice(), scale, text);
        }
        else
        {
            assertFalse(fix.isSetField(99), "no StopPx without a stop price");
        }
        if (d.displayQuantity() > 0)
        {
            anyFitted |= checkDecimal(fix, 111, "MaxFloor(111)", d.displayQuantity(), 0, text);
        }
        else
        {
            assertFalse(fix.isSetField(111), "no MaxFloor without a display quantity");
        }
        anyFitted |= checkDecimal(fix, 38, "OrderQty(38)", d.quantity(), 0, text);
        anyFitted |= checkDecimal(fix, 151, "LeavesQty(151)", d.leavesQuantity(), 0, text);
        anyFitted |= checkDecimal(fix, 14, "CumQty(14)", d.cumulativeQuantity(), 0, text);
        anyFitted |= checkDecimal(fix, 6, "AvgPx(6)", d.averagePrice(), scale, text);
        if (d.lastQuantity() != 0)
        {
            anyFitted |= checkDecimal(fix, 31, "LastPx(31)", d.lastPrice(), scale, text);
            anyFitted |= checkDecimal(fix, 32, "LastQty(32)", d.lastQuantity(), 0, text);
        }
        else
        {
            assertFalse(fix.isSetField(32), "no LastQty without a fill");
        }
        assertEquals(anyFitted, (translator.issues() & FixWireValues.DIGITS) != 0, "issues flag the fitting");
        assertEquals(knownScale < 0, (translator.issues() & FixWireValues.INSTRUMENT) != 0);
        assertEquals(d.orderId() == 0 ? "NONE" : Long.toString(d.orderId()), FixWire.field(fix, 37));
        assertEquals(Long.toString(d.accountId()), FixWire.field(fix, 1));
        assertTrue(FixWire.field(fix, 17).startsWith("E" + d.epoch() + "-" + d.commandSequence() + "-"));
        if (d.execType() == ExecType.REJECTED)
        {
            final int raw = d.rejectReasonRaw();
            final String reason = java.util.Arrays.stream(RejectReason.values())
                .filter(r -> r != RejectReason.NULL_VAL && r.value() == raw).map(Enum::name).findFirst()
                .orElse("REJECT_REASON_" + raw);
            assertTrue(text.startsWith(reason), text);
        }
        return fix;
    }

    /**
     * @return whether the value had to be fitted.
     */
    private static boolean checkDecimal(
        final Message fix, final int tag, final String name, final long value, final int scale, final String text)
    {
        final BigDecimal exact = BigDecimal.valueOf(value, scale);
        BigDecimal normal = exact.stripTrailingZeros();
        if (normal.scale() < 0)
        {
            normal = normal.setScale(0);
        }
        BigDecimal expected = normal;
        if (normal.precision() > 18)
        {
            expected = normal.round(EIGHTEEN_DIGITS_DOWN);
            if (expected.scale() < 0)
            {
                expected = exact.signum() < 0 ? MAX_WIRE.negate() : MAX_WIRE;
            }
        }
        final String sent = FixWire.field(fix, tag);
        assertNotNull(sent, name + " present");
        assertEquals(0, new BigDecimal(sent).compareTo(expected), name + " " + exact + " sent as " + sent);
        final boolean fitted = exact.compareTo(expected) != 0;
        if (!fitted)
        {
            assertEquals(exact.toPlainString(), sent, name + ": every digit of its scale, trailing zeros too");
        }
        final String note = name + "=" + exact.toPlainString() + " exceeds";
        assertEquals(fitted, text != null && text.contains(note), note + " in Text " + text);
        return fitted;
    }

    /** Write an SBE id field: up to its 20 bytes, zero padded. */
    private void putId(final int offset, final byte[] bytes)
    {
        sbe.setMemory(offset, 20, (byte)0);
        sbe.putBytes(offset, bytes, 0, Math.min(20, bytes.length));
    }

    private static String printableUpToZero(final byte[] bytes)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 20); i++)
        {
            final char c = (char)(bytes[i] & 0xFF);
            if (c == 0)
            {
                break;
            }
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
        return out.toString();
    }
}
