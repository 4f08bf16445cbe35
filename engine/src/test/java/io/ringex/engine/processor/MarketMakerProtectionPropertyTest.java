package io.ringex.engine.processor;

import io.ringex.client.QuoteEntries;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * Market-maker protection against a reference model, on random fills and random intervals: a market maker (account 1)
 * quotes three instruments, two of them one protection group with random limits (quantity, notional, fills), interval,
 * freeze and cancel-orders setting; a taker (account 2) sends IOC orders across the quotes, account 3 rests orders the
 * quotes may cross (so a quote trades as the incoming order too), time moves by random steps (Ticks), and the maker
 * re-quotes, cancels its quotes, rests orders of its own and resets its protection.
 * <p>
 * The model ({@link Model}) is written plainly: every resting order in a list searched in full, each fill's time kept
 * and the interval's totals summed afresh at every fill. After every command the trades, the protection events (breach,
 * freeze end, reset: which limit, totals, frozen) and the maker's resting quantities per instrument and side must be
 * the processor's. On the processor's own output, whatever the model says: within a command, no trade involves the
 * maker's quotes in a group after the event of that group's breach. At the end a replay of every command into a new
 * processor, and a restore of a snapshot taken half way then the rest of the commands, give the same state hash.
 * <p>
 * QuickTheories runs 200 sequences of 20 to 120 commands and shrinks a failing one; the report ends with {@code Seed
 * was N}, and {@code -DQT_SEED=N} runs it again.
 */
final class MarketMakerProtectionPropertyTest
{
    private static final long MAKER = 1;
    private static final long TAKER = 2;
    private static final long RESTER = 3;
    private static final long MAKER_SESSION = (1L << 32) | 1;
    private static final long TAKER_SESSION = (1L << 32) | 2;
    private static final long RESTER_SESSION = (1L << 32) | 3;
    private static final long MS = 1_000_000L;
    private static final int GROUP = 9;

    record Setup(int intervalMs, int quantityLots, int notionalLots, int fills, int freezeMs, boolean cancelOrders)
    {
    }

    record Action(int kind, int instrument, boolean buy, int priceStep, int lots, int bidLots, int offerLots,
        int dtMs)
    {
    }

    private static Gen<Setup> setup()
    {
        final Gen<Integer> interval = integers().between(1, 60);
        final Gen<Integer> quantity = integers().between(0, 40);
        final Gen<Integer> notional = integers().between(0, 40);
        final Gen<Integer> fills = integers().between(1, 8);
        final Gen<Integer> freeze = integers().between(0, 40);
        final Gen<Integer> cancelOrders = integers().between(0, 1);
        return (in) -> new Setup(interval.generate(in), quantity.generate(in), notional.generate(in),
            fills.generate(in), freeze.generate(in), cancelOrders.generate(in) == 1);
    }

    private static Gen<Action> action()
    {
        final Gen<Integer> kind = integers().between(0, 11);
        final Gen<Integer> instrument = integers().between(1, 3);
        final Gen<Integer> buy = integers().between(0, 1);
        final Gen<Integer> step = integers().between(-4, 4);
        final Gen<Integer> lots = integers().between(1, 12);
        final Gen<Integer> bid = integers().between(0, 6);
        final Gen<Integer> offer = integers().between(0, 6);
        final Gen<Integer> dt = integers().between(0, 25);
        return (in) -> new Action(kind.generate(in), instrument.generate(in), buy.generate(in) == 1,
            step.generate(in), lots.generate(in), bid.generate(in), offer.generate(in), dt.generate(in));
    }

    private static final Map<String, Integer> SEEN = new TreeMap<>();

    @Test
    void protectionMatchesTheModelAndNothingTradesAfterABreachInItsStep()
    {
        qt().withExamples(200).forAll(setup(), lists().of(action()).ofSizeBetween(20, 120))
            .checkAssert(MarketMakerProtectionPropertyTest::run);
        System.out.println("MarketMakerProtectionPropertyTest saw " + SEEN);
        for (final String word : new String[]{ "BREACHED QUANTITY", "BREACHED NOTIONAL", "BREACHED FILLS",
            "UNFROZEN", "RESET", "QUOTE_FROZEN", "stopped" })
        {
            assertTrue(SEEN.getOrDefault(word, 0) > 0, "the runs never produced " + word + ": " + SEEN);
        }
    }

