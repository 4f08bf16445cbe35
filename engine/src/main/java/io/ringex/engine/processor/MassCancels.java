package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;

/**
 * Cancels (or expires) many orders at once: mass cancel, cancel-on-disconnect, kill switches, end of day and
 * closing an instrument. Orders are walked in acceptance order (order id ascending) through the account's or the
 * venue's intrusive list, so the events come out in the same order on every run and after a restore.
 * <p>
 * Threading: single business-logic thread.
 */
public final class MassCancels
{
    /** Match any instrument. */
    public static final int ANY_INSTRUMENT = Integer.MIN_VALUE;
    /** Match any session. */
    public static final long ANY_SESSION = Long.MIN_VALUE;

    private final EngineState state;
    private final OrderLifecycle lifecycle;

    /**
     * @param state     engine state.
     * @param lifecycle order lifecycle.
     */
    public MassCancels(final EngineState state, final OrderLifecycle lifecycle)
    {
        this.state = state;
        this.lifecycle = lifecycle;
    }

    /**
     * Cancel an account's open orders, optionally only in one instrument.
     *
     * @param account         the account.
     * @param instrumentId    instrument or {@link #ANY_INSTRUMENT}.
     * @param reason          cancel reason.
     * @param clientRequestId 20 bytes to report as the request id, or null to report each order's own id.
     * @return orders canceled.
     */
    public int cancelAccount(
        final Account account, final int instrumentId, final CancelReason reason, final byte[] clientRequestId)
    {
        int canceled = 0;
        Order order = account.firstOpenOrder();
        while (order != null)
        {
            final Order next = order.accountNext;
            if (instrumentId == ANY_INSTRUMENT || order.instrumentId() == instrumentId)
            {
                cancel(order, ExecType.CANCELED, reason, clientRequestId);
                canceled++;
            }
            order = next;
        }
        return canceled;
    }

    /**
     * Cancel or expire orders of the whole venue that match the filters.
     *
     * @param instrumentId    instrument or {@link #ANY_INSTRUMENT}.
     * @param sessionId       session or {@link #ANY_SESSION}.
     * @param dayOnly         only orders with time in force DAY.
     * @param execType        CANCELED or EXPIRED.
     * @param reason          cancel reason.
     * @param clientRequestId 20 bytes to report as the request id, or null to report each order's own id.
     * @return orders ended.
     */
    public int cancelVenue(
        final int instrumentId,
        final long sessionId,
        final boolean dayOnly,
        final ExecType execType,
        final CancelReason reason,
        final byte[] clientRequestId)
    {
        int canceled = 0;
        Order order = state.orders.first();
        while (order != null)
        {
            final Order next = order.venueNext;
            if ((instrumentId == ANY_INSTRUMENT || order.instrumentId() == instrumentId) &&
                (sessionId == ANY_SESSION || order.sessionId() == sessionId) &&
                (!dayOnly || order.timeInForce() == Order.TIF_DAY))
            {
                cancel(order, execType, reason, clientRequestId);
                canceled++;
            }
            order = next;
        }
        return canceled;
    }

    private void cancel(
        final Order order, final ExecType execType, final CancelReason reason, final byte[] clientRequestId)
    {
        final OrderBook book = state.book(order.instrumentId());
        if (clientRequestId == null)
        {
            lifecycle.cancelResting(book, order, execType, reason, order.clientOrderId(),
                EventEncoder.NO_CLIENT_ORDER_ID);
        }
        else
        {
            lifecycle.cancelResting(book, order, execType, reason, clientRequestId, order.clientOrderId());
        }
    }
}
