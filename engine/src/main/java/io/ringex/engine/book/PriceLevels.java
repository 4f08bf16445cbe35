package io.ringex.engine.book;

/**
 * The price levels of one instrument's book, direct-indexed by tick offset from the lowest price the band allows.
 * <p>
 * Why an array: every resting price lies within the instrument's price band around its fixed reference price, so the
 * set of possible prices is small and known when the instrument is added ({@link #MAX_LEVELS} at most). A level is
 * then an array slot: adding, finding and removing are O(1) with no allocation and no tree rebalancing. Finding the
 * next best level after one empties scans an occupancy bitmap 64 levels per word.
 * <p>
 * Each price has a bid slot and an ask slot side by side (one cache line holds both): in continuous trading a book
 * never rests both sides at one price, but during a call phase orders rest without matching and the book may cross.
 * Each side has its own occupancy bitmap so the best bid and best ask are found independently.
 * <pre>
 *   index:   0 .. levelCount-1
 *   price:   minPrice + index * tickSize
 *   slot:    index * 2 + (bid ? 0 : 1): head/tail of a FIFO of orders (time priority), visible quantity, hidden
 *            quantity (icebergs' leaves beyond their peaks), order count
 * </pre>
 * The visible quantity is what market data shows; the hidden quantity only takes part in an auction's uncrossing.
 * <p>
 * The same structure holds pending stops ({@link StopBook}) with the sides swapped ({@code swapSides}): a buy stop
 * sits on the side whose best is the lowest index, so the first stop a rising price reaches is found like a best ask.
 * <p>
 * Threading: single business-logic thread.
 */
public final class PriceLevels
{
    /** The most levels an instrument may have (its band in ticks, both sides, plus one). */
    public static final int MAX_LEVELS = 1 << 20;

    /** No level. */
    public static final int NONE = -1;

    private final long minPrice;
    private final long tickSize;
    private final int levelCount;
    private final boolean swapSides;
    private final long[] quantity;
    private final long[] hidden;
    private final int[] orderCount;
    private final Order[] head;
    private final Order[] tail;
    private final long[] bidBits;
    private final long[] askBits;
    private int bestBid = NONE;
    private int bestAsk = NONE;

    /**
     * @param minPrice   lowest price of the band (a positive multiple of the tick).
     * @param tickSize   tick size.
     * @param levelCount number of prices from minPrice upwards, 1..{@link #MAX_LEVELS}.
     */
    public PriceLevels(final long minPrice, final long tickSize, final int levelCount)
    {
        this(minPrice, tickSize, levelCount, false);
    }

    /**
     * @param minPrice   lowest price of the band (a positive multiple of the tick).
     * @param tickSize   tick size.
     * @param levelCount number of prices from minPrice upwards, 1..{@link #MAX_LEVELS}.
     * @param swapSides  true to place buys on the ask side and sells on the bid side (pending stops).
     */
    PriceLevels(final long minPrice, final long tickSize, final int levelCount, final boolean swapSides)
    {
        if (levelCount < 1 || levelCount > MAX_LEVELS)
        {
            throw new IllegalArgumentException("levelCount out of range: " + levelCount);
        }
        this.minPrice = minPrice;
        this.tickSize = tickSize;
        this.levelCount = levelCount;
        this.swapSides = swapSides;
        quantity = new long[levelCount * 2];
        hidden = new long[levelCount * 2];
        orderCount = new int[levelCount * 2];
        head = new Order[levelCount * 2];
        tail = new Order[levelCount * 2];
        bidBits = new long[(levelCount + 63) >>> 6];
        askBits = new long[(levelCount + 63) >>> 6];
    }

    /** @return lowest representable price. */
    public long minPrice()
    {
        return minPrice;
    }

    /** @return highest representable price. */
    public long maxPrice()
    {
        return minPrice + (levelCount - 1) * tickSize;
    }

    /** @return number of prices. */
    public int levelCount()
    {
        return levelCount;
    }

    /**
     * @param price a price on the tick within [minPrice, maxPrice].
     * @return its index.
     */
    public int index(final long price)
    {
        return (int)((price - minPrice) / tickSize);
    }

    /**
     * @param index an index.
     * @return its price.
     */
    public long price(final int index)
    {
        return minPrice + index * tickSize;
    }

    /** @return index of the best (highest) bid or {@link #NONE}. */
    public int bestBid()
    {
        return bestBid;
    }

    /** @return index of the best (lowest) ask or {@link #NONE}. */
    public int bestAsk()
    {
        return bestAsk;
    }

    private static int slot(final int index, final boolean bid)
    {
        return bid ? index << 1 : (index << 1) | 1;
    }

