package io.ringex.engine.processor;

import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Trading phases through onCommand: call phases take orders and match nothing while publishing the indicative; the
 * uncrossing executes at one price in price-time priority (market orders first, icebergs whole); IOC waits for it,
 * FOK and post-only are refused; an auction with no crossing and one with only market orders; timed phases ending on
 * the ring's clock; the volatility interruption inside an aggressive order; stops triggered by an uncrossing; halts
 * and closes; and snapshots taken in the middle of an auction and before a stop cascade restoring to the same hash and
 * the same later events.
 */
final class TradingPhasesScenarioTest
{
    private static final long SECOND = 1_000_000_000L;

    private final Harness h = Harness.standard();
    private long clientOrderId = 100;
    private long requestId = 500;

    private List<Object> limit(final long account, final Side side, final long price, final long qty)
    {
        return h.send(h.encoder.limit(SESSION, account, ++clientOrderId, INSTRUMENT, side, price, qty));
    }

    private List<Object> order(
        final long account, final Side side, final OrderType type, final TimeInForce tif, final long price,
        final long qty)
    {
        return order(account, side, type, tif, price, qty, 0, 0);
    }

    private List<Object> order(
        final long account, final Side side, final OrderType type, final TimeInForce tif, final long price,
        final long qty, final long stopPrice, final long display)
    {
        return h.send(h.encoder.newOrder(SESSION, account, ++clientOrderId, INSTRUMENT, side, type, tif, false,
            SelfTradePrevention.ACCOUNT_DEFAULT, price, qty, stopPrice, display, 0, 0));
    }

    private List<Object> status(final TradingStatus status, final long durationNs)
    {
        return h.send(h.encoder.setTradingStatus(++requestId, INSTRUMENT, status, durationNs));
    }

    private static List<Harness.Er> ers(final List<Object> events)
    {
        return only(events, Harness.Er.class);
    }

    /** Trades, phase changes, admin answers and cancels, in event order. */
    private static List<String> story(final List<Object> events)
    {
        final List<String> out = new ArrayList<>();
        for (final Object e : events)
        {
            if (e instanceof Harness.TradeEv t)
            {
                out.add("T " + t.buyOrderId() + "/" + t.sellOrderId() + " " + t.quantity() + "@" + t.price() +
                    (t.auction() ? " A" : ""));
            }
            else if (e instanceof Harness.Definition d)
            {
                out.add("PHASE " + d.status());
            }
            else if (e instanceof Harness.Admin a)
            {
                out.add("ADMIN " + a.status());
            }
            else if (e instanceof Harness.Er er && (er.execType() == ExecType.CANCELED ||
                er.execType() == ExecType.TRIGGERED || er.execType() == ExecType.EXPIRED))
            {
                out.add(er.execType() + " " + er.orderId() + (er.execType() == ExecType.TRIGGERED ? "" :
                    " " + er.cancelReason()));
            }
        }
        return out;
    }

    private static Harness.Indicative indicative(final List<Object> events)
    {
        final List<Harness.Indicative> all = only(events, Harness.Indicative.class);
        assertEquals(1, all.size(), "one indicative: " + events);
        return all.get(0);
    }

    @Test
    void preOpenTakesOrdersMatchesNothingAndPublishesTheIndicative()
    {
        final List<Object> opened = status(TradingStatus.PRE_OPEN, 0);
        assertEquals(List.of("ADMIN ACCEPTED", "PHASE PRE_OPEN"), story(opened));
        assertEquals(new Harness.Indicative(0, TradingStatus.PRE_OPEN, 0, 0, 0, 0),
            indicative(opened).withMdSequence(0));

        limit(1, Side.BUY, 10_010, 10);
        final List<Object> crossing = limit(2, Side.SELL, 9_990, 10);

        assertEquals(List.of(), only(crossing, Harness.TradeEv.class), "nothing matches in a call phase");
        final Harness.Bbo bbo = only(crossing, Harness.Bbo.class).get(0);
        assertEquals(10_010, bbo.bidPrice(), "the book may cross");
        assertEquals(9_990, bbo.askPrice());
        final Harness.Indicative now = indicative(crossing);
        assertEquals(10_000, now.price(), "no surplus either way: the reference price");
        assertEquals(10, now.matched());
        assertEquals(0, now.imbalance());
    }

