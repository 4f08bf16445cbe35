package io.ringex.engine.risk;

import io.ringex.engine.book.Order;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.Arrays;

/**
 * One trading account: cash, limits, kill switch, what its open orders reserve, its positions (in creation order, for
 * deterministic walks) and its open orders (an intrusive list in acceptance order). Until SetLimits every limit is
 * zero, so every order is refused (MAX_ORDER_QUANTITY): a venue should not let an account trade on limits nobody chose.
 * The positions' layout for a risk update is {@link OpenPositions}' (docs/matching.md, "Allocation").
 * <p>
 * Threading: single business-logic thread.
 */
public final class Account
{
    /** Standing: trades (AccountStatus.ACTIVE). */
    public static final byte STATUS_ACTIVE = 1;
    /** Standing: new orders refused (AccountStatus.SUSPENDED). */
    public static final byte STATUS_SUSPENDED = 2;
    /** Standing: closed for good (AccountStatus.CLOSED). */
    public static final byte STATUS_CLOSED = 3;

    private final long accountId;
    private final byte defaultSelfTradePrevention;
    private final Int2ObjectHashMap<Position> positionById = new Int2ObjectHashMap<>();
    private Position[] positions = new Position[4];
    private final OpenPositions openPositions = new OpenPositions();
    private int[] markIndexes = new int[4];
    private int positionCount;
    private Position firstPosition;
    private int firstMarkIndex;
    private int firstInstrumentId;
    private int[] changedSlots = new int[4];
    private int changedCount;
    private long costTotal;
    private long realisedTotal;

    long balance;
    long reserved;
    long creditLimit;
    long maxOrderQuantity;
    long maxOrderNotional;
    long defaultPositionLimit;
    int maxOpenOrders;
    boolean allowShort;
    boolean killed;
    byte status = STATUS_ACTIVE;
    int openOrders;
    boolean changed;
    private boolean queued;
    private Order firstOpen;
    private Order lastOpen;

    /**
     * @param accountId                  id.
     * @param defaultSelfTradePrevention resolved default STP mode of its orders (never ACCOUNT_DEFAULT).
     */
    public Account(final long accountId, final byte defaultSelfTradePrevention)
    {
        this.accountId = accountId;
        this.defaultSelfTradePrevention = defaultSelfTradePrevention;
    }

    /** @return id. */
    public long accountId()
    {
        return accountId;
    }

    /** @return default STP mode. */
    public byte defaultSelfTradePrevention()
    {
        return defaultSelfTradePrevention;
    }

    /** @return cash at money scale. */
    public long balance()
    {
        return balance;
    }

    /**
     * @param amount money to add (negative to withdraw).
     */
    public void adjustBalance(final long amount)
    {
        balance += amount;
        changed = true;
    }

    /** @return money held by open buys. */
    public long reserved()
    {
        return reserved;
    }

    /** @return how far cash may go below zero. */
    public long creditLimit()
    {
        return creditLimit;
    }

    /** @return max order quantity. */
    public long maxOrderQuantity()
    {
        return maxOrderQuantity;
    }

    /** @return max order notional. */
    public long maxOrderNotional()
    {
        return maxOrderNotional;
    }

    /** @return default absolute position limit. */
    public long defaultPositionLimit()
    {
        return defaultPositionLimit;
    }

    /** @return max resting orders. */
    public int maxOpenOrders()
    {
        return maxOpenOrders;
    }

    /** @return whether sells beyond the position are allowed. */
    public boolean allowShort()
    {
        return allowShort;
    }

    /** @return kill switch state. */
    public boolean killed()
    {
        return killed;
    }

    /** @return ACTIVE, SUSPENDED or CLOSED ({@link #STATUS_ACTIVE}...). */
    public byte status()
    {
        return status;
    }

    /** @param status ACTIVE, SUSPENDED or CLOSED. */
    public void status(final byte status)
    {
        this.status = status;
        changed = true;
    }

    /**
     * @param killed kill switch state.
     */
    public void killed(final boolean killed)
    {
        this.killed = killed;
        changed = true;
    }

    /** @return resting orders. */
    public int openOrders()
    {
        return openOrders;
    }

    /** @return true if changed since the last risk update. */
    public boolean changed()
    {
        return changed;
    }

    /**
     * @param changed whether a risk update is due.
     */
    public void changed(final boolean changed)
    {
        this.changed = changed;
    }

