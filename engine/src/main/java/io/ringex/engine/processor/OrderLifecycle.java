package io.ringex.engine.processor;

import io.ringex.engine.book.MatchHandler;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;

/**
 * The steps every order goes through, each keeping book, open-order index, account exposure and events in step: accept,
 * rest or wait, trade (as {@link MatchHandler}, or at an uncrossing), cancel or expire, and release to the pool. An
 * order's exposure is counted wherever it waits. Event order for a trade is docs/matching.md's ("Event order"); a
 * quote's fill then counts towards its account's {@link MarketMakerProtection}.
 * <p>
 * Threading: single business-logic thread.
 */
public final class OrderLifecycle implements MatchHandler
{
    private final EngineState state;
    private final EventEncoder events;
    private final RiskUpdates riskUpdates;
    private MarketMakerProtection protection;

    /**
     * @param state       engine state.
     * @param events      event encoder.
     * @param riskUpdates risk update queue.
     */
    public OrderLifecycle(final EngineState state, final EventEncoder events, final RiskUpdates riskUpdates)
    {
        this.state = state;
        this.events = events;
        this.riskUpdates = riskUpdates;
    }

    /**
     * @param protection told of every fill of a quote's order (set once, while the processor is built).
     */
    void protection(final MarketMakerProtection protection)
    {
        this.protection = protection;
    }

    /**
     * Index a newly accepted order and tell its owner (ExecutionReport NEW).
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the order, with its id assigned.
     */
    public void accept(final OrderBook book, final Account account, final Order order)
    {
        state.orders.add(order);
        account.linkOrder(order);
        order.exposure = account.positionFor(order.instrumentId(), book.instrument().priceScale(), book.markIndex());
        events.executionReport(order, book.instrument().priceScale(), order.orderId(), order.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID, ExecType.NEW, OrderStatus.NEW, 0, 0, 0, RejectReason.NONE,
            CancelReason.NONE, false);
    }

    /**
     * Index a new quote order without a report: the mass quote's acknowledgement tells its owner.
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the order, with its id and quote set id assigned.
     */
    void acceptQuote(final OrderBook book, final Account account, final Order order)
    {
        state.orders.add(order);
        account.linkOrder(order);
        order.exposure = account.positionFor(order.instrumentId(), book.instrument().priceScale(), book.markIndex());
    }

    /**
     * Take a quote order out of the book and end it without a report (a mass quote pulled or replaced it, or a quote
     * cancel asked for it: their answers tell the owner); the level's change is published.
     *
     * @param book  its book.
     * @param order an open quote order.
     */
    void withdraw(final OrderBook book, final Order order)
    {
        takeOut(book, order);
        final Account account = state.account(order.accountId());
        order.location(Order.AT_NONE);
        track(book, account, order);
        release(account, order);
    }

    /**
     * Put an accepted order with leaves into the book and count its exposure.
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the order, not in the book.
     */
    public void rest(final OrderBook book, final Account account, final Order order)
    {
        book.rest(order);
        track(book, account, order);
        events.levelUpdate(book, order.isBuy(), book.levels().index(order.price()), order.orderId(), OrderAction.ADD,
            order.visibleQuantity());
    }

    /**
     * Queue an accepted market order for a call phase's uncrossing and count its exposure.
     *
     * @param book    its book, in a call phase.
     * @param account its account.
     * @param order   the order, not in the book.
     */
    public void queueMarket(final OrderBook book, final Account account, final Order order)
    {
        book.queueMarket(order);
        track(book, account, order);
        events.touch(book);
    }

    /**
     * Hold an accepted stop until a trade reaches its stop price, and count its exposure.
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the stop, not in the book.
     */
    public void holdStop(final OrderBook book, final Account account, final Order order)
    {
        book.addStop(order);
        track(book, account, order);
    }

    /**
     * Bring the account's view of an order's exposure up to date with its leaves and price.
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the order.
     */
    public void track(final OrderBook book, final Account account, final Order order)
    {
        final long leaves = order.location() != Order.AT_NONE ? order.leavesQuantity() : 0;
        final long reserve = order.isBuy() && leaves > 0 ?
            FixedPoint.notional(order.price(), leaves, book.instrument().priceScale()) : 0;
        final Position position = position(book, account, order);
        Settlement.trackOrder(account, position, order, leaves, reserve);
        riskUpdates.touch(account);
    }