    private boolean bidSide(final Order order)
    {
        return order.buy != swapSides;
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return total visible leaves quantity resting there.
     */
    public long quantity(final int index, final boolean bid)
    {
        return quantity[slot(index, bid)];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return icebergs' leaves there beyond what they show.
     */
    public long hiddenQuantity(final int index, final boolean bid)
    {
        return hidden[slot(index, bid)];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return number of orders resting there.
     */
    public int orderCount(final int index, final boolean bid)
    {
        return orderCount[slot(index, bid)];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return first order in time priority, or null.
     */
    public Order head(final int index, final boolean bid)
    {
        return head[slot(index, bid)];
    }

    /**
     * @param order an order in this book.
     * @return the order behind it in its queue, or null.
     */
    public static Order next(final Order order)
    {
        return order.levelNext;
    }

    /**
     * Next worse bid level below {@code index}.
     *
     * @param index an index.
     * @return the next lower occupied bid index, or {@link #NONE}.
     */
    public int nextBidBelow(final int index)
    {
        return previousSetBit(bidBits, index - 1);
    }

    /**
     * Next worse ask level above {@code index}.
     *
     * @param index an index.
     * @return the next higher occupied ask index, or {@link #NONE}.
     */
    public int nextAskAbove(final int index)
    {
        return nextSetBit(askBits, index + 1);
    }

    /**
     * @param index an index.
     * @return the next occupied bid index at or above it, or {@link #NONE}.
     */
    public int bidAtOrAbove(final int index)
    {
        return nextSetBit(bidBits, index);
    }

    /**
     * @param index an index.
     * @return the next occupied ask index at or above it, or {@link #NONE}.
     */
    public int askAtOrAbove(final int index)
    {
        return nextSetBit(askBits, index);
    }

    /**
     * Append an order at the back of its price's queue (it takes the worst time priority there).
     *
     * @param order    an order not in any book, price on tick and within range.
     * @param priority its time-priority stamp.
     */
    public void append(final Order order, final long priority)
    {
        append(order, order.price, priority);
    }

    /**
     * Append an order at the back of the queue at a price of the caller's choosing (a stop's stop price).
     *
     * @param order    an order not in any book.
     * @param price    the price whose queue it joins, on tick and within range.
     * @param priority its time-priority stamp.
     */
    void append(final Order order, final long price, final long priority)
    {
        final int index = index(price);
        final boolean bid = bidSide(order);
        final int slot = slot(index, bid);
        order.levelIndex = index;
        order.priority(priority);
        order.levelNext = null;
        order.levelPrev = tail[slot];
        if (tail[slot] == null)
        {
            head[slot] = order;
            if (bid)
            {
                setBit(bidBits, index);
                if (bestBid == NONE || index > bestBid)
                {
                    bestBid = index;
                }
            }
            else
            {
                setBit(askBits, index);
                if (bestAsk == NONE || index < bestAsk)
                {
                    bestAsk = index;
                }
            }
        }
        else
        {
            tail[slot].levelNext = order;
        }
        tail[slot] = order;
        final long visible = order.visibleQuantity();
        quantity[slot] += visible;
        if (order.displayQuantity != 0)
        {
            hidden[slot] += order.leavesQuantity() - visible;
        }
        orderCount[slot]++;
    }

    /**
     * Take an order out of its queue.
     *
     * @param order an order resting in this book.
     */
    public void remove(final Order order)
    {
        final int index = order.levelIndex;
        final boolean bid = bidSide(order);
        final int slot = slot(index, bid);
        final long visible = order.visibleQuantity();
        quantity[slot] -= visible;
        if (order.displayQuantity != 0)
        {
            hidden[slot] -= order.leavesQuantity() - visible;
        }
        orderCount[slot]--;
        if (order.levelPrev == null)
        {
            head[slot] = order.levelNext;
        }
        else
        {
            order.levelPrev.levelNext = order.levelNext;
        }
        if (order.levelNext == null)
        {
            tail[slot] = order.levelPrev;
        }
        else
        {
            order.levelNext.levelPrev = order.levelPrev;
        }
        order.levelPrev = null;
        order.levelNext = null;
        order.levelIndex = -1;
        if (head[slot] == null)
        {
            if (bid)
            {
                clearBit(bidBits, index);
                if (index == bestBid)
                {
                    bestBid = previousSetBit(bidBits, index - 1);
                }
            }
            else
            {
                clearBit(askBits, index);
                if (index == bestAsk)
                {
                    bestAsk = nextSetBit(askBits, index + 1);
                }
            }
        }
    }

    /**
     * Account for a resting order's leaves going down in place (a fill, or a decrement that keeps its priority).
     * The caller has already updated the order, and removes it if its leaves reach zero.
     *
     * @param order   an order resting in this book.
     * @param visible by how much its visible quantity went down.
     * @param hidden  by how much its hidden quantity went down (0 unless an iceberg).
     */
    public void reduced(final Order order, final long visible, final long hidden)
    {
        final int slot = slot(order.levelIndex, bidSide(order));
        quantity[slot] -= visible;
        if (hidden != 0)
        {
            this.hidden[slot] -= hidden;
        }
    }

    private static void setBit(final long[] bits, final int index)
    {
        bits[index >>> 6] |= 1L << index;
    }

    private static void clearBit(final long[] bits, final int index)
    {
        bits[index >>> 6] &= ~(1L << index);
    }

    private int nextSetBit(final long[] bits, final int fromIndex)
    {
        final int from = Math.max(0, fromIndex);
        if (from >= levelCount)
        {
            return NONE;
        }
        int wordIndex = from >>> 6;
        long word = bits[wordIndex] & (-1L << from);
        while (true)
        {
            if (word != 0)
            {
                final int index = (wordIndex << 6) + Long.numberOfTrailingZeros(word);
                return index < levelCount ? index : NONE;
            }
            if (++wordIndex == bits.length)
            {
                return NONE;
            }
            word = bits[wordIndex];
        }
    }

    private static int previousSetBit(final long[] bits, final int from)
    {
        if (from < 0)
        {
            return NONE;
        }
        int wordIndex = from >>> 6;
        long word = bits[wordIndex] & (-1L >>> (63 - (from & 63)));
        while (true)
        {
            if (word != 0)
            {
                return (wordIndex << 6) + 63 - Long.numberOfLeadingZeros(word);
            }
            if (wordIndex-- == 0)
            {
                return NONE;
            }
            word = bits[wordIndex];
        }
    }
}