    private static void run(final Setup setup, final List<Action> actions)
    {
        final Harness h = new Harness();
        final List<Integer> lengths = new ArrayList<>();
        final ExpandableArrayBuffer journal = new ExpandableArrayBuffer(1 << 16);
        final List<Long> times = new ArrayList<>();
        final int[] journalLength = { 0 };
        final long[] clock = { 1_000_000_000L };
        final Recorder recorder = (length) ->
        {
            journal.putBytes(journalLength[0], h.encoder.buffer(), 0, length);
            lengths.add(length);
            journalLength[0] += length;
            times.add(clock[0]);
            return h.sendAt(clock[0], length);
        };
        recorder.send(h.encoder.addInstrument(1, 1, "A", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        recorder.send(h.encoder.addInstrument(2, 2, "B", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        recorder.send(h.encoder.addInstrument(3, 3, "C", 2, 5, 10, 10_000, PriceBandType.TICKS, 1000));
        for (long account = 1; account <= 3; account++)
        {
            recorder.send(h.encoder.addAccount(100 + account, account, SelfTradePrevention.CANCEL_NEWEST));
            recorder.send(h.encoder.setLimits(200 + account, account, Harness.BIG, Long.MAX_VALUE / 4,
                Long.MAX_VALUE / 8, Harness.BIG, 10_000, true, new int[0], new long[0]));
            recorder.send(h.encoder.adjustBalance(300 + account, account, 1_000_000_00000000L));
        }
        final long quantityLimit = setup.quantityLots() * 10L;
        final long notionalLimit = setup.notionalLots() * 10L * 10_000 * 1_000_000L;
        recorder.send(h.encoder.setMarketMakerProtection(400, MAKER, GROUP, setup.intervalMs() * MS, quantityLimit,
            notionalLimit, setup.fills(), setup.freezeMs() * MS, setup.cancelOrders(), new int[]{ 1, 2 }, "p"));
        final Model model = new Model(setup.intervalMs() * MS, quantityLimit, notionalLimit, setup.fills(),
            setup.freezeMs() * MS, setup.cancelOrders());
        final QuoteEntries entries = new QuoteEntries();

        int n = 0;
        int snapshotAt = actions.size() / 2;
        ExpandableArrayBuffer snapshot = null;
        int snapshotLength = 0;
        int commandsAtSnapshot = 0;
        for (final Action a : actions)
        {
            final int length;
            final int kind = a.kind();
            final long now;
            if (kind <= 2)
            {
                entries.clear();
                for (int i = 1; i <= 3; i++)
                {
                    entries.add(i, 1, i, bidPrice(a, kind, i), lotsOf(a, i, true), offerPrice(a, kind, i),
                        lotsOf(a, i, false));
                }
                length = h.encoder.massQuote(MAKER_SESSION, MAKER, "q" + n, SelfTradePrevention.ACCOUNT_DEFAULT,
                    entries);
            }
            else if (kind <= 5)
            {
                length = h.encoder.newOrder(TAKER_SESSION, TAKER, n + 1, a.instrument(), a.buy() ? Side.BUY : Side.SELL,
                    OrderType.LIMIT, TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                    (a.buy() ? 10_120 : 9_880) + 10L * a.priceStep(), a.lots() * 10L);
            }
            else if (kind <= 7)
            {
                length = h.encoder.limit(RESTER_SESSION, RESTER, n + 1, a.instrument(), a.buy() ? Side.BUY : Side.SELL,
                    10_000 + 20L * a.priceStep(), a.lots() * 10L);
            }
            else if (kind == 8)
            {
                length = h.encoder.tick(0);
            }
            else if (kind == 9)
            {
                length = h.encoder.resetMarketMakerProtection(MAKER_SESSION, MAKER, a.lots() % 2 == 0 ? 0 : GROUP);
            }
            else if (kind == 10)
            {
                length = h.encoder.limit(MAKER_SESSION, MAKER, n + 1, a.instrument(), a.buy() ? Side.BUY : Side.SELL,
                    a.buy() ? 9_000 : 11_000, 10);
            }
            else
            {
                length = h.encoder.quoteCancel(MAKER_SESSION, MAKER, "c" + n, QuoteCancelScope.ALL, 0, 0);
            }
            // whole milliseconds, several commands at one time: fills land exactly on the interval's edge too
            clock[0] += a.dtMs() * MS;
            now = clock[0];
            final List<Object> events = recorder.send(length);
            final List<String> expected = model.apply(a, kind, n, now);
            final List<String> actual = describe(events);
            count(actual, expected);
            assertEquals(expected, actual, "command " + n + " " + a);
            assertEquals(model.makerResting(), makerResting(h), "maker's resting quantities after command " + n);
            checkNothingTradesAfterABreach(events);
            n++;
            if (n == snapshotAt)
            {
                h.endBatch();
                snapshot = new ExpandableArrayBuffer(1 << 14);
                snapshotLength = h.processor.writeSnapshot(snapshot, 0);
                commandsAtSnapshot = lengths.size();
            }
        }
        h.endBatch();
        final long hash = h.processor.stateHash();

        final Harness replay = new Harness();
        replayFrom(replay, journal, lengths, times, 0);
        assertEquals(hash, replay.processor.stateHash(), "replay from the first command");
        if (null != snapshot)
        {
            final Harness restored = new Harness();
            restored.processor.restore(snapshot, 0, snapshotLength);
            restored.sequence = commandsAtSnapshot;
            replayFrom(restored, journal, lengths, times, commandsAtSnapshot);
            assertEquals(hash, restored.processor.stateHash(), "restore half way, then the rest");
        }
    }

    @FunctionalInterface
    private interface Recorder
    {
        List<Object> send(int length);
    }

    private static void replayFrom(
        final Harness target, final ExpandableArrayBuffer journal, final List<Integer> lengths, final List<Long> times,
        final int from)
    {
        int offset = 0;
        for (int i = 0; i < from; i++)
        {
            offset += lengths.get(i);
        }
        for (int i = from; i < lengths.size(); i++)
        {
            target.processor.onCommand(i + 1, times.get(i), Harness.ADMIN_SOURCE, journal, offset, lengths.get(i));
            offset += lengths.get(i);
        }
        target.processor.onEndOfBatch();
    }

    /** Passive quotes (kinds 0, 1) around 99.00 / 101.00; kind 2's bid may cross account 3's offers. */
    private static long bidPrice(final Action a, final int kind, final int instrument)
    {
        final int shift = (a.priceStep() + 4 + instrument) % 3 - 1;
        return (kind == 2 ? 10_050 : 9_900) + 5L * shift;
    }

    private static long offerPrice(final Action a, final int kind, final int instrument)
    {
        final int shift = (a.priceStep() + 4 + instrument) % 3 - 1;
        return (kind == 2 ? 10_150 : 10_100) + 5L * shift;
    }

    private static long lotsOf(final Action a, final int instrument, final boolean bid)
    {
        final int lots = bid ? a.bidLots() : a.offerLots();
        return ((lots + instrument) % 7) * 10L;
    }

    private static List<String> describe(final List<Object> events)
    {
        final List<String> out = new ArrayList<>();
        for (final Object e : events)
        {
            if (e instanceof Harness.TradeEv t)
            {
                out.add("T " + t.buyAccountId() + "/" + t.sellAccountId() + " " + t.quantity() + "@" + t.price());
            }
            else if (e instanceof Harness.Mmp m && m.type() != MmpEventType.CONFIGURED)
            {
                out.add(m.type() + (m.type() == MmpEventType.BREACHED ? " " + m.limit() : "") + " q=" + m.quantity() +
                    " n=" + m.notional() + " f=" + m.fills() + " frozen=" + m.frozen());
            }
            else if (e instanceof Harness.QuoteAck q)
            {
                for (final Harness.QuoteAckEntry entry : q.entries())
                {
                    if (entry.reason() != io.ringex.protocol.codecs.RejectReason.NONE)
                    {
                        out.add("REJ " + entry.instrumentId() + " " + entry.reason());
                    }
                }
            }
        }
        return out;
    }

    private static void count(final List<String> actual, final List<String> expected)
    {
        for (final String line : actual)
        {
            final String word = line.startsWith("BREACHED") ? line.substring(0, line.indexOf(" q=")) :
                line.startsWith("REJ") ? line.substring(line.lastIndexOf(' ') + 1) : line.split(" ")[0];
            SEEN.merge(word, 1, Integer::sum);
        }
        for (final String line : expected)
        {
            if (line.equals("(stopped)"))
            {
                SEEN.merge("stopped", 1, Integer::sum);
            }
        }
        expected.removeIf(line -> line.equals("(stopped)"));
    }

    /** The maker's resting open quantity per instrument and side, quotes and orders apart. */
    private static String makerResting(final Harness h)
    {
        final TreeMap<String, Long> resting = new TreeMap<>();
        for (var o = h.processor.state().orders().first(); o != null; o = o.venueNext)
        {
            if (o.accountId() == MAKER)
            {
                resting.merge(o.instrumentId() + (o.isBuy() ? "B" : "S") + (o.isQuote() ? "q" : "o") + o.price(),
                    o.leavesQuantity(), Long::sum);
            }
        }
        return resting.toString();
    }

    private static void checkNothingTradesAfterABreach(final List<Object> events)
    {
        boolean breached = false;
        final java.util.Set<Long> cancelledMakerOrders = new java.util.HashSet<>();
        for (final Object e : events)
        {
            if (e instanceof Harness.Mmp m && m.type() == MmpEventType.BREACHED)
            {
                breached = true;
            }
            if (e instanceof Harness.Er er && er.accountId() == MAKER &&
                er.cancelReason() == io.ringex.protocol.codecs.CancelReason.MARKET_MAKER_PROTECTION)
            {
                cancelledMakerOrders.add(er.orderId());
            }
            if (breached && e instanceof Harness.TradeEv t)
            {
                final boolean makerQuoteInGroup = t.buyAccountId() == MAKER || t.sellAccountId() == MAKER;
                final long makerOrder = t.buyAccountId() == MAKER ? t.buyOrderId() : t.sellOrderId();
                assertTrue(!makerQuoteInGroup || !cancelledMakerOrders.contains(makerOrder),
                    "a cancelled quote traded after the breach: " + events);
            }
        }
    }

    /**
     * The reference: three instruments' resting orders in plain lists, the maker's protection as a list of fills
     * summed afresh at each fill.
     */
    static final class Model
    {
        static final class Ord
        {
            final long account;
            final int instrument;
            final boolean buy;
            long price;
            long leaves;
            long seq;
            final boolean quote;

            Ord(final long account, final int instrument, final boolean buy, final long price, final long leaves,
                final long seq, final boolean quote)
            {
                this.account = account;
                this.instrument = instrument;
                this.buy = buy;
                this.price = price;
                this.leaves = leaves;
                this.seq = seq;
                this.quote = quote;
            }
        }

        final long intervalNs;
        final long quantityLimit;
        final long notionalLimit;
        final int fillLimit;
        final long freezeNs;
        final boolean cancelOrders;
        final List<Ord> book = new ArrayList<>();
        final List<long[]> fills = new ArrayList<>();
        boolean frozen;
        long frozenUntil;
        long seq;
        List<String> out;
        final List<String> rejections = new ArrayList<>();
        long now;

        Model(final long intervalNs, final long quantityLimit, final long notionalLimit, final int fillLimit,
            final long freezeNs, final boolean cancelOrders)
        {
            this.intervalNs = intervalNs;
            this.quantityLimit = quantityLimit;
            this.notionalLimit = notionalLimit;
            this.fillLimit = fillLimit;
            this.freezeNs = freezeNs;
            this.cancelOrders = cancelOrders;
        }

        List<String> apply(final Action a, final int kind, final int n, final long now)
        {
            this.now = now;
            out = new ArrayList<>();
            rejections.clear();
            if (frozen && frozenUntil != 0 && frozenUntil <= now)
            {
                frozen = false;
                frozenUntil = 0;
                final long[] totals = totals();
                out.add("UNFROZEN q=" + totals[0] + " n=" + totals[1] + " f=" + totals[2] + " frozen=false");
            }
            if (kind <= 2)
            {
                for (int i = 1; i <= 3; i++)
                {
                    quote(i, bidPrice(a, kind, i), lotsOf(a, i, true), offerPrice(a, kind, i), lotsOf(a, i, false));
                }
            }
            else if (kind <= 5)
            {
                match(new Ord(TAKER, a.instrument(), a.buy(), (a.buy() ? 10_120 : 9_880) + 10L * a.priceStep(),
                    a.lots() * 10L, 0, false));
            }
            else if (kind <= 7)
            {
                final Ord order = new Ord(RESTER, a.instrument(), a.buy(), 10_000 + 20L * a.priceStep(),
                    a.lots() * 10L, 0, false);
                if (match(order) && order.leaves > 0)
                {
                    order.seq = ++seq;
                    book.add(order);
                }
            }
            else if (kind == 9)
            {
                fills.clear();
                frozen = false;
                frozenUntil = 0;
                out.add("RESET q=0 n=0 f=0 frozen=false");
            }
            else if (kind == 10)
            {
                book.add(new Ord(MAKER, a.instrument(), a.buy(), a.buy() ? 9_000 : 11_000, 10, ++seq, false));
            }
            else if (kind == 11)
            {
                book.removeIf(o -> o.account == MAKER && o.quote);
            }
            // a mass quote's acknowledgement, with its refused entries, comes after everything it did
            out.addAll(rejections);
            return out;
        }

        private Ord side(final int instrument, final boolean buy)
        {
            for (final Ord o : book)
            {
                if (o.account == MAKER && o.quote && o.instrument == instrument && o.buy == buy)
                {
                    return o;
                }
            }
            return null;
        }

        private void quote(final int instrument, final long bidPrice, final long bidSize, final long offerPrice,
            final long offerSize)
        {
            if (instrument != 3 && frozen)
            {
                rejections.add("REJ " + instrument + " QUOTE_FROZEN");
                return;
            }
            final Ord bid = side(instrument, true);
            final Ord offer = side(instrument, false);
            final Ord enterBid = leave(bid, instrument, true, bidPrice, bidSize);
            final Ord enterOffer = leave(offer, instrument, false, offerPrice, offerSize);
            if (null != enterBid && match(enterBid) && enterBid.leaves > 0)
            {
                enterBid.seq = ++seq;
                book.add(enterBid);
            }
            if (instrument != 3 && frozen)
            {
                return;
            }
            if (null != enterOffer && match(enterOffer) && enterOffer.leaves > 0)
            {
                enterOffer.seq = ++seq;
                book.add(enterOffer);
            }
        }

        /** @return the side to enter, or null. */
        private Ord leave(final Ord side, final int instrument, final boolean buy, final long price, final long size)
        {
            if (null == side)
            {
                return size == 0 ? null : new Ord(MAKER, instrument, buy, price, size, 0, true);
            }
            if (size == 0)
            {
                book.remove(side);
                return null;
            }
            if (side.price != price || size > side.leaves)
            {
                book.remove(side);
                side.price = price;
                side.leaves = size;
                return side;
            }
            side.leaves = size;
            return null;
        }

        /** @return false if the incoming order was stopped or cancelled (nothing of it rests). */
        private boolean match(final Ord taker)
        {
            while (taker.leaves > 0)
            {
                Ord best = null;
                for (final Ord o : book)
                {
                    if (o.instrument == taker.instrument && o.buy != taker.buy &&
                        (taker.buy ? o.price <= taker.price : o.price >= taker.price) &&
                        (null == best || (taker.buy ? o.price < best.price : o.price > best.price) ||
                        (o.price == best.price && o.seq < best.seq)))
                    {
                        best = o;
                    }
                }
                if (null == best)
                {
                    return true;
                }
                if (best.account == taker.account)
                {
                    return false;
                }
                final long quantity = Math.min(taker.leaves, best.leaves);
                taker.leaves -= quantity;
                best.leaves -= quantity;
                out.add("T " + (taker.buy ? taker.account : best.account) + "/" +
                    (taker.buy ? best.account : taker.account) + " " + quantity + "@" + best.price);
                if (best.leaves == 0)
                {
                    book.remove(best);
                }
                final long notional = best.price * quantity * 1_000_000L;
                if (best.quote && best.instrument != 3)
                {
                    fill(notional, quantity, taker);
                }
                if (taker.quote && taker.instrument != 3 && fill(notional, quantity, taker))
                {
                    out.add("(stopped)");
                    return false;
                }
            }
            return true;
        }

        /** @return whether the incoming order was stopped by a breach. */
        private boolean fill(final long notional, final long quantity, final Ord taker)
        {
            if (frozen)
            {
                return false;
            }
            fills.add(new long[]{ now, quantity, notional });
            final long[] totals = totals();
            String limit = null;
            if (quantityLimit > 0 && totals[0] >= quantityLimit)
            {
                limit = "QUANTITY";
            }
            else if (notionalLimit > 0 && totals[1] >= notionalLimit)
            {
                limit = "NOTIONAL";
            }
            else if (totals[2] >= fillLimit)
            {
                limit = "FILLS";
            }
            if (null == limit)
            {
                return false;
            }
            fills.clear();
            frozen = true;
            frozenUntil = freezeNs == 0 ? 0 : now + freezeNs;
            book.removeIf(o -> o.account == MAKER && o.instrument != 3 && (o.quote || cancelOrders));
            out.add("BREACHED " + limit + " q=" + totals[0] + " n=" + totals[1] + " f=" + totals[2] +
                " frozen=true");
            return taker.account == MAKER && taker.leaves > 0;
        }

        private long[] totals()
        {
            fills.removeIf(f -> now - f[0] >= intervalNs);
            long quantity = 0;
            long notional = 0;
            for (final long[] f : fills)
            {
                quantity += f[1];
                notional += f[2];
            }
            return new long[]{ quantity, notional, fills.size() };
        }

        String makerResting()
        {
            final TreeMap<String, Long> resting = new TreeMap<>();
            final List<Ord> sorted = new ArrayList<>(book);
            sorted.sort(Comparator.comparingLong(o -> o.seq));
            for (final Ord o : sorted)
            {
                if (o.account == MAKER)
                {
                    resting.merge(o.instrument + (o.buy ? "B" : "S") + (o.quote ? "q" : "o") + o.price, o.leaves,
                        Long::sum);
                }
            }
            return resting.toString();
        }
    }
}
