package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.book.StopBook;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * Random order flow through the processor and through {@link ReferenceVenue}: limit orders of every time in force
 * (GTD included), market orders, stops and stop-limits, icebergs, minimum quantities, every self-trade prevention
 * mode, cancels, replaces (stop prices too), some invalid prices, quantities and terms; trading-status changes into and
 * out of every phase (with and without a phase duration), the dynamic band, and time passing (Ticks). The execution
 * reports, trades, cancel rejects, admin answers, phase changes and auction indicatives must be identical after every
 * command, as must the L2 book, the phase, the pending stops in trigger order and the market orders waiting for an
 * uncrossing; the whole-state invariants must hold.
 * <p>
 * QuickTheories runs 300 sequences of 20 to 150 commands and shrinks a failing one (a shorter tail, simpler
 * fields); {@link ShortestFailure} then deletes the commands that play no part. The report lists the shortest
 * failing sequence, the command that diverged and ends with {@code Seed was N}; the same run, shrinking included,
 * comes back with {@code -DQT_SEED=N}, e.g.
 * {@code mvn -B -o test -pl engine -am -Dtest=MatchingPropertyTest -Dsurefire.failIfNoSpecifiedTests=false
 * -DQT_SEED=N}.
 */
final class MatchingPropertyTest
{
    private static final int INSTRUMENT = 1;
    private static final long TICK = 5;
    private static final long LOT = 10;
    private static final long REFERENCE = 10_000;
    private static final long BAND_TICKS = 10;
    private static final long MS = 1_000_000L;
    private static final int[] STATUSES = { 1, 4, 5, 6, 7, 1, 4, 5, 7, 2, 3, 1, 5 };

    record Action(int kind, int account, boolean buy, int tif, int stp, int priceTicks, int lots, int back,
        int extra, int extra2, int dtMs)
    {
    }

    /** Each field from its own range; shrinking moves a field towards 0, or the end of its range nearest 0. */
    private static Gen<Action> action()
    {
        final Gen<Integer> kind = integers().between(0, 29);
        final Gen<Integer> account = integers().between(1, 3);
        final Gen<Boolean> buy = booleans().all();
        final Gen<Integer> tif = integers().between(1, 5);
        final Gen<Integer> stp = integers().between(0, 4);
        final Gen<Integer> priceTicks = integers().between(-12, 12);
        final Gen<Integer> lots = integers().between(-1, 12);
        final Gen<Integer> back = integers().between(0, 8);
        final Gen<Integer> extra = integers().between(0, 12);
        final Gen<Integer> extra2 = integers().between(0, 12);
        final Gen<Integer> dtMs = integers().between(0, 4);
        return (in) -> new Action(kind.generate(in), account.generate(in), buy.generate(in), tif.generate(in),
            stp.generate(in), priceTicks.generate(in), lots.generate(in), back.generate(in), extra.generate(in),
            extra2.generate(in), dtMs.generate(in));
    }

    /** What the runs met, by the model's event words: the generator must keep reaching every rule. */
    private static final Map<String, Integer> SEEN = new TreeMap<>();
    private static final String[] MUST_SEE = { "TRIGGERED", "EXPIRED", "PHASE VOLATILITY_AUCTION", " A", "IND ",
        "MIN_QUANTITY_NOT_MET", "FOK_NOT_FILLABLE", "INVALID_STOP_PRICE", "IOC_REMAINDER", "NOT_ALLOWED_IN_PHASE",
        "PHASE OPEN", "PHASE CLOSED", "SELF_TRADE_PREVENTION", "REPLACED", "INVALID_DISPLAY_QUANTITY" };

    @Test
    void processorMatchesReferenceModel()
    {
        qt().withExamples(300).withReporter(new ShortestFailure())
            .forAll(lists().of(action()).ofSizeBetween(20, 150).describedAs(MatchingPropertyTest::numbered))
            .checkAssert(MatchingPropertyTest::processorMatchesReferenceModel);
        System.out.println("MatchingPropertyTest saw " + SEEN);
        for (final String word : MUST_SEE)
        {
            assertTrue(SEEN.getOrDefault(word, 0) > 0, "the runs never produced " + word + ": " + SEEN);
        }
    }

    private static void count(final List<String> lines)
    {
        for (final String line : lines)
        {
            for (final String word : MUST_SEE)
            {
                if (line.contains(word))
                {
                    SEEN.merge(word, 1, Integer::sum);
                }
            }
        }
    }

