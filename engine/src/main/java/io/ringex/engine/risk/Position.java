package io.ringex.engine.risk;

import io.ringex.engine.book.ExposureRecord;

/**
 * An account's position in one instrument: net quantity, cost (average-cost method), realised P&amp;L, the quantity
 * its open orders could still add or remove, and an optional per-instrument position limit.
 * <p>
 * Cost is kept as the signed money paid for the open position ({@link #cost()}: positive for a long, negative for a
 * short), so the average cost is {@code |cost| / |position|} and unrealised P&amp;L is
 * {@code position x mark - cost}, all at money scale.
 * <p>
 * Threading: single business-logic thread.
 */
public final class Position implements ExposureRecord
{
    /** No per-instrument override: the account's default limit applies. */
    public static final long NO_LIMIT_OVERRIDE = -1;

    private static final long UNKNOWN_AVERAGE_COST = -1;

    private final int instrumentId;
    private final int priceScale;
    private final int slot;
    long position;
    long cost;
    long realisedPnl;
    long openBuyQuantity;
    long openSellQuantity;
    long positionLimit = NO_LIMIT_OVERRIDE;
    boolean changed;
    private long averageCost = UNKNOWN_AVERAGE_COST;

    /**
     * @param instrumentId instrument.
     * @param priceScale   its price scale.
     * @param slot         its index among its account's positions.
     */
    Position(final int instrumentId, final int priceScale, final int slot)
    {
        this.instrumentId = instrumentId;
        this.priceScale = priceScale;
        this.slot = slot;
    }

    /** @return its index among its account's positions (creation order). */
    public int slot()
    {
        return slot;
    }

    /** @return instrument id. */
    public int instrumentId()
    {
        return instrumentId;
    }

    /** @return the instrument's price scale. */
    public int priceScale()
    {
        return priceScale;
    }

    /** @return signed net quantity. */
    public long position()
    {
        return position;
    }

    /** @return signed money paid for the open position. */
    public long cost()
    {
        return cost;
    }

    /** @return realised P&amp;L at money scale. */
    public long realisedPnl()
    {
        return realisedPnl;
    }

    /** @return leaves of open buy orders. */
    public long openBuyQuantity()
    {
        return openBuyQuantity;
    }

    /** @return leaves of open sell orders. */
    public long openSellQuantity()
    {
        return openSellQuantity;
    }

    /** @return the per-instrument limit, or {@link #NO_LIMIT_OVERRIDE}. */
    public long positionLimit()
    {
        return positionLimit;
    }

    /**
     * @param limit the per-instrument limit, or {@link #NO_LIMIT_OVERRIDE}.
     */
    public void positionLimit(final long limit)
    {
        positionLimit = limit;
    }

    /** @return true if changed since the last risk update was published. */
    public boolean changed()
    {
        return changed;
    }

    /**
     * Average cost at the instrument's price scale, rounded half-up. Cached until a trade or a restore changes the
     * position: it is reported with every risk update of the position, mostly after changes of its open quantities
     * only, and costs four divisions.
     *
     * @return average cost, 0 when flat.
     */
    public long averageCost()
    {
        if (averageCost == UNKNOWN_AVERAGE_COST)
        {
            averageCost = position == 0 ? 0 : PnlMath.averagePrice(Math.abs(cost), Math.abs(position), priceScale);
        }
        return averageCost;
    }

    /** Forget the cached average cost (the position or its cost changed). */
    void costChanged()
    {
        averageCost = UNKNOWN_AVERAGE_COST;
    }

    /**
     * Restore from a snapshot ({@link Account#restorePosition} keeps the account's totals in step).
     *
     * @param position         net quantity.
     * @param cost             signed cost.
     * @param realisedPnl      realised P&amp;L.
     * @param openBuyQuantity  open buy leaves.
     * @param openSellQuantity open sell leaves.
     * @param positionLimit    override or {@link #NO_LIMIT_OVERRIDE}.
     */
    void restore(
        final long position,
        final long cost,
        final long realisedPnl,
        final long openBuyQuantity,
        final long openSellQuantity,
        final long positionLimit)
    {
        this.position = position;
        this.cost = cost;
        this.realisedPnl = realisedPnl;
        this.openBuyQuantity = openBuyQuantity;
        this.openSellQuantity = openSellQuantity;
        this.positionLimit = positionLimit;
        costChanged();
    }
}
