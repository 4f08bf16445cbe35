package io.ringex.engine.book;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each step of the equilibrium chain on a book built by hand (tick 1, reference 100 unless a trade moved it): the
 * largest volume, then the smallest surplus, then market pressure, then the reference price; icebergs count whole;
 * market orders count at every price; nothing crosses, nothing executes.
 */
final class UncrossingTest
{
    private final OrderBook book = new OrderBook(new Instrument(1, new byte[Instrument.SYMBOL_LENGTH], 0, 1, 1, 100,
        Instrument.BAND_TICKS, 50));
    private final Uncrossing uncrossing = new Uncrossing();
    private long nextId = 1;

    private Order order(final boolean buy, final long price, final long quantity)
    {
        final Order order = new Order().init(nextId++, nextId, 1, 1, buy, Order.TYPE_LIMIT, Order.TIF_GTC, false,
            Order.STP_CANCEL_NEWEST, price, quantity);
        book.rest(order);
        return order;
    }

    private void market(final boolean buy, final long quantity)
    {
        final Order order = new Order().init(nextId++, nextId, 1, 1, buy, Order.TYPE_MARKET, Order.TIF_IOC, false,
            Order.STP_CANCEL_NEWEST, buy ? 150 : 50, quantity);
        book.queueMarket(order);
    }

    private void assertUncross(final long price, final long matched, final long imbalance)
    {
        assertTrue(uncrossing.compute(book), "crosses");
        assertEquals(price, uncrossing.price(), "price");
        assertEquals(matched, uncrossing.matched(), "matched");
        assertEquals(imbalance, uncrossing.imbalance(), "imbalance");
    }

    @Test
    void nothingCrossesNothingExecutes()
    {
        order(true, 99, 10);
        order(false, 101, 10);
        assertFalse(uncrossing.compute(book));
    }

    @Test
    void theLargestVolumeWins()
    {
        order(true, 103, 10);
        order(true, 101, 10);
        order(false, 99, 5);
        order(false, 101, 15);
        order(false, 103, 30);
        // 99: D 20 S 5 (V 5); 100 (reference): D 20 S 5; 101: D 20 S 20 (V 20); 103: D 10 S 50 (V 10)
        assertUncross(101, 20, 0);
    }

    @Test
    void thenTheSmallestSurplus()
    {
        // 100 (reference): D 10 S 0; 101: D 10 S 10 (V 10, 0); 102 and 103: D 10 S 15 (V 10, -5)
        order(true, 103, 10);
        order(false, 101, 10);
        order(false, 102, 5);
        assertUncross(101, 10, 0);
    }

    @Test
    void thenMarketPressureOnTheBuySideTakesTheHighestPrice()
    {
        // 95, 100 (reference) and 105 all execute 10 leaving 5 on the buy side
        order(true, 105, 15);
        order(false, 95, 10);
        assertUncross(105, 10, 5);
    }

    @Test
    void thenMarketPressureOnTheSellSideTakesTheLowestPrice()
    {
        order(true, 105, 10);
        order(false, 95, 15);
        assertUncross(95, 10, -5);
    }

    @Test
    void withoutPressureTheReferencePriceWhenItRemains()
    {
        order(true, 105, 10);
        order(false, 95, 10);
        assertUncross(100, 10, 0);
    }

    @Test
    void elseThePriceNearestTheReference()
    {
        // equal volume and no surplus at 104..106 only, all above the reference: the nearest is 104
        order(true, 106, 10);
        order(false, 104, 10);
        book.lastTradePrice(90);
        // the reference is now 90; 90 itself executes nothing (no sell at or below 90)
        assertUncross(104, 10, 0);
    }

    @Test
    void surplusesOnBothSidesFallToTheReference()
    {
        order(true, 98, 10);
        order(true, 102, 10);
        order(false, 98, 10);
        order(false, 99, 10);
        // 98: D 20 S 10 (V 10, +10); 99: D 10 S 20 (V 10, -10); 100: D 10 S 20; 102: D 10 S 20
        // smallest surplus 10 on both sides at 98 and 99..102: the reference, 100, remains
        assertUncross(100, 10, -10);
    }

    @Test
    void icebergsCountWholeAndMarketOrdersAtEveryPrice()
    {
        final Order iceberg = new Order().init(nextId++, 7, 1, 1, false, Order.TYPE_LIMIT, Order.TIF_GTC, false,
            Order.STP_CANCEL_NEWEST, 101, 100);
        iceberg.terms(0, 10, 0);
        book.rest(iceberg);
        assertEquals(10, book.bestAskQuantity(), "the book shows the peak only");
        market(true, 60);
        // only the iceberg's price and the reference are candidates: 100 executes nothing (no sell at or below)
        assertUncross(101, 60, -40);
    }

    @Test
    void onlyMarketOrdersExecuteAtTheReferencePrice()
    {
        market(true, 30);
        market(false, 20);
        assertUncross(100, 20, 10);
    }
}
