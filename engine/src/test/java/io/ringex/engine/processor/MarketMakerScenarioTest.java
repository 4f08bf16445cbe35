package io.ringex.engine.processor;

import io.ringex.client.QuoteEntries;
import io.ringex.protocol.codecs.CancelAllAfterStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.MmpLimit;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.QuoteEntryStatus;
import io.ringex.protocol.codecs.QuoteStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mass quotes, quote cancels, market-maker protection, cancel-all-after and the cancel-on-disconnect grace, command by
 * command through the processor. Instrument 1 (and 2, 3 alike): scale 2, tick 5, lot 10, reference 100.00; account 1 is
 * the market maker, 2 and 3 take.
 */
final class MarketMakerScenarioTest
{
    private static final long MAKER = 1;
    private static final long TAKER = 2;
    private static final long TAKER_SESSION = (1L << 32) | 8;
    private static final long MS = 1_000_000L;

    private final QuoteEntries entries = new QuoteEntries();

    private static Harness venue()
    {
        final Harness h = Harness.standard();
        h.send(h.encoder.addInstrument(2, 2, "BETA", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        h.send(h.encoder.addInstrument(3, 3, "GAMMA", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        h.endBatch();
        h.sink.clear();
        return h;
    }

    private List<Object> quote(final Harness h, final String quoteId)
    {
        return h.send(h.encoder.massQuote(SESSION, MAKER, quoteId, SelfTradePrevention.ACCOUNT_DEFAULT, entries));
    }

    private List<Object> sell(final Harness h, final long id, final int instrument, final long price, final long qty)
    {
        return h.send(h.encoder.newOrder(TAKER_SESSION, TAKER, id, instrument, Side.SELL, OrderType.LIMIT,
            TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT, price, qty));
    }

    private List<Object> buy(final Harness h, final long id, final int instrument, final long price, final long qty)
    {
        return h.send(h.encoder.newOrder(TAKER_SESSION, TAKER, id, instrument, Side.BUY, OrderType.LIMIT,
            TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT, price, qty));
    }

    private static Harness.QuoteAck ack(final List<Object> events)
    {
        final List<Harness.QuoteAck> acks = only(events, Harness.QuoteAck.class);
        assertEquals(1, acks.size(), events.toString());
        final List<Object> beforeTopOfBook = events.stream().filter(e -> !(e instanceof Harness.Bbo)).toList();
        assertEquals(Harness.QuoteAck.class, beforeTopOfBook.get(beforeTopOfBook.size() - 1).getClass(),
            "the ack comes after everything the quote did, before the top of book: " + events);
        return acks.get(0);
    }

    @Test
    void aMassQuoteRestsBothSidesOfEachInstrumentAndIsAcknowledgedEntryByEntry()
    {
        final Harness h = venue();
        entries.clear().add(11, 1, 1, 9_900, 100, 10_100, 200).add(12, 1, 2, 9_800, 50, 10_200, 50);
        final List<Object> events = quote(h, "q-1");
        final Harness.QuoteAck ack = ack(events);
        assertEquals(QuoteStatus.ACCEPTED, ack.status());
        assertEquals("q-1", ack.quoteId());
        assertEquals(2, ack.entries().size());
        final Harness.QuoteAckEntry first = ack.entries().get(0);
        assertEquals(11, first.quoteEntryId());
        assertEquals(QuoteEntryStatus.ACCEPTED, first.status());
        assertTrue(first.bidOrderId() > 0 && first.offerOrderId() > first.bidOrderId());
        assertTrue(only(events, Harness.Er.class).isEmpty(), "a quote's own changes have no execution reports");
        final List<Harness.Level> levels = only(events, Harness.Level.class);
        assertEquals(4, levels.size(), "L2/L3 show each side: " + levels);
        assertEquals(new Harness.Level(1, Side.BUY, 9_900, 100, 1), levels.get(0));
        assertEquals(new Harness.Level(2, Side.SELL, 10_100, 200, 1), levels.get(1));
        assertEquals(4, h.processor.state().orders().size());
    }

    @Test
    void aReplaceKeepsPriorityOnlyAtTheSamePriceAndNoLargerSize()
    {
        final Harness h = venue();
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        final long bidId = ack(quote(h, "q-1")).entries().get(0).bidOrderId();
        // another buyer joins the bid's level behind the quote
        h.send(h.encoder.limit(TAKER_SESSION, 3, 77, 1, Side.BUY, 9_900, 100));

        entries.clear().add(2, 1, 1, 9_900, 60, 10_100, 100);
        final List<Object> reduced = quote(h, "q-2");
        assertEquals(bidId, ack(reduced).entries().get(0).bidOrderId(), "same order");
        assertEquals(1, only(reduced, Harness.Level.class).size(), "only the bid changed: " + reduced);
        List<Object> fill = sell(h, 500, 1, 9_900, 10);
        assertEquals(MAKER, only(fill, Harness.TradeEv.class).get(0).buyAccountId(), "kept its place at the front");
        final Harness.Er makerFill = only(fill, Harness.Er.class).stream()
            .filter(er -> er.accountId() == MAKER).findFirst().orElseThrow();
        assertEquals("q-2", makerFill.clientOrderId(), "a quote's orders carry the last quote id");
        assertEquals(ExecType.PARTIAL_FILL, makerFill.execType());
        assertEquals(50, makerFill.leaves(), "the size is the open quantity");

        entries.clear().add(3, 1, 1, 9_900, 50, 10_100, 100);
        assertTrue(only(quote(h, "q-3"), Harness.Level.class).isEmpty(), "an unchanged quote changes nothing");

        entries.clear().add(4, 1, 1, 9_900, 80, 10_100, 100);
        final List<Object> larger = quote(h, "q-4");
        assertEquals(bidId, ack(larger).entries().get(0).bidOrderId(), "a re-entered side keeps its order id");
        assertEquals(2, only(larger, Harness.Level.class).size(), "it left its place and joined the back");
        fill = sell(h, 501, 1, 9_900, 10);
        assertEquals(3, only(fill, Harness.TradeEv.class).get(0).buyAccountId(), "a larger size went to the back");

        entries.clear().add(5, 1, 1, 9_895, 80, 10_100, 100);
        quote(h, "q-5");
        fill = sell(h, 502, 1, 9_895, 100);
        assertEquals(3, only(fill, Harness.TradeEv.class).get(0).buyAccountId(), "the better price first");
        assertEquals(MAKER, only(fill, Harness.TradeEv.class).get(1).buyAccountId());
    }

    @Test
    void aSizeOfZeroPullsThatSideAndAReenteredQuoteMayTrade()
    {
        final Harness h = venue();
        h.send(h.encoder.limit(TAKER_SESSION, TAKER, 9, 1, Side.SELL, 10_050, 30));
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        entries.clear().add(2, 1, 1, 9_900, 0, 10_100, 100);
        final Harness.QuoteAck pulled = ack(quote(h, "q-2"));
        assertEquals(0, pulled.entries().get(0).bidOrderId());
        assertEquals(2, h.processor.state().orders().size(), "the offer and the taker's resting sell remain");

        entries.clear().add(3, 1, 1, 10_050, 50, 10_100, 100);
        final List<Object> crossing = quote(h, "q-3");
        final List<Harness.TradeEv> trades = only(crossing, Harness.TradeEv.class);
        assertEquals(1, trades.size());
        assertEquals(30, trades.get(0).quantity());
        final Harness.QuoteAckEntry entry = ack(crossing).entries().get(0);
        assertTrue(entry.bidOrderId() > 0, "the rest of the bid rests");
    }

    @Test
    void aRefusedEntryChangesNothingAndTheOthersApply()
    {
        final Harness h = venue();
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        final long bidId = ack(quote(h, "q-1")).entries().get(0).bidOrderId();
        entries.clear()
            .add(2, 1, 1, 10_100, 100, 10_100, 100)
            .add(3, 1, 99, 9_900, 100, 10_100, 100)
            .add(4, 1, 2, 9_902, 100, 10_100, 100)
            .add(5, 0, 3, 9_900, 100, 10_100, 100)
            .add(6, 1, 2, 9_900, 15, 10_100, 100)
            .add(7, 1, 3, 9_900, 100, 10_100, 100);
        final Harness.QuoteAck ack = ack(quote(h, "q-2"));
        assertEquals(QuoteStatus.PARTIALLY_ACCEPTED, ack.status());
        assertEquals(RejectReason.QUOTE_CROSSED, ack.entries().get(0).reason());
        assertEquals(bidId, ack.entries().get(0).bidOrderId(), "the previous quote stays as it was");
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, ack.entries().get(1).reason());
        assertEquals(RejectReason.INVALID_TICK, ack.entries().get(2).reason());
        assertEquals(RejectReason.MALFORMED, ack.entries().get(3).reason());
        assertEquals(RejectReason.INVALID_LOT, ack.entries().get(4).reason());
        assertEquals(QuoteEntryStatus.ACCEPTED, ack.entries().get(5).status());

        final QuoteEntries none = new QuoteEntries();
        final Harness.QuoteAck empty = ack(h.send(h.encoder.massQuote(SESSION, MAKER, "q-3",
            SelfTradePrevention.ACCOUNT_DEFAULT, none)));
        assertEquals(QuoteStatus.REJECTED, empty.status());
        assertEquals(RejectReason.TOO_MANY_QUOTE_ENTRIES, empty.reason());
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        final Harness.QuoteAck unknown = ack(h.send(h.encoder.massQuote(SESSION, 42, "q-4",
            SelfTradePrevention.ACCOUNT_DEFAULT, entries)));
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, unknown.reason());
    }

    @Test
    void aMassQuoteOfElevenEntriesIsRefusedWhole()
    {
        final Harness h = venue();
        final int length = h.encoder.massQuote(SESSION, MAKER, "q", SelfTradePrevention.ACCOUNT_DEFAULT,
            entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100));
        // rewrite the group's count: eleven copies of the entry
        final ExpandableArrayBuffer eleven = new ExpandableArrayBuffer(1024);
        eleven.putBytes(0, h.encoder.buffer(), 0, length);
        final int groupHeader = length - 42 - 4;
        eleven.putShort(groupHeader + 2, (short)11, java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i < 11; i++)
        {
            eleven.putBytes(length + (i - 1) * 42, h.encoder.buffer(), length - 42, 42);
        }
        h.encoder.buffer().putBytes(0, eleven, 0, length + 10 * 42);
        final Harness.QuoteAck ack = ack(h.send(length + 10 * 42));
        assertEquals(RejectReason.TOO_MANY_QUOTE_ENTRIES, ack.reason());
        assertEquals(0, h.processor.state().orders().size());
    }

    @Test
    void quoteCancelByInstrumentBySetAndAll()
    {
        final Harness h = venue();
        entries.clear().add(1, 7, 1, 9_900, 100, 10_100, 100).add(2, 7, 2, 9_900, 100, 10_100, 100)
            .add(3, 8, 3, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        List<Object> events = h.send(h.encoder.quoteCancel(SESSION, MAKER, "c-1", QuoteCancelScope.INSTRUMENT, 2, 0));
        Harness.QuoteCancelRep report = only(events, Harness.QuoteCancelRep.class).get(0);
        assertEquals(2, report.sidesCanceled());
        assertTrue(only(events, Harness.Er.class).isEmpty());
        events = h.send(h.encoder.quoteCancel(SESSION, MAKER, "c-2", QuoteCancelScope.QUOTE_SET, 0, 8));
        assertEquals(2, only(events, Harness.QuoteCancelRep.class).get(0).sidesCanceled());
        h.send(h.encoder.limit(SESSION, MAKER, 5, 1, Side.BUY, 9_000, 10));
        events = h.send(h.encoder.quoteCancel(SESSION, MAKER, "c-3", QuoteCancelScope.ALL, 0, 0));
        assertEquals(2, only(events, Harness.QuoteCancelRep.class).get(0).sidesCanceled());
        assertEquals(1, h.processor.state().orders().size(), "the order is not a quote");
        events = h.send(h.encoder.quoteCancel(SESSION, 42, "c-4", QuoteCancelScope.ALL, 0, 0));
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, only(events, Harness.QuoteCancelRep.class).get(0).reason());
    }

    @Test
    void quotesAreOrdersToMassCancelKillSwitchHaltAndReplace()
    {
        final Harness h = venue();
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100).add(2, 1, 2, 9_900, 100, 10_100, 100);
        final long bid = ack(quote(h, "q-1")).entries().get(0).bidOrderId();

        final List<Object> rejected = h.send(h.encoder.replace(SESSION, MAKER, 3, 0, bid, 1, 9_900, 50));
        assertEquals(RejectReason.INVALID_ORDER_TYPE, only(rejected, Harness.CxlRej.class).get(0).reason());

        h.send(h.encoder.setTradingStatus(9, 2, TradingStatus.HALTED));
        entries.clear().add(3, 1, 2, 9_800, 100, 10_200, 100);
        assertEquals(RejectReason.INSTRUMENT_HALTED, ack(quote(h, "q-2")).entries().get(0).reason());

        final List<Object> canceled =
            h.send(h.encoder.massCancel(SESSION, MAKER, 4, MassCancelScope.INSTRUMENT, 1, false));
        final List<Harness.Er> ers = only(canceled, Harness.Er.class);
        assertEquals(2, ers.size());
        assertEquals(CancelReason.MASS_CANCEL, ers.get(0).cancelReason());

        final List<Object> killed = h.send(h.encoder.killSwitch(10, KillSwitchScope.ACCOUNT, MAKER, true));
        assertEquals(2, only(killed, Harness.Er.class).size(), "the halted instrument's quotes were kept till now");
        assertEquals(CancelReason.KILL_SWITCH, only(killed, Harness.Er.class).get(0).cancelReason());
        entries.clear().add(5, 1, 1, 9_900, 100, 10_100, 100);
        assertEquals(RejectReason.ACCOUNT_KILLED, ack(quote(h, "q-3")).reason());
        assertEquals(0, h.processor.state().orders().size());
    }

