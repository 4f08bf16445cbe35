package io.ringex.engine.processor;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

/**
 * Random order flow (limit orders of every time in force, market orders, all self-trade prevention modes, cancels,
 * replaces, some invalid prices and quantities) through the processor and through {@link ReferenceVenue}: the
 * execution reports, trades, cancel rejects and the L2 book must be identical after every command, and the
 * whole-state invariants must hold.
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

    record Action(int kind, int account, boolean buy, int tif, int stp, int priceTicks, int lots, int back)
    {
    }

    /** Each field from its own range; shrinking moves a field towards 0, or the end of its range nearest 0. */
    private static Gen<Action> action()
    {
        final Gen<Integer> kind = integers().between(0, 9);
        final Gen<Integer> account = integers().between(1, 3);
        final Gen<Boolean> buy = booleans().all();
        final Gen<Integer> tif = integers().between(1, 4);
        final Gen<Integer> stp = integers().between(0, 4);
        final Gen<Integer> priceTicks = integers().between(-12, 12);
        final Gen<Integer> lots = integers().between(-1, 12);
        final Gen<Integer> back = integers().between(0, 8);
        return (in) -> new Action(kind.generate(in), account.generate(in), buy.generate(in), tif.generate(in),
            stp.generate(in), priceTicks.generate(in), lots.generate(in), back.generate(in));
    }

    @Test
    void processorMatchesReferenceModel()
    {
        qt().withExamples(300).withReporter(new ShortestFailure())
            .forAll(lists().of(action()).ofSizeBetween(20, 150).describedAs(MatchingPropertyTest::numbered))
            .checkAssert(MatchingPropertyTest::processorMatchesReferenceModel);
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
            REFERENCE + BAND_TICKS * TICK);
        long clientOrderId = 0;

        for (int i = 0; i < actions.size(); i++)
        {
            final Action action = actions.get(i);
            final String step = "command " + i + " " + action;
            final long price = REFERENCE + action.priceTicks() * TICK + (action.kind() == 9 ? 2 : 0);
            final long quantity = action.lots() * LOT + (action.kind() == 8 ? 3 : 0);
            final long target = Math.max(1, reference.lastOrderId - action.back());
            final int length;
            if (action.kind() <= 5 || action.kind() >= 8)
            {
                final boolean market = action.kind() == 5;
                final int tif = market ? 2 + action.tif() % 2 : action.tif();
                final int stp = action.stp() == 0 ? ReferenceVenue.CANCEL_NEWEST : action.stp();
                reference.newOrder(action.account(), action.buy(), market, tif, stp, price, quantity);
                length = h.encoder.newOrder(Harness.SESSION, action.account(), ++clientOrderId, INSTRUMENT,
                    action.buy() ? Side.BUY : Side.SELL, market ? OrderType.MARKET : OrderType.LIMIT,
                    TimeInForce.get((short)tif), false, SelfTradePrevention.get((short)action.stp()), price, quantity);
            }
            else if (action.kind() == 6)
            {
                reference.cancel(action.account(), target);
                length = h.encoder.cancel(Harness.SESSION, action.account(), ++clientOrderId, 0, target, INSTRUMENT);
            }
            else
            {
                reference.replace(action.account(), target, price, quantity);
                length = h.encoder.replace(Harness.SESSION, action.account(), ++clientOrderId, 0, target, INSTRUMENT,
                    price, quantity);
            }
            final List<String> actual = describe(h.send(length));
            final List<String> expected = new ArrayList<>(reference.out);
            reference.out.clear();
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
                    t.price());
            }
            else if (e instanceof Harness.CxlRej c)
            {
                out.add("CXLREJ " + c.reason());
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
