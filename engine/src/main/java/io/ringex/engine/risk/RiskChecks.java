package io.ringex.engine.risk;

import io.ringex.protocol.codecs.RejectReason;

/**
 * Pre-trade checks of one order against its account, in this order, each with its own reason: max order quantity,
 * max order notional, max open orders (orders that may rest), credit (buys), position available to sell (unless
 * short selling is allowed), position limit (open orders counted).
 * <p>
 * For a replace the order's current exposure is passed as "excluded" so the check sees the account as if the order
 * were replaced, not added.
 * <p>
 * Threading: stateless; single business-logic thread.
 */
public final class RiskChecks
{
    private RiskChecks()
    {
    }

    /**
     * Check an order (or the replaced form of one).
     *
     * @param account          the account.
     * @param position         its position in the instrument, or null if none yet.
     * @param buy              side.
     * @param orderQuantity    total order quantity.
     * @param orderNotional    order quantity at its price (the protection price for a market order).
     * @param leaves           quantity that may still trade.
     * @param reserve          money a buy needs held for {@code leaves}; 0 for a sell.
     * @param newOpenOrder     true if the order would add to the account's open orders.
     * @param excludedLeaves   leaves already counted for this order (replace), else 0.
     * @param excludedReserve  money already reserved for this order (replace), else 0.
     * @return {@link RejectReason#NONE} or the first failed check.
     */
    public static RejectReason check(
        final Account account,
        final Position position,
        final boolean buy,
        final long orderQuantity,
        final long orderNotional,
        final long leaves,
        final long reserve,
        final boolean newOpenOrder,
        final long excludedLeaves,
        final long excludedReserve)
    {
        if (orderQuantity > account.maxOrderQuantity)
        {
            return RejectReason.MAX_ORDER_QUANTITY;
        }
        if (orderNotional > account.maxOrderNotional)
        {
            return RejectReason.MAX_ORDER_NOTIONAL;
        }
        if (newOpenOrder && account.openOrders >= account.maxOpenOrders)
        {
            return RejectReason.TOO_MANY_OPEN_ORDERS;
        }

        final long net = position == null ? 0 : position.position;
        final long limit = account.positionLimitFor(position);
        if (buy)
        {
            final long available = saturatedAdd(account.balance, account.creditLimit) -
                (account.reserved - excludedReserve);
            if (reserve > available)
            {
                return RejectReason.INSUFFICIENT_CREDIT;
            }
            final long openBuys = (position == null ? 0 : position.openBuyQuantity) - excludedLeaves;
            if (net + openBuys + leaves > limit)
            {
                return RejectReason.POSITION_LIMIT;
            }
        }
        else
        {
            final long openSells = (position == null ? 0 : position.openSellQuantity) - excludedLeaves;
            if (!account.allowShort && leaves > net - openSells)
            {
                return RejectReason.INSUFFICIENT_POSITION;
            }
            if (net - openSells - leaves < -limit)
            {
                return RejectReason.POSITION_LIMIT;
            }
        }
        return RejectReason.NONE;
    }

    private static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0)
        {
            return a < 0 ? Long.MIN_VALUE / 2 : Long.MAX_VALUE / 2;
        }
        return sum;
    }
}