    @Test
    void marketMakerProtectionCancelsTheGroupAtTheBreachingFillAndNothingTradesWithItAfter()
    {
        final Harness h = venue();
        h.send(h.encoder.setMarketMakerProtection(20, MAKER, 5, 1_000 * MS, 0, 0, 2, 0, false, new int[]{ 1, 2 },
            "mm"));
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100).add(2, 1, 2, 9_900, 100, 10_100, 100)
            .add(3, 1, 3, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        // another account's bid behind the maker's at instrument 1
        h.send(h.encoder.limit(TAKER_SESSION, 3, 30, 1, Side.BUY, 9_900, 100));

        // first fill: under the limit of 2 fills
        assertEquals(1, only(sell(h, 1, 2, 9_900, 10), Harness.TradeEv.class).size());
        // second fill reaches the limit: the group's quotes go at once; the rest of the sell meets account 3's bid
        final List<Object> events = sell(h, 2, 1, 9_900, 150);
        final List<Harness.TradeEv> trades = only(events, Harness.TradeEv.class);
        assertEquals(2, trades.size(), events.toString());
        assertEquals(MAKER, trades.get(0).buyAccountId());
        assertEquals(100, trades.get(0).quantity());
        assertEquals(3, trades.get(1).buyAccountId(), "no trade with the maker after the breaching fill");
        final Harness.Mmp breach = only(events, Harness.Mmp.class).get(0);
        assertEquals(MmpEventType.BREACHED, breach.type());
        assertEquals(MmpLimit.FILLS, breach.limit());
        assertEquals(2, breach.fills());
        assertEquals(110, breach.quantity());
        assertTrue(breach.frozen());
        assertEquals(0, breach.frozenUntilNs(), "frozen until reset");
        assertEquals(3, breach.quotesCanceled(), "instrument 2's bid and offer and instrument 1's offer");
        assertEquals(SESSION, breach.sessionId());
        for (final Harness.Er er : only(events, Harness.Er.class))
        {
            if (er.accountId() == MAKER && er.execType() == ExecType.CANCELED)
            {
                assertEquals(CancelReason.MARKET_MAKER_PROTECTION, er.cancelReason());
            }
        }
        assertEquals(2, countAccount(h, MAKER), "instrument 3 is not in the group: its quote stays");

        entries.clear().add(4, 1, 1, 9_900, 100, 10_100, 100).add(5, 1, 3, 9_800, 100, 10_200, 100);
        final Harness.QuoteAck frozen = ack(quote(h, "q-2"));
        assertEquals(RejectReason.QUOTE_FROZEN, frozen.entries().get(0).reason());
        assertEquals(QuoteEntryStatus.ACCEPTED, frozen.entries().get(1).status());

        final List<Object> reset = h.send(h.encoder.resetMarketMakerProtection(SESSION, MAKER, 5));
        final Harness.Mmp resetEvent = only(reset, Harness.Mmp.class).get(0);
        assertEquals(MmpEventType.RESET, resetEvent.type());
        assertTrue(!resetEvent.frozen());
        entries.clear().add(6, 1, 1, 9_900, 100, 10_100, 100);
        assertEquals(QuoteStatus.ACCEPTED, ack(quote(h, "q-3")).status());
    }