    private static void processorMatchesReferenceModel(final List<Action> actions)
    {
        final Harness h = new Harness();
        h.send(h.encoder.addInstrument(1, INSTRUMENT, "P", 2, TICK, LOT, REFERENCE, PriceBandType.TICKS, BAND_TICKS));
        for (long a = 1; a <= 3; a++)
        {
            h.account(a, SelfTradePrevention.CANCEL_NEWEST);
        }
        final long cash = 3 * 1_000_000_00000000L;
        final ReferenceVenue reference = new ReferenceVenue(TICK, LOT, REFERENCE - BAND_TICKS * TICK,
            REFERENCE + BAND_TICKS * TICK, REFERENCE);
        long clientOrderId = 0;
        long requestId = 1_000;
        long time = h.time;

        for (int i = 0; i < actions.size(); i++)
        {
            final Action a = actions.get(i);
            final String step = "command " + i + " " + a;
            time += 1 + a.dtMs() * MS;
            reference.advanceTo(time);
            final int kind = a.kind();
            final long price = REFERENCE + a.priceTicks() * TICK + (kind == 15 ? 2 : 0);
            final long quantity = a.lots() * LOT + (kind == 14 ? 3 : 0);
            final long target = Math.max(1, reference.lastOrderId - a.back());
            final int stp = a.stp() == 0 ? ReferenceVenue.CANCEL_NEWEST : a.stp();
            final Side side = a.buy() ? Side.BUY : Side.SELL;
            final SelfTradePrevention stpMode = SelfTradePrevention.get((short)a.stp());
            final long stopPrice = reference.reference() + (a.buy() ? 1 : -1) * (a.extra() - 2) * TICK;
            final int length;
            if (kind <= 9 || kind == 14 || kind == 15 || (kind >= 16 && kind <= 23))
            {
                int type = ReferenceVenue.LIMIT;
                int tif = a.tif();
                long stop = 0;
                long display = 0;
                long minQuantity = 0;
                if (kind >= 16 && kind <= 19)
                {
                    type = kind <= 17 ? ReferenceVenue.STOP : ReferenceVenue.STOP_LIMIT;
                    stop = stopPrice;
                }
                else if (kind == 20 || kind == 21)
                {
                    display = a.extra2() * LOT;
                }
                else if (kind == 22)
                {
                    minQuantity = a.extra() * LOT;
                }
                else if (kind == 23)
                {
                    type = ReferenceVenue.MARKET;
                    tif = 2 + a.tif() % 2;
                    minQuantity = a.extra() * LOT;
                }
                final long expire = tif == ReferenceVenue.GTD ? time + (a.extra2() - 1) * MS :
                    (a.extra2() == 12 && kind <= 9 ? time + MS : 0);
                reference.newOrder(a.account(), a.buy(), type, tif, stp, price, quantity, stop, display, minQuantity,
                    expire);
                length = h.encoder.newOrder(Harness.SESSION, a.account(), ++clientOrderId, INSTRUMENT, side,
                    OrderType.get((short)type), TimeInForce.get((short)tif), false, stpMode, price, quantity, stop,
                    display, minQuantity, expire);
            }
            else if (kind == 10)
            {
                final int tif = 2 + a.tif() % 2;
                reference.newOrder(a.account(), a.buy(), ReferenceVenue.MARKET, tif, stp, price, quantity, 0, 0, 0, 0);
                length = h.encoder.newOrder(Harness.SESSION, a.account(), ++clientOrderId, INSTRUMENT, side,
                    OrderType.MARKET, TimeInForce.get((short)tif), false, stpMode, price, quantity);
            }
            else if (kind == 11)
            {
                reference.cancel(a.account(), target);
                length = h.encoder.cancel(Harness.SESSION, a.account(), ++clientOrderId, 0, target, INSTRUMENT);
            }
            else if (kind == 12 || kind == 13)
            {
                final long newStop = kind == 13 && a.extra() > 0 ? stopPrice : 0;
                reference.replace(a.account(), target, price, quantity, newStop);
                length = h.encoder.replace(Harness.SESSION, a.account(), ++clientOrderId, 0, target, INSTRUMENT,
                    price, quantity, newStop);
            }
            else if (kind == 24 || kind == 25)
            {
                final int status = STATUSES[a.extra()];
                final long duration = a.extra2() < 6 ? 0 : (a.extra2() - 5) * 3 * MS;
                reference.setTradingStatus(status, duration);
                length = h.encoder.setTradingStatus(++requestId, INSTRUMENT, TradingStatus.get((short)status),
                    duration);
            }
            else if (kind == 26)
            {
                final int bps = 25 * a.extra();
                final long duration = a.extra2() * 2 * MS;
                reference.setDynamicBand(bps, duration);
                length = h.encoder.setDynamicBand(++requestId, INSTRUMENT, bps, duration);
            }
            else
            {
                length = h.encoder.tick(time);
            }
            reference.endCommand();
            final List<String> actual = describe(h.sendAt(time, length));
            final List<String> expected = new ArrayList<>(reference.out);
            reference.out.clear();
            count(expected);
            assertEquals(expected, actual, step);
            assertEquals(reference.depth(), depth(h.processor.state().book(INSTRUMENT)), "depth after " + step);
            Invariants.check(h.processor.state(), cash);
        }
        assertEquals(0, h.processor.errorCount());
    }

    private static String numbered(final List<Action> actions)
    {
        final StringBuilder b = new StringBuilder(actions.size() + " commands:");
        for (int i = 0; i < actions.size(); i++)
        {
            b.append(System.lineSeparator()).append("  ").append(i).append(' ').append(actions.get(i));
        }
        return b.toString();
    }

