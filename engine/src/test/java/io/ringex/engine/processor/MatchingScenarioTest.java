package io.ringex.engine.processor;

import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Matching rules through onCommand: price-time priority, time in force, market and post-only orders, cancel,
 * replace, mass cancel, self-trade prevention.
 */
final class MatchingScenarioTest
{
    private final Harness h = Harness.standard();

    private List<Object> order(
        final long account, final long id, final Side side, final OrderType type, final TimeInForce tif,
        final long price, final long qty)
    {
        return h.send(h.encoder.newOrder(SESSION, account, id, INSTRUMENT, side, type, tif, false,
            SelfTradePrevention.ACCOUNT_DEFAULT, price, qty));
    }

    private List<Object> limit(final long account, final long id, final Side side, final long price, final long qty)
    {
        return h.send(h.encoder.limit(SESSION, account, id, INSTRUMENT, side, price, qty));
    }

    private static List<Harness.Er> ers(final List<Object> events)
    {
        return only(events, Harness.Er.class);
    }

    @Test
    void restingOrderIsAcknowledgedWithIdLevelAndBbo()
    {
        final List<Object> events = limit(1, 11, Side.BUY, 9_990, 100);

        final Harness.Er er = ers(events).get(0);
        assertEquals(ExecType.NEW, er.execType());
        assertEquals(1, er.orderId());
        assertEquals("11", er.clientOrderId());
        assertEquals(100, er.leaves());
        assertEquals(h.sequence, er.commandSequence());
        assertEquals(h.time, er.transactTimeNs());
        assertEquals(SESSION, er.sessionId());
        assertEquals(List.of(new Harness.Level(1, Side.BUY, 9_990, 100, 1)), only(events, Harness.Level.class));
        assertEquals(List.of(new Harness.Bbo(9_990, 100, Long.MIN_VALUE, 0)), only(events, Harness.Bbo.class));
    }

    @Test
    void priceThenTimePriority()
    {
        limit(2, 1, Side.SELL, 10_010, 50);
        limit(2, 2, Side.SELL, 10_005, 50);
        limit(3, 3, Side.SELL, 10_005, 50);

        final List<Object> events = limit(1, 4, Side.BUY, 10_010, 120);

        final List<Harness.TradeEv> trades = only(events, Harness.TradeEv.class);
        assertEquals(3, trades.size());
        assertEquals(2, trades.get(0).sellOrderId());
        assertEquals(10_005, trades.get(0).price());
        assertEquals(3, trades.get(1).sellOrderId());
        assertEquals(1, trades.get(2).sellOrderId());
        assertEquals(10_010, trades.get(2).price());
        assertEquals(20, trades.get(2).quantity());
        final Harness.Er last = ers(events).get(ers(events).size() - 2);
        assertEquals(ExecType.FILL, last.execType());
        assertEquals(120, last.cumulative());
        // average = (50*100.05 + 50*100.05 + 20*100.10) / 120 = 100.0583.. -> 100.06 half-up
        assertEquals(10_006, last.averagePrice());
        assertEquals(3, last.tradeId());
    }

    @Test
    void averagePriceRoundsHalfUp()
    {
        limit(1, 1, Side.SELL, 10_005, 10);
        limit(2, 2, Side.SELL, 10_010, 10);
        final List<Harness.Er> reports = ers(limit(3, 3, Side.BUY, 10_010, 20));
        // (100.05 + 100.10) / 2 = 100.075 -> 100.08
        assertEquals(10_008, reports.get(reports.size() - 2).averagePrice());
    }

    @Test
    void iocRemainderIsCanceled()
    {
        limit(1, 1, Side.SELL, 10_000, 30);
        final List<Harness.Er> reports = ers(order(2, 2, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 10_000, 50));
        final Harness.Er last = reports.get(reports.size() - 1);
        assertEquals(ExecType.CANCELED, last.execType());
        assertEquals(CancelReason.IOC_REMAINDER, last.cancelReason());
        assertEquals(30, last.cumulative());
        assertEquals(0, last.leaves());
    }