    private static int countAccount(final Harness h, final long accountId)
    {
        int n = 0;
        for (var o = h.processor.state().orders().first(); o != null; o = o.venueNext)
        {
            n += o.accountId() == accountId ? 1 : 0;
        }
        return n;
    }

    @Test
    void theFreezeEndsOnTheRingsClockAndTheIntervalRolls()
    {
        final Harness h = venue();
        h.send(h.encoder.setMarketMakerProtection(20, MAKER, 5, 100 * MS, 50, 0, 1000, 500 * MS, true,
            new int[]{ 1 }, "mm"));
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        h.send(h.encoder.limit(SESSION, MAKER, 40, 1, Side.BUY, 9_500, 10));
        final long t0 = h.time;
        sell(h, 1, 1, 9_900, 30);
        // 30 ages out of the 100 ms interval: 30 more is 30, under 50
        h.sendAt(t0 + 150 * MS, h.encoder.tick(0));
        List<Object> events = sell(h, 2, 1, 9_900, 30);
        assertTrue(only(events, Harness.Mmp.class).isEmpty(), events.toString());
        events = sell(h, 3, 1, 9_900, 20);
        final Harness.Mmp breach = only(events, Harness.Mmp.class).get(0);
        assertEquals(MmpLimit.QUANTITY, breach.limit());
        assertEquals(50, breach.quantity());
        assertEquals(1, breach.ordersCanceled(), "cancelOrders: the account's order in the group went too");
        assertEquals(breach.transactTimeNs() + 500 * MS, breach.frozenUntilNs());
        assertEquals(breach.frozenUntilNs(), h.processor.nextDeadlineNs());

        final List<Object> unfrozen = h.sendAt(breach.frozenUntilNs(), h.encoder.tick(breach.frozenUntilNs()));
        final Harness.Mmp end = only(unfrozen, Harness.Mmp.class).get(0);
        assertEquals(MmpEventType.UNFROZEN, end.type());
        assertEquals(SESSION, end.sessionId());
        assertEquals(QuoteStatus.ACCEPTED, ack(quote(h, "q-2")).status());
    }