    /**
     * Take an order out of wherever it waits (the book, the pending stops, the uncrossing's market queue, the
     * triggered stops) and end it, reporting why.
     *
     * @param book          its book.
     * @param order         an open order.
     * @param execType      CANCELED or EXPIRED.
     * @param cancelReason  why.
     * @param clientOrderId id to report as the request's (the order's own for unsolicited cancels).
     * @param origClientOrderId id to report as the original (zeros for unsolicited cancels).
     */
    public void cancelResting(
        final OrderBook book,
        final Order order,
        final ExecType execType,
        final CancelReason cancelReason,
        final byte[] clientOrderId,
        final byte[] origClientOrderId)
    {
        takeOut(book, order);
        end(book, order, execType, cancelReason, RejectReason.NONE, clientOrderId, origClientOrderId);
    }

    /**
     * Take an open order out of wherever it waits, writing the level's new total if it rested in the book. Its
     * exposure is still counted: the caller ends it or enters it again.
     *
     * @param book  its book.
     * @param order an open order.
     */
    public void takeOut(final OrderBook book, final Order order)
    {
        if (order.location() == Order.AT_BOOK)
        {
            final int index = book.levels().index(order.price());
            book.remove(order);
            events.levelUpdate(book, order.isBuy(), index, order.orderId(), OrderAction.DELETE, 0L);
        }
        else
        {
            takeOutOfWaiting(book, order);
        }
    }

    /** The rarer places an order waits in, apart so the common case stays small enough to inline. */
    private void takeOutOfWaiting(final OrderBook book, final Order order)
    {
        switch (order.location())
        {
            case Order.AT_STOPS:
                book.removeStop(order);
                break;
            case Order.AT_AUCTION_MARKET:
                book.unqueueMarket(order);
                events.touch(book);
                break;
            case Order.AT_TRIGGERED:
                state.triggered.remove(order);
                break;
            default:
                break;
        }
    }

    /**
     * End an order that is not in the book (an incoming remainder, or a maker already taken out): untrack, report,
     * unindex and release it.
     *
     * @param book              its book.
     * @param order             the order.
     * @param execType          CANCELED or EXPIRED.
     * @param cancelReason      why.
     * @param rejectReason      extra detail (e.g. NO_LIQUIDITY) or NONE.
     * @param clientOrderId     id to report as the request's.
     * @param origClientOrderId id to report as the original.
     */
    public void end(
        final OrderBook book,
        final Order order,
        final ExecType execType,
        final CancelReason cancelReason,
        final RejectReason rejectReason,
        final byte[] clientOrderId,
        final byte[] origClientOrderId)
    {
        final Account account = state.account(order.accountId());
        track(book, account, order);
        events.executionReport(order, book.instrument().priceScale(), order.orderId(), clientOrderId,
            origClientOrderId, execType, execType == ExecType.EXPIRED ? OrderStatus.EXPIRED : OrderStatus.CANCELED,
            0, 0, 0, rejectReason, cancelReason, true);
        release(account, order);
    }

    /**
     * Unindex and release an order whose last event has been written.
     *
     * @param account its account.
     * @param order   the order, out of the book and untracked.
     */
    public void release(final Account account, final Order order)
    {
        if (order.expiryIndex() >= 0)
        {
            state.expiries.remove(order);
        }
        if (null != order.quote())
        {
            order.quote().detach(order);
        }
        account.unlinkOrder(order);
        state.orders.remove(order);
        state.pool.release(order);
    }

