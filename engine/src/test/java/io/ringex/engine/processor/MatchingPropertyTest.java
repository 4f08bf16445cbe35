package io.ringex.engine.processor;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random order flow (limit orders of every time in force, market orders, all self-trade prevention modes, cancels,
 * replaces, some invalid prices and quantities) through the processor and through {@link ReferenceVenue}: the
 * execution reports, trades, cancel rejects and the L2 book must be identical after every command, and the
 * whole-state invariants must hold.
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

    @Provide
    Arbitrary<List<Action>> actions()
    {
        final Arbitrary<Action> action = Combinators.combine(
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(1, 3),
            Arbitraries.of(true, false),
            Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(0, 4),
            Arbitraries.integers().between(-12, 12),
            Arbitraries.integers().between(-1, 12),
            Arbitraries.integers().between(0, 8))
            .as(Action::new);
        return action.list();
    }

    @Property(tries = 300)
    void processorMatchesReferenceModel(@ForAll("actions") @Size(min = 20, max = 150) final List<Action> actions)
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

        for (final Action action : actions)
        {
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
            assertEquals(expected, actual, () -> "after " + action);
            assertEquals(reference.depth(), depth(h.processor.state().book(INSTRUMENT)), () -> "depth after " + action);
            Invariants.check(h.processor.state(), cash);
        }
        assertEquals(0, h.processor.errorCount());
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
            b.append("B").append(levels.quantity(i)).append('@').append(levels.price(i)).append('x')
                .append(levels.orderCount(i)).append(' ');
        }
        for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
        {
            b.append("A").append(levels.quantity(i)).append('@').append(levels.price(i)).append('x')
                .append(levels.orderCount(i)).append(' ');
        }
        return b.toString();
    }

}
