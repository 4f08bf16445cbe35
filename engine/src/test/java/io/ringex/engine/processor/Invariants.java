package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.protocol.FixedPoint;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole-state invariants checked after commands: the book is never crossed; level totals and counts match their
 * queues; every indexed order rests, has leaves and is in exactly one queue; positions per instrument sum to zero;
 * cash is conserved; each account's reserved money, open quantities and open order count match its orders.
 */
final class Invariants
{
    private Invariants()
    {
    }

    static void check(final EngineState state, final long expectedCash)
    {
        final Set<Long> queued = new HashSet<>();
        for (int b = 0; b < state.bookCount(); b++)
        {
            final OrderBook book = state.bookAt(b);
            final PriceLevels levels = book.levels();
            if (levels.bestBid() != PriceLevels.NONE && levels.bestAsk() != PriceLevels.NONE)
            {
                assertTrue(levels.bestBid() < levels.bestAsk(), "crossed book");
            }
            for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
            {
                checkLevel(levels, i, true, queued);
            }
            for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
            {
                checkLevel(levels, i, false, queued);
            }
        }
        assertEquals(state.orders().size(), queued.size(), "indexed orders == queued orders");

        final Map<Long, long[]> perAccount = new HashMap<>();
        for (Order o = state.orders().first(); o != null; o = o.venueNext)
        {
            assertTrue(o.isResting() && o.leavesQuantity() > 0, "open order rests with leaves");
            assertTrue(queued.contains(o.orderId()));
            final long[] sums = perAccount.computeIfAbsent(o.accountId(), k -> new long[2]);
            sums[0]++;
            if (o.isBuy())
            {
                final int scale = state.book(o.instrumentId()).instrument().priceScale();
                sums[1] += FixedPoint.notional(o.price(), o.leavesQuantity(), scale);
            }
            assertEquals(o.leavesQuantity(), o.trackedLeaves());
        }

        long cash = 0;
        final Map<Integer, Long> net = new HashMap<>();
        for (int a = 0; a < state.accountCount(); a++)
        {
            final Account account = state.accountAt(a);
            cash += account.balance();
            final long[] sums = perAccount.getOrDefault(account.accountId(), new long[2]);
            assertEquals(sums[0], account.openOrders(), "open orders of " + account.accountId());
            assertEquals(sums[1], account.reserved(), "reserved of " + account.accountId());
            int linked = 0;
            for (Order o = account.firstOpenOrder(); o != null; o = o.accountNext)
            {
                linked++;
            }
            assertEquals(sums[0], linked);
            for (int p = 0; p < account.positionCount(); p++)
            {
                final Position position = account.positionAt(p);
                net.merge(position.instrumentId(), position.position(), Long::sum);
                long buys = 0;
                long sells = 0;
                for (Order o = account.firstOpenOrder(); o != null; o = o.accountNext)
                {
                    if (o.instrumentId() == position.instrumentId())
                    {
                        if (o.isBuy())
                        {
                            buys += o.leavesQuantity();
                        }
                        else
                        {
                            sells += o.leavesQuantity();
                        }
                    }
                }
                assertEquals(buys, position.openBuyQuantity());
                assertEquals(sells, position.openSellQuantity());
            }
        }
        if (expectedCash != Long.MIN_VALUE)
        {
            assertEquals(expectedCash, cash, "cash conserved");
        }
        net.forEach((instrument, sum) -> assertEquals(0L, (long)sum, "positions sum to zero in " + instrument));
    }

    private static void checkLevel(final PriceLevels levels, final int index, final boolean buy, final Set<Long> seen)
    {
        long quantity = 0;
        int count = 0;
        for (Order o = levels.head(index); o != null; o = PriceLevels.next(o))
        {
            assertEquals(buy, o.isBuy(), "one side per level");
            assertEquals(levels.price(index), o.price());
            assertTrue(seen.add(o.orderId()), "order queued once");
            quantity += o.leavesQuantity();
            count++;
        }
        assertTrue(count > 0);
        assertEquals(quantity, levels.quantity(index));
        assertEquals(count, levels.orderCount(index));
    }
}