    private static List<String> describe(final List<Object> events)
    {
        final List<String> out = new ArrayList<>();
        for (final Object e : events)
        {
            if (e instanceof Harness.Er er)
            {
                out.add("ER " + er.orderId() + " " + er.execType() + " leaves=" + er.leaves() + " cum=" +
                    er.cumulative() + " last=" + er.lastQuantity() + "@" + er.lastPrice() + " " + er.rejectReason() +
                    " " + er.cancelReason());
            }
            else if (e instanceof Harness.TradeEv t)
            {
                out.add("T " + t.tradeId() + " " + t.buyOrderId() + "/" + t.sellOrderId() + " " + t.quantity() + "@" +
                    t.price() + (t.auction() ? " A" : ""));
            }
            else if (e instanceof Harness.CxlRej c)
            {
                out.add("CXLREJ " + c.reason());
            }
            else if (e instanceof Harness.Admin adm)
            {
                out.add("ADMIN " + adm.status() + " " + adm.reason());
            }
            else if (e instanceof Harness.Definition d)
            {
                out.add("PHASE " + d.status());
            }
            else if (e instanceof Harness.Indicative ind)
            {
                out.add("IND " + ind.status() + " " + ind.price() + " " + ind.matched() + " " + ind.imbalance() + " " +
                    ind.endNs());
            }
        }
        return out;
    }

    private static String depth(final OrderBook book)
    {
        final StringBuilder b = new StringBuilder();
        final PriceLevels levels = book.levels();
        for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
        {
            b.append("B").append(levels.quantity(i, true)).append('@').append(levels.price(i)).append('x')
                .append(levels.orderCount(i, true)).append(' ');
        }
        for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
        {
            b.append("A").append(levels.quantity(i, false)).append('@').append(levels.price(i)).append('x')
                .append(levels.orderCount(i, false)).append(' ');
        }
        b.append("status=").append(book.instrument().status());
        final StopBook stops = book.stopsIfAny();
        for (int side = 0; side < 2; side++)
        {
            final boolean buy = side == 0;
            b.append(buy ? " SB" : " SS");
            for (int i = stops == null ? PriceLevels.NONE : stops.first(buy); i != PriceLevels.NONE;
                i = stops.next(buy, i))
            {
                for (Order o = stops.head(buy, i); o != null; o = PriceLevels.next(o))
                {
                    b.append(' ').append(o.orderId()).append('@').append(o.stopPrice());
                }
            }
        }
        for (int side = 0; side < 2; side++)
        {
            b.append(side == 0 ? " MB" : " MS");
            for (Order o = book.marketQueue(side == 0).first(); o != null; o = PriceLevels.next(o))
            {
                b.append(' ').append(o.orderId());
            }
        }
        return b.toString();
    }

    /**
     * Takes QuickTheories' smallest failing sequence and deletes commands from it while it still fails: halves first,
     * then smaller runs down to single commands, until no deletion keeps it failing. QuickTheories shrinks a list
     * only from its end and simplifies the fields in place, so a divergence at command 120 keeps 120 commands, most
     * of which play no part. Reports the shortest sequence, its failure and the seed (not the default reporter's ten
     * next-smallest sequences, hundreds of lines that say nothing more).
     */
    private static final class ShortestFailure implements Reporter
    {
        // "falisification" is the Reporter interface's own spelling.
        @SuppressWarnings("unchecked")
        public void falisification(
            final long seed,
            final int count,
            final Object smallest,
            final Throwable cause,
            final List<Object> examples,
            final AsString<Object> toString)
        {
            List<Action> shortest = (List<Action>)smallest;
            Throwable failure = cause;
            int before;
            do
            {
                before = shortest.size();
                for (int run = Math.max(1, shortest.size() / 2); run >= 1; run /= 2)
                {
                    int from = 0;
                    while (from < shortest.size())
                    {
                        final List<Action> candidate = new ArrayList<>(shortest.subList(0, from));
                        candidate.addAll(shortest.subList(Math.min(shortest.size(), from + run), shortest.size()));
                        final Throwable candidateFailure = failure(candidate);
                        if (null != candidateFailure)
                        {
                            shortest = candidate;
                            failure = candidateFailure;
                        }
                        else
                        {
                            from += run;
                        }
                    }
                }
            }
            while (shortest.size() < before);
            throw new AssertionError("Property falsified after " + count + " example(s); shortest failing " +
                numbered(shortest) + System.lineSeparator() + failure + System.lineSeparator() + "(QuickTheories' " +
                "smallest had " + ((List<Action>)smallest).size() + " commands) Seed was " + seed, failure);
        }

        public void falisification(
            final long seed,
            final int count,
            final Object smallest,
            final List<Object> examples,
            final AsString<Object> toString)
        {
            throw new AssertionError("Property falsified after " + count + " example(s); smallest failing " +
                toString.asString(smallest) + System.lineSeparator() + "Seed was " + seed);
        }

        public void valuesExhausted(final int completedExamples)
        {
            throw new IllegalStateException("only " + completedExamples + " example(s) could be generated");
        }

        private static Throwable failure(final List<Action> actions)
        {
            try
            {
                processorMatchesReferenceModel(actions);
                return null;
            }
            catch (final Throwable ex)
            {
                return ex;
            }
        }
    }
}
