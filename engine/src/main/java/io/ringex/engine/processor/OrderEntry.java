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
 * New orders: validation, pre-trade risk, matching and what happens to the remainder; and the entry of stops once a
 * trade triggers them. Checks run in this order and the first failure is the reject reason: malformed enum values
 * (MALFORMED), venue kill switch, unknown account, account kill switch, unknown instrument, then {@link OrderRules}
 * (status, type combinations, phase, quantity, lot, price, tick, band, notional overflow, stop price, display and
 * minimum quantities, expire time), duplicate client order id, account risk, and in continuous trading post-only
 * cross, fill-or-kill and minimum quantity.
 * <p>
 * A rejected order gets no order id (0) and changes nothing. An accepted one is reported NEW; a stop then waits for
 * its trigger; any other order executes ({@link #execute}).
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderEntry
{
    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;
    private final TradingPhases phases;

    /**
     * @param state     engine state.
     * @param events    event encoder.
     * @param lifecycle order lifecycle.
     * @param phases    trading phases (the dynamic band's interruptions).
     */
    public OrderEntry(
        final EngineState state, final EventEncoder events, final OrderLifecycle lifecycle, final TradingPhases phases)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
        this.phases = phases;
    }

    /**
     * Handle a NewOrder, of schema version 1 (no stop price, display, minimum quantity or expiry) or 2.
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
        final boolean terms = command.blockLength() >= NewOrderDecoder.BLOCK_LENGTH;
        final long stopPrice = terms ? command.getLong(NewOrderDecoder.stopPriceEncodingOffset()) : 0;
        final long displayQuantity = terms ? command.getLong(NewOrderDecoder.displayQuantityEncodingOffset()) : 0;
        final long minQuantity = terms ? command.getLong(NewOrderDecoder.minQuantityEncodingOffset()) : 0;
        final long expireTimeNs = terms ? command.getLong(NewOrderDecoder.expireTimeNsEncodingOffset()) : 0;
        final boolean marketLike = typeRaw == Order.TYPE_MARKET || typeRaw == Order.TYPE_STOP;

        final Account account = state.account(accountId);
        final OrderBook book = state.book(instrumentId);
        final Instrument instrument = book == null ? null : book.instrument();
        final boolean buy = sideRaw == 1;
        final long price = marketLike ?
            (instrument == null ? 0 : (buy ? instrument.maxPrice() : instrument.minPrice())) :
            command.getLong(NewOrderDecoder.priceEncodingOffset());
        final byte stp = stpRaw == 0 && account != null ? account.defaultSelfTradePrevention() : (byte)stpRaw;

        final Order order = state.pool.acquire();
        order.init(0, accountId, sessionId, instrumentId, buy, (byte)typeRaw, (byte)tifRaw,
            postOnlyRaw == 1, stp, price, quantity);
        order.terms(stopPrice, displayQuantity, expireTimeNs);
        order.clientOrderId(id0, id1, id2);

        RejectReason reason = RejectReason.NONE;
        if ((sideRaw != 1 && sideRaw != 2) || typeRaw < 1 || typeRaw > 4 || tifRaw < 1 || tifRaw > 5 ||
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
            reason = OrderRules.checkNew(book, order, minQuantity, events.timestampNs());
            if (reason == RejectReason.NONE &&
                state.orders.byClientOrderId(accountId, id0, id1, id2) != null)
            {
                reason = RejectReason.DUPLICATE_CLIENT_ORDER_ID;
            }
            if (reason == RejectReason.NONE)
            {
                final int scale = instrument.priceScale();
                final long notional = FixedPoint.notional(price, quantity, scale);
                final boolean waits = order.isStop() || instrument.inCallPhase() ||
                    (!marketLike && tifRaw != Order.TIF_IOC && tifRaw != Order.TIF_FOK);
                reason = RiskChecks.check(account, account.position(instrumentId), buy, quantity, notional, quantity,
                    buy ? notional : 0, waits, 0, 0);
            }
            if (reason == RejectReason.NONE && !instrument.inCallPhase() && !order.isStop())
            {
                reason = checkImmediate(book, order, minQuantity);
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
        if (tifRaw == Order.TIF_GTD)
        {
            state.expiries.add(order);
        }
        if (order.isStop())
        {
            lifecycle.holdStop(book, account, order);
            return;
        }
        execute(book, account, order, EventEncoder.NO_CLIENT_ORDER_ID);
    }

    /**
     * What continuous trading checks before an order trades: post-only must not cross; fill-or-kill must fill
     * whole; an order with a minimum quantity that would trade must trade at least that (an IOC, FOK or market
     * order must). Self-trade prevention and the dynamic band count as for matching ({@link
     * Matcher#executableQuantity}).
     */
    private static RejectReason checkImmediate(final OrderBook book, final Order order, final long minQuantity)
    {
        final boolean buy = order.isBuy();
        if (order.postOnly() && book.wouldCross(buy, order.price()))
        {
            return RejectReason.POST_ONLY_WOULD_CROSS;
        }
        final long edge = book.dynamicBandEdge(buy);
        final long limit = buy ? Math.min(order.price(), edge) : Math.max(order.price(), edge);
        if (order.timeInForce() == Order.TIF_FOK &&
            Matcher.executableQuantity(book, order, limit, order.quantity()) < order.quantity())
        {
            return RejectReason.FOK_NOT_FILLABLE;
        }
        if (minQuantity != 0)
        {
            final long executable = Matcher.executableQuantity(book, order, limit, minQuantity);
            final boolean mustTrade = order.isMarketLike() || order.timeInForce() == Order.TIF_IOC ||
                order.timeInForce() == Order.TIF_FOK;
            if (executable < minQuantity && (executable > 0 || mustTrade))
            {
                return RejectReason.MIN_QUANTITY_NOT_MET;
            }
        }
        return RejectReason.NONE;
    }

    /**
     * Let an order that is in no book take its course in its book's current phase. Continuous trading: match, then
     * rest, cancel or release what is left; when the dynamic band stops the match, interrupt continuous trading first
     * (what traded stays; an IOC, FOK or market remainder is canceled, any other rests in the volatility auction). A
     * call phase: no matching; a market order (or triggered stop) waits in the uncrossing's queue, any other rests
     * (an IOC until the uncrossing, which cancels what is left of it).
     *
     * @param book              its book.
     * @param account           its account.
     * @param order             the order, accepted and indexed.
     * @param origClientOrderId id to report as original on a cancel of the remainder.
     */
    void execute(final OrderBook book, final Account account, final Order order, final byte[] origClientOrderId)
    {
        final boolean market = order.isMarketLike();
        if (book.instrument().inCallPhase())
        {
            if (market)
            {
                lifecycle.queueMarket(book, account, order);
            }
            else
            {
                lifecycle.rest(book, account, order);
            }
            return;
        }

        final long filledBefore = order.filledQuantity();
        final int outcome = Matcher.match(book, order, order.price(), book.dynamicBandEdge(order.isBuy()),
            lifecycle);
        if (outcome == Matcher.TAKER_SELF_TRADE_CANCELED)
        {
            lifecycle.end(book, order, ExecType.CANCELED, CancelReason.SELF_TRADE_PREVENTION, RejectReason.NONE,
                order.clientOrderId(), origClientOrderId);
            return;
        }
        if (outcome == Matcher.STOPPED)
        {
            // a quote's order whose fill breached its account's market-maker protection: the rest is cancelled
            lifecycle.end(book, order, ExecType.CANCELED, CancelReason.MARKET_MAKER_PROTECTION, RejectReason.NONE,
                order.clientOrderId(), origClientOrderId);
            return;
        }
        if (order.leavesQuantity() == 0)
        {
            lifecycle.track(book, account, order);
            lifecycle.release(account, order);
            return;
        }
        if (outcome == Matcher.INTERRUPTED)
        {
            phases.interrupt(book);
        }
        if (market)
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

    /**
     * Enter the stops that trades have triggered, oldest trigger first, until none is left (their own trades may
     * trigger more). Each is checked again as at entry (kill switches, the instrument's status, the account's risk
     * with its own exposure taken out): one that fails is canceled (CancelReason TRIGGER_REJECTED, the reject reason
     * says why); the others are reported TRIGGERED and executed as a market (stop) or limit (stop-limit) order would
     * be in the book's phase at that moment.
     */
    public void enterTriggeredStops()
    {
        Order order;
        while ((order = state.triggered.poll()) != null)
        {
            final OrderBook book = state.book(order.instrumentId());
            final Account account = state.account(order.accountId());
            final RejectReason reason = checkTrigger(book, account, order);
            if (reason != RejectReason.NONE)
            {
                lifecycle.end(book, order, ExecType.CANCELED, CancelReason.TRIGGER_REJECTED, reason,
                    order.clientOrderId(), EventEncoder.NO_CLIENT_ORDER_ID);
                continue;
            }
            events.executionReport(order, book.instrument().priceScale(), order.orderId(), order.clientOrderId(),
                EventEncoder.NO_CLIENT_ORDER_ID, ExecType.TRIGGERED, OrderLifecycle.openStatus(order), 0, 0, 0,
                RejectReason.NONE, CancelReason.NONE, false);
            execute(book, account, order, EventEncoder.NO_CLIENT_ORDER_ID);
        }
    }

    private RejectReason checkTrigger(final OrderBook book, final Account account, final Order order)
    {
        if (state.venueKilled)
        {
            return RejectReason.VENUE_KILLED;
        }
        if (account.killed())
        {
            return RejectReason.ACCOUNT_KILLED;
        }
        final RejectReason status = OrderRules.checkStatus(book.instrument());
        if (status != RejectReason.NONE)
        {
            return status;
        }
        final int scale = book.instrument().priceScale();
        final long leaves = order.leavesQuantity();
        return RiskChecks.check(account, OrderLifecycle.position(book, account, order), order.isBuy(),
            order.quantity(), FixedPoint.notional(order.price(), order.quantity(), scale), leaves,
            order.isBuy() ? FixedPoint.notional(order.price(), leaves, scale) : 0, false,
            order.trackedLeaves(), order.trackedReserve());
    }
}
