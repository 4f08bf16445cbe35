package io.ringex.engine.book;

/**
 * The price levels of one instrument's book, direct-indexed by tick offset from the lowest price the band allows: index
 * i is the price {@code minPrice + i * tickSize}, and holds per side the FIFO of orders, the visible and hidden
 * quantities and the order count. Every resting price lies within the band, so each operation is O(1) with no
 * allocation (docs/matching.md, "Instruments and the book").
 * <p>
 * The same structure holds pending stops ({@link StopBook}), which names the side itself.
 * <p>
 * Threading: single business-logic thread.
 */
public final class PriceLevels
{
    /** The most levels an instrument may have (its band in ticks, both sides, plus one). */
    public static final int MAX_LEVELS = 1 << 20;

    /** No level. */
    public static final int NONE = -1;

    /** One side's levels. */
    private static final class Side
    {
        final long[] quantity;
        final int[] orderCount;
        final Order[] head;
        final Order[] tail;
        final long[] bits;
        long[] hidden;

        Side(final int levelCount)
        {
            quantity = new long[levelCount];
            orderCount = new int[levelCount];
            head = new Order[levelCount];
            tail = new Order[levelCount];
            bits = new long[(levelCount + 63) >>> 6];
        }

        void addHidden(final int index, final long delta)
        {
            if (hidden == null)
            {
                hidden = new long[quantity.length];
            }
            hidden[index] += delta;
        }
    }

    private final long minPrice;
    private final long tickSize;
    private final int levelCount;
    private final Side bids;
    private final Side asks;
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
        bids = new Side(levelCount);
        asks = new Side(levelCount);
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

    /**
     * @param index an index.
     * @param bid   the side.
     * @return total visible leaves quantity resting there.
     */
    public long quantity(final int index, final boolean bid)
    {
        return (bid ? bids : asks).quantity[index];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return icebergs' leaves there beyond what they show.
     */
    public long hiddenQuantity(final int index, final boolean bid)
    {
        final long[] hidden = (bid ? bids : asks).hidden;
        return hidden == null ? 0 : hidden[index];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return number of orders resting there.
     */
    public int orderCount(final int index, final boolean bid)
    {
        return (bid ? bids : asks).orderCount[index];
    }

    /**
     * @param index an index.
     * @param bid   the side.
     * @return first order in time priority, or null.
     */
    public Order head(final int index, final boolean bid)
    {
        return (bid ? bids : asks).head[index];
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
        return previousSetBit(bids.bits, index - 1);
    }

    /**
     * Next worse ask level above {@code index}.
     *
     * @param index an index.
     * @return the next higher occupied ask index, or {@link #NONE}.
     */
    public int nextAskAbove(final int index)
    {
        return nextSetBit(asks.bits, index + 1);
    }

    /**
     * @param index an index.
     * @return the next occupied bid index at or above it, or {@link #NONE}.
     */
    public int bidAtOrAbove(final int index)
    {
        return nextSetBit(bids.bits, index);
    }

    /**
     * @param index an index.
     * @return the next occupied ask index at or above it, or {@link #NONE}.
     */
    public int askAtOrAbove(final int index)
    {
        return nextSetBit(asks.bits, index);
    }

    /**
     * Append an order at the back of its price's queue (it takes the worst time priority there).
     *
     * @param order    an order not in any book, price on tick and within range.
     * @param priority its time-priority stamp.
     */
    public void append(final Order order, final long priority)
    {
        append(order, order.price, priority, order.buy);
    }

    /**
     * Append an order at the back of a queue of the caller's choosing (a stop: its stop price, the other side).
     *
     * @param order    an order not in any book.
     * @param price    the price whose queue it joins, on tick and within range.
     * @param priority its time-priority stamp.
     * @param bid      the side it joins.
     */
    void append(final Order order, final long price, final long priority, final boolean bid)
    {
        final int index = index(price);
        final Side side = bid ? bids : asks;
        order.levelIndex = index;
        order.priority(priority);
        order.levelNext = null;
        final Order last = side.tail[index];
        order.levelPrev = last;
        if (last == null)
        {
            side.head[index] = order;
            setBit(side.bits, index);
            if (bid)
            {
                if (bestBid == NONE || index > bestBid)
                {
                    bestBid = index;
                }
            }
            else if (bestAsk == NONE || index < bestAsk)
            {
                bestAsk = index;
            }
        }
        else
        {
            last.levelNext = order;
        }
        side.tail[index] = order;
        final long visible = order.visibleQuantity();
        side.quantity[index] += visible;
        if (order.displayQuantity != 0)
        {
            side.addHidden(index, order.leavesQuantity() - visible);
        }
        side.orderCount[index]++;
    }

    /**
     * Take an order out of its queue.
     *
     * @param order an order resting in this book.
     */
    public void remove(final Order order)
    {
        remove(order, order.buy);
    }

    /**
     * Take an order out of its queue on a given side (a stop: the other side).
     *
     * @param order an order in this structure.
     * @param bid   the side it is on.
     */
    void remove(final Order order, final boolean bid)
    {
        final int index = order.levelIndex;
        final Side side = bid ? bids : asks;
        final long visible = order.visibleQuantity();
        side.quantity[index] -= visible;
        if (order.displayQuantity != 0)
        {
            side.addHidden(index, visible - order.leavesQuantity());
        }
        side.orderCount[index]--;
        final Order previous = order.levelPrev;
        final Order next = order.levelNext;
        if (previous == null)
        {
            side.head[index] = next;
        }
        else
        {
            previous.levelNext = next;
        }
        if (next == null)
        {
            side.tail[index] = previous;
        }
        else
        {
            next.levelPrev = previous;
        }
        order.levelPrev = null;
        order.levelNext = null;
        order.levelIndex = -1;
        if (side.head[index] == null)
        {
            clearBit(side.bits, index);
            if (bid)
            {
                if (index == bestBid)
                {
                    bestBid = previousSetBit(side.bits, index - 1);
                }
            }
            else if (index == bestAsk)
            {
                bestAsk = nextSetBit(side.bits, index + 1);
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
        reduced(order, visible, hidden, order.buy);
    }

    /**
     * As {@link #reduced(Order, long, long)} for an order on a given side (a stop: the other side).
     *
     * @param order   an order in this structure.
     * @param visible by how much its visible quantity went down.
     * @param hidden  by how much its hidden quantity went down.
     * @param bid     the side it is on.
     */
    void reduced(final Order order, final long visible, final long hidden, final boolean bid)
    {
        final Side side = bid ? bids : asks;
        side.quantity[order.levelIndex] -= visible;
        if (hidden != 0)
        {
            side.addHidden(order.levelIndex, -hidden);
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