    /** @return true while the account waits in the risk-update queue (not part of the state). */
    public boolean queued()
    {
        return queued;
    }

    /**
     * @param queued whether the account waits in the risk-update queue.
     */
    public void queued(final boolean queued)
    {
        this.queued = queued;
    }

    /**
     * Replace the limits whole (per-instrument overrides are reset; the caller applies new ones). Every position is
     * listed as changed: the limit each reports may be another now.
     *
     * @param maxOrderQuantity     max order quantity.
     * @param maxOrderNotional     max order notional.
     * @param creditLimit          credit limit.
     * @param defaultPositionLimit default position limit.
     * @param maxOpenOrders        max open orders.
     * @param allowShort           allow short.
     */
    public void limits(
        final long maxOrderQuantity,
        final long maxOrderNotional,
        final long creditLimit,
        final long defaultPositionLimit,
        final int maxOpenOrders,
        final boolean allowShort)
    {
        this.maxOrderQuantity = maxOrderQuantity;
        this.maxOrderNotional = maxOrderNotional;
        this.creditLimit = creditLimit;
        this.defaultPositionLimit = defaultPositionLimit;
        this.maxOpenOrders = maxOpenOrders;
        this.allowShort = allowShort;
        for (int i = 0; i < positionCount; i++)
        {
            // every position's limit may have changed (its override is gone, the default moved): each is reported
            final Position position = positionAt(i);
            position.positionLimit = Position.NO_LIMIT_OVERRIDE;
            positionChanged(position);
        }
        changed = true;
    }

    /**
     * Restore scalar state from a snapshot.
     *
     * @param balance  cash.
     * @param reserved reserved.
     * @param killed   kill switch.
     * @param openOrders resting orders.
     */
    public void restore(final long balance, final long reserved, final boolean killed, final int openOrders)
    {
        this.balance = balance;
        this.reserved = reserved;
        this.killed = killed;
        this.openOrders = openOrders;
    }

    /**
     * @param instrumentId instrument.
     * @return the position or null if the account never had one.
     */
    public Position position(final int instrumentId)
    {
        // the first position's id is kept here: comparing it must not touch a (cold) position of another instrument
        final Position first = firstPosition;
        return first != null && firstInstrumentId == instrumentId ? first : positionById.get(instrumentId);
    }

    /**
     * The position, created flat on first use.
     *
     * @param instrumentId instrument.
     * @param priceScale   its price scale.
     * @param markIndex    its book's index in the engine's mark prices.
     * @return the position.
     */
    public Position positionFor(final int instrumentId, final int priceScale, final int markIndex)
    {
        Position position = position(instrumentId);
        if (position == null)
        {
            position = new Position(instrumentId, priceScale, positionCount);
            positionById.put(instrumentId, position);
            if (positionCount == positions.length)
            {
                final int capacity = positionCount * 2;
                positions = Arrays.copyOf(positions, capacity);
                markIndexes = Arrays.copyOf(markIndexes, capacity);
                changedSlots = Arrays.copyOf(changedSlots, capacity);
            }
            positions[positionCount] = position;
            markIndexes[positionCount] = markIndex;
            openPositions.addSlot(positionCount);
            if (positionCount == 0)
            {
                firstPosition = position;
                firstMarkIndex = markIndex;
                firstInstrumentId = instrumentId;
            }
            positionCount++;
        }
        return position;
    }

    /**
     * For tests of the risk package that have no books: the position with mark index 0.
     *
     * @param instrumentId instrument.
     * @param priceScale   its price scale.
     * @return the position.
     */
    Position positionFor(final int instrumentId, final int priceScale)
    {
        return positionFor(instrumentId, priceScale, 0);
    }

    /**
     * Restore a position from a snapshot (created if new); it is not reported as changed.
     *
     * @param instrumentId     instrument.
     * @param priceScale       its price scale.
     * @param markIndex        its book's index in the engine's mark prices.
     * @param net              net quantity.
     * @param cost             signed cost.
     * @param realisedPnl      realised P&amp;L.
     * @param openBuyQuantity  open buy leaves.
     * @param openSellQuantity open sell leaves.
     * @param positionLimit    override or {@link Position#NO_LIMIT_OVERRIDE}.
     */
    public void restorePosition(
        final int instrumentId,
        final int priceScale,
        final int markIndex,
        final long net,
        final long cost,
        final long realisedPnl,
        final long openBuyQuantity,
        final long openSellQuantity,
        final long positionLimit)
    {
        final Position position = positionFor(instrumentId, priceScale, markIndex);
        costTotal -= position.cost;
        realisedTotal -= position.realisedPnl;
        position.restore(net, cost, realisedPnl, openBuyQuantity, openSellQuantity, positionLimit);
        costTotal += cost;
        realisedTotal += realisedPnl;
        openPositions.net(position.slot(), markIndexes[position.slot()], net);
    }