    /** {@inheritDoc} */
    public void onTrade(
        final OrderBook book,
        final Order taker,
        final Order maker,
        final long price,
        final long quantity,
        final long notional)
    {
        final long tradeId = ++state.lastTradeId;
        final int priceScale = book.instrument().priceScale();
        final boolean makerQuote = maker.isQuote();
        final long makerAccountId = maker.accountId();
        final long makerSessionId = maker.sessionId();
        final Account takerAccount = state.account(taker.accountId());
        final Account makerAccount = state.account(maker.accountId());
        final Account buyer = taker.isBuy() ? takerAccount : makerAccount;
        final Account seller = taker.isBuy() ? makerAccount : takerAccount;
        final Position takerPosition = position(book, takerAccount, taker);
        final Position makerPosition = position(book, makerAccount, maker);
        Settlement.settle(
            buyer, taker.isBuy() ? takerPosition : makerPosition,
            seller, taker.isBuy() ? makerPosition : takerPosition,
            quantity, notional);
        track(book, makerAccount, maker);
        riskUpdates.touch(takerAccount);

        events.executionReport(taker, priceScale, taker.orderId(), taker.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID, fillType(taker), fillStatus(taker), price, quantity, tradeId,
            RejectReason.NONE, CancelReason.NONE, false);
        events.executionReport(maker, priceScale, maker.orderId(), maker.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID, fillType(maker), fillStatus(maker), price, quantity, tradeId,
            RejectReason.NONE, CancelReason.NONE, false);
        events.trade(book, tradeId, price, quantity, taker.isBuy(),
            taker.isBuy() ? taker.orderId() : maker.orderId(),
            taker.isBuy() ? maker.orderId() : taker.orderId(),
            buyer.accountId(), seller.accountId(), false);
        makerChanged(book, maker, book.levels().index(price), OrderAction.EXECUTE);
        if (maker.leavesQuantity() == 0)
        {
            release(makerAccount, maker);
        }
        state.triggered.onTrade(book, price);
        if (makerQuote)
        {
            protection.onQuoteFill(makerAccountId, book.instrument().instrumentId(), makerSessionId, quantity,
                notional, taker, false);
        }
        if (taker.isQuote())
        {
            protection.onQuoteFill(taker.accountId(), book.instrument().instrumentId(), taker.sessionId(), quantity,
                notional, taker, false);
        }
    }

    /**
     * The order-by-order event of a resting order that traded (EXECUTE) or was reduced in place (MODIFY). An iceberg
     * whose peak was used up has refreshed at the back of its queue: that is sent as two events, the order leaving
     * its place (EXECUTE to 0 after a trade, DELETE after a reduction) and its new peak joining the back (ADD), so a
     * subscriber's queue keeps the engine's order. A matched or self-trade maker was the head of its level, so one now
     * at the tail of a level of two or more orders has moved there.
     */
    private void makerChanged(final OrderBook book, final Order maker, final int index, final OrderAction action)
    {
        final boolean buy = maker.isBuy();
        final PriceLevels levels = book.levels();
        final int orderCount = levels.orderCount(index, buy);
        if (maker.displayQuantity() != 0 && maker.leavesQuantity() > 0 && orderCount > 1 &&
            PriceLevels.next(maker) == null)
        {
            final long peak = maker.visibleQuantity();
            events.levelUpdate(book, buy, index, maker.orderId(),
                action == OrderAction.EXECUTE ? OrderAction.EXECUTE : OrderAction.DELETE, 0L,
                levels.quantity(index, buy) - peak, orderCount - 1);
            events.levelUpdate(book, buy, index, maker.orderId(), OrderAction.ADD, peak);
        }
        else
        {
            events.levelUpdate(book, buy, index, maker.orderId(), action, maker.visibleQuantity());
        }
    }

    /**
     * A trade of an uncrossing between two waiting orders, both already filled in the book (a filled one has left
     * it): settles, reports the buy then the sell, prints the Trade (marked auction; the aggressor is the side of
     * the later order), writes the levels' new totals and releases a filled order.
     *
     * @param book     the book.
     * @param buy      the buy order.
     * @param sell     the sell order.
     * @param price    the uncrossing price.
     * @param quantity trade quantity.
     * @param notional price x quantity at money scale.
     */
    public void onAuctionTrade(
        final OrderBook book,
        final Order buy,
        final Order sell,
        final long price,
        final long quantity,
        final long notional)
    {
        final long tradeId = ++state.lastTradeId;
        final int priceScale = book.instrument().priceScale();
        final Account buyer = state.account(buy.accountId());
        final Account seller = state.account(sell.accountId());
        if (buy.isQuote())
        {
            protection.onQuoteFill(buy.accountId(), buy.instrumentId(), buy.sessionId(), quantity, notional, null,
                true);
        }
        if (sell.isQuote())
        {
            protection.onQuoteFill(sell.accountId(), sell.instrumentId(), sell.sessionId(), quantity, notional, null,
                true);
        }
        settle(book, buyer, buy, seller, sell, quantity, notional);
        track(book, buyer, buy);
        track(book, seller, sell);
        events.executionReport(buy, priceScale, buy.orderId(), buy.clientOrderId(), EventEncoder.NO_CLIENT_ORDER_ID,
            fillType(buy), fillStatus(buy), price, quantity, tradeId, RejectReason.NONE, CancelReason.NONE, false);
        events.executionReport(sell, priceScale, sell.orderId(), sell.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID, fillType(sell), fillStatus(sell), price, quantity, tradeId,
            RejectReason.NONE, CancelReason.NONE, false);
        events.trade(book, tradeId, price, quantity, buy.orderId() > sell.orderId(), buy.orderId(), sell.orderId(),
            buyer.accountId(), seller.accountId(), true);
        final PriceLevels levels = book.levels();
        if (!buy.isMarketLike())
        {
            auctionExecuted(book, buy);
        }
        if (!sell.isMarketLike())
        {
            auctionExecuted(book, sell);
        }
        if (buy.leavesQuantity() == 0)
        {
            release(buyer, buy);
        }
        if (sell.leavesQuantity() == 0)
        {
            release(seller, sell);
        }
        state.triggered.onTrade(book, price);
    }

