package io.ringex.gateway.marketdata;

import java.util.Arrays;

/**
 * A price-level (L2) book of one instrument: for each side, the levels best first (bids highest price first, asks
 * lowest first), each with its total quantity and order count. The gateway holds one per instrument, built from the
 * engine's market data, and one per FIX subscription holding exactly what that subscriber has been told, so that an
 * update is the difference of the two (which is also how a lagging subscriber is conflated: it gets the latest state
 * of each price it missed, never the history).
 * <p>
 * Levels live in sorted parallel arrays: a change is a binary search and, for a new or removed level, an array copy of
 * the levels behind it, which for the near-the-touch levels that change most is a short copy. Arrays grow (doubling)
 * and never shrink, so a steady state allocates nothing.
 * <p>
 * Thread safety: single-threaded.
 */
public final class LevelBook
{
    /** Side index of bids. */
    public static final int BID = 0;
    /** Side index of asks (offers). */
    public static final int ASK = 1;

    private static final int INITIAL_LEVELS = 16;

    private final long[][] prices = { new long[INITIAL_LEVELS], new long[INITIAL_LEVELS] };
    private final long[][] quantities = { new long[INITIAL_LEVELS], new long[INITIAL_LEVELS] };
    private final int[][] orderCounts = { new int[INITIAL_LEVELS], new int[INITIAL_LEVELS] };
    private final int[] sizes = new int[2];

    /**
     * Set a level's total; a quantity of zero or less removes it.
     *
     * @param side       {@link #BID} or {@link #ASK}.
     * @param price      the level's price (fixed point).
     * @param quantity   its new total.
     * @param orderCount orders resting at it.
     */
    public void set(final int side, final long price, final long quantity, final int orderCount)
    {
        final int size = sizes[side];
        final long[] sidePrices = prices[side];
        final int found = search(side, price);
        if (found >= 0)
        {
            if (quantity <= 0)
            {
                final int tail = size - found - 1;
                System.arraycopy(sidePrices, found + 1, sidePrices, found, tail);
                System.arraycopy(quantities[side], found + 1, quantities[side], found, tail);
                System.arraycopy(orderCounts[side], found + 1, orderCounts[side], found, tail);
                sizes[side] = size - 1;
            }
            else
            {
                quantities[side][found] = quantity;
                orderCounts[side][found] = orderCount;
            }
            return;
        }
        if (quantity <= 0)
        {
            return;
        }
        if (size == sidePrices.length)
        {
            grow(side);
        }
        final int at = -found - 1;
        final int tail = size - at;
        System.arraycopy(prices[side], at, prices[side], at + 1, tail);
        System.arraycopy(quantities[side], at, quantities[side], at + 1, tail);
        System.arraycopy(orderCounts[side], at, orderCounts[side], at + 1, tail);
        prices[side][at] = price;
        quantities[side][at] = quantity;
        orderCounts[side][at] = orderCount;
        sizes[side] = size + 1;
    }

    /**
     * Remove every level of both sides.
     */
    public void clear()
    {
        sizes[BID] = 0;
        sizes[ASK] = 0;
    }

    /**
     * Make this book the first {@code depth} levels of each side of another.
     *
     * @param source the book to copy.
     * @param depth  levels per side to keep; {@link Integer#MAX_VALUE} for all.
     */
    public void copyTop(final LevelBook source, final int depth)
    {
        for (int side = BID; side <= ASK; side++)
        {
            final int n = Math.min(depth, source.sizes[side]);
            while (prices[side].length < n)
            {
                grow(side);
            }
            System.arraycopy(source.prices[side], 0, prices[side], 0, n);
            System.arraycopy(source.quantities[side], 0, quantities[side], 0, n);
            System.arraycopy(source.orderCounts[side], 0, orderCounts[side], 0, n);
            sizes[side] = n;
        }
    }

    /**
     * @param side {@link #BID} or {@link #ASK}.
     * @return levels on that side.
     */
    public int levels(final int side)
    {
        return sizes[side];
    }

    /**
     * @param side  {@link #BID} or {@link #ASK}.
     * @param index 0 for the best level.
     * @return the level's price.
     */
    public long price(final int side, final int index)
    {
        return prices[side][index];
    }

    /**
     * @param side  {@link #BID} or {@link #ASK}.
     * @param index 0 for the best level.
     * @return the level's total quantity.
     */
    public long quantity(final int side, final int index)
    {
        return quantities[side][index];
    }

    /**
     * @param side  {@link #BID} or {@link #ASK}.
     * @param index 0 for the best level.
     * @return orders at the level.
     */
    public int orderCount(final int side, final int index)
    {
        return orderCounts[side][index];
    }

    /**
     * @param side  {@link #BID} or {@link #ASK}.
     * @param price a price.
     * @return the quantity resting at it, 0 if no level.
     */
    public long quantityAt(final int side, final long price)
    {
        final int found = search(side, price);
        return found >= 0 ? quantities[side][found] : 0;
    }

    /**
     * Is {@code a} better than {@code b} on this side (higher bid, lower ask)?
     *
     * @param side {@link #BID} or {@link #ASK}.
     * @param a    a price.
     * @param b    another.
     * @return true if {@code a} ranks first.
     */
    public static boolean isBetter(final int side, final long a, final long b)
    {
        return side == BID ? a > b : a < b;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        final StringBuilder out = new StringBuilder("bids");
        for (int i = 0; i < sizes[BID]; i++)
        {
            out.append(' ').append(quantities[BID][i]).append('@').append(prices[BID][i]);
        }
        out.append(" | asks");
        for (int i = 0; i < sizes[ASK]; i++)
        {
            out.append(' ').append(quantities[ASK][i]).append('@').append(prices[ASK][i]);
        }
        return out.toString();
    }

    private int search(final int side, final long price)
    {
        final long[] sidePrices = prices[side];
        int low = 0;
        int high = sizes[side] - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final long midPrice = sidePrices[mid];
            if (midPrice == price)
            {
                return mid;
            }
            if (isBetter(side, midPrice, price))
            {
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return -(low + 1);
    }

    private void grow(final int side)
    {
        final int length = prices[side].length * 2;
        prices[side] = Arrays.copyOf(prices[side], length);
        quantities[side] = Arrays.copyOf(quantities[side], length);
        orderCounts[side] = Arrays.copyOf(orderCounts[side], length);
    }
}