    @Test
    void fokIsAllOrNothingBeforeAnyFill()
    {
        limit(1, 1, Side.SELL, 10_000, 30);
        final List<Object> refused = order(2, 2, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 10_000, 50);
        assertEquals(RejectReason.FOK_NOT_FILLABLE, ers(refused).get(0).rejectReason());
        assertTrue(only(refused, Harness.TradeEv.class).isEmpty());

        final List<Object> filled = order(2, 3, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 10_000, 30);
        assertEquals(ExecType.FILL, ers(filled).get(1).execType());
    }

    @Test
    void marketOrderFillsToProtectionPriceAndCancelsRest()
    {
        limit(1, 1, Side.SELL, 10_000, 30);
        final List<Harness.Er> reports = ers(order(2, 2, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 50));
        final Harness.Er last = reports.get(reports.size() - 1);
        assertEquals(ExecType.CANCELED, last.execType());
        assertEquals(CancelReason.MARKET_PROTECTION, last.cancelReason());
        assertEquals(30, last.cumulative());

        final Harness.Er empty = ers(order(2, 3, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 50)).get(1);
        assertEquals(RejectReason.NO_LIQUIDITY, empty.rejectReason());
        assertEquals(CancelReason.MARKET_PROTECTION, empty.cancelReason());
    }

    @Test
    void marketOrderMustBeIocOrFok()
    {
        final Harness.Er er = ers(order(2, 2, Side.BUY, OrderType.MARKET, TimeInForce.GTC, 0, 50)).get(0);
        assertEquals(ExecType.REJECTED, er.execType());
        assertEquals(RejectReason.INVALID_ORDER_TYPE, er.rejectReason());
        assertEquals(0, er.orderId());
        assertEquals(RejectReason.INVALID_ORDER_TYPE,
            ers(order(2, 3, Side.BUY, OrderType.MARKET, TimeInForce.DAY, 0, 50)).get(0).rejectReason());
    }

    @Test
    void postOnlyThatWouldCrossIsRejected()
    {
        limit(1, 1, Side.SELL, 10_000, 30);
        final List<Object> events = h.send(h.encoder.newOrder(SESSION, 2, 2, INSTRUMENT, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, true, SelfTradePrevention.ACCOUNT_DEFAULT, 10_000, 10));
        assertEquals(RejectReason.POST_ONLY_WOULD_CROSS, ers(events).get(0).rejectReason());
        final List<Object> passive = h.send(h.encoder.newOrder(SESSION, 2, 3, INSTRUMENT, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, true, SelfTradePrevention.ACCOUNT_DEFAULT, 9_995, 10));
        assertEquals(ExecType.NEW, ers(passive).get(0).execType());
    }

    @Test
    void cancelByOrderIdAndByClientOrderId()
    {
        limit(1, 1, Side.BUY, 9_000, 10);
        limit(1, 2, Side.BUY, 9_000, 10);
        final Harness.Er byId = ers(h.send(h.encoder.cancel(SESSION, 1, 90, 0, 1, INSTRUMENT))).get(0);
        assertEquals(ExecType.CANCELED, byId.execType());
        assertEquals(CancelReason.CLIENT_REQUEST, byId.cancelReason());
        assertEquals("90", byId.clientOrderId());
        assertEquals("1", byId.origClientOrderId());

        final Harness.Er byClientId = ers(h.send(h.encoder.cancel(SESSION, 1, 91, 2, 0, INSTRUMENT))).get(0);
        assertEquals(2, byClientId.orderId());
        assertEquals(OrderStatus.CANCELED, byClientId.status());
    }

    @Test
    void cancelRejectReasons()
    {
        limit(1, 1, Side.BUY, 9_000, 10);
        assertEquals(RejectReason.NOT_AUTHORISED, only(h.send(h.encoder.cancel(SESSION, 2, 9, 0, 1, INSTRUMENT)),
            Harness.CxlRej.class).get(0).reason());
        assertEquals(RejectReason.UNKNOWN_ORDER, only(h.send(h.encoder.cancel(SESSION, 1, 9, 0, 77, INSTRUMENT)),
            Harness.CxlRej.class).get(0).reason());
        assertEquals(RejectReason.UNKNOWN_ORDER, only(h.send(h.encoder.cancel(SESSION, 1, 9, 55, 0, INSTRUMENT)),
            Harness.CxlRej.class).get(0).reason());
        h.send(h.encoder.cancel(SESSION, 1, 9, 0, 1, INSTRUMENT));
        assertEquals(RejectReason.ORDER_NOT_OPEN, only(h.send(h.encoder.cancel(SESSION, 1, 9, 0, 1, INSTRUMENT)),
            Harness.CxlRej.class).get(0).reason());
    }

