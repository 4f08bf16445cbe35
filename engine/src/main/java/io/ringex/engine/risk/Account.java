package io.ringex.engine.risk;

import io.ringex.engine.book.Order;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.ArrayList;

/**
 * One trading account: cash, limits, kill switch, what its open orders reserve, its positions and its open orders.
 * <p>
 * Defaults before SetLimits are all zero: max order quantity 0, so every order is refused (MAX_ORDER_QUANTITY) until
 * a risk officer sets limits. A venue should not let an account trade on limits nobody chose.
 * <p>
 * Positions are kept both in a map (lookup) and a list in creation order (deterministic walks for risk updates,
 * snapshots and the state hash). Open orders form an intrusive list in acceptance order.
 * <p>
 * Threading: single business-logic thread.
 */
public final class Account
{
    private final long accountId;
    private final byte defaultSelfTradePrevention;
    private final Int2ObjectHashMap<Position> positionById = new Int2ObjectHashMap<>();
    private final ArrayList<Position> positions = new ArrayList<>();

    long balance;
    long reserved;
    long creditLimit;
    long maxOrderQuantity;
    long maxOrderNotional;
    long defaultPositionLimit;
    int maxOpenOrders;
    boolean allowShort;
    boolean killed;
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
     * Replace the limits whole (per-instrument overrides are reset; the caller applies new ones).
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
        for (int i = 0, n = positions.size(); i < n; i++)
        {
            final Position position = positions.get(i);
            if (position.positionLimit != Position.NO_LIMIT_OVERRIDE)
            {
                position.positionLimit = Position.NO_LIMIT_OVERRIDE;
                position.changed = true;
            }
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
        return positionById.get(instrumentId);
    }

    /**
     * The position, created flat on first use.
     *
     * @param instrumentId instrument.
     * @param priceScale   its price scale.
     * @return the position.
     */
    public Position positionFor(final int instrumentId, final int priceScale)
    {
        Position position = positionById.get(instrumentId);
        if (position == null)
        {
            position = new Position(instrumentId, priceScale);
            positionById.put(instrumentId, position);
            positions.add(position);
        }
        return position;
    }

    /** @return number of positions. */
    public int positionCount()
    {
        return positions.size();
    }

    /**
     * @param index 0..positionCount-1, creation order.
     * @return the position.
     */
    public Position positionAt(final int index)
    {
        return positions.get(index);
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
