package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.RiskChecks;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;

/**
 * Cancel, cancel/replace and mass cancel of open orders, addressed by engine order id or by (account, original client
 * order id); the rules are docs/matching.md's ("Cancel, replace, mass cancel").
 * <p>
 * A replace that lowers the quantity at the same price keeps time priority; any other change loses it. Cancels are
 * always allowed, whatever the phase or kill switch.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderAmendments
{
    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;
    private final OrderEntry entry;
    private final MassCancels massCancels;
    private final byte[] requestId = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private final byte[] origId = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private final byte[] previousId = new byte[Order.CLIENT_ORDER_ID_LENGTH];

    /**
     * @param state       engine state.
     * @param events      event encoder.
     * @param lifecycle   order lifecycle.
     * @param entry       order entry, to execute a re-entered order.
     * @param massCancels bulk cancels.
     */
    public OrderAmendments(
        final EngineState state,
        final EventEncoder events,
        final OrderLifecycle lifecycle,
        final OrderEntry entry,
        final MassCancels massCancels)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
        this.entry = entry;
        this.massCancels = massCancels;
    }

    /**
     * Handle a CancelOrder.
     *
     * @param command wrapped on the command's root block.
     */
    public void onCancel(final CommandReader command)
    {
        final int origField = CancelOrderDecoder.origClientOrderIdEncodingOffset();
        command.getId20(CancelOrderDecoder.clientOrderIdEncodingOffset(), requestId);
        command.getId20(origField, origId);
        final long sessionId = command.getLong(CancelOrderDecoder.sessionIdEncodingOffset());
        final long accountId = command.getLong(CancelOrderDecoder.accountIdEncodingOffset());
        final long orderId = command.getLong(CancelOrderDecoder.orderIdEncodingOffset());
        final Order order = find(accountId, orderId, command, origField);
        final RejectReason reason = order == null ? notFound(orderId) :
            (order.accountId() != accountId ? RejectReason.NOT_AUTHORISED : RejectReason.NONE);
        if (reason != RejectReason.NONE)
        {
            events.cancelReject(sessionId, accountId, command.getInt(CancelOrderDecoder.instrumentIdEncodingOffset()),
                orderId, requestId, origId, false, reason);
            return;
        }
        order.sessionId(sessionId);
        lifecycle.cancelResting(state.book(order.instrumentId()), order, ExecType.CANCELED,
            CancelReason.CLIENT_REQUEST, requestId, order.clientOrderId());
    }

    /**
     * Handle a ReplaceOrder.
     *
     * @param command wrapped on the command's root block.
     */
    public void onReplace(final CommandReader command)
    {
        final int newIdField = ReplaceOrderDecoder.clientOrderIdEncodingOffset();
        final int origField = ReplaceOrderDecoder.origClientOrderIdEncodingOffset();
        command.getId20(newIdField, requestId);
        command.getId20(origField, origId);
        final long sessionId = command.getLong(ReplaceOrderDecoder.sessionIdEncodingOffset());
        final long accountId = command.getLong(ReplaceOrderDecoder.accountIdEncodingOffset());
        final long orderId = command.getLong(ReplaceOrderDecoder.orderIdEncodingOffset());
        final long newPrice = command.getLong(ReplaceOrderDecoder.priceEncodingOffset());
        final long newQuantity = command.getLong(ReplaceOrderDecoder.quantityEncodingOffset());
        final long newId0 = command.getLong(newIdField);
        final long newId1 = command.getLong(newIdField + 8);
        final int newId2 = command.getInt(newIdField + 16);
        final Order order = find(accountId, orderId, command, origField);
        // only a pending stop's replace reads the field added in version 2
        final long newStopPrice = order != null && order.location() == Order.AT_STOPS &&
            command.blockLength() >= ReplaceOrderDecoder.BLOCK_LENGTH ?
            command.getLong(ReplaceOrderDecoder.stopPriceEncodingOffset()) : 0;

        RejectReason reason = order == null ? notFound(orderId) :
            (order.accountId() != accountId ? RejectReason.NOT_AUTHORISED : RejectReason.NONE);
        final OrderBook book = order == null ? null : state.book(order.instrumentId());
        final Account account = state.account(accountId);
        if (reason == RejectReason.NONE)
        {
            reason = checkReplace(book, account, order, newId0, newId1, newId2, newPrice, newQuantity, newStopPrice);
        }
        if (reason != RejectReason.NONE)
        {
            events.cancelReject(sessionId, accountId, command.getInt(ReplaceOrderDecoder.instrumentIdEncodingOffset()),
                orderId, requestId, origId, true, reason);
            return;
        }

        order.sessionId(sessionId);
        System.arraycopy(order.clientOrderId(), 0, previousId, 0, Order.CLIENT_ORDER_ID_LENGTH);
        if (newQuantity <= order.filledQuantity())
        {
            lifecycle.cancelResting(book, order, ExecType.CANCELED, CancelReason.REPLACE_BELOW_FILLED, requestId,
                previousId);
            return;
        }

        final int scale = book.instrument().priceScale();
        state.orders.changeClientOrderId(order, newId0, newId1, newId2);
        if (order.location() == Order.AT_STOPS)
        {
            replaceStop(book, account, order, newPrice, newQuantity, newStopPrice);
            return;
        }
        if (newPrice == order.price() && newQuantity <= order.quantity())
        {
            book.reduceQuantity(order, newQuantity);
            lifecycle.track(book, account, order);
            events.executionReport(order, scale, order.orderId(), order.clientOrderId(), previousId,
                ExecType.REPLACED, OrderLifecycle.openStatus(order), 0, 0, 0, RejectReason.NONE, CancelReason.NONE,
                false);
            events.levelUpdate(book, order.isBuy(), book.levels().index(order.price()), order.orderId(),
                OrderAction.MODIFY, order.visibleQuantity());
            return;
        }

        lifecycle.takeOut(book, order);
        order.price(newPrice);
        order.quantity(newQuantity);
        events.executionReport(order, scale, order.orderId(), order.clientOrderId(), previousId,
            ExecType.REPLACED, OrderLifecycle.openStatus(order), 0, 0, 0, RejectReason.NONE, CancelReason.NONE,
            false);
        entry.execute(book, account, order, previousId);
    }

    private void replaceStop(
        final OrderBook book,
        final Account account,
        final Order order,
        final long newPrice,
        final long newQuantity,
        final long newStopPrice)
    {
        final long stopPrice = newStopPrice != 0 ? newStopPrice : order.stopPrice();
        if (order.orderType() == Order.TYPE_STOP_LIMIT)
        {
            order.price(newPrice);
        }
        if (stopPrice == order.stopPrice() && newQuantity <= order.quantity())
        {
            book.reduceStopQuantity(order, newQuantity);
        }
        else
        {
            book.removeStop(order);
            order.stopPrice(stopPrice);
            order.quantity(newQuantity);
            book.addStop(order);
        }
        lifecycle.track(book, account, order);
        events.executionReport(order, book.instrument().priceScale(), order.orderId(), order.clientOrderId(),
            previousId, ExecType.REPLACED, OrderLifecycle.openStatus(order), 0, 0, 0, RejectReason.NONE,
            CancelReason.NONE, false);
    }

    private RejectReason checkReplace(
        final OrderBook book,
        final Account account,
        final Order order,
        final long newId0,
        final long newId1,
        final int newId2,
        final long newPrice,
        final long newQuantity,
        final long newStopPrice)
    {
        if (state.venueKilled)
        {
            return RejectReason.VENUE_KILLED;
        }
        if (account.killed())
        {
            return RejectReason.ACCOUNT_KILLED;
        }
        if (account.status() != Account.STATUS_ACTIVE)
        {
            return RejectReason.ACCOUNT_SUSPENDED;
        }
        RejectReason reason = OrderRules.checkStatus(book.instrument());
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (order.location() == Order.AT_AUCTION_MARKET || order.isQuote())
        {
            return RejectReason.INVALID_ORDER_TYPE;
        }
        final boolean pendingStop = order.location() == Order.AT_STOPS;
        final boolean keepsPrice = pendingStop && order.orderType() == Order.TYPE_STOP;
        reason = OrderRules.checkPriceAndQuantity(book.instrument(), keepsPrice, newPrice, newQuantity);
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (pendingStop && newStopPrice != 0 && !OrderRules.isValidStop(book, order.isBuy(), newStopPrice))
        {
            return RejectReason.INVALID_STOP_PRICE;
        }
        final long price = keepsPrice ? order.price() : newPrice;
        final Order sameId = state.orders.byClientOrderId(account.accountId(), newId0, newId1, newId2);
        if (sameId != null && sameId != order)
        {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        if (newQuantity <= order.filledQuantity())
        {
            return RejectReason.NONE;
        }
        final int scale = book.instrument().priceScale();
        final long leaves = newQuantity - order.filledQuantity();
        reason = RiskChecks.check(account, OrderLifecycle.position(book, account, order), order.isBuy(), newQuantity,
            FixedPoint.notional(price, newQuantity, scale), leaves,
            order.isBuy() ? FixedPoint.notional(price, leaves, scale) : 0, false,
            order.trackedLeaves(), order.trackedReserve());
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (order.postOnly() && newPrice != order.price() && !book.instrument().inCallPhase() &&
            book.wouldCross(order.isBuy(), newPrice))
        {
            return RejectReason.POST_ONLY_WOULD_CROSS;
        }
        return RejectReason.NONE;
    }

    /**
     * Handle a MassCancel. Scope ACCOUNT: the account's orders; INSTRUMENT: the account's orders in the instrument,
     * or every order in it when the account id is 0 and the command comes from an admin source; SESSION: every
     * order entered by the session (cancel-on-disconnect when the flag is set).
     *
     * @param decoder  wrapped on the command.
     * @param sourceId the slot's source id.
     */
    public void onMassCancel(final MassCancelDecoder decoder, final long sourceId)
    {
        decoder.getClientRequestId(requestId, 0);
        final long sessionId = decoder.sessionId();
        final long accountId = decoder.accountId();
        final short scopeRaw = decoder.scopeRaw();
        final int instrumentId = decoder.instrumentId();
        final CancelReason reason = decoder.cancelOnDisconnectRaw() == 1 ?
            CancelReason.CANCEL_ON_DISCONNECT : CancelReason.MASS_CANCEL;
        final boolean admin = SessionIds.gatewayId(sourceId) == SessionIds.ADMIN_GATEWAY_ID;

        // A client's own mass cancel ends with a MassCancelReport: how many it cancelled, so that even none is an
        // answer (FIX OrderMassCancelReport); cancel-on-disconnect has nobody to tell; an admin source is no client.
        final boolean report = reason == CancelReason.MASS_CANCEL && !admin;
        if (scopeRaw == MassCancelScope.SESSION.value())
        {
            final int affected = massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, sessionId, false,
                ExecType.CANCELED, reason, requestId);
            if (report)
            {
                events.massCancelReport(sessionId, accountId, requestId, MassCancelScope.SESSION, instrumentId,
                    affected);
            }
            return;
        }
        if (scopeRaw == MassCancelScope.INSTRUMENT.value() && accountId == 0 && admin)
        {
            massCancels.cancelVenue(instrumentId, MassCancels.ANY_SESSION, false, ExecType.CANCELED, reason,
                requestId);
            return;
        }
        final Account account = state.account(accountId);
        if (account == null || (scopeRaw != MassCancelScope.ACCOUNT.value() &&
            scopeRaw != MassCancelScope.INSTRUMENT.value()))
        {
            events.businessReject(sessionId, MassCancelDecoder.TEMPLATE_ID, requestId,
                account == null ? RejectReason.UNKNOWN_ACCOUNT : RejectReason.MALFORMED, false);
            return;
        }
        final boolean wholeAccount = scopeRaw == MassCancelScope.ACCOUNT.value();
        final int affected = massCancels.cancelAccount(account,
            wholeAccount ? MassCancels.ANY_INSTRUMENT : instrumentId, reason, requestId);
        if (report)
        {
            events.massCancelReport(sessionId, accountId, requestId,
                wholeAccount ? MassCancelScope.ACCOUNT : MassCancelScope.INSTRUMENT, instrumentId, affected);
        }
    }

    private Order find(final long accountId, final long orderId, final CommandReader command, final int origField)
    {
        return orderId != 0 ? state.orders.byId(orderId) : state.orders.byClientOrderId(accountId,
            command.getLong(origField), command.getLong(origField + 8), command.getInt(origField + 16));
    }

    private RejectReason notFound(final long orderId)
    {
        return orderId > 0 && orderId <= state.lastOrderId ? RejectReason.ORDER_NOT_OPEN : RejectReason.UNKNOWN_ORDER;
    }
}