    @Test
    void replaceDownKeepsPriorityUpOrPriceLosesIt()
    {
        limit(1, 1, Side.SELL, 10_000, 50);
        limit(2, 2, Side.SELL, 10_000, 50);
        final Harness.Er replaced = ers(h.send(h.encoder.replace(SESSION, 1, 11, 1, 1, INSTRUMENT, 10_000, 40)))
            .get(0);
        assertEquals(ExecType.REPLACED, replaced.execType());
        assertEquals("11", replaced.clientOrderId());
        assertEquals("1", replaced.origClientOrderId());
        assertEquals(1, only(limit(3, 3, Side.BUY, 10_000, 10), Harness.TradeEv.class).get(0).sellOrderId());

        h.send(h.encoder.replace(SESSION, 1, 12, 11, 0, INSTRUMENT, 10_000, 60));
        assertEquals(2, only(limit(3, 4, Side.BUY, 10_000, 10), Harness.TradeEv.class).get(0).sellOrderId());
    }

    @Test
    void replaceThatCrossesTrades()
    {
        limit(1, 1, Side.SELL, 10_000, 50);
        limit(2, 2, Side.BUY, 9_900, 50);
        final List<Object> events = h.send(h.encoder.replace(SESSION, 2, 3, 2, 0, INSTRUMENT, 10_000, 50));
        assertEquals(1, only(events, Harness.TradeEv.class).size());
    }

    @Test
    void replaceBelowFilledCancelsRemainderAndReplaceOfFilledOrderIsNotOpen()
    {
        limit(1, 1, Side.SELL, 10_000, 50);
        limit(2, 2, Side.BUY, 10_000, 20);
        final Harness.Er er = ers(h.send(h.encoder.replace(SESSION, 1, 3, 1, 1, INSTRUMENT, 10_000, 20))).get(0);
        assertEquals(ExecType.CANCELED, er.execType());
        assertEquals(CancelReason.REPLACE_BELOW_FILLED, er.cancelReason());
        assertEquals(20, er.cumulative());

        limit(1, 4, Side.SELL, 10_000, 10);
        limit(2, 5, Side.BUY, 10_000, 10);
        final Harness.CxlRej rej = only(h.send(h.encoder.replace(SESSION, 1, 6, 0, 3, INSTRUMENT, 10_000, 30)),
            Harness.CxlRej.class).get(0);
        assertEquals(RejectReason.ORDER_NOT_OPEN, rej.reason());
        assertEquals("REPLACE", rej.responseTo());
    }

    @Test
    void massCancelByAccountInstrumentAndSession()
    {
        limit(1, 1, Side.BUY, 9_000, 10);
        limit(1, 2, Side.BUY, 9_005, 10);
        limit(2, 3, Side.BUY, 9_010, 10);
        final List<Harness.Er> account = ers(h.send(h.encoder.massCancel(SESSION, 1, 50, MassCancelScope.ACCOUNT,
            0, false)));
        assertEquals(List.of(1L, 2L), account.stream().map(Harness.Er::orderId).toList());
        assertEquals(CancelReason.MASS_CANCEL, account.get(0).cancelReason());

        limit(2, 4, Side.BUY, 9_015, 10);
        final List<Harness.Er> disconnect = ers(h.send(h.encoder.massCancel(SESSION, 2, 0, MassCancelScope.SESSION,
            0, true)));
        assertEquals(List.of(3L, 4L), disconnect.stream().map(Harness.Er::orderId).toList());
        assertEquals(CancelReason.CANCEL_ON_DISCONNECT, disconnect.get(1).cancelReason());

        limit(3, 5, Side.BUY, 9_015, 10);
        assertEquals(1, ers(h.send(h.encoder.massCancel(SESSION, 3, 0, MassCancelScope.INSTRUMENT, INSTRUMENT,
            false))).size());
    }

