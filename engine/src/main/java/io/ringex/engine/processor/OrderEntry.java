package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Matcher;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.RiskChecks;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;

/**
 * New orders: validation, pre-trade risk, matching and what happens to the remainder. Checks run in this order and
 * the first failure is the reject reason: malformed enum values (MALFORMED), venue kill switch, unknown account,
 * account kill switch, unknown instrument, instrument not open, order type / time in force combination, quantity,
 * lot, price, tick, band, notional overflow, duplicate client order id, account risk, post-only cross, fill-or-kill.
 * <p>
 * A rejected order gets no order id (0) and changes nothing. An accepted one is reported NEW, then its fills, then
 * (for IOC, FOK and market orders, or when self-trade prevention stops it) the cancel of its remainder.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderEntry
{
    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;

    /**
     * @param state     engine state.
     * @param events    event encoder.
     * @param lifecycle order lifecycle.
     */
    public OrderEntry(final EngineState state, final EventEncoder events, final OrderLifecycle lifecycle)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
    }

    /**
     * Handle a NewOrder.
     *
     * @param command wrapped on the command's root block.
     */
    public void onNewOrder(final CommandReader command)
    {
        final int idField = NewOrderDecoder.clientOrderIdEncodingOffset();
        final long sessionId = command.getLong(NewOrderDecoder.sessionIdEncodingOffset());
        final long accountId = command.getLong(NewOrderDecoder.accountIdEncodingOffset());
        final int instrumentId = command.getInt(NewOrderDecoder.instrumentIdEncodingOffset());
        final short sideRaw = command.getUnsignedByte(NewOrderDecoder.sideEncodingOffset());
        final short typeRaw = command.getUnsignedByte(NewOrderDecoder.orderTypeEncodingOffset());
        final short tifRaw = command.getUnsignedByte(NewOrderDecoder.timeInForceEncodingOffset());
        final short postOnlyRaw = command.getUnsignedByte(NewOrderDecoder.postOnlyEncodingOffset());
        final short stpRaw = command.getUnsignedByte(NewOrderDecoder.selfTradePreventionEncodingOffset());
        final long quantity = command.getLong(NewOrderDecoder.quantityEncodingOffset());
        final long id0 = command.getLong(idField);
        final long id1 = command.getLong(idField + 8);
        final int id2 = command.getInt(idField + 16);
        final boolean market = typeRaw == Order.TYPE_MARKET;

        final Account account = state.account(accountId);
        final OrderBook book = state.book(instrumentId);
        final Instrument instrument = book == null ? null : book.instrument();
        final boolean buy = sideRaw == 1;
        final long price = market ? (instrument == null ? 0 : (buy ? instrument.maxPrice() : instrument.minPrice())) :
            command.getLong(NewOrderDecoder.priceEncodingOffset());
        final byte stp = stpRaw == 0 && account != null ? account.defaultSelfTradePrevention() : (byte)stpRaw;

        final Order order = state.pool.acquire();
        order.init(0, accountId, sessionId, instrumentId, buy, (byte)typeRaw, (byte)tifRaw,
            postOnlyRaw == 1, stp, price, quantity);
        order.clientOrderId(id0, id1, id2);

        RejectReason reason = RejectReason.NONE;
        if ((sideRaw != 1 && sideRaw != 2) || (typeRaw != 1 && typeRaw != 2) || tifRaw < 1 || tifRaw > 4 ||
            postOnlyRaw > 1 || stpRaw > 4)
        {
            reason = RejectReason.MALFORMED;
        }
        else if (state.venueKilled)
        {
            reason = RejectReason.VENUE_KILLED;
        }
        else if (account == null)
        {
            reason = RejectReason.UNKNOWN_ACCOUNT;
        }
        else if (account.killed())
        {
            reason = RejectReason.ACCOUNT_KILLED;
        }
        else if (account.status() != Account.STATUS_ACTIVE)
        {
            reason = RejectReason.ACCOUNT_SUSPENDED;
        }
        else if (book == null)
        {
            reason = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else
        {
            reason = OrderRules.checkOrder(instrument, market, (byte)tifRaw, postOnlyRaw == 1, price, quantity);
            if (reason == RejectReason.NONE &&
                state.orders.byClientOrderId(accountId, id0, id1, id2) != null)
            {
                reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
            }
            if (reason == RejectReason.NONE)
            {
                final int scale = instrument.priceScale();
                final long notional = FixedPoint.notional(price, quantity, scale);
                final boolean mayRest = !market && (tifRaw == Order.TIF_GTC || tifRaw == Order.TIF_DAY);
                reason = RiskChecks.check(account, account.position(instrumentId), buy, quantity, notional, quantity,
                    buy ? notional : 0, mayRest, 0, 0);
            }
            if (reason == RejectReason.NONE && order.postOnly() && book.wouldCross(buy, price))
            {
                reason = RejectReason.POST_ONLY_WOULD_CROSS;
            }
            if (reason == RejectReason.NONE && tifRaw == Order.TIF_FOK &&
                !Matcher.canFillCompletely(book, order, price))
            {
                reason = RejectReason.FOK_NOT_FILLABLE;
            }
        }

        if (reason != RejectReason.NONE)
        {
            events.executionReport(order, instrument == null ? 0 : instrument.priceScale(), 0, order.clientOrderId(),
                EventEncoder.NO_CLIENT_ORDER_ID, ExecType.REJECTED, OrderStatus.REJECTED, 0, 0, 0, reason,
                CancelReason.NONE, true);
            state.pool.release(order);
            return;
        }

        order.init(++state.lastOrderId, accountId, sessionId, instrumentId, buy, (byte)typeRaw,
            (byte)tifRaw, postOnlyRaw == 1, stp, price, quantity);
        lifecycle.accept(book, account, order);
        execute(book, account, order, EventEncoder.NO_CLIENT_ORDER_ID);
    }

    /**
     * Match an order that is not in the book and deal with what is left: rest it, cancel it, or release it filled.
     *
     * @param book              its book.
     * @param account           its account.
     * @param order             the order, accepted and indexed.
     * @param origClientOrderId id to report as original on a cancel of the remainder.
     */
    void execute(final OrderBook book, final Account account, final Order order, final byte[] origClientOrderId)
    {
        final boolean market = order.orderType() == Order.TYPE_MARKET;
        final long filledBefore = order.filledQuantity();
        final int outcome = Matcher.match(book, order, order.price(), lifecycle);
        if (outcome == Matcher.TAKER_SELF_TRADE_CANCELED)
        {
            lifecycle.end(book, order, ExecType.CANCELED, CancelReason.SELF_TRADE_PREVENTION, RejectReason.NONE,
                order.clientOrderId(), origClientOrderId);
        }
        else if (order.leavesQuantity() == 0)
        {
            lifecycle.track(book, account, order);
            lifecycle.release(account, order);
        }
        else if (market)
        {
            final RejectReason detail = order.filledQuantity() == filledBefore ?
                RejectReason.NO_LIQUIDITY : RejectReason.NONE;
            lifecycle.end(book, order, ExecType.CANCELED, CancelReason.MARKET_PROTECTION, detail,
                order.clientOrderId(), origClientOrderId);
        }
        else if (order.timeInForce() == Order.TIF_IOC || order.timeInForce() == Order.TIF_FOK)
        {
            lifecycle.end(book, order, ExecType.CANCELED, CancelReason.IOC_REMAINDER, RejectReason.NONE,
                order.clientOrderId(), origClientOrderId);
        }
        else
        {
            lifecycle.rest(book, account, order);
        }
    }
}
