package io.ringex.engine.book;

import io.ringex.protocol.FixedPoint;

/**
 * Price-time priority matching of one incoming order against a book, with self-trade prevention, icebergs, the dynamic
 * band and market-maker protection, by the rules of docs/matching.md ("Orders", "Self-trade prevention", "Icebergs",
 * "The dynamic band and volatility interruptions", "Market-maker protection").
 * <p>
 * Matching stops early with {@link #INTERRUPTED} (a price beyond the dynamic band's edge) or {@link #STOPPED} (the
 * incoming quote order breached its account's protection); what traded before stays. The next resting order is read
 * afresh after every trade, so makers the handler cancelled are never met.
 * <p>
 * Threading: single business-logic thread; stateless between calls.
 */
public final class Matcher
{
    /** Matching ended normally: filled, or nothing more within the limit. */
    public static final int DONE = 0;
    /** Self-trade prevention ended the incoming order; the caller cancels it. */
    public static final int TAKER_SELF_TRADE_CANCELED = 1;
    /** The next trade would have been beyond the dynamic band: continuous trading is to be interrupted. */
    public static final int INTERRUPTED = 2;
    /** Market-maker protection cancelled the incoming order (a quote's) at a trade: the caller cancels what is left. */
    public static final int STOPPED = 3;

    private Matcher()
    {
    }

    /**
     * Match an incoming order (not in the book) against the book.
     *
     * @param book       the book.
     * @param taker      the incoming order.
     * @param limitPrice the worst price it accepts.
     * @param bandEdge   the dynamic band's edge on the taker's side ({@link OrderBook#dynamicBandEdge}).
     * @param handler    told about trades and self-trade prevention.
     * @return {@link #DONE}, {@link #TAKER_SELF_TRADE_CANCELED} or {@link #INTERRUPTED}.
     */
    public static int match(
        final OrderBook book, final Order taker, final long limitPrice, final long bandEdge, final MatchHandler handler)
    {
        final PriceLevels levels = book.levels();
        final int priceScale = book.instrument().priceScale();
        final boolean buy = taker.buy;
        while (taker.leavesQuantity() > 0)
        {
            final int index = buy ? levels.bestAsk() : levels.bestBid();
            if (index == PriceLevels.NONE)
            {
                return DONE;
            }
            final long price = levels.price(index);
            if (buy ? price > limitPrice : price < limitPrice)
            {
                return DONE;
            }
            if (buy ? price > bandEdge : price < bandEdge)
            {
                return INTERRUPTED;
            }
            final Order maker = levels.head(index, !buy);
            if (maker.accountId == taker.accountId)
            {
                if (preventSelfTrade(book, taker, maker, handler))
                {
                    return TAKER_SELF_TRADE_CANCELED;
                }
                continue;
            }

            final long quantity;
            final long notional;
            if (maker.displayQuantity == 0)
            {
                // the common case apart: an order shown whole
                quantity = Math.min(taker.leavesQuantity(), maker.quantity - maker.filledQuantity);
                notional = FixedPoint.notional(price, quantity, priceScale);
                maker.fill(quantity, notional);
                levels.reduced(maker, quantity, 0);
                if (maker.quantity == maker.filledQuantity)
                {
                    book.remove(maker);
                }
            }
            else
            {
                quantity = Math.min(taker.leavesQuantity(), maker.peakLeaves);
                notional = FixedPoint.notional(price, quantity, priceScale);
                book.fillResting(maker, quantity, notional);
                if (OrderBook.needsRefresh(maker))
                {
                    book.refreshPeak(maker);
                }
            }
            taker.fill(quantity, notional);
            book.lastTradePrice(price);
            handler.onTrade(book, taker, maker, price, quantity, notional);
            if (taker.matchingStopped)
            {
                return STOPPED;
            }
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
                final long decrement = Math.min(taker.leavesQuantity(), maker.visibleQuantity());
                taker.quantity -= decrement;
                if (maker.leavesQuantity() == decrement)
                {
                    book.remove(maker);
                    maker.quantity -= decrement;
                    handler.onMakerSelfTradeCanceled(book, maker);
                }
                else
                {
                    book.decrementVisible(maker, decrement);
                    handler.onMakerSelfTradeDecremented(book, maker, decrement);
                }
                return taker.leavesQuantity() == 0;
            }

            default:
                return true;
        }
    }

    /**
     * How much an incoming order would trade at once, up to {@code wanted}, without changing anything: the
     * all-or-nothing test of a fill-or-kill order and the minimum-quantity test. Counts in the order matching would
     * meet the resting orders: at each price the orders in queue order, each iceberg with its peak, then the
     * icebergs' hidden quantities (matching meets their next peaks before moving to a worse price); it stops at the
     * first resting order of the same account (unless the order's mode is CANCEL_OLDEST, which cancels such orders
     * and goes on), at the limit and at the dynamic band's edge.
     *
     * @param book       the book.
     * @param taker      the incoming order.
     * @param limitPrice the worst price it accepts, already capped at the dynamic band's edge.
     * @param wanted     the most to count.
     * @return the quantity, at most {@code wanted}.
     */
    public static long executableQuantity(
        final OrderBook book, final Order taker, final long limitPrice, final long wanted)
    {
        final PriceLevels levels = book.levels();
        final boolean buy = taker.buy;
        long found = 0;
        int index = buy ? levels.bestAsk() : levels.bestBid();
        while (index != PriceLevels.NONE && found < wanted)
        {
            final long price = levels.price(index);
            if (buy ? price > limitPrice : price < limitPrice)
            {
                return found;
            }
            long hiddenHere = 0;
            for (Order maker = levels.head(index, !buy); maker != null; maker = maker.levelNext)
            {
                if (maker.accountId == taker.accountId)
                {
                    if (taker.selfTradePrevention == Order.STP_CANCEL_OLDEST)
                    {
                        continue;
                    }
                    return Math.min(wanted, found);
                }
                found += maker.visibleQuantity();
                hiddenHere += maker.leavesQuantity() - maker.visibleQuantity();
                if (found >= wanted)
                {
                    return wanted;
                }
            }
            found += hiddenHere;
            index = buy ? levels.nextAskAbove(index) : levels.nextBidBelow(index);
        }
        return Math.min(wanted, found);
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
