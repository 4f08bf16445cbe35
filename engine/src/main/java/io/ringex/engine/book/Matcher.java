package io.ringex.engine.book;

import io.ringex.protocol.FixedPoint;

/**
 * Price-time priority matching of one incoming order against a book, with self-trade prevention.
 * <p>
 * The incoming order meets the best opposite level first and, within a level, the oldest order first. It trades at the
 * resting order's price while that price is within its limit (the protection price for a market order). When the
 * next resting order belongs to the same account, the incoming order's self-trade prevention mode decides; a
 * self-trade never prints:
 * <ul>
 *     <li>CANCEL_NEWEST: the incoming order stops; the caller cancels its remainder.</li>
 *     <li>CANCEL_OLDEST: the resting order is canceled and matching goes on.</li>
 *     <li>CANCEL_BOTH: both are canceled.</li>
 *     <li>DECREMENT_AND_CANCEL: both quantities go down by the smaller leaves; an order left with nothing is
 *     canceled, the other goes on (the incoming one keeps matching).</li>
 * </ul>
 * Threading: single business-logic thread; stateless between calls.
 */
public final class Matcher
{
    /** Matching ended normally: filled, or nothing more within the limit. */
    public static final int DONE = 0;
    /** Self-trade prevention ended the incoming order; the caller cancels it. */
    public static final int TAKER_SELF_TRADE_CANCELED = 1;

    private Matcher()
    {
    }

    /**
     * Match an incoming order (not in the book) against the book.
     *
     * @param book       the book.
     * @param taker      the incoming order.
     * @param limitPrice the worst price it accepts.
     * @param handler    told about trades and self-trade prevention.
     * @return {@link #DONE} or {@link #TAKER_SELF_TRADE_CANCELED}.
     */
    public static int match(final OrderBook book, final Order taker, final long limitPrice, final MatchHandler handler)
    {
        final PriceLevels levels = book.levels();
        final int priceScale = book.instrument().priceScale();
        while (taker.leavesQuantity() > 0)
        {
            final int index = taker.buy ? levels.bestAsk() : levels.bestBid();
            if (index == PriceLevels.NONE)
            {
                return DONE;
            }
            final long price = levels.price(index);
            if (taker.buy ? price > limitPrice : price < limitPrice)
            {
                return DONE;
            }
            final Order maker = levels.head(index);
            if (maker.accountId == taker.accountId)
            {
                if (preventSelfTrade(book, taker, maker, handler))
                {
                    return TAKER_SELF_TRADE_CANCELED;
                }
                continue;
            }

            final long quantity = Math.min(taker.leavesQuantity(), maker.leavesQuantity());
            final long notional = FixedPoint.notional(price, quantity, priceScale);
            maker.fill(quantity, notional);
            levels.reduced(maker, quantity);
            if (maker.leavesQuantity() == 0)
            {
                book.remove(maker);
            }
            taker.fill(quantity, notional);
            book.lastTradePrice(price);
            handler.onTrade(book, taker, maker, price, quantity, notional);
        }
        return DONE;
    }

    private static boolean preventSelfTrade(
        final OrderBook book, final Order taker, final Order maker, final MatchHandler handler)
    {
        switch (taker.selfTradePrevention)
        {
            case Order.STP_CANCEL_OLDEST:
                book.remove(maker);
                handler.onMakerSelfTradeCanceled(book, maker);
                return false;

            case Order.STP_CANCEL_BOTH:
                book.remove(maker);
                handler.onMakerSelfTradeCanceled(book, maker);
                return true;

            case Order.STP_DECREMENT_AND_CANCEL:
            {
                final long decrement = Math.min(taker.leavesQuantity(), maker.leavesQuantity());
                taker.quantity -= decrement;
                if (maker.leavesQuantity() == decrement)
                {
                    book.remove(maker);
                    maker.quantity -= decrement;
                    handler.onMakerSelfTradeCanceled(book, maker);
                }
                else
                {
                    book.reduceQuantity(maker, maker.quantity - decrement);
                    handler.onMakerSelfTradeDecremented(book, maker, decrement);
                }
                return taker.leavesQuantity() == 0;
            }

            default:
                return true;
        }
    }

    /**
     * Whether an incoming order would fill completely, self-trade prevention included, without changing anything:
     * the all-or-nothing test of a fill-or-kill order.
     *
     * @param book       the book.
     * @param taker      the incoming order.
     * @param limitPrice the worst price it accepts.
     * @return true if matching would fill all its leaves.
     */
    public static boolean canFillCompletely(final OrderBook book, final Order taker, final long limitPrice)
    {
        final PriceLevels levels = book.levels();
        long remaining = taker.leavesQuantity();
        int index = taker.buy ? levels.bestAsk() : levels.bestBid();
        while (index != PriceLevels.NONE)
        {
            final long price = levels.price(index);
            if (taker.buy ? price > limitPrice : price < limitPrice)
            {
                return false;
            }
            for (Order maker = levels.head(index); maker != null; maker = maker.levelNext)
            {
                if (maker.accountId == taker.accountId)
                {
                    if (taker.selfTradePrevention == Order.STP_CANCEL_OLDEST)
                    {
                        continue;
                    }
                    return false;
                }
                remaining -= Math.min(remaining, maker.leavesQuantity());
                if (remaining == 0)
                {
                    return true;
                }
            }
            index = taker.buy ? levels.nextAskAbove(index) : levels.nextBidBelow(index);
        }
        return false;
    }

    /**
     * Whether a taker could trade at all right now (ignoring self-trade prevention): used to tell a market order
     * that found nothing within its protection price.
     *
     * @param book       the book.
     * @param buy        taker side.
     * @param limitPrice worst price.
     * @return true if the opposite best is within the limit.
     */
    public static boolean hasLiquidity(final OrderBook book, final boolean buy, final long limitPrice)
    {
        return book.wouldCross(buy, limitPrice);
    }
}
