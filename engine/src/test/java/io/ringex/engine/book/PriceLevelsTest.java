package io.ringex.engine.book;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The direct-indexed levels: FIFO queues, totals, and finding the next best level across bitmap words.
 */
final class PriceLevelsTest
{
    private static Order order(final long id, final boolean buy, final long price, final long quantity)
    {
        return new Order().init(id, 1, 1, 1, buy, Order.TYPE_LIMIT, Order.TIF_GTC, false, Order.STP_CANCEL_NEWEST,
            price, quantity);
    }

    @Test
    void bestLevelsAcrossBitmapWords()
    {
        final PriceLevels levels = new PriceLevels(100, 1, 1000);
        final Order low = order(1, true, 100, 10);
        final Order high = order(2, true, 700, 10);
        final Order ask = order(3, false, 999 + 100, 5);
        levels.append(low, 1);
        levels.append(high, 2);
        levels.append(ask, 3);
        assertEquals(600, levels.bestBid());
        assertEquals(999, levels.bestAsk());
        assertEquals(0, levels.nextBidBelow(600));
        levels.remove(high);
        assertEquals(0, levels.bestBid());
        levels.remove(low);
        assertEquals(PriceLevels.NONE, levels.bestBid());
        assertEquals(PriceLevels.NONE, levels.nextAskAbove(999));
    }

    @Test
    void queueIsFifoAndTotalsFollowReductions()
    {
        final PriceLevels levels = new PriceLevels(10, 5, 10);
        final Order first = order(1, false, 20, 10);
        final Order second = order(2, false, 20, 30);
        levels.append(first, 1);
        levels.append(second, 2);
        final int index = levels.index(20);
        assertEquals(40, levels.quantity(index, false));
        assertEquals(2, levels.orderCount(index, false));
        assertEquals(first, levels.head(index, false));
        first.fill(4, 0);
        levels.reduced(first, 4, 0);
        assertEquals(36, levels.quantity(index, false));
        levels.remove(first);
        assertEquals(second, levels.head(index, false));
        assertNull(PriceLevels.next(second));
        assertEquals(30, levels.quantity(index, false));
    }
}