    @Test
    void anIncomingQuoteThatBreachesStopsAtTheBreachingFill()
    {
        final Harness h = venue();
        h.send(h.encoder.setMarketMakerProtection(20, MAKER, 5, 1_000 * MS, 0, 0, 1, 0, false, new int[]{ 1 },
            "mm"));
        h.send(h.encoder.limit(TAKER_SESSION, TAKER, 1, 1, Side.SELL, 10_000, 30));
        h.send(h.encoder.limit(TAKER_SESSION, 3, 2, 1, Side.SELL, 10_005, 30));
        entries.clear().add(1, 1, 1, 10_010, 100, 10_100, 100);
        final List<Object> events = quote(h, "q-1");
        assertEquals(1, only(events, Harness.TradeEv.class).size(), "one fill reached the limit of 1: " + events);
        final Harness.Mmp breach = only(events, Harness.Mmp.class).get(0);
        assertEquals(1, breach.quotesCanceled());
        final List<Harness.Er> makerCancels = only(events, Harness.Er.class).stream()
            .filter(er -> er.accountId() == MAKER && er.execType() == ExecType.CANCELED).toList();
        assertEquals(1, makerCancels.size(), events.toString());
        assertEquals(CancelReason.MARKET_MAKER_PROTECTION, makerCancels.get(0).cancelReason());
        final Harness.QuoteAckEntry entry = ack(events).entries().get(0);
        assertEquals(0, entry.bidOrderId());
        assertEquals(0, entry.offerOrderId(), "the offer never entered: the group was frozen");
        assertEquals(1, h.processor.state().orders().size(), "account 3's sell rests, and nothing of the maker's");
    }

