package io.ringex.engine.book;

/**
 * The pending stop and stop-limit orders of one book, by stop price, in the order they would trigger: buy stops by stop
 * price ascending, sell stops descending, and arrival order at one price ({@link #nextTriggered}; docs/matching.md,
 * "Stop and stop-limit"). Held in a {@link PriceLevels} with the sides swapped, so each operation is O(1); its arrays
 * are made with the book's first stop.
 * <p>
 * Threading: single business-logic thread.
 */
public final class StopBook
{
    private final PriceLevels levels;
    private int count;

    /**
     * @param instrument whose band the stop prices lie in.
     */
    StopBook(final Instrument instrument)
    {
        levels = new PriceLevels(instrument.minPrice(), instrument.tickSize(), instrument.levelCount());
    }

    /**
     * Queue a stop at the back of its stop price.
     *
     * @param order    an accepted stop order with its stop price within the band, not in any book.
     * @param priority its stamp (arrival at this stop price).
     */
    void add(final Order order, final long priority)
    {
        levels.append(order, order.stopPrice, priority, !order.buy);
        order.location = Order.AT_STOPS;
        count++;
    }

    /**
     * Take a pending stop out.
     *
     * @param order a pending stop of this book.
     */
    void remove(final Order order)
    {
        levels.remove(order, !order.buy);
        order.location = Order.AT_NONE;
        count--;
    }

    /**
     * Lower a pending stop's quantity in place: it keeps its place at its stop price.
     *
     * @param order       a pending stop of this book.
     * @param newQuantity its new quantity, at least its filled quantity plus one.
     */
    void reduceQuantity(final Order order, final long newQuantity)
    {
        final long delta = order.quantity - newQuantity;
        order.quantity = newQuantity;
        levels.reduced(order, delta, 0, !order.buy);
    }

    /** @return pending stops. */
    public int count()
    {
        return count;
    }

    /**
     * The next stop a trade at {@code tradePrice} triggers, taken out of the book: the lowest buy stop at or below
     * the price, else the highest sell stop at or above it.
     *
     * @param tradePrice the trade's price.
     * @return the order, no longer pending, or null if the trade triggers nothing more.
     */
    Order nextTriggered(final long tradePrice)
    {
        if (count == 0)
        {
            return null;
        }
        final int lowestBuy = levels.bestAsk();
        if (lowestBuy != PriceLevels.NONE && levels.price(lowestBuy) <= tradePrice)
        {
            final Order order = levels.head(lowestBuy, false);
            remove(order);
            return order;
        }
        final int highestSell = levels.bestBid();
        if (highestSell != PriceLevels.NONE && levels.price(highestSell) >= tradePrice)
        {
            final Order order = levels.head(highestSell, true);
            remove(order);
            return order;
        }
        return null;
    }

    /**
     * @param buy side.
     * @return index of the stop price that triggers first on that side, or {@link PriceLevels#NONE}.
     */
    public int first(final boolean buy)
    {
        return buy ? levels.bestAsk() : levels.bestBid();
    }

    /**
     * @param buy   side.
     * @param index a stop price's index.
     * @return the next stop price on that side in trigger order, or {@link PriceLevels#NONE}.
     */
    public int next(final boolean buy, final int index)
    {
        return buy ? levels.nextAskAbove(index) : levels.nextBidBelow(index);
    }

    /**
     * @param buy   side.
     * @param index a stop price's index.
     * @return the first stop in arrival order there, or null; follow {@link PriceLevels#next(Order)}.
     */
    public Order head(final boolean buy, final int index)
    {
        return levels.head(index, !buy);
    }

    /**
     * @param index an index.
     * @return its stop price.
     */
    public long price(final int index)
    {
        return levels.price(index);
    }
}
