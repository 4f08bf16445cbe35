package io.ringex.engine.book;

/**
 * One instrument's book: its price levels plus the market-data state that goes with them (the per-instrument
 * market-data sequence, the last trade price and the last best bid/offer published), its pending stops
 * ({@link StopBook}), the market orders waiting for a call phase's uncrossing (in arrival order, per side), and its
 * trading-phase state: the dynamic band and when the current phase ends.
 * <p>
 * Icebergs: the levels show an iceberg's peak only. When a fill (or a self-trade decrement) uses up the peak while
 * leaves remain, the order refreshes: a new peak of {@code min(display, leaves)} joins the back of the queue at its
 * price ({@link #refreshPeak}).
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
    private StopBook stops;
    private final MarketQueue marketBuys = new MarketQueue();
    private final MarketQueue marketSells = new MarketQueue();
    private int dynamicBandBasisPoints;
    private long volatilityAuctionNs;
    private long phaseEndNs = Long.MAX_VALUE;
    private final PublishedIndicative publishedIndicative = new PublishedIndicative();

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
     * Put an order at the back of its price's queue; an iceberg shows a fresh peak.
     *
     * @param order an order not in a book.
     */
    public void rest(final Order order)
    {
        if (order.displayQuantity != 0)
        {
            order.peakLeaves = Math.min(order.displayQuantity, order.leavesQuantity());
        }
        levels.append(order, nextPriority++);
        order.location = Order.AT_BOOK;
    }

    /**
     * Take a resting order out of the book.
     *
     * @param order a resting order.
     */
    public void remove(final Order order)
    {
        levels.remove(order);
        order.location = Order.AT_NONE;
    }

    /**
     * Reduce a resting order's quantity in place, keeping its time priority (a replace down): an iceberg's hidden
     * part goes first, its peak only when the new leaves are below it.
     *
     * @param order       a resting order.
     * @param newQuantity its new total quantity, above its filled quantity.
     */
    public void reduceQuantity(final Order order, final long newQuantity)
    {
        final long delta = order.quantity - newQuantity;
        order.quantity = newQuantity;
        if (order.displayQuantity == 0)
        {
            levels.reduced(order, delta, 0);
            return;
        }
        final long peak = Math.min(order.peakLeaves, order.leavesQuantity());
        final long fromPeak = order.peakLeaves - peak;
        order.peakLeaves = peak;
        levels.reduced(order, fromPeak, delta - fromPeak);
    }

    /**
     * Take quantity off a resting order's visible part in place (a self-trade decrement); an iceberg whose peak is
     * used up while leaves remain refreshes.
     *
     * @param order    a resting order.
     * @param quantity at most its visible quantity, less than its leaves.
     */
    public void decrementVisible(final Order order, final long quantity)
    {
        order.quantity -= quantity;
        if (order.displayQuantity != 0)
        {
            order.peakLeaves -= quantity;
        }
        levels.reduced(order, quantity, 0);
        if (order.displayQuantity != 0 && order.peakLeaves == 0)
        {
            refreshPeak(order);
        }
    }

    /**
     * Fill a resting order in place: its visible part first, then (an auction's uncrossing only) its hidden part. A
     * filled order leaves the book. The caller refreshes a partly filled iceberg whose peak is used up
     * ({@link #needsRefresh}), at once in continuous trading, after the uncrossing in an auction.
     *
     * @param order    a resting order.
     * @param quantity filled quantity, at most its leaves.
     * @param notional its notional.
     */
    public void fillResting(final Order order, final long quantity, final long notional)
    {
        final long visible = order.fillResting(quantity, notional);
        levels.reduced(order, visible, quantity - visible);
        if (order.leavesQuantity() == 0)
        {
            remove(order);
        }
    }

    /**
     * @param order a resting order.
     * @return true if it is an iceberg whose peak is used up while leaves remain.
     */
    public static boolean needsRefresh(final Order order)
    {
        return order.displayQuantity != 0 && order.peakLeaves == 0 && order.leavesQuantity() > 0 &&
            order.location == Order.AT_BOOK;
    }

    /**
     * Show an iceberg's next peak: it leaves its place and joins the back of its price's queue with
     * {@code min(display, leaves)} visible.
     *
     * @param order a resting iceberg.
     */
    public void refreshPeak(final Order order)
    {
        levels.remove(order);
        order.peakLeaves = Math.min(order.displayQuantity, order.leavesQuantity());
        levels.append(order, nextPriority++);
    }

    /**
     * @return the pending stops, made on first use (the only allocation, at warm-up).
     */
    public StopBook stops()
    {
        if (stops == null)
        {
            stops = new StopBook(instrument);
        }
        return stops;
    }

    /** @return the pending stops, or null if the book never had one. */
    public StopBook stopsIfAny()
    {
        return stops;
    }

    /**
     * Queue a pending stop at the back of its stop price.
     *
     * @param order an accepted stop order, not in any book.
     */
    public void addStop(final Order order)
    {
        stops().add(order, nextPriority++);
    }

    /**
     * Put a pending stop back with its snapshot stamp; stops must be restored in stamp order.
     *
     * @param order    a pending stop.
     * @param priority its stamp.
     */
    public void restoreStop(final Order order, final long priority)
    {
        stops().add(order, priority);
    }

    /**
     * @param order a pending stop of this book.
     */
    public void removeStop(final Order order)
    {
        stops.remove(order);
    }

    /**
     * Lower a pending stop's quantity; it keeps its place at its stop price.
     *
     * @param order       a pending stop of this book.
     * @param newQuantity its new quantity.
     */
    public void reduceStopQuantity(final Order order, final long newQuantity)
    {
        stops.reduceQuantity(order, newQuantity);
    }

    /**
     * The next stop a trade at {@code price} triggers, taken out of the stop book.
     *
     * @param price the trade's price.
     * @return the stop, or null.
     */
    public Order nextTriggeredStop(final long price)
    {
        return stops == null ? null : stops.nextTriggered(price);
    }

    /**
     * Queue a market order of a call phase for the next uncrossing, behind those of its side.
     *
     * @param order an accepted market order, not in any book.
     */
    public void queueMarket(final Order order)
    {
        marketQueue(order.buy).add(order, nextPriority++);
    }

    /**
     * Queue a market order with its snapshot stamp (restore: in stamp order).
     *
     * @param order    a market order.
     * @param priority its stamp.
     */
    public void restoreMarket(final Order order, final long priority)
    {
        marketQueue(order.buy).add(order, priority);
    }

    /**
     * @param order a queued market order.
     */
    public void unqueueMarket(final Order order)
    {
        marketQueue(order.buy).remove(order);
    }

    /**
     * Fill a queued market order at an uncrossing; a filled one leaves its queue.
     *
     * @param order    a queued market order.
     * @param quantity at most its leaves.
     * @param notional its notional.
     */
    public void fillMarket(final Order order, final long quantity, final long notional)
    {
        marketQueue(order.buy).fill(order, quantity, notional);
    }

    /**
     * @param buy side.
     * @return the side's market orders waiting for the next uncrossing.
     */
    public MarketQueue marketQueue(final boolean buy)
    {
        return buy ? marketBuys : marketSells;
    }

    /** @return the dynamic band either side of the last trade price in basis points, 0 if off. */
    public int dynamicBandBasisPoints()
    {
        return dynamicBandBasisPoints;
    }

    /** @return the length of a volatility auction on the ring's clock. */
    public long volatilityAuctionNs()
    {
        return volatilityAuctionNs;
    }

    /**
     * @param basisPoints band either side of the last trade price, 0 for off.
     * @param auctionNs   length of the volatility auction it starts.
     */
    public void dynamicBand(final int basisPoints, final long auctionNs)
    {
        dynamicBandBasisPoints = basisPoints;
        volatilityAuctionNs = auctionNs;
    }

    /**
     * The dynamic band's edge on one side: a taker of that side may trade up to it (a buy) or down to it (a sell)
     * before continuous trading is interrupted.
     *
     * @param buy taker side.
     * @return the edge, or {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} when the band is off.
     */
    public long dynamicBandEdge(final boolean buy)
    {
        if (dynamicBandBasisPoints == 0)
        {
            return buy ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        final long reference = dynamicReferencePrice();
        final long ticks = Instrument.bandTicks(reference, instrument.tickSize(), Instrument.BAND_BASIS_POINTS,
            dynamicBandBasisPoints);
        final long width = Math.max(0, ticks) * instrument.tickSize();
        return buy ? reference + width : reference - width;
    }

    /** @return the moving reference price: the last trade price, or the instrument's reference before any trade. */
    public long dynamicReferencePrice()
    {
        return lastTradePrice != 0 ? lastTradePrice : instrument.referencePrice();
    }

    /** @return when the current phase ends on the ring's clock, {@link Long#MAX_VALUE} if it has no end. */
    public long phaseEndNs()
    {
        return phaseEndNs;
    }

    /**
     * @param endNs when the current phase ends, {@link Long#MAX_VALUE} for none.
     */
    public void phaseEndNs(final long endNs)
    {
        phaseEndNs = endNs;
    }

    /** @return the auction indicative last published (not part of the state). */
    public PublishedIndicative publishedIndicative()
    {
        return publishedIndicative;
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

    /** @return visible quantity at the best bid or 0. */
    public long bestBidQuantity()
    {
        final int bid = levels.bestBid();
        return bid == PriceLevels.NONE ? 0 : levels.quantity(bid, true);
    }

    /** @return best ask price or 0. */
    public long bestAskPrice()
    {
        final int ask = levels.bestAsk();
        return ask == PriceLevels.NONE ? 0 : levels.price(ask);
    }

    /** @return visible quantity at the best ask or 0. */
    public long bestAskQuantity()
    {
        final int ask = levels.bestAsk();
        return ask == PriceLevels.NONE ? 0 : levels.quantity(ask, false);
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
     * price, priority stamps and mark slot carry on in this one, and so do its phase's end, its dynamic band and the
     * auction indicative it last published (an amend must not end a timed phase or publish an indicative again).
     *
     * @param old the book replaced.
     */
    public void takeOver(final OrderBook old)
    {
        this.marks = old.marks;
        this.markIndex = old.markIndex;
        restoreState(old.mdSequence, old.lastTradePrice, old.nextPriority);
        this.phaseEndNs = old.phaseEndNs;
        this.dynamicBandBasisPoints = old.dynamicBandBasisPoints;
        this.volatilityAuctionNs = old.volatilityAuctionNs;
        this.publishedIndicative.copy(old.publishedIndicative);
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
        order.location = Order.AT_BOOK;
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
