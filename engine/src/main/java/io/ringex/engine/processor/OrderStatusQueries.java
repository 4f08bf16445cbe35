package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.RejectReason;

/**
 * Order status and mass status: read-only commands answered from the open orders with OrderStatusReports. They come
 * through the ring and the journal like every command, so an answer reflects every event published before it and a
 * replay answers them again the same way; they change nothing: no field of the state, no id counter, no statistic.
 * <p>
 * Only open orders are known (the engine keeps no done orders): a done or never-seen order is UNKNOWN_ORDER, as is
 * an order of another account than the one named (never told apart, so nothing leaks). A mass status walks the
 * accounts the gateway put in the request (the user's), each in acceptance order (order id ascending), twice: once to
 * count, once to report, so every report carries its number and the total. Its size is bounded by the accounts' open
 * orders (their max open orders), as a mass cancel's is; the output ring's sink publishes long runs in bounded
 * batches and waits for room, so nothing is dropped.
 * <p>
 * Threading: single business-logic thread. Allocation-free.
 */
final class OrderStatusQueries
{
    /** The most accounts a mass status may name: a user's most (Users.MAX_ACCOUNTS). */
    static final int MAX_ACCOUNTS = Users.MAX_ACCOUNTS;

    private final EngineState state;
    private final EventEncoder events;
    private final byte[] statusRequestId = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private final byte[] clientOrderId = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private final Account[] accounts = new Account[MAX_ACCOUNTS];

    OrderStatusQueries(final EngineState state, final EventEncoder events)
    {
        this.state = state;
        this.events = events;
    }

    void onOrderStatusRequest(final OrderStatusRequestDecoder request)
    {
        final long sessionId = request.sessionId();
        final long accountId = request.accountId();
        final long orderId = request.orderId();
        request.getStatusRequestId(statusRequestId, 0);
        request.getClientOrderId(clientOrderId, 0);
        final Order order = orderId != 0 ? state.orders.byId(orderId) : state.orders.byClientOrderId(accountId,
            request.buffer(), request.offset() + OrderStatusRequestDecoder.clientOrderIdEncodingOffset());
        if (null == order || order.accountId() != accountId)
        {
            events.orderStatusNone(sessionId, statusRequestId, false, accountId, 0, orderId, clientOrderId,
                RejectReason.UNKNOWN_ORDER);
            return;
        }
        events.orderStatusReport(sessionId, statusRequestId, false, 1, 1, order, priceScale(order));
    }

    void onOrderMassStatusRequest(final OrderMassStatusRequestDecoder request)
    {
        final long sessionId = request.sessionId();
        final long accountId = request.accountId();
        final int instrumentId = request.instrumentId();
        final short scope = request.scopeRaw();
        request.getStatusRequestId(statusRequestId, 0);
        java.util.Arrays.fill(clientOrderId, (byte)0);

        RejectReason refusal = RejectReason.NONE;
        final OrderMassStatusRequestDecoder.AccountsDecoder group = request.accounts();
        int accountCount = 0;
        if (scope != MassStatusScope.SESSION.value() && scope != MassStatusScope.ACCOUNTS.value() &&
            scope != MassStatusScope.INSTRUMENT.value() || group.count() > MAX_ACCOUNTS)
        {
            refusal = RejectReason.MALFORMED;
        }
        else if (scope == MassStatusScope.INSTRUMENT.value() && null == state.book(instrumentId))
        {
            refusal = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else
        {
            while (group.hasNext())
            {
                accountCount = addAccount(state.account(group.next().accountId()), accountCount);
            }
        }
        if (refusal != RejectReason.NONE)
        {
            events.orderStatusNone(sessionId, statusRequestId, true, accountId, instrumentId, 0, clientOrderId,
                refusal);
            return;
        }

        final long sessionFilter = scope == MassStatusScope.SESSION.value() ? sessionId : MassCancels.ANY_SESSION;
        final int instrumentFilter = scope == MassStatusScope.INSTRUMENT.value() ?
            instrumentId : MassCancels.ANY_INSTRUMENT;
        int total = 0;
        for (int a = 0; a < accountCount; a++)
        {
            for (Order order = accounts[a].firstOpenOrder(); order != null; order = order.accountNext)
            {
                if (matches(order, sessionFilter, instrumentFilter))
                {
                    total++;
                }
            }
        }
        if (0 == total)
        {
            clearAccounts(accountCount);
            events.orderStatusNone(sessionId, statusRequestId, true, accountId, instrumentId, 0, clientOrderId,
                RejectReason.NONE);
            return;
        }
        int number = 0;
        for (int a = 0; a < accountCount; a++)
        {
            for (Order order = accounts[a].firstOpenOrder(); order != null; order = order.accountNext)
            {
                if (matches(order, sessionFilter, instrumentFilter))
                {
                    events.orderStatusReport(sessionId, statusRequestId, true, ++number, total, order,
                        priceScale(order));
                }
            }
        }
        clearAccounts(accountCount);
    }

    /** Unknown accounts show nothing; an account named twice is reported once. */
    private int addAccount(final Account account, final int count)
    {
        if (null == account)
        {
            return count;
        }
        for (int i = 0; i < count; i++)
        {
            if (accounts[i] == account)
            {
                return count;
            }
        }
        accounts[count] = account;
        return count + 1;
    }

    private void clearAccounts(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            accounts[i] = null;
        }
    }

    private static boolean matches(final Order order, final long sessionId, final int instrumentId)
    {
        return (sessionId == MassCancels.ANY_SESSION || order.sessionId() == sessionId) &&
            (instrumentId == MassCancels.ANY_INSTRUMENT || order.instrumentId() == instrumentId);
    }

    private int priceScale(final Order order)
    {
        final OrderBook book = state.book(order.instrumentId());
        return null == book ? 0 : book.instrument().priceScale();
    }
}
