package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import quickfix.Message;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixEventTranslatorTest
{
    private final FixEventTranslator translator = new FixEventTranslator();
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final UnsafeBuffer sbe = new UnsafeBuffer(new byte[512]);

    FixEventTranslatorTest()
    {
        instruments.put(1, "BTC-USD", 2);
    }

    private static String encode(final Encoder encoder)
    {
        final MutableAsciiBuffer out = new MutableAsciiBuffer(new byte[2048]);
        final var header = (io.ringex.gateway.fix.codecs.builder.HeaderEncoder)encoder.header();
        header.senderCompID("RINGEX").targetCompID("ALICE").msgSeqNum(1).sendingTime("20260101-00:00:00".getBytes());
        final long result = encoder.encode(out, 0);
        return out.getAscii(Encoder.offset(result), Encoder.length(result)).replace('\u0001', '|');
    }

    @Test
    void fillBecomesExecutionReportWithExactDecimals()
    {
        final ExecutionReportEncoder e = new ExecutionReportEncoder().wrapAndApplyHeader(sbe, 0,
            new MessageHeaderEncoder());
        e.epoch(1).sessionId(5).accountId(100).instrumentId(1).orderId(77).clientOrderId("A1").origClientOrderId("")
            .execType(ExecType.PARTIAL_FILL).orderStatus(OrderStatus.PARTIALLY_FILLED).side(Side.BUY)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).price(10125).quantity(10).leavesQuantity(6)
            .cumulativeQuantity(4).lastPrice(10120).lastQuantity(4).averagePrice(10120).tradeId(9).stopPrice(2000)
            .rejectReason(RejectReason.NONE).cancelReason(CancelReason.NONE).transactTimeNs(0).commandSequence(3);
        final ExecutionReportDecoder d = new ExecutionReportDecoder().wrap(sbe, 8, e.sbeBlockLength(), 2);
        final String fix = encode(translator.executionReport(d, instruments));
        // Every price at the instrument's scale (2), trailing zeros included; quantities whole.
        for (final String expected : new String[]{ "|35=8|", "|37=77|", "|11=A1|", "|150=F|", "|39=1|", "|55=BTC-USD|",
            "|54=1|", "|44=101.25|", "|38=10|", "|151=6|", "|14=4|", "|31=101.20|", "|32=4|", "|6=101.20|",
            "|99=20.00|", "|1=100|", "|17=E1-3-77-9-F|" })
        {
            assertTrue(fix.contains(expected), expected + " in " + fix);
        }
    }

    @Test
    void pricesAreSentAtTheInstrumentsScaleOnEveryReportAndInADropCopy()
    {
        final ExecutionReportEncoder e = new ExecutionReportEncoder().wrapAndApplyHeader(sbe, 0,
            new MessageHeaderEncoder());
        e.epoch(1).sessionId(5).accountId(100).instrumentId(1).orderId(78).clientOrderId("Z1").origClientOrderId("")
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).side(Side.SELL).price(9940).quantity(7)
            .lastPrice(0).lastQuantity(0).averagePrice(0).tradeId(0).rejectReason(RejectReason.NONE)
            .cancelReason(CancelReason.NONE).transactTimeNs(0).commandSequence(4);
        for (final ExecType execType : new ExecType[]{ ExecType.NEW, ExecType.CANCELED, ExecType.REPLACED,
            ExecType.EXPIRED })
        {
            e.execType(execType).orderStatus(execType == ExecType.NEW || execType == ExecType.REPLACED ?
                OrderStatus.NEW : OrderStatus.CANCELED).leavesQuantity(execType == ExecType.NEW ? 7 : 0)
                .cumulativeQuantity(0);
            for (final String fix : new String[]{ encode(translator.engineEvent(sbe, 0, instruments)),
                encode(translator.dropCopy(sbe, 0, instruments, 5, "ALICE")) })
            {
                for (final String expected : new String[]{ "|44=99.40|", "|38=7|", "|6=0.00|" })
                {
                    assertTrue(fix.contains(expected), execType + ": " + expected + " in " + fix);
                }
            }
        }
        e.execType(ExecType.FILL).orderStatus(OrderStatus.FILLED).price(2000).leavesQuantity(0).cumulativeQuantity(7)
            .lastPrice(2000).lastQuantity(7).averagePrice(2000).tradeId(10);
        final String fill = encode(translator.engineEvent(sbe, 0, instruments));
        for (final String expected : new String[]{ "|44=20.00|", "|31=20.00|", "|6=20.00|", "|32=7|", "|14=7|" })
        {
            assertTrue(fill.contains(expected), expected + " in " + fill);
        }
    }

    @Test
    void aDropCopyIsTheReportWithItsOriginInTheHeaderAndNothingLeaksIntoTheNextMessage()
    {
        final ExecutionReportEncoder e = new ExecutionReportEncoder().wrapAndApplyHeader(sbe, 0,
            new MessageHeaderEncoder());
        e.epoch(1).sessionId(0x2_4000_0007L).accountId(100).instrumentId(1).orderId(77).clientOrderId("A1")
            .origClientOrderId("").execType(ExecType.FILL).orderStatus(OrderStatus.FILLED).side(Side.SELL)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).price(10125).quantity(4).leavesQuantity(0)
            .cumulativeQuantity(4).lastPrice(10125).lastQuantity(4).averagePrice(10125).tradeId(9)
            .rejectReason(RejectReason.NONE).cancelReason(CancelReason.NONE).transactTimeNs(0).commandSequence(3);
        final String copy = encode(translator.dropCopy(sbe, 0, instruments, 0x2_4000_0007L, "ALICE"));
        for (final String expected : new String[]{ "|35=8|", "|115=ALICE|", "|116=" + 0x2_4000_0007L + "|",
            "|1=100|", "|17=E1-3-77-9-F|", "|150=F|", "|11=A1|" })
        {
            assertTrue(copy.contains(expected), expected + " in " + copy);
        }
        final String other = encode(translator.dropCopy(sbe, 0, instruments, 0x2_4000_0007L, null));
        assertFalse(other.contains("|115="), "no CompID known for the origin: " + other);
        assertTrue(other.contains("|116="), other);
        final String own = encode(translator.engineEvent(sbe, 0, instruments));
        assertFalse(own.contains("|115=") || own.contains("|116="), "a session's own report names nobody: " + own);
    }

    private ExecutionReportDecoder rejectedOrder(final long price, final long quantity, final RejectReason reason)
    {
        final ExecutionReportEncoder e = new ExecutionReportEncoder().wrapAndApplyHeader(sbe, 0,
            new MessageHeaderEncoder());
        e.epoch(1).sessionId(5).accountId(100).instrumentId(1).orderId(0).clientOrderId("BIG").origClientOrderId("")
            .execType(ExecType.REJECTED).orderStatus(OrderStatus.REJECTED).side(Side.BUY)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).price(price).quantity(quantity).leavesQuantity(0)
            .cumulativeQuantity(0).lastPrice(0).lastQuantity(0).averagePrice(0).tradeId(0)
            .rejectReason(reason).cancelReason(CancelReason.NONE).transactTimeNs(0).commandSequence(3);
        return new ExecutionReportDecoder().wrap(sbe, 8, e.sbeBlockLength(), 1);
    }

    @Test
    void engineRejectOfAQuantityBeyondEighteenDigitsReachesTheClient()
    {
        // The hostile probe: 38=1000000000000000000 is refused by the engine (NOTIONAL_OVERFLOW), and the report
        // of it threw ArithmeticException inside Artio's DecimalFloat, so the client never heard back.
        final Message fix = FixWire.encodeAndValidate(translator.executionReport(
            rejectedOrder(10125, 1_000_000_000_000_000_000L, RejectReason.NOTIONAL_OVERFLOW), instruments));
        assertEquals("8", FixWire.field(fix, 150));
        assertEquals("BIG", FixWire.field(fix, 11));
        final String text = FixWire.field(fix, 58);
        assertTrue(text.startsWith("NOTIONAL_OVERFLOW"), text);
        assertTrue(text.contains("OrderQty(38)=1000000000000000000"), text);
    }

    @Test
    void anOrderOfAnAccountWithoutLimitsSaysSo()
    {
        final Message fix = FixWire.encodeAndValidate(translator.executionReport(
            rejectedOrder(10125, 5, RejectReason.MAX_ORDER_QUANTITY), instruments));
        assertEquals("8", FixWire.field(fix, 150));
        assertEquals("3", FixWire.field(fix, 103));
        assertEquals("MAX_ORDER_QUANTITY: OrderQty(38) is above the account's maximum order quantity; an account the " +
            "venue has set no limits for has a maximum of 0 and refuses every order", FixWire.field(fix, 58));
    }

    @Test
    void engineRejectOfAPriceBeyondEighteenDigitsReachesTheClient()
    {
        // 44=92233720368547758.07 at scale 2 is Long.MAX_VALUE: 19 significant digits, one more than FIX can carry.
        final Message fix = FixWire.encodeAndValidate(translator.executionReport(
            rejectedOrder(Long.MAX_VALUE, 1, RejectReason.PRICE_OUTSIDE_BAND), instruments));
        assertEquals("8", FixWire.field(fix, 150));
        final String text = FixWire.field(fix, 58);
        assertTrue(text.startsWith("PRICE_OUTSIDE_BAND"), text);
        assertTrue(text.contains("Price(44)=92233720368547758.07"), text);
    }

    @Test
    void sessionRejectNamesTheMessageTheTagAndTheReason()
    {
        final Message fix = FixWire.encodeAndValidate(translator.sessionReject(FixMessages.scan("35=D|11=A|"), 7, 38,
            13, "Tag appears more than once: tag 38"));
        assertEquals("3", FixWire.field(fix, 35));
        assertEquals("7", FixWire.field(fix, 45));
        assertEquals("38", FixWire.field(fix, 371));
        assertEquals("D", FixWire.field(fix, 372));
        assertEquals("13", FixWire.field(fix, 373));
        assertEquals("Tag appears more than once: tag 38", FixWire.field(fix, 58));
    }

    @Test
    void gatewayRejectsEchoTheClientsIdsWithWhatFixCannotCarryAsQuestionMarks()
    {
        final Message newOrder = FixWire.encodeAndValidate(translator.reject(
            FixMessages.scan("35=D|11=A\u0002\u00e9B|55=BTC\u007f|54=1|"), 'D', 4, RejectReason.MALFORMED, "bad id",
            "UNKNOWN"));
        assertEquals("A??B", FixWire.field(newOrder, 11));
        assertEquals("BTC?", FixWire.field(newOrder, 55));
        assertTrue(FixWire.field(newOrder, 58).startsWith("MALFORMED: bad id"));
        assertEquals(FixWireValues.BYTES, translator.issues());

        final Message cancel = FixWire.encodeAndValidate(translator.reject(
            FixMessages.scan("35=F|11=C\u0003|41=O\u0004|37=7\u0005|"), 'F', 4, RejectReason.MALFORMED, null,
            "UNKNOWN"));
        assertEquals("C?", FixWire.field(cancel, 11));
        assertEquals("O?", FixWire.field(cancel, 41));
        assertEquals("7?", FixWire.field(cancel, 37));
    }

    @Test
    void cancelRejectBecomesOrderCancelReject()
    {
        final CancelRejectEncoder e = new CancelRejectEncoder().wrapAndApplyHeader(sbe, 0, new MessageHeaderEncoder());
        e.epoch(1).sessionId(5).accountId(100).instrumentId(1).orderId(0).clientOrderId("C2")
            .origClientOrderId("C1").responseTo(CancelRejectResponseTo.REPLACE)
            .rejectReason(RejectReason.UNKNOWN_ORDER).transactTimeNs(0).commandSequence(1);
        final CancelRejectDecoder d = new CancelRejectDecoder().wrap(sbe, 8, e.sbeBlockLength(), 1);
        final String fix = encode(translator.cancelReject(d));
        for (final String expected : new String[]{ "|35=9|", "|37=NONE|", "|11=C2|", "|41=C1|", "|434=2|",
            "|102=1|", "|58=UNKNOWN_ORDER|" })
        {
            assertTrue(fix.contains(expected), expected + " in " + fix);
        }
    }

    @Test
    void gatewayRejectsPickTheRightMessage()
    {
        final String newOrder = encode(translator.reject(FixMessages.scan("35=D|11=A|55=BTC-USD|54=2|"), 'D', 4,
            RejectReason.INVALID_PRICE, "too fine", "UNKNOWN"));
        assertTrue(newOrder.contains("|35=8|") && newOrder.contains("|150=8|") && newOrder.contains("|54=2|") &&
            newOrder.contains("|58=INVALID_PRICE: too fine|"), newOrder);

        final String cancel = encode(translator.reject(FixMessages.scan("35=F|11=C|41=O|"), 'F', 4,
            RejectReason.NOT_AUTHORISED, null, "UNKNOWN"));
        assertTrue(cancel.contains("|35=9|") && cancel.contains("|434=1|") && cancel.contains("|102=99|"), cancel);

        final String throttled = encode(translator.reject(FixMessages.scan("35=D|11=A|"), 'D', 4,
            RejectReason.THROTTLED, null, "UNKNOWN"));
        assertTrue(throttled.contains("|35=j|") && throttled.contains("|45=4|") && throttled.contains("|372=D|") &&
            throttled.contains("|380=4|") && throttled.contains("|379=A|"), throttled);

        final String unsupported = encode(translator.reject(FixMessages.scan("35=AE|"), '?', 9,
            RejectReason.UNKNOWN_MESSAGE, null, "UNKNOWN"));
        assertTrue(unsupported.contains("|372=AE|") && unsupported.contains("|380=3|"), unsupported);
    }
}