    @Test
    void cancelAllAfterFiresOnTheRingsClockUnlessRefreshed()
    {
        final Harness h = venue();
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        h.send(h.encoder.limit(SESSION, MAKER, 9, 2, Side.BUY, 9_000, 10));
        h.send(h.encoder.limit(TAKER_SESSION, TAKER, 9, 2, Side.BUY, 9_000, 10));

        Harness.Caa armed = only(h.send(h.encoder.cancelAllAfter(SESSION, 1_000)), Harness.Caa.class).get(0);
        assertEquals(CancelAllAfterStatus.ARMED, armed.status());
        assertEquals(armed.transactTimeNs() + 1_000 * MS, armed.deadlineNs());
        final long firstDeadline = armed.deadlineNs();

        h.sendAt(firstDeadline - 100 * MS, h.encoder.cancelAllAfter(SESSION, 1_000));
        assertNotEquals(firstDeadline, h.processor.nextDeadlineNs(), "refreshed");
        List<Object> events = h.sendAt(firstDeadline + 1, h.encoder.tick(firstDeadline));
        assertTrue(only(events, Harness.Er.class).isEmpty(), "not yet: " + events);

        final long deadline = h.processor.nextDeadlineNs();
        events = h.sendAt(deadline, h.encoder.tick(deadline));
        final List<Harness.Er> canceled = only(events, Harness.Er.class);
        assertEquals(3, canceled.size(), "the quote's two orders and the order of the session: " + events);
        assertEquals(CancelReason.CANCEL_ALL_AFTER, canceled.get(0).cancelReason());
        final Harness.Caa triggered = only(events, Harness.Caa.class).get(0);
        assertEquals(CancelAllAfterStatus.TRIGGERED, triggered.status());
        assertEquals(3, triggered.ordersCanceled());
        assertEquals(1, h.processor.state().orders().size(), "another session's order stays");
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs(), "fired once");