    /**
     * An uncrossing trade's order-by-order event. An iceberg whose peak it used up waits, peakless, for the refresh
     * after the uncrossing ({@code TradingPhases}), which puts its new peak at the back of the queue (ADD): it leaves
     * its place now (EXECUTE to 0, the level counted without it).
     */
    private void auctionExecuted(final OrderBook book, final Order order)
    {
        final boolean buy = order.isBuy();
        final PriceLevels levels = book.levels();
        final int index = levels.index(order.price());
        if (OrderBook.needsRefresh(order))
        {
            events.levelUpdate(book, buy, index, order.orderId(), OrderAction.EXECUTE, 0L,
                levels.quantity(index, buy), levels.orderCount(index, buy) - 1);
        }
        else
        {
            events.levelUpdate(book, buy, index, order.orderId(), OrderAction.EXECUTE, order.visibleQuantity());
        }
    }

    private static void settle(
        final OrderBook book,
        final Account buyer,
        final Order buy,
        final Account seller,
        final Order sell,
        final long quantity,
        final long notional)
    {
        Settlement.settle(buyer, position(book, buyer, buy), seller, position(book, seller, sell), quantity,
            notional);
    }

    /**
     * An uncrossing is done: market-maker protection acts on the breaches its fills reached.
     */
    void afterUncrossing()
    {
        protection.afterUncrossing();
    }

    /** {@inheritDoc} */
    public void onMakerSelfTradeCanceled(final OrderBook book, final Order maker)
    {
        events.levelUpdate(book, maker.isBuy(), book.levels().index(maker.price()), maker.orderId(),
            OrderAction.DELETE, 0L);
        end(book, maker, ExecType.CANCELED, CancelReason.SELF_TRADE_PREVENTION, RejectReason.NONE,
            maker.clientOrderId(), EventEncoder.NO_CLIENT_ORDER_ID);
    }

    /** {@inheritDoc} */
    public void onMakerSelfTradeDecremented(final OrderBook book, final Order maker, final long quantity)
    {
        final Account account = state.account(maker.accountId());
        track(book, account, maker);
        events.executionReport(maker, book.instrument().priceScale(), maker.orderId(), maker.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID, ExecType.REPLACED, openStatus(maker), 0, 0, 0, RejectReason.NONE,
            CancelReason.SELF_TRADE_PREVENTION, false);
        makerChanged(book, maker, book.levels().index(maker.price()), OrderAction.MODIFY);
    }

    /**
     * The position an accepted order's exposure is counted in: the one it was given at acceptance (or restore).
     *
     * @param book    its book.
     * @param account its account.
     * @param order   the order.
     * @return the position.
     */
    static Position position(final OrderBook book, final Account account, final Order order)
    {
        final Position position = (Position)order.exposure;
        return position != null ? position :
            account.positionFor(order.instrumentId(), book.instrument().priceScale(), book.markIndex());
    }

    /**
     * @param order an order.
     * @return FILL when nothing is left, else PARTIAL_FILL.
     */
    static ExecType fillType(final Order order)
    {
        return order.leavesQuantity() == 0 ? ExecType.FILL : ExecType.PARTIAL_FILL;
    }

    /**
     * @param order an order that just traded.
     * @return FILLED or PARTIALLY_FILLED.
     */
    static OrderStatus fillStatus(final Order order)
    {
        return order.leavesQuantity() == 0 ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
    }

    /**
     * @param order an open order.
     * @return NEW or PARTIALLY_FILLED.
     */
    static OrderStatus openStatus(final Order order)
    {
        return order.filledQuantity() > 0 ? OrderStatus.PARTIALLY_FILLED : OrderStatus.NEW;
    }
}
