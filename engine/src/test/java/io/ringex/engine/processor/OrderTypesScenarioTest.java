package io.ringex.engine.processor;

import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.PriceLevels;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.OlderVersions;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order types of schema version 2 through onCommand, one rule each: stops and stop-limits (trigger, the order
 * triggered stops enter in, cascades, checks at entry and again at trigger), icebergs (what market data shows, refresh
 * to the back of the queue), GTD (expiry on the ring's clock, with a fill in the same batch), minimum quantity, and a
 * version-1 NewOrder still accepted.
 */
final class OrderTypesScenarioTest
{
    private static final long MS = 1_000_000L;

    private final Harness h = Harness.standard();
    private long clientOrderId = 100;

    private List<Object> limit(final long account, final Side side, final long price, final long qty)
    {
        return h.send(h.encoder.limit(SESSION, account, ++clientOrderId, INSTRUMENT, side, price, qty));
    }

    private List<Object> order(
        final long account, final Side side, final OrderType type, final TimeInForce tif, final long price,
        final long qty, final long stopPrice, final long display, final long minQty, final long expire)
    {
        return h.send(h.encoder.newOrder(SESSION, account, ++clientOrderId, INSTRUMENT, side, type, tif, false,
            SelfTradePrevention.ACCOUNT_DEFAULT, price, qty, stopPrice, display, minQty, expire));
    }

    private List<Object> stop(final long account, final Side side, final long stopPrice, final long qty)
    {
        return order(account, side, OrderType.STOP, TimeInForce.GTC, 0, qty, stopPrice, 0, 0, 0);
    }

    private static List<Harness.Er> ers(final List<Object> events)
    {
        return only(events, Harness.Er.class);
    }

    private static RejectReason rejected(final List<Object> events)
    {
        final Harness.Er er = ers(events).get(0);
        assertEquals(ExecType.REJECTED, er.execType());
        return er.rejectReason();
    }

    /** "TRIG id", "T buy/sell qty@price", in event order. */
    private static List<String> story(final List<Object> events)
    {
        final List<String> out = new ArrayList<>();
        for (final Object e : events)
        {
            if (e instanceof Harness.Er er && er.execType() == ExecType.TRIGGERED)
            {
                out.add("TRIG " + er.orderId());
            }
            else if (e instanceof Harness.TradeEv t)
            {
                out.add("T " + t.buyOrderId() + "/" + t.sellOrderId() + " " + t.quantity() + "@" + t.price());
            }
        }
        return out;
    }

    @Test
    void aStopWaitsUnseenUntilATradeReachesItThenEntersAfterThatOrder()
    {
        final List<Object> accepted = order(1, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.GTC, 10_060, 10, 10_050,
            0, 0, 0);
        final Harness.Er ack = ers(accepted).get(0);
        assertEquals(ExecType.NEW, ack.execType());
        assertEquals(OrderType.STOP_LIMIT, ack.orderType());
        assertEquals(10_050, ack.stopPrice());
        assertEquals(10_060, ack.price());
        assertEquals(List.of(), only(accepted, Harness.Level.class), "a pending stop is not in the book");
        assertEquals(List.of(), only(accepted, Harness.Bbo.class));

        limit(2, Side.SELL, 10_050, 10);
        limit(2, Side.SELL, 10_060, 10);
        final List<Object> events = limit(3, Side.BUY, 10_050, 10);
        assertEquals(List.of("T 4/2 10@10050", "TRIG 1", "T 1/3 10@10060"), story(events));
        final List<Harness.Er> reports = ers(events);
        final Harness.Er triggered = reports.stream().filter(e -> e.execType() == ExecType.TRIGGERED).findFirst()
            .orElseThrow();
        assertEquals(OrderStatus.NEW, triggered.status());
        assertEquals(10, triggered.leaves());
        assertEquals(h.sequence, triggered.commandSequence(), "triggered within the command that traded");
    }

    @Test
    void aStopCascadeAcrossSeveralPriceLevelsInTriggerOrder()
    {
        // asks one lot at each of 10 010 .. 10 040; buy stops at the first three prices
        for (int i = 1; i <= 4; i++)
        {
            limit(2, Side.SELL, 10_000 + 10 * i, 10);
        }
        stop(1, Side.BUY, 10_030, 10);  // order 5
        stop(3, Side.BUY, 10_020, 10);  // order 6
        stop(1, Side.BUY, 10_010, 10);  // order 7
        stop(3, Side.BUY, 10_010, 10);  // order 8: same stop price, later arrival

        final List<Object> events = limit(3, Side.BUY, 10_010, 10);

        // the trade at 10 010 triggers 7 then 8 (arrival at one stop price); 7 lifts 10 020, which triggers 6
        // (queued behind 8); 8 lifts 10 030, which triggers 5; 6 lifts 10 040; 5 finds no ask left and is canceled
        assertEquals(List.of("T 9/1 10@10010", "TRIG 7", "T 7/2 10@10020", "TRIG 8", "T 8/3 10@10030", "TRIG 6",
            "T 6/4 10@10040", "TRIG 5"), story(events));
        final Harness.Er last = ers(events).get(ers(events).size() - 1);
        assertEquals(5, last.orderId());
        assertEquals(CancelReason.MARKET_PROTECTION, last.cancelReason());
        assertEquals(RejectReason.NO_LIQUIDITY, last.rejectReason());
    }

    @Test
    void aLowerStopPriceEntersFirstWhenOneTradeReachesSeveral()
    {
        limit(2, Side.SELL, 10_020, 10);
        stop(1, Side.BUY, 10_020, 10);  // order 2, first to arrive
        stop(1, Side.BUY, 10_015, 10);  // order 3, lower stop price
        limit(2, Side.SELL, 10_100, 10);
        limit(2, Side.SELL, 10_200, 10);

        final List<Object> events = limit(3, Side.BUY, 10_020, 10);

        assertEquals(List.of("T 6/1 10@10020", "TRIG 3", "T 3/4 10@10100", "TRIG 2", "T 2/5 10@10200"),
            story(events));
    }

    @Test
    void aStopMustNotBeReachedAlreadyAndOnlyRestingTimesInForceMayWait()
    {
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(stop(1, Side.BUY, 10_000, 10)),
            "a buy stop at the last (reference) price is reached already");
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(stop(1, Side.SELL, 10_005, 10)));
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(stop(1, Side.BUY, 0, 10)));
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(stop(1, Side.BUY, 10_002, 10)), "off the tick");
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(stop(1, Side.BUY, 20_000, 10)), "outside the band");
        assertEquals(RejectReason.INVALID_STOP_PRICE, rejected(order(1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
            10_000, 10, 10_100, 0, 0, 0)), "a stop price on a limit order");
        assertEquals(RejectReason.INVALID_ORDER_TYPE, rejected(order(1, Side.BUY, OrderType.STOP, TimeInForce.IOC,
            0, 10, 10_100, 0, 0, 0)));
        assertEquals(RejectReason.INVALID_ORDER_TYPE, rejected(order(1, Side.BUY, OrderType.STOP_LIMIT,
            TimeInForce.GTC, 10_100, 20, 10_100, 10, 0, 0)), "an iceberg stop");
        assertEquals(ExecType.NEW, ers(stop(1, Side.SELL, 9_995, 10)).get(0).execType());
    }

    @Test
    void aStopReservesAtEntryAndIsCheckedAgainAtTrigger()
    {
        order(1, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.GTC, 10_100, 20, 10_050, 0, 0, 0);
        assertEquals(10_100L * 20 * 1_000_000, h.processor.state().account(1).reserved(),
            "20 at 101.00, at money scale");
        assertEquals(1, h.processor.state().account(1).openOrders());

        // the risk officer lowers account 1's largest order below the stop's quantity
        h.send(h.encoder.setLimits(901, 1, 10, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8, Harness.BIG, 10_000, true,
            new int[0], new long[0]));
        limit(2, Side.SELL, 10_050, 10);
        final List<Object> events = limit(3, Side.BUY, 10_050, 10);

        final Harness.Er last = ers(events).get(ers(events).size() - 1);
        assertEquals(1, last.orderId());
        assertEquals(ExecType.CANCELED, last.execType());
        assertEquals(CancelReason.TRIGGER_REJECTED, last.cancelReason());
        assertEquals(RejectReason.MAX_ORDER_QUANTITY, last.rejectReason());
        assertEquals(0, h.processor.state().account(1).reserved());
        assertEquals(0, h.processor.state().account(1).openOrders());
    }

    @Test
    void aPendingStopMayMoveItsStopPriceAndKeepsItsPlaceWhenOnlyReduced()
    {
        stop(1, Side.BUY, 10_050, 20);   // order 1
        stop(3, Side.BUY, 10_050, 20);   // order 2
        final List<Object> reduced = h.send(h.encoder.replace(SESSION, 1, ++clientOrderId, 0, 1, INSTRUMENT, 0, 10));
        assertEquals(ExecType.REPLACED, ers(reduced).get(0).execType());
        final List<Object> refused = h.send(h.encoder.replace(SESSION, 3, ++clientOrderId, 0, 2, INSTRUMENT, 0, 20,
            9_990));
        assertEquals(RejectReason.INVALID_STOP_PRICE, only(refused, Harness.CxlRej.class).get(0).reason());
        limit(2, Side.SELL, 10_050, 10);
        limit(2, Side.SELL, 10_060, 40);

        final List<Object> events = limit(3, Side.BUY, 10_050, 10);

        assertEquals(List.of("T 5/3 10@10050", "TRIG 1", "T 1/4 10@10060", "TRIG 2", "T 2/4 20@10060"),
            story(events), "order 1 kept its place ahead of order 2");
    }

    @Test
    void anIcebergShowsOnlyItsPeakInEveryMarketDataEvent()
    {
        final List<Object> events = order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_000, 100, 0, 20, 0, 0);

        assertEquals(100, ers(events).get(0).leaves());
        assertEquals(20, ers(events).get(0).displayQuantity());
        assertEquals(List.of(new Harness.Level(1, Side.SELL, 10_000, 20, 1)), only(events, Harness.Level.class));
        assertEquals(20, only(events, Harness.Bbo.class).get(0).askQuantity());
        h.processor.publishBookSnapshot(INSTRUMENT);
        final Harness.Snapshot snapshot = (Harness.Snapshot)h.decode(h.sink.offset(h.sink.size() - 1));
        assertEquals(20, snapshot.levels().get(0).quantity());
    }

    @Test
    void anIcebergRefreshedSeveralTimesWithinOneAggressiveOrder()
    {
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_000, 100, 0, 20, 0, 0);  // order 1
        limit(3, Side.SELL, 10_000, 30);                                                   // order 2

        final List<Object> events = limit(1, Side.BUY, 10_000, 90);

        // the peak trades, the next peak joins the back (behind order 2), and so on while the buyer has leaves
        assertEquals(List.of("T 3/1 20@10000", "T 3/2 30@10000", "T 3/1 20@10000", "T 3/1 20@10000"), story(events));
        for (final Harness.TradeEv trade : only(events, Harness.TradeEv.class))
        {
            assertTrue(trade.quantity() <= 30, "no fill larger than what was shown");
        }
        final List<Harness.Level> levels = only(events, Harness.Level.class);
        assertEquals(List.of(30L, 50L, 20L, 20L, 20L), levels.stream().map(Harness.Level::quantity).toList(),
            "each update shows the visible part only: after the first fill order 1 leaves its place (30 of order 2 " +
            "left) and its new peak of 20 joins the back (50); alone at its price later, it refreshes in place");
        assertEquals(20, h.processor.state().book(INSTRUMENT).bestAskQuantity());
        assertEquals(40, h.processor.state().orders().byId(1).leavesQuantity());
    }

    @Test
    void anIcebergRefreshReachesTheOrderByOrderFeedAsItsPlaceEndedThenItsNewPeakAtTheBack()
    {
        final int from = h.sink.size();
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_000, 100, 0, 20, 0, 0);  // order 1
        limit(3, Side.SELL, 10_000, 30);                                                   // order 2
        limit(3, Side.SELL, 10_000, 10);                                                   // order 3
        limit(1, Side.BUY, 10_000, 30); // order 1's peak, then 10 of order 2

        // A subscriber's order-by-order book, built from the feed alone, checked against each event's level totals.
        final MarketDataBook subscriber = new MarketDataBook(INSTRUMENT);
        final BookLevelUpdateDecoder update = new BookLevelUpdateDecoder();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final List<String> actions = new ArrayList<>();
        for (int i = from; i < h.sink.size(); i++)
        {
            header.wrap(h.sink.events(), h.sink.offset(i));
            if (header.templateId() != BookLevelUpdateDecoder.TEMPLATE_ID)
            {
                continue;
            }
            update.wrapAndApplyHeader(h.sink.events(), h.sink.offset(i), header);
            final boolean buy = update.side() == Side.BUY;
            final boolean applied = switch (update.orderAction())
            {
                case ADD -> subscriber.add(update.orderId(), buy, update.price(), update.orderQuantity());
                case MODIFY, EXECUTE -> subscriber.update(update.orderId(), update.orderQuantity());
                case DELETE -> subscriber.delete(update.orderId());
                default -> false;
            };
            assertTrue(applied, "event " + update);
            final int level = subscriber.levelIndex(buy, update.price());
            assertEquals(update.quantity(), level == MarketDataBook.NONE ? 0 : subscriber.levelQuantity(buy, level));
            assertEquals(update.orderCount(), level == MarketDataBook.NONE ? 0 :
                subscriber.levelOrderCount(buy, level));
            actions.add(update.orderAction() + " " + update.orderId() + " " + update.orderQuantity());
        }
        assertEquals(List.of("ADD 1 20", "ADD 2 30", "ADD 3 10", "EXECUTE 1 0", "ADD 1 20", "EXECUTE 2 20"),
            actions, "the refresh: order 1 leaves its place, its new peak joins the back");

        final List<Long> engineQueue = new ArrayList<>();
        final PriceLevels levels = h.processor.state().book(INSTRUMENT).levels();
        for (Order o = levels.head(levels.index(10_000), false); o != null; o = PriceLevels.next(o))
        {
            engineQueue.add(o.orderId());
        }
        final List<Long> subscriberQueue = new ArrayList<>();
        subscriber.forEachOrder(false, subscriber.levelIndex(false, 10_000),
            (orderId, buy, price, quantity) -> subscriberQueue.add(orderId));
        assertEquals(List.of(2L, 3L, 1L), engineQueue);
        assertEquals(engineQueue, subscriberQueue, "the subscriber's queue is the engine's");
    }

    @Test
    void anIcebergReplacedDownGivesUpItsHiddenPartFirstAndKeepsItsPlace()
    {
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_000, 100, 0, 20, 0, 0);
        final List<Object> events = h.send(h.encoder.replace(SESSION, 2, ++clientOrderId, 0, 1, INSTRUMENT, 10_000,
            30));
        assertEquals(30, ers(events).get(0).leaves());
        assertEquals(20, only(events, Harness.Level.class).get(0).quantity(), "the peak is untouched");
        final List<Object> smaller = h.send(h.encoder.replace(SESSION, 2, ++clientOrderId, 0, 1, INSTRUMENT, 10_000,
            10));
        assertEquals(10, only(smaller, Harness.Level.class).get(0).quantity(), "leaves below the peak");
    }

    @Test
    void displayQuantityRules()
    {
        assertEquals(RejectReason.INVALID_DISPLAY_QUANTITY, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, 10_000, 100, 0, 110, 0, 0)));
        assertEquals(RejectReason.INVALID_DISPLAY_QUANTITY, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, 10_000, 100, 0, 15, 0, 0)), "off the lot");
        assertEquals(RejectReason.INVALID_ORDER_TYPE, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.IOC, 10_000, 100, 0, 10, 0, 0)));
        assertEquals(RejectReason.INVALID_ORDER_TYPE, rejected(order(1, Side.BUY, OrderType.MARKET,
            TimeInForce.IOC, 0, 100, 0, 10, 0, 0)));
    }

    @Test
    void aGtdOrderExpiresAtItsTimeOnTheRingsClock()
    {
        final long t0 = h.time;
        order(1, Side.BUY, OrderType.LIMIT, TimeInForce.GTD, 9_990, 10, 0, 0, 0, t0 + 50 * MS);
        assertEquals(t0 + 50 * MS, h.processor.nextDeadlineNs());

        assertEquals(List.of(), ers(h.sendAt(t0 + 50 * MS - 1, h.encoder.tick(0))), "not before its time");
        final List<Object> events = h.sendAt(t0 + 50 * MS, h.encoder.tick(t0 + 50 * MS));

        final Harness.Er expired = ers(events).get(0);
        assertEquals(ExecType.EXPIRED, expired.execType());
        assertEquals(OrderStatus.EXPIRED, expired.status());
        assertEquals(CancelReason.EXPIRE_TIME, expired.cancelReason());
        assertEquals(t0 + 50 * MS, expired.transactTimeNs());
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs());
    }

    @Test
    void aGtdExpiringInTheSameBatchAsAFillExpiresBeforeTheCommandThatFoundItDue()
    {
        final long t0 = h.time;
        order(1, Side.BUY, OrderType.LIMIT, TimeInForce.GTD, 10_000, 30, 0, 0, 0, t0 + 10 * MS);  // order 1
        h.endBatch();

        // one batch: a partial fill before the expiry, then a command after it
        final List<Object> fill = h.sendAt(t0 + 5 * MS, h.encoder.limit(SESSION, 2, ++clientOrderId, INSTRUMENT,
            Side.SELL, 10_000, 10));
        assertEquals(List.of("T 1/2 10@10000"), story(fill));
        final List<Object> later = h.sendAt(t0 + 20 * MS, h.encoder.limit(SESSION, 3, ++clientOrderId, INSTRUMENT,
            Side.SELL, 10_000, 10));
        final List<Object> risk = h.endBatch();

        final List<Harness.Er> reports = ers(later);
        assertEquals(ExecType.EXPIRED, reports.get(0).execType(), "the expiry comes before the command's own events");
        assertEquals(1, reports.get(0).orderId());
        assertEquals(10, reports.get(0).cumulative());
        assertEquals(ExecType.NEW, reports.get(1).execType());
        assertEquals(List.of(), only(later, Harness.TradeEv.class), "the sell finds no buyer: it expired first");
        assertEquals(3, only(risk, Harness.Risk.class).size(), "one risk update per account the batch touched");
        assertEquals(0, h.processor.state().account(1).reserved());
    }

    @Test
    void gtdNeedsAFutureExpiryAndOnlyGtdTakesOne()
    {
        assertEquals(RejectReason.INVALID_EXPIRE_TIME, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTD, 10_000, 10, 0, 0, 0, 0)));
        assertEquals(RejectReason.INVALID_EXPIRE_TIME, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTD, 10_000, 10, 0, 0, 0, h.time + 1)), "expiring at the command's own time");
        assertEquals(RejectReason.INVALID_EXPIRE_TIME, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.DAY, 10_000, 10, 0, 0, 0, h.time + MS)));
    }

    @Test
    void minimumQuantityAppliesToWhatTradesOnEntry()
    {
        limit(2, Side.SELL, 10_000, 20);
        assertEquals(RejectReason.MIN_QUANTITY_NOT_MET, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.IOC, 10_000, 50, 0, 0, 30, 0)));
        assertEquals(RejectReason.MIN_QUANTITY_NOT_MET, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, 10_000, 50, 0, 0, 30, 0)), "it would trade, but less than its minimum");
        assertEquals(RejectReason.MIN_QUANTITY_NOT_MET, rejected(order(1, Side.BUY, OrderType.MARKET,
            TimeInForce.IOC, 0, 50, 0, 0, 30, 0)));
        final List<Object> passive = order(1, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 9_990, 50, 0, 0, 30, 0);
        assertEquals(ExecType.NEW, ers(passive).get(0).execType(), "a resting order that would not trade rests");
        limit(3, Side.SELL, 10_000, 20);
        final List<Object> filled = order(1, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 10_000, 50, 0, 0, 30, 0);
        assertEquals(List.of("T 4/1 20@10000", "T 4/3 20@10000"), story(filled));
        assertEquals(CancelReason.IOC_REMAINDER, ers(filled).get(ers(filled).size() - 1).cancelReason());
        assertEquals(RejectReason.INVALID_MIN_QUANTITY, rejected(order(1, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, 10_000, 50, 0, 0, 60, 0)));
    }

    @Test
    void aVersionOneNewOrderIsStillAccepted()
    {
        final int length = h.encoder.limit(SESSION, 1, ++clientOrderId, INSTRUMENT, Side.BUY, 9_990, 10);
        final UnsafeBuffer older = new UnsafeBuffer(new byte[256]);
        final int olderLength = OlderVersions.copyAs(h.encoder.buffer(), 0, length, 1, older, 0);
        assertEquals(RejectReason.NONE, new MessageValidator(256).validate(older, 0, olderLength));
        // stale bytes after the version-1 block must not be read as the new terms
        older.setMemory(olderLength, 64, (byte)0x7F);
        final int before = h.sink.size();
        h.processor.onCommand(++h.sequence, ++h.time, Harness.ADMIN_SOURCE, older, 0, olderLength);
        final Harness.Er er = ers(h.decode(before, h.sink.size())).get(0);
        assertEquals(ExecType.NEW, er.execType());
        assertEquals(0, er.stopPrice());
        assertEquals(0, er.displayQuantity());
    }
}