        armed = only(h.send(h.encoder.cancelAllAfter(SESSION, 50)), Harness.Caa.class).get(0);
        assertEquals(CancelAllAfterStatus.REJECTED, armed.status());
        assertEquals(RejectReason.INVALID_ARGUMENT, armed.reason());
        h.send(h.encoder.cancelAllAfter(SESSION, 200));
        armed = only(h.send(h.encoder.cancelAllAfter(SESSION, 0)), Harness.Caa.class).get(0);
        assertEquals(CancelAllAfterStatus.DISARMED, armed.status());
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs());
    }

    @Test
    void aSessionBackWithinItsGraceKeepsItsOrdersAndOneThatIsNotLosesThem()
    {
        final Harness h = venue();
        entries.clear().add(1, 1, 1, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        h.send(h.encoder.limit(TAKER_SESSION, TAKER, 9, 2, Side.BUY, 9_000, 10));

        h.send(h.encoder.sessionStatus(SESSION, MAKER, false, 5_000));
        final long deadline = h.processor.nextDeadlineNs();
        h.sendAt(deadline - MS, h.encoder.sessionStatus(SESSION, MAKER, true, 0));
        List<Object> events = h.sendAt(deadline + MS, h.encoder.tick(deadline));
        assertTrue(only(events, Harness.Er.class).isEmpty(), "back in time: " + events);
        assertEquals(3, h.processor.state().orders().size());

        h.send(h.encoder.sessionStatus(TAKER_SESSION, TAKER, false, 2_000));
        h.send(h.encoder.sessionStatus(SESSION, MAKER, false, 1_000));
        final long makerDeadline = h.processor.nextDeadlineNs();
        events = h.sendAt(makerDeadline, h.encoder.tick(makerDeadline));
        final List<Harness.Er> canceled = only(events, Harness.Er.class);
        assertEquals(2, canceled.size());
        assertEquals(CancelReason.CANCEL_ON_DISCONNECT, canceled.get(0).cancelReason());
        final long takerDeadline = h.processor.nextDeadlineNs();
        events = h.sendAt(takerDeadline, h.encoder.tick(takerDeadline));
        assertEquals(1, only(events, Harness.Er.class).size());
        assertEquals(0, h.processor.state().orders().size());
    }

    @Test
    void aSnapshotTakenWithQuotesProtectionAndTimersRestoresToTheSameHashAndEvents()
    {
        final Harness h = venue();
        h.send(h.encoder.upsertUser(30, "mm", true, new long[]{ MAKER }, "MM", true, 0,
            io.ringex.protocol.codecs.UserRole.TRADER, 3_000, "mm"));
        h.send(h.encoder.setMarketMakerProtection(20, MAKER, 5, 1_000 * MS, 0, 0, 3, 200 * MS, false,
            new int[]{ 1, 2 }, "mm"));
        entries.clear().add(1, 4, 1, 9_900, 100, 10_100, 100).add(2, 4, 2, 9_900, 100, 10_100, 100);
        quote(h, "q-1");
        sell(h, 1, 1, 9_900, 10);
        h.send(h.encoder.cancelAllAfter(SESSION, 2_000));
        h.send(h.encoder.sessionStatus(TAKER_SESSION, TAKER, false, 1_500));
        h.endBatch();

        final ExpandableArrayBuffer image = new ExpandableArrayBuffer(8192);
        final int length = h.processor.writeSnapshot(image, 0);
        final Harness restored = new Harness();
        restored.processor.restore(image, 0, length);
        assertEquals(h.processor.stateHash(), restored.processor.stateHash());
        restored.sequence = h.sequence;
        restored.time = h.time;

        final long t = h.time;
        final String[] cmds = { "sell", "sell", "tick" };
        for (final String cmd : cmds)
        {
            final List<Object> a;
            final List<Object> b;
            if (cmd.equals("sell"))
            {
                a = sell(h, 7, 2, 9_900, 10);
                b = sell(restored, 7, 2, 9_900, 10);
            }
            else
            {
                a = h.sendAt(t + 3_000 * MS, h.encoder.tick(0));
                b = restored.sendAt(t + 3_000 * MS, restored.encoder.tick(0));
            }
            assertEquals(a, b);
            assertEquals(h.processor.stateHash(), restored.processor.stateHash());
        }
    }
}
