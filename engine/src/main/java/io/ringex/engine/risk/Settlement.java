package io.ringex.engine.risk;

import io.ringex.engine.book.Order;

/**
 * Post-trade: moves cash from buyer to seller by the trade's notional, updates both positions by the average-cost
 * method (realising P&amp;L on the part of a trade that reduces a position), and keeps each account's view of its
 * open orders (open quantities per instrument, reserved money, open order count) in step with the book.
 * <p>
 * Cash and positions are conserved: whatever one side of a trade gains, the other loses, exactly.
 * <p>
 * Threading: stateless; single business-logic thread.
 */
public final class Settlement
{
    private Settlement()
    {
    }

    /**
     * Settle one trade.
     *
     * @param buyer          buying account.
     * @param buyerPosition  its position in the instrument.
     * @param seller         selling account.
     * @param sellerPosition its position in the instrument.
     * @param quantity       traded quantity.
     * @param notional       price x quantity at money scale.
     */
    public static void settle(
        final Account buyer,
        final Position buyerPosition,
        final Account seller,
        final Position sellerPosition,
        final long quantity,
        final long notional)
    {
        buyer.balance -= notional;
        seller.balance += notional;
        apply(buyer, buyerPosition, quantity, notional);
        apply(seller, sellerPosition, -quantity, notional);
        buyer.changed = true;
        seller.changed = true;
    }

    private static void apply(
        final Account account, final Position position, final long signedQuantity, final long notional)
    {
        final long costBefore = position.cost;
        final long realisedBefore = position.realisedPnl;
        applyToPosition(position, signedQuantity, notional);
        position.costChanged();
        account.positionTraded(position, costBefore, realisedBefore);
    }

    private static void applyToPosition(final Position position, final long signedQuantity, final long notional)
    {
        final boolean buy = signedQuantity > 0;
        final long quantity = Math.abs(signedQuantity);
        if (position.position == 0 || (position.position > 0) == buy)
        {
            position.position += signedQuantity;
            position.cost += buy ? notional : -notional;
            return;
        }

        final long held = Math.abs(position.position);
        final long closed = Math.min(quantity, held);
        final long closedNotional = PnlMath.proportion(notional, closed, quantity);
        final long closingCost = PnlMath.proportion(position.cost, closed, held);
        final long tradeValue = buy ? -closedNotional : closedNotional;
        position.realisedPnl += tradeValue - closingCost;
        position.cost -= closingCost;
        position.position += signedQuantity;
        if (quantity > closed)
        {
            final long openedNotional = notional - closedNotional;
            position.cost = buy ? openedNotional : -openedNotional;
        }
    }

    /**
     * Bring the account's record of an order's exposure up to date: leaves counted as open buy/sell quantity,
     * money reserved for a buy, and the open order count.
     *
     * @param account  the order's account.
     * @param position its position in the order's instrument.
     * @param order    the order.
     * @param leaves   leaves to count from now on (0 when the order leaves the book).
     * @param reserve  money to reserve from now on (0 for sells and when leaving the book).
     */
    public static void trackOrder(
        final Account account, final Position position, final Order order, final long leaves, final long reserve)
    {
        final long previousLeaves = order.trackedLeaves();
        if (previousLeaves == 0 && leaves > 0)
        {
            account.openOrders++;
        }
        else if (previousLeaves > 0 && leaves == 0)
        {
            account.openOrders--;
        }
        if (order.isBuy())
        {
            position.openBuyQuantity += leaves - previousLeaves;
        }
        else
        {
            position.openSellQuantity += leaves - previousLeaves;
        }
        account.reserved += reserve - order.trackedReserve();
        order.trackedLeaves(leaves);
        order.trackedReserve(reserve);
        account.changed = true;
        account.positionChanged(position);
    }

    /**
     * Unrealised P&amp;L of a position at a mark price.
     *
     * @param position  the position.
     * @param markPrice mark at the instrument's scale.
     * @return position x mark - cost at money scale, 0 if not representable.
     */
    public static long unrealisedPnl(final Position position, final long markPrice)
    {
        final long value = io.ringex.protocol.FixedPoint.notional(markPrice, position.position, position.priceScale());
        return value == io.ringex.protocol.FixedPoint.INVALID ? 0 : value - position.cost;
    }

    /**
     * Exposure of a position at a mark price.
     *
     * @param position  the position.
     * @param markPrice mark at the instrument's scale.
     * @return |position| x mark at money scale, 0 if not representable.
     */
    public static long exposure(final Position position, final long markPrice)
    {
        final long value = io.ringex.protocol.FixedPoint.notional(
            markPrice, Math.abs(position.position), position.priceScale());
        return value == io.ringex.protocol.FixedPoint.INVALID ? 0 : value;
    }
}
