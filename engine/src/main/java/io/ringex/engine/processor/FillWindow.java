package io.ringex.engine.processor;

import java.util.Arrays;

/**
 * The fills of one account's quotes in one protection group within a rolling interval: each fill's time (the ring's
 * clock), quantity and notional in arrival order, with running totals. A fill at {@code t} counts while the clock is
 * before {@code t + interval}; {@link #evict} drops the ones that no longer do.
 * <p>
 * A ring of parallel arrays that grows by doubling up to the group's fill limit: a breach clears the window at the
 * fill that reaches the limit, so it never holds more than that. A total that would overflow stays at
 * {@link Long#MAX_VALUE} (beyond every limit) and is counted again from the fills once some leave.
 * <p>
 * Threading: single business-logic thread.
 */
final class FillWindow
{
    private long[] times = new long[8];
    private long[] quantities = new long[8];
    private long[] notionals = new long[8];
    private int head;
    private int count;
    private long quantity;
    private long notional;
    private boolean saturatedQuantity;
    private boolean saturatedNotional;

    /**
     * Drop the fills the interval no longer covers at {@code nowNs}.
     *
     * @param nowNs      the clock.
     * @param intervalNs the group's interval.
     */
    void evict(final long nowNs, final long intervalNs)
    {
        boolean evicted = false;
        while (count > 0 && nowNs - times[head] >= intervalNs)
        {
            quantity -= quantities[head];
            notional -= notionals[head];
            head = (head + 1) & (times.length - 1);
            count--;
            evicted = true;
        }
        if (evicted && (saturatedQuantity || saturatedNotional))
        {
            // a total that stopped at Long.MAX_VALUE cannot be taken from: count it again from what is left
            recount();
        }
    }

    private void recount()
    {
        quantity = 0;
        notional = 0;
        saturatedQuantity = false;
        saturatedNotional = false;
        for (int i = 0; i < count; i++)
        {
            addToTotals(quantityAt(i), notionalAt(i));
        }
    }

    private void addToTotals(final long quantity, final long notional)
    {
        final long q = this.quantity + quantity;
        if (((this.quantity ^ q) & (quantity ^ q)) < 0)
        {
            this.quantity = Long.MAX_VALUE;
            saturatedQuantity = true;
        }
        else
        {
            this.quantity = q;
        }
        final long n = this.notional + notional;
        if (((this.notional ^ n) & (notional ^ n)) < 0)
        {
            this.notional = Long.MAX_VALUE;
            saturatedNotional = true;
        }
        else
        {
            this.notional = n;
        }
    }

    /**
     * @param timeNs   the fill's time.
     * @param quantity its quantity.
     * @param notional its notional (money scale).
     */
    void add(final long timeNs, final long quantity, final long notional)
    {
        if (count == times.length)
        {
            grow();
        }
        final int at = (head + count) & (times.length - 1);
        times[at] = timeNs;
        quantities[at] = quantity;
        notionals[at] = notional;
        count++;
        if (saturatedQuantity || saturatedNotional)
        {
            recount();
        }
        else
        {
            addToTotals(quantity, notional);
        }
    }

    /** Forget every fill (a breach, a reset, new settings). */
    void clear()
    {
        head = 0;
        count = 0;
        quantity = 0;
        notional = 0;
        saturatedQuantity = false;
        saturatedNotional = false;
    }

    /** @return fills in the window. */
    int fills()
    {
        return count;
    }

    /** @return quantity traded in the window. */
    long quantity()
    {
        return quantity;
    }

    /** @return notional traded in the window (money scale). */
    long notional()
    {
        return notional;
    }

    /**
     * @param index 0 for the oldest fill.
     * @return its time.
     */
    long timeAt(final int index)
    {
        return times[(head + index) & (times.length - 1)];
    }

    /**
     * @param index 0 for the oldest fill.
     * @return its quantity.
     */
    long quantityAt(final int index)
    {
        return quantities[(head + index) & (times.length - 1)];
    }

    /**
     * @param index 0 for the oldest fill.
     * @return its notional.
     */
    long notionalAt(final int index)
    {
        return notionals[(head + index) & (times.length - 1)];
    }

    private void grow()
    {
        final int length = times.length;
        final long[] t = new long[length * 2];
        final long[] q = new long[length * 2];
        final long[] n = new long[length * 2];
        for (int i = 0; i < count; i++)
        {
            final int from = (head + i) & (length - 1);
            t[i] = times[from];
            q[i] = quantities[from];
            n[i] = notionals[from];
        }
        times = t;
        quantities = q;
        notionals = n;
        head = 0;
        Arrays.fill(t, count, t.length, 0);
    }
}
