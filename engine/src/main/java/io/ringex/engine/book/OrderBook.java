package io.ringex.engine.book;

/**
 * One instrument's book: its price levels plus the market-data state that goes with them (the per-instrument
 * market-data sequence, the last trade price and the last best bid/offer published).
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderBook
{
    private final Instrument instrument;
    private final PriceLevels levels;
    private long mdSequence;
    private long lastTradePrice;
    private long nextPriority = 1;
    private long publishedBidPrice;
    private long publishedBidQuantity;
    private long publishedAskPrice;
    private long publishedAskQuantity;
    private boolean touched;
    private MarkPrices marks;
    private int markIndex = -1;

    /**
     * @param instrument the instrument, whose band sizes the levels.
     */
    public OrderBook(final Instrument instrument)
    {
        this.instrument = instrument;
        this.levels = new PriceLevels(instrument.minPrice(), instrument.tickSize(), instrument.levelCount());
    }

    /** @return the instrument. */
    public Instrument instrument()
    {
        return instrument;
    }

    /** @return the levels. */
    public PriceLevels levels()
    {
        return levels;
    }

    /** @return the last market-data sequence used. */
    public long mdSequence()
    {
        return mdSequence;
    }

    /** @return the next market-data sequence, advancing it. */
    public long nextMdSequence()
    {
        return ++mdSequence;
    }

    /** @return last trade price, 0 if none yet. */
    public long lastTradePrice()
    {
        return lastTradePrice;
    }

    /**
     * @param price price of the latest trade.
     */
    public void lastTradePrice(final long price)
    {
        lastTradePrice = price;
        publishMark();
    }

    /** @return this book's index in the {@link MarkPrices} it is registered with, -1 if none. */
    public int markIndex()
    {
        return markIndex;
    }

    void attachMarks(final MarkPrices marks, final int markIndex)
    {
        this.marks = marks;
        this.markIndex = markIndex;
        publishMark();
    }

    private void publishMark()
    {
        if (marks != null)
        {
            marks.set(markIndex, markPrice());
        }
    }

    /** @return the mark for P&amp;L: last trade price, else the reference price. */
    public long markPrice()
    {
        return lastTradePrice != 0 ? lastTradePrice : instrument.referencePrice();
    }

    /**
     * Put an order at the back of its price's queue.
     *
     * @param order an order not in a book.
     */
    public void rest(final Order order)
    {
        levels.append(order, nextPriority++);
    }

    /**
     * Take a resting order out of the book.
     *
     * @param order a resting order.
     */
    public void remove(final Order order)
    {
        levels.remove(order);
    }

    /**
     * Reduce a resting order's quantity in place, keeping its time priority.
     *
     * @param order       a resting order.
     * @param newQuantity its new total quantity, above its filled quantity.
     */
    public void reduceQuantity(final Order order, final long newQuantity)
    {
        final long delta = order.quantity - newQuantity;
        order.quantity = newQuantity;
        levels.reduced(order, delta);
    }

    /**
     * Whether an order at {@code price} on the given side would meet the other side.
     *
     * @param buy   side.
     * @param price limit price.
     * @return true if it would cross.
     */
    public boolean wouldCross(final boolean buy, final long price)
    {
        if (buy)
        {
            final int ask = levels.bestAsk();
            return ask != PriceLevels.NONE && levels.price(ask) <= price;
        }
        final int bid = levels.bestBid();
        return bid != PriceLevels.NONE && levels.price(bid) >= price;
    }

    /** @return best bid price or 0. */
    public long bestBidPrice()
    {
        final int bid = levels.bestBid();
        return bid == PriceLevels.NONE ? 0 : levels.price(bid);
    }

    /** @return quantity at the best bid or 0. */
    public long bestBidQuantity()
    {
        final int bid = levels.bestBid();
        return bid == PriceLevels.NONE ? 0 : levels.quantity(bid);
    }

    /** @return best ask price or 0. */
    public long bestAskPrice()
    {
        final int ask = levels.bestAsk();
        return ask == PriceLevels.NONE ? 0 : levels.price(ask);
    }

    /** @return quantity at the best ask or 0. */
    public long bestAskQuantity()
    {
        final int ask = levels.bestAsk();
        return ask == PriceLevels.NONE ? 0 : levels.quantity(ask);
    }

    /**
     * Whether the top of book differs from what was last published; if so it is recorded as published.
     *
     * @return true if a BestBidOffer should be published.
     */
    public boolean takeBboChange()
    {
        final long bidPrice = bestBidPrice();
        final long bidQuantity = bestBidQuantity();
        final long askPrice = bestAskPrice();
        final long askQuantity = bestAskQuantity();
        if (bidPrice == publishedBidPrice && bidQuantity == publishedBidQuantity &&
            askPrice == publishedAskPrice && askQuantity == publishedAskQuantity)
        {
            return false;
        }
        publishedBidPrice = bidPrice;
        publishedBidQuantity = bidQuantity;
        publishedAskPrice = askPrice;
        publishedAskQuantity = askQuantity;
        return true;
    }

    /** @return the next time-priority stamp (for snapshots). */
    public long nextPriority()
    {
        return nextPriority;
    }

    /**
     * Take the place of an amended instrument's book (which must hold no order): its market-data sequence, last trade
     * price, priority stamps and mark slot carry on in this one.
     *
     * @param old the book replaced.
     */
    public void takeOver(final OrderBook old)
    {
        this.marks = old.marks;
        this.markIndex = old.markIndex;
        restoreState(old.mdSequence, old.lastTradePrice, old.nextPriority);
    }

    /**
     * Restore market-data state from a snapshot.
     *
     * @param mdSequence     last market-data sequence.
     * @param lastTradePrice last trade price or 0.
     * @param nextPriority   next time-priority stamp.
     */
    public void restoreState(final long mdSequence, final long lastTradePrice, final long nextPriority)
    {
        this.mdSequence = mdSequence;
        this.lastTradePrice = lastTradePrice;
        this.nextPriority = nextPriority;
        publishMark();
    }

    /**
     * Put an order back into its queue with its snapshot priority; orders must be restored in priority order.
     *
     * @param order    an order not in a book.
     * @param priority its priority.
     */
    public void restoreResting(final Order order, final long priority)
    {
        levels.append(order, priority);
    }

    /** @return true while queued for a best bid/offer check at the end of the command (not part of the state). */
    public boolean touched()
    {
        return touched;
    }

    /**
     * @param touched whether the book is queued for a best bid/offer check.
     */
    public void touched(final boolean touched)
    {
        this.touched = touched;
    }

    /** Record the current top of book as published (after a restore, so no spurious BBO follows). */
    public void markBboPublished()
    {
        takeBboChange();
    }
}
