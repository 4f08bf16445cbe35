package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.book.StopBook;
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
 * Whole-state invariants checked after commands: the book is not crossed in continuous trading; level totals (visible
 * and hidden) and counts match their queues; an iceberg in the book shows a peak of at most its display quantity;
 * every indexed order waits somewhere (the book, the pending stops, an uncrossing's market queue), has leaves and is
 * in exactly one queue; pending buy stops lie above the last trade price and sell stops below; no triggered stop is
 * left waiting between commands; positions per instrument sum to zero; cash is conserved; each account's reserved
 * money, open quantities and open order count match its orders.
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
            // a call phase's book may cross (and stays so while halted out of one); continuous trading never rests
            // a crossed book: the uncrossing that starts it leaves none
            if (levels.bestBid() != PriceLevels.NONE && levels.bestAsk() != PriceLevels.NONE &&
                book.instrument().status() == Instrument.STATUS_OPEN)
            {
                assertTrue(levels.bestBid() < levels.bestAsk(), "crossed book");
            }
            if (book.instrument().status() == Instrument.STATUS_OPEN)
            {
                assertEquals(null, book.marketQueue(true).first(), "market orders queued outside a call phase");
                assertEquals(null, book.marketQueue(false).first(), "market orders queued outside a call phase");
            }
            for (int side = 0; side < 2; side++)
            {
                final boolean buy = side == 0;
                long queuedQuantity = 0;
                for (Order o = book.marketQueue(buy).first(); o != null; o = PriceLevels.next(o))
                {
                    assertEquals(Order.AT_AUCTION_MARKET, o.location());
                    assertEquals(buy, o.isBuy());
                    assertTrue(queued.add(o.orderId()), "order queued once");
                    queuedQuantity += o.leavesQuantity();
                }
                assertEquals(queuedQuantity, book.marketQueue(buy).quantity(), "market queue total");
                final StopBook stops = book.stopsIfAny();
                for (int i = stops == null ? PriceLevels.NONE : stops.first(buy); i != PriceLevels.NONE;
                    i = stops.next(buy, i))
                {
                    final long stopPrice = stops.price(i);
                    final long last = book.dynamicReferencePrice();
                    assertTrue(buy ? stopPrice > last : stopPrice < last,
                        "pending stop " + stopPrice + " already reached by " + last);
                    for (Order o = stops.head(buy, i); o != null; o = PriceLevels.next(o))
                    {
                        assertEquals(Order.AT_STOPS, o.location());
                        assertEquals(buy, o.isBuy());
                        assertEquals(stopPrice, o.stopPrice());
                        assertTrue(queued.add(o.orderId()), "order queued once");
                    }
                }
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
            assertTrue(o.location() != Order.AT_NONE && o.location() != Order.AT_TRIGGERED && o.leavesQuantity() > 0,
                "open order waits with leaves");
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
        long hidden = 0;
        int count = 0;
        for (Order o = levels.head(index, buy); o != null; o = PriceLevels.next(o))
        {
            assertEquals(buy, o.isBuy(), "one side per level");
            assertEquals(Order.AT_BOOK, o.location());
            assertEquals(levels.price(index), o.price());
            assertTrue(seen.add(o.orderId()), "order queued once");
            if (o.displayQuantity() != 0)
            {
                assertTrue(o.peakLeaves() > 0 && o.peakLeaves() <= o.displayQuantity() &&
                    o.peakLeaves() <= o.leavesQuantity(), "iceberg peak " + o.peakLeaves());
            }
            quantity += o.visibleQuantity();
            hidden += o.leavesQuantity() - o.visibleQuantity();
            count++;
        }
        assertTrue(count > 0);
        assertEquals(quantity, levels.quantity(index, buy));
        assertEquals(hidden, levels.hiddenQuantity(index, buy));
        assertEquals(count, levels.orderCount(index, buy));
    }
}