    @Test
    void selfTradeCancelNewest()
    {
        limit(1, 1, Side.SELL, 10_000, 10);
        final List<Object> events = limit(1, 2, Side.BUY, 10_000, 10);
        assertTrue(only(events, Harness.TradeEv.class).isEmpty());
        final Harness.Er last = ers(events).get(1);
        assertEquals(2, last.orderId());
        assertEquals(CancelReason.SELF_TRADE_PREVENTION, last.cancelReason());
    }

    @Test
    void selfTradeCancelOldestContinuesMatching()
    {
        h.account(5, SelfTradePrevention.CANCEL_OLDEST);
        h.send(h.encoder.limit(SESSION, 5, 1, INSTRUMENT, Side.SELL, 10_000, 10));
        limit(2, 2, Side.SELL, 10_000, 10);
        final List<Object> events = h.send(h.encoder.limit(SESSION, 5, 3, INSTRUMENT, Side.BUY, 10_000, 10));
        final List<Harness.TradeEv> trades = only(events, Harness.TradeEv.class);
        assertEquals(1, trades.size());
        assertEquals(2, trades.get(0).sellOrderId());
        assertEquals(CancelReason.SELF_TRADE_PREVENTION, ers(events).get(1).cancelReason());
        assertEquals(1, ers(events).get(1).orderId());
    }

    @Test
    void selfTradeCancelBothAndDecrement()
    {
        h.send(h.encoder.limit(SESSION, 1, 1, INSTRUMENT, Side.SELL, 10_000, 10));
        final List<Harness.Er> both = ers(h.send(h.encoder.newOrder(SESSION, 1, 2, INSTRUMENT, Side.BUY,
            OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.CANCEL_BOTH, 10_000, 10)));
        assertEquals(List.of(ExecType.NEW, ExecType.CANCELED, ExecType.CANCELED),
            both.stream().map(Harness.Er::execType).toList());

        h.send(h.encoder.limit(SESSION, 1, 3, INSTRUMENT, Side.SELL, 10_000, 30));
        final List<Object> events = h.send(h.encoder.newOrder(SESSION, 1, 4, INSTRUMENT, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, false, SelfTradePrevention.DECREMENT_AND_CANCEL, 10_000, 10));
        final List<Harness.Er> decrement = ers(events);
        assertEquals(ExecType.REPLACED, decrement.get(1).execType());
        assertEquals(20, decrement.get(1).quantity());
        assertEquals(ExecType.CANCELED, decrement.get(2).execType());
        assertTrue(only(events, Harness.TradeEv.class).isEmpty());
    }

    @Test
    void duplicateClientOrderIdAmongOpenOrders()
    {
        limit(1, 1, Side.BUY, 9_000, 10);
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID, ers(limit(1, 1, Side.BUY, 9_000, 10)).get(0)
            .rejectReason());
        assertEquals(ExecType.NEW, ers(limit(2, 1, Side.BUY, 9_000, 10)).get(0).execType());
        h.send(h.encoder.cancel(SESSION, 1, 2, 1, 0, INSTRUMENT));
        assertEquals(ExecType.NEW, ers(limit(1, 1, Side.BUY, 9_000, 10)).get(0).execType());
    }

    @Test
    void bookSnapshotListsLevelsBestFirst()
    {
        limit(1, 1, Side.BUY, 9_000, 10);
        limit(1, 2, Side.BUY, 9_100, 10);
        limit(2, 3, Side.SELL, 10_100, 20);
        final int before = h.sink.size();
        h.processor.publishBookSnapshot(INSTRUMENT);
        final Harness.Snapshot snapshot = (Harness.Snapshot)h.decode(before, h.sink.size()).get(0);
        assertEquals(List.of(9_100L, 9_000L, 10_100L), snapshot.levels().stream().map(Harness.Level::price).toList());
    }
}
