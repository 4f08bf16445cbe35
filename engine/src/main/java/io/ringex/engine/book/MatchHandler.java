package io.ringex.engine.book;

/**
 * What the {@link Matcher} tells its owner while it matches, so the owner can write events and settle trades. When a
 * callback runs, the book and both orders already reflect the change; a maker that is done has left the book and the
 * handler owns it (it may release it to the pool).
 * <p>
 * Threading: called on the single business-logic thread, from within {@link Matcher#match}.
 */
public interface MatchHandler
{
    /**
     * A trade printed between an incoming order and a resting one.
     *
     * @param book     the book.
     * @param taker    the incoming (aggressor) order.
     * @param maker    the resting order; out of the book if its leaves reached zero.
     * @param price    trade price (the maker's).
     * @param quantity trade quantity.
     * @param notional price x quantity at money scale.
     */
    void onTrade(OrderBook book, Order taker, Order maker, long price, long quantity, long notional);

    /**
     * Self-trade prevention canceled a resting order; it has left the book.
     *
     * @param book  the book.
     * @param maker the canceled resting order.
     */
    void onMakerSelfTradeCanceled(OrderBook book, Order maker);

    /**
     * Self-trade prevention decremented a resting order, which keeps its place.
     *
     * @param book     the book.
     * @param maker    the resting order, its quantity already reduced.
     * @param quantity by how much.
     */
    void onMakerSelfTradeDecremented(OrderBook book, Order maker, long quantity);
}