    @Test
    void theOpeningUncrossesEveryCrossingOrderAtOnePriceInPriceTimePriority()
    {
        status(TradingStatus.PRE_OPEN, 0);
        limit(1, Side.BUY, 10_020, 40);   // 1
        limit(1, Side.BUY, 10_000, 20);   // 2
        limit(2, Side.SELL, 9_990, 30);   // 3
        final List<Object> fourth = limit(3, Side.SELL, 10_010, 20);  // 4
        // 99.90 and 100.00 execute 30; 100.10 and 100.20 execute 40 with 10 left on the sell side: the lower
        assertEquals(10_010, indicative(fourth).price());
        assertEquals(40, indicative(fourth).matched());
        assertEquals(-10, indicative(fourth).imbalance());
        final List<Object> fifth = limit(2, Side.SELL, 10_030, 20);  // 5
        assertEquals(List.of(), only(fifth, Harness.Indicative.class), "an ask above the price changes nothing");

        final List<Object> events = status(TradingStatus.OPEN, 0);

        assertEquals(List.of("T 1/3 30@10010 A", "T 1/4 10@10010 A", "ADMIN ACCEPTED", "PHASE OPEN"), story(events));
        assertEquals(10_000, h.processor.state().book(INSTRUMENT).bestBidPrice());
        assertEquals(10_010, h.processor.state().book(INSTRUMENT).bestAskPrice());
        assertEquals(10, h.processor.state().book(INSTRUMENT).bestAskQuantity());
        assertEquals(List.of(), only(events, Harness.Indicative.class), "no indicative outside call phases");
    }

    @Test
    void anAuctionWithNoCrossingExecutesNothing()
    {
        status(TradingStatus.PRE_OPEN, 0);
        limit(1, Side.BUY, 9_990, 10);
        final List<Object> last = limit(2, Side.SELL, 10_010, 10);
        assertEquals(List.of(), only(last, Harness.Indicative.class), "still nothing would execute: unchanged");

        assertEquals(List.of("ADMIN ACCEPTED", "PHASE OPEN"), story(status(TradingStatus.OPEN, 0)));
        assertEquals(2, h.processor.state().orders().size());
    }

    @Test
    void anAuctionWithOnlyMarketOrdersExecutesAtTheReferencePrice()
    {
        status(TradingStatus.PRE_OPEN, 0);
        final List<Object> buy = order(1, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 30);
        assertEquals(ExecType.NEW, ers(buy).get(0).execType());
        assertEquals(List.of(), only(buy, Harness.Level.class), "market orders are not in the book's levels");
        final List<Object> sell = order(2, Side.SELL, OrderType.MARKET, TimeInForce.IOC, 0, 20);
        assertEquals(new Harness.Indicative(0, TradingStatus.PRE_OPEN, 10_000, 20, 10, 0),
            indicative(sell).withMdSequence(0));

        final List<Object> events = status(TradingStatus.OPEN, 0);

        assertEquals(List.of("T 1/2 20@10000 A", "CANCELED 1 IOC_REMAINDER", "ADMIN ACCEPTED", "PHASE OPEN"),
            story(events));
    }

    @Test
    void aCallPhaseRefusesFokAndPostOnlyAndKeepsAnIocForTheUncrossing()
    {
        status(TradingStatus.PRE_OPEN, 0);
        assertEquals(RejectReason.NOT_ALLOWED_IN_PHASE,
            ers(order(1, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, 10_000, 10)).get(0).rejectReason());
        assertEquals(RejectReason.NOT_ALLOWED_IN_PHASE,
            ers(order(1, Side.BUY, OrderType.MARKET, TimeInForce.FOK, 0, 10)).get(0).rejectReason());
        assertEquals(RejectReason.NOT_ALLOWED_IN_PHASE, ers(h.send(h.encoder.newOrder(SESSION, 1, ++clientOrderId,
            INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, SelfTradePrevention.ACCOUNT_DEFAULT, 9_990,
            10))).get(0).rejectReason());
        assertEquals(RejectReason.NOT_ALLOWED_IN_PHASE, ers(h.send(h.encoder.newOrder(SESSION, 1, ++clientOrderId,
            INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
            10_000, 20, 0, 0, 10, 0))).get(0).rejectReason());
        final List<Object> ioc = order(1, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, 10_000, 20);  // order 1
        assertEquals(ExecType.NEW, ers(ioc).get(0).execType());
        assertEquals(20, only(ioc, Harness.Level.class).get(0).quantity(), "it waits in the book");
        limit(2, Side.SELL, 10_000, 10);

        assertEquals(List.of("T 1/2 10@10000 A", "CANCELED 1 IOC_REMAINDER", "ADMIN ACCEPTED", "PHASE OPEN"),
            story(status(TradingStatus.OPEN, 0)));
    }

