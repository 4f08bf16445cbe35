package io.ringex.engine.book;

/**
 * The price levels of one instrument's book, direct-indexed by tick offset from the lowest price the band allows.
 * <p>
 * Why an array: every resting price lies within the instrument's price band around its fixed reference price, so the
 * set of possible prices is small and known when the instrument is added ({@link #MAX_LEVELS} at most). A level is
 * then an array slot: adding, finding and removing are O(1) with no allocation and no tree rebalancing. Finding the
 * next best level after one empties scans an occupancy bitmap 64 levels per word.
 * <p>
 * Bids and asks share the slots: an uncrossed book never has both sides resting at one price, because an order that
 * would meet the other side matches (or is refused, post-only) before it rests. Each side has its own occupancy
 * bitmap so the best bid and best ask are found independently.
 * <pre>
 *   index:   0 .. levelCount-1
 *   price:   minPrice + index * tickSize
 *   slot:    head/tail of a FIFO of orders (time priority), total quantity, order count
 * </pre>
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
    private final long[] quantity;
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
        if (levelCount < 1 || levelCount > MAX_LEVELS)
        {
            throw new IllegalArgumentException("levelCount out of range: " + levelCount);
        }
        this.minPrice = minPrice;
        this.tickSize = tickSize;
        this.levelCount = levelCount;
        quantity = new long[levelCount];
        orderCount = new int[levelCount];
        head = new Order[levelCount];
        tail = new Order[levelCount];
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

    /** @return number of slots. */
    public int levelCount()
    {
        return levelCount;
    }

    /**
     * @param price a price on the tick within [minPrice, maxPrice].
     * @return its slot.
     */
    public int index(final long price)
    {
        return (int)((price - minPrice) / tickSize);
    }

    /**
     * @param index a slot.
     * @return its price.
     */
    public long price(final int index)
    {
        return minPrice + index * tickSize;
    }

    /** @return slot of the best bid or {@link #NONE}. */
    public int bestBid()
    {
        return bestBid;
    }

    /** @return slot of the best ask or {@link #NONE}. */
    public int bestAsk()
    {
        return bestAsk;
    }

    /**
     * @param index a slot.
     * @return total leaves quantity resting there.
     */
    public long quantity(final int index)
    {
        return quantity[index];
    }

    /**
     * @param index a slot.
     * @return number of orders resting there.
     */
    public int orderCount(final int index)
    {
        return orderCount[index];
    }

    /**
     * @param index a slot.
     * @return first order in time priority, or null.
     */
    public Order head(final int index)
    {
        return head[index];
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
     * @param index a slot.
     * @return the next lower occupied bid slot, or {@link #NONE}.
     */
    public int nextBidBelow(final int index)
    {
        return previousSetBit(bidBits, index - 1);
    }

    /**
     * Next worse ask level above {@code index}.
     *
     * @param index a slot.
     * @return the next higher occupied ask slot, or {@link #NONE}.
     */
    public int nextAskAbove(final int index)
    {
        return nextSetBit(askBits, index + 1);
    }

    /**
     * Append an order at the back of its price's queue (it takes the worst time priority there).
     *
     * @param order    an order not in any book, price on tick and within range.
     * @param priority its time-priority stamp.
     */
    public void append(final Order order, final long priority)
    {
        final int index = index(order.price);
        order.levelIndex = index;
        order.priority(priority);
        order.levelNext = null;
        order.levelPrev = tail[index];
        if (tail[index] == null)
        {
            head[index] = order;
            if (order.buy)
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
            tail[index].levelNext = order;
        }
        tail[index] = order;
        quantity[index] += order.leavesQuantity();
        orderCount[index]++;
    }

    /**
     * Take an order out of its queue.
     *
     * @param order an order resting in this book.
     */
    public void remove(final Order order)
    {
        final int index = order.levelIndex;
        quantity[index] -= order.leavesQuantity();
        orderCount[index]--;
        if (order.levelPrev == null)
        {
            head[index] = order.levelNext;
        }
        else
        {
            order.levelPrev.levelNext = order.levelNext;
        }
        if (order.levelNext == null)
        {
            tail[index] = order.levelPrev;
        }
        else
        {
            order.levelNext.levelPrev = order.levelPrev;
        }
        order.levelPrev = null;
        order.levelNext = null;
        order.levelIndex = -1;
        if (head[index] == null)
        {
            if (order.buy)
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
     * Reduce a resting order's leaves in place (a fill, or a decrement that keeps its priority). The caller removes
     * the order if its leaves reach zero.
     *
     * @param order    an order resting in this book.
     * @param quantity by how much its leaves went down; the caller has already updated the order.
     */
    public void reduced(final Order order, final long quantity)
    {
        this.quantity[order.levelIndex] -= quantity;
    }

    private static void setBit(final long[] bits, final int index)
    {
        bits[index >>> 6] |= 1L << index;
    }

    private static void clearBit(final long[] bits, final int index)
    {
        bits[index >>> 6] &= ~(1L << index);
    }

    private int nextSetBit(final long[] bits, final int from)
    {
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