    /**
     * Book keeping after a trade changed a position: mirror its net quantity, move the running totals by what its
     * cost and realised P&amp;L moved, and list it as changed.
     *
     * @param position       the position, already updated.
     * @param costBefore     its cost before.
     * @param realisedBefore its realised P&amp;L before.
     */
    void positionTraded(final Position position, final long costBefore, final long realisedBefore)
    {
        openPositions.net(position.slot(), markIndexes[position.slot()], position.position);
        costTotal += position.cost - costBefore;
        realisedTotal += position.realisedPnl - realisedBefore;
        positionChanged(position);
    }

    /**
     * List a position for the next risk update (once).
     *
     * @param position one of this account's positions.
     */
    public void positionChanged(final Position position)
    {
        if (!position.changed)
        {
            position.changed = true;
            changedSlots[changedCount++] = position.slot();
        }
    }

    /** @return positions changed since the last {@link #clearChangedPositions()}. */
    public int changedPositionCount()
    {
        return changedCount;
    }

    /**
     * @param index 0..changedPositionCount-1, in the order they first changed.
     * @return the slot of a changed position.
     */
    public int changedSlotAt(final int index)
    {
        return changedSlots[index];
    }

    /** Forget which positions changed (after they were reported). */
    public void clearChangedPositions()
    {
        if (positionCount == 1)
        {
            // the only position can be the only one listed: no need to read the (cold) list
            firstPosition.changed = false;
        }
        else
        {
            for (int i = 0; i < changedCount; i++)
            {
                positions[changedSlots[i]].changed = false;
            }
        }
        changedCount = 0;
    }

    /** @return the sum of the positions' signed cost. */
    public long costTotal()
    {
        return costTotal;
    }

    /** @return the sum of the positions' realised P&amp;L. */
    public long realisedTotal()
    {
        return realisedTotal;
    }

    /** @return the positions that are not flat, with their net quantities and mark indexes. */
    public OpenPositions openPositions()
    {
        return openPositions;
    }

    /** @return number of positions. */
    public int positionCount()
    {
        return positionCount;
    }

    /**
     * @param index 0..positionCount-1, creation order (the slot).
     * @return the position.
     */
    public Position positionAt(final int index)
    {
        return index == 0 ? firstPosition : positions[index];
    }

    /**
     * @param index 0..positionCount-1, creation order (the slot).
     * @return the mark index of its book.
     */
    public int markIndexAt(final int index)
    {
        return index == 0 ? firstMarkIndex : markIndexes[index];
    }

    /**
     * The absolute position limit that applies to an instrument.
     *
     * @param position the position (may be null).
     * @return the limit.
     */
    public long positionLimitFor(final Position position)
    {
        return position == null || position.positionLimit == Position.NO_LIMIT_OVERRIDE ?
            defaultPositionLimit : position.positionLimit;
    }

    /** @return first open order in acceptance order, or null. */
    public Order firstOpenOrder()
    {
        return firstOpen;
    }

    /**
     * Append an order to the account's open orders.
     *
     * @param order a newly accepted order.
     */
    public void linkOrder(final Order order)
    {
        order.accountPrev = lastOpen;
        order.accountNext = null;
        if (lastOpen == null)
        {
            firstOpen = order;
        }
        else
        {
            lastOpen.accountNext = order;
        }
        lastOpen = order;
    }

    /**
     * Remove an order from the account's open orders.
     *
     * @param order a linked order.
     */
    public void unlinkOrder(final Order order)
    {
        if (order.accountPrev == null)
        {
            firstOpen = order.accountNext;
        }
        else
        {
            order.accountPrev.accountNext = order.accountNext;
        }
        if (order.accountNext == null)
        {
            lastOpen = order.accountPrev;
        }
        else
        {
            order.accountNext.accountPrev = order.accountPrev;
        }
        order.accountPrev = null;
        order.accountNext = null;
    }
}