    @Test
    void aVolatilityInterruptionInsideAnAggressiveOrder()
    {
        assertEquals(AdminStatus.ACCEPTED, only(h.send(h.encoder.setDynamicBand(++requestId, INSTRUMENT, 100,
            5 * SECOND)), Harness.Admin.class).get(0).status());
        limit(2, Side.SELL, 10_050, 10);  // 1
        limit(2, Side.SELL, 10_090, 10);  // 2
        limit(2, Side.SELL, 10_150, 10);  // 3
        limit(2, Side.SELL, 10_200, 10);  // 4

        // 1% either side of 100.00: up to 101.00 trades; the next ask, 101.50, would not
        final List<Object> events = limit(1, Side.BUY, 10_200, 40);  // 5
        final long interruptedAt = h.time;

        assertEquals(List.of("T 5/1 10@10050", "T 5/2 10@10090", "PHASE VOLATILITY_AUCTION"), story(events));
        final Harness.Level rest = only(events, Harness.Level.class).get(2);
        assertEquals(new Harness.Level(rest.mdSequence(), Side.BUY, 10_200, 20, 1), rest,
            "the remainder rests in the volatility auction, the book crossed");
        final Harness.Indicative auction = indicative(events);
        assertEquals(TradingStatus.VOLATILITY_AUCTION, auction.status());
        assertEquals(10_200, auction.price());
        assertEquals(20, auction.matched());
        assertEquals(interruptedAt + 5 * SECOND, auction.endNs());
        assertEquals(interruptedAt + 5 * SECOND, h.processor.nextDeadlineNs());

        final List<Object> ended = h.sendAt(interruptedAt + 5 * SECOND, h.encoder.tick(interruptedAt + 5 * SECOND));
        assertEquals(List.of("T 5/3 10@10200 A", "T 5/4 10@10200 A", "PHASE OPEN"), story(ended));
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs());
    }

    @Test
    void anIocOrMarketOrderThatHitsTheBandLosesItsRemainder()
    {
        h.send(h.encoder.setDynamicBand(++requestId, INSTRUMENT, 100, SECOND));
        limit(2, Side.SELL, 10_050, 10);
        limit(2, Side.SELL, 10_150, 10);

        final List<Object> events = order(1, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 20);

        assertEquals(List.of("T 3/1 10@10050", "PHASE VOLATILITY_AUCTION", "CANCELED 3 MARKET_PROTECTION"),
            story(events));
        assertEquals(RejectReason.NOT_ALLOWED_IN_PHASE, ers(order(1, Side.BUY, OrderType.LIMIT, TimeInForce.FOK,
            10_150, 10)).get(0).rejectReason(), "FOK is not allowed in the auction that follows");
    }

    @Test
    void timedAuctionsEndOnTheRingsClock()
    {
        final List<Object> opening = status(TradingStatus.OPENING_AUCTION, 2 * SECOND);
        final long start = h.time;
        assertEquals(start + 2 * SECOND, indicative(opening).endNs());
        assertEquals(start + 2 * SECOND, h.processor.nextDeadlineNs());
        limit(1, Side.BUY, 10_000, 10);
        limit(2, Side.SELL, 10_000, 10);
        assertEquals(List.of(), story(h.sendAt(start + 2 * SECOND - 1, h.encoder.tick(0))));
        assertEquals(List.of("T 1/2 10@10000 A", "PHASE OPEN"),
            story(h.sendAt(start + 2 * SECOND, h.encoder.tick(start + 2 * SECOND))));

        order(3, Side.BUY, OrderType.STOP, TimeInForce.GTC, 0, 10, 10_100, 0);  // 3
        status(TradingStatus.CLOSING_AUCTION, SECOND);
        limit(1, Side.BUY, 10_000, 20);  // 4
        limit(2, Side.SELL, 9_995, 10);  // 5
        final long closeAt = h.time - 2 + SECOND;
        final List<Object> closed = h.sendAt(closeAt, h.encoder.tick(closeAt));
        // 99.95 and 100.00 both execute 10 leaving 10 on the buy side: the higher
        assertEquals(List.of("T 4/5 10@10000 A", "CANCELED 3 INSTRUMENT_HALTED", "CANCELED 4 INSTRUMENT_HALTED",
            "PHASE CLOSED"), story(closed));
        assertEquals(0, h.processor.state().orders().size());
    }

    @Test
    void anIcebergTakesPartInAnAuctionWithItsWholeSizeAndShowsANewPeakAfter()
    {
        status(TradingStatus.PRE_OPEN, 0);
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_000, 100, 0, 20);  // 1
        limit(3, Side.SELL, 10_000, 10);                                            // 2
        final List<Object> buy = limit(1, Side.BUY, 10_000, 50);                    // 3
        assertEquals(50, indicative(buy).matched());

        final List<Object> events = status(TradingStatus.OPEN, 0);

        assertEquals(List.of("T 3/1 50@10000 A", "ADMIN ACCEPTED", "PHASE OPEN"), story(events));
        assertEquals(30, h.processor.state().book(INSTRUMENT).bestAskQuantity(), "order 2's 10 and a new peak of 20");
        final List<Object> next = limit(1, Side.BUY, 10_000, 10);
        assertEquals(List.of("T 4/2 10@10000"), story(next), "the refreshed peak went behind order 2");
    }

    @Test
    void stopsTriggeredByAnUncrossingEnterOnceContinuousTradingHasStarted()
    {
        order(3, Side.BUY, OrderType.STOP, TimeInForce.GTC, 0, 10, 10_005, 0);  // 1
        status(TradingStatus.PRE_OPEN, 0);
        limit(1, Side.BUY, 10_010, 10);   // 2
        limit(2, Side.SELL, 10_010, 10);  // 3
        limit(2, Side.SELL, 10_050, 10);  // 4

        final List<Object> events = status(TradingStatus.OPEN, 0);

        assertEquals(List.of("T 2/3 10@10010 A", "ADMIN ACCEPTED", "PHASE OPEN", "TRIGGERED 1", "T 1/4 10@10050"),
            story(events));
    }

    @Test
    void haltedOutOfACallPhaseKeepsItsOrdersAndReopeningUncrosses()
    {
        status(TradingStatus.PRE_OPEN, 0);
        limit(1, Side.BUY, 10_010, 10);
        order(2, Side.SELL, OrderType.MARKET, TimeInForce.IOC, 0, 20);
        final List<Object> halted = status(TradingStatus.HALTED, 0);
        assertEquals(List.of("ADMIN ACCEPTED", "PHASE HALTED"), story(halted));
        assertEquals(RejectReason.INSTRUMENT_HALTED, ers(limit(3, Side.BUY, 10_000, 10)).get(0).rejectReason());

        // 100.00 and 100.10 both execute 10 leaving 10 on the sell side: the lower
        assertEquals(List.of("T 1/2 10@10000 A", "CANCELED 2 IOC_REMAINDER", "ADMIN ACCEPTED", "PHASE OPEN"),
            story(status(TradingStatus.OPEN, 0)));
    }

    @Test
    void phaseAndBandCommandsAreValidated()
    {
        assertEquals(RejectReason.INVALID_ARGUMENT, only(status(TradingStatus.OPEN, SECOND), Harness.Admin.class)
            .get(0).reason(), "a duration for continuous trading");
        assertEquals(RejectReason.INVALID_ARGUMENT, only(status(TradingStatus.PRE_OPEN, -1), Harness.Admin.class)
            .get(0).reason());
        assertEquals(RejectReason.INVALID_ARGUMENT, only(h.send(h.encoder.setDynamicBand(++requestId, INSTRUMENT,
            100, 0)), Harness.Admin.class).get(0).reason(), "a band without an auction length");
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, only(h.send(h.encoder.setDynamicBand(++requestId, 99, 100,
            SECOND)), Harness.Admin.class).get(0).reason());
        assertEquals(AdminStatus.ACCEPTED, only(h.send(h.encoder.setDynamicBand(++requestId, INSTRUMENT, 0, 0)),
            Harness.Admin.class).get(0).status(), "off");
    }

    @Test
    void aSnapshotInTheMiddleOfAnAuctionRestoresToTheSameHashAndTheSameLaterEvents()
    {
        h.send(h.encoder.setDynamicBand(++requestId, INSTRUMENT, 200, SECOND));
        limit(1, Side.BUY, 9_990, 10);
        limit(2, Side.SELL, 10_010, 10);
        order(3, Side.BUY, OrderType.STOP, TimeInForce.GTC, 0, 10, 10_020, 0);
        order(3, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.GTC, 10_100, 10, 10_030, 0);
        h.send(h.encoder.newOrder(SESSION, 1, ++clientOrderId, INSTRUMENT, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTD, false, SelfTradePrevention.ACCOUNT_DEFAULT, 9_980, 10, 0, 0, 0, h.time + 3 * SECOND));
        status(TradingStatus.OPENING_AUCTION, 2 * SECOND);
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 10_020, 60, 0, 20);
        order(1, Side.BUY, OrderType.MARKET, TimeInForce.IOC, 0, 30);
        limit(1, Side.BUY, 10_030, 30);
        order(2, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, 10_000, 10);
        limit(2, Side.SELL, 10_030, 10);
        limit(2, Side.SELL, 10_040, 10);
        h.endBatch();

        final long end = h.time + 2 * SECOND;
        final Harness restored = restoredCopy();
        compareLater(restored, end, h.encoder.tick(end));
        compareLater(restored, end + SECOND, h.encoder.tick(end + SECOND));
        compareLater(restored, end + SECOND + 1, h.encoder.limit(SESSION, 3, ++clientOrderId, INSTRUMENT,
            Side.BUY, 10_040, 10));
        assertTrue(h.processor.state().lastTradeId() >= 3, "the auction and what followed traded");
    }

    @Test
    void aSnapshotBeforeAStopCascadeRestoresToTheSameHashAndTheSameCascade()
    {
        for (int i = 1; i <= 5; i++)
        {
            limit(2, Side.SELL, 10_000 + 10 * i, 10);
        }
        for (int i = 1; i <= 4; i++)
        {
            order(1 + i % 2 * 2, Side.BUY, OrderType.STOP, TimeInForce.GTC, 0, 10, 10_000 + 10 * i, 0);
        }
        order(3, Side.BUY, OrderType.STOP_LIMIT, TimeInForce.GTC, 10_040, 20, 10_035, 0);
        h.endBatch();

        final Harness restored = restoredCopy();
        final List<Object> cascade = compareLater(restored, h.time + 1, h.encoder.limit(SESSION, 1, ++clientOrderId,
            INSTRUMENT, Side.BUY, 10_010, 10));
        assertTrue(only(cascade, Harness.TradeEv.class).size() >= 4, "a cascade through several levels: " + cascade);
    }

    private Harness restoredCopy()
    {
        final ExpandableArrayBuffer image = new ExpandableArrayBuffer(1 << 16);
        final int length = h.processor.writeSnapshot(image, 0);
        final Harness restored = new Harness();
        restored.processor.restore(image, 0, length);
        restored.sequence = h.sequence;
        restored.time = h.time;
        assertEquals(BookDescription.describe(h.processor.state()),
            BookDescription.describe(restored.processor.state()));
        assertEquals(h.processor.stateHash(), restored.processor.stateHash());
        assertEquals(h.processor.nextDeadlineNs(), restored.processor.nextDeadlineNs());
        return restored;
    }

    /** The same command into the original and the restored processor: the same events, byte for byte, and hash. */
    private List<Object> compareLater(final Harness restored, final long timeNs, final int length)
    {
        final int before = h.sink.size();
        final int restoredBefore = restored.sink.size();
        restored.encoder.buffer().putBytes(0, h.encoder.buffer(), 0, length);
        final List<Object> events = h.sendAt(timeNs, length);
        restored.sendAt(timeNs, length);
        h.endBatch();
        restored.endBatch();
        assertEquals(h.sink.size() - before, restored.sink.size() - restoredBefore, "event count");
        for (int i = 0; i < h.sink.size() - before; i++)
        {
            assertArrayEquals(h.sink.eventBytes(before + i), restored.sink.eventBytes(restoredBefore + i),
                "event " + i + " " + h.decode(h.sink.offset(before + i)));
        }
        assertEquals(h.processor.stateHash(), restored.processor.stateHash());
        return events;
    }
}
