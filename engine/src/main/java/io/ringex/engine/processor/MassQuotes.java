package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.Quote;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.RiskChecks;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.QuoteStatus;
import io.ringex.protocol.codecs.RejectReason;

/**
 * Mass quotes and quote cancels: a MassQuote sets an account's quote (a bid and an offer that are orders of the book,
 * one pair per account and instrument; {@link Quotes}) in up to {@value #MAX_ENTRIES} instruments, entry by entry.
 * <p>
 * Each entry is checked whole before anything changes and applied as one step: a refused entry leaves the previous
 * quote as it was. The checks, time priority and event order are docs/matching.md's ("Mass quotes", "Quote cancel").
 * <p>
 * Threading: single business-logic thread.
 */
final class MassQuotes
{
    /** Most entries in one MassQuote. */
    static final int MAX_ENTRIES = MessageCatalog.MAX_QUOTE_ENTRIES;

    private static final int NONE = 0;
    private static final int KEEP = 1;
    private static final int REDUCE = 2;
    private static final int PULL = 3;
    private static final int ENTER = 4;
    private static final int REENTER = 5;

    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;
    private final OrderEntry entry;
    private final MarketMakerProtection protection;
    private final byte[] quoteId = new byte[Order.CLIENT_ORDER_ID_LENGTH];
    private final long[] entryIds = new long[MAX_ENTRIES];
    private final int[] setIds = new int[MAX_ENTRIES];
    private final int[] instrumentIds = new int[MAX_ENTRIES];
    private final RejectReason[] reasons = new RejectReason[MAX_ENTRIES];
    private final long[] bidOrderIds = new long[MAX_ENTRIES];
    private final long[] offerOrderIds = new long[MAX_ENTRIES];

    MassQuotes(
        final EngineState state,
        final EventEncoder events,
        final OrderLifecycle lifecycle,
        final OrderEntry entry,
        final MarketMakerProtection protection)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
        this.entry = entry;
        this.protection = protection;
    }

    /**
     * Handle a MassQuote: the message's checks (MALFORMED for an unknown self-trade prevention value, VENUE_KILLED,
     * UNKNOWN_ACCOUNT, ACCOUNT_KILLED, ACCOUNT_SUSPENDED, TOO_MANY_QUOTE_ENTRIES), then each entry in order, then the
     * MassQuoteAck.
     *
     * @param decoder wrapped on the command.
     */
    void onMassQuote(final MassQuoteDecoder decoder)
    {
        final long sessionId = decoder.sessionId();
        final long accountId = decoder.accountId();
        decoder.getQuoteId(quoteId, 0);
        final short stpRaw = decoder.selfTradePreventionRaw();
        final MassQuoteDecoder.EntriesDecoder entries = decoder.entries();
        final int count = entries.count();
        final Account account = state.account(accountId);

        RejectReason refusal = RejectReason.NONE;
        if (stpRaw > Order.STP_DECREMENT_AND_CANCEL)
        {
            refusal = RejectReason.MALFORMED;
        }
        else if (state.venueKilled)
        {
            refusal = RejectReason.VENUE_KILLED;
        }
        else if (null == account)
        {
            refusal = RejectReason.UNKNOWN_ACCOUNT;
        }
        else if (account.killed())
        {
            refusal = RejectReason.ACCOUNT_KILLED;
        }
        else if (account.status() != Account.STATUS_ACTIVE)
        {
            refusal = RejectReason.ACCOUNT_SUSPENDED;
        }
        else if (count < 1 || count > MAX_ENTRIES)
        {
            refusal = RejectReason.TOO_MANY_QUOTE_ENTRIES;
        }
        if (refusal != RejectReason.NONE)
        {
            // the group must be read past for the decoder's sake; nothing of it is used
            while (entries.hasNext())
            {
                entries.next();
            }
            events.massQuoteAck(sessionId, accountId, quoteId, QuoteStatus.REJECTED, refusal, 0, entryIds, setIds,
                instrumentIds, reasons, bidOrderIds, offerOrderIds);
            return;
        }

        final byte stp = stpRaw == 0 ? account.defaultSelfTradePrevention() : (byte)stpRaw;
        int accepted = 0;
        int i = 0;
        while (entries.hasNext())
        {
            entries.next();
            entryIds[i] = entries.quoteEntryId();
            setIds[i] = entries.quoteSetId();
            instrumentIds[i] = entries.instrumentId();
            final RejectReason reason = apply(account, sessionId, stp, setIds[i], instrumentIds[i],
                entries.bidPrice(), entries.bidSize(), entries.offerPrice(), entries.offerSize());
            reasons[i] = reason;
            final Quote quote = state.quotes.find(accountId, instrumentIds[i]);
            bidOrderIds[i] = orderIdOf(quote, true);
            offerOrderIds[i] = orderIdOf(quote, false);
            accepted += reason == RejectReason.NONE ? 1 : 0;
            i++;
        }
        events.massQuoteAck(sessionId, accountId, quoteId,
            accepted == count ? QuoteStatus.ACCEPTED : accepted == 0 ? QuoteStatus.REJECTED :
            QuoteStatus.PARTIALLY_ACCEPTED, RejectReason.NONE, count, entryIds, setIds, instrumentIds, reasons,
            bidOrderIds, offerOrderIds);
    }

    private static long orderIdOf(final Quote quote, final boolean buy)
    {
        final Order side = null == quote ? null : quote.side(buy);
        return null == side ? 0 : side.orderId();
    }

    private RejectReason apply(
        final Account account,
        final long sessionId,
        final byte stp,
        final int setId,
        final int instrumentId,
        final long bidPrice,
        final long bidSize,
        final long offerPrice,
        final long offerSize)
    {
        final OrderBook book = state.book(instrumentId);
        if (null == book)
        {
            return RejectReason.UNKNOWN_INSTRUMENT;
        }
        final Instrument instrument = book.instrument();
        RejectReason reason = OrderRules.checkStatus(instrument);
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (setId == 0)
        {
            return RejectReason.MALFORMED;
        }
        final long accountId = account.accountId();
        if (protection.isFrozen(accountId, instrumentId))
        {
            return RejectReason.QUOTE_FROZEN;
        }
        reason = checkSide(instrument, bidPrice, bidSize);
        if (reason == RejectReason.NONE)
        {
            reason = checkSide(instrument, offerPrice, offerSize);
        }
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        if (bidSize > 0 && offerSize > 0 && bidPrice >= offerPrice)
        {
            return RejectReason.QUOTE_CROSSED;
        }
        final Quote existing = state.quotes.find(accountId, instrumentId);
        final Order bid = null == existing ? null : existing.side(true);
        final Order offer = null == existing ? null : existing.side(false);
        reason = checkRisk(book, account, bid, true, bidPrice, bidSize);
        if (reason == RejectReason.NONE && null == bid && bidSize > 0 && null == offer && offerSize > 0 &&
            account.openOrders() + 1 >= account.maxOpenOrders())
        {
            // two new orders: the offer is checked as if the bid were already open
            reason = RejectReason.TOO_MANY_OPEN_ORDERS;
        }
        if (reason == RejectReason.NONE)
        {
            reason = checkRisk(book, account, offer, false, offerPrice, offerSize);
        }
        if (reason != RejectReason.NONE)
        {
            return reason;
        }

        final Quote quote = null == existing ? state.quotes.obtain(accountId, instrumentId) : existing;
        final int bidAction = action(bid, bidPrice, bidSize);
        final int offerAction = action(offer, offerPrice, offerSize);
        leave(book, account, bid, bidAction, bidSize, sessionId, setId);
        leave(book, account, offer, offerAction, offerSize, sessionId, setId);
        enter(book, account, quote, bid, bidAction, true, bidPrice, bidSize, sessionId, setId, stp);
        if (!protection.isFrozen(accountId, instrumentId))
        {
            // a breach while the bid traded cancelled the quote, the offer taken out included: it stays out
            enter(book, account, quote, offer, offerAction, false, offerPrice, offerSize, sessionId, setId, stp);
        }
        return RejectReason.NONE;
    }

    private static RejectReason checkSide(final Instrument instrument, final long price, final long size)
    {
        if (size == 0)
        {
            return RejectReason.NONE;
        }
        return OrderRules.checkPriceAndQuantity(instrument, false, price, size);
    }

    private static RejectReason checkRisk(
        final OrderBook book, final Account account, final Order side, final boolean buy, final long price,
        final long size)
    {
        if (size == 0 || (null != side && side.price() == price && side.leavesQuantity() == size))
        {
            return RejectReason.NONE;
        }
        final int scale = book.instrument().priceScale();
        final long notional = FixedPoint.notional(price, size, scale);
        return RiskChecks.check(account, null == side ? account.position(book.instrument().instrumentId()) :
            OrderLifecycle.position(book, account, side), buy, size, notional, size, buy ? notional : 0,
            null == side, null == side ? 0 : side.trackedLeaves(), null == side ? 0 : side.trackedReserve());
    }

    private static int action(final Order side, final long price, final long size)
    {
        if (null == side)
        {
            return size == 0 ? NONE : ENTER;
        }
        if (size == 0)
        {
            return PULL;
        }
        if (side.price() != price || size > side.leavesQuantity())
        {
            return REENTER;
        }
        return size == side.leavesQuantity() ? KEEP : REDUCE;
    }

    /** What a side does before any side enters: pulled, reduced in place, or taken out to enter again. */
    private void leave(
        final OrderBook book,
        final Account account,
        final Order side,
        final int action,
        final long size,
        final long sessionId,
        final int setId)
    {
        if (null == side)
        {
            return;
        }
        switch (action)
        {
            case PULL:
                lifecycle.withdraw(book, side);
                return;
            case REDUCE:
                book.reduceQuantity(side, side.filledQuantity() + size);
                lifecycle.track(book, account, side);
                events.levelUpdate(book, side.isBuy(), book.levels().index(side.price()), side.orderId(),
                    OrderAction.MODIFY, side.visibleQuantity());
                break;
            case REENTER:
                lifecycle.takeOut(book, side);
                break;
            default:
                break;
        }
        side.sessionId(sessionId);
        side.quoteSetId(setId);
        System.arraycopy(quoteId, 0, side.clientOrderId(), 0, Order.CLIENT_ORDER_ID_LENGTH);
    }

    private void enter(
        final OrderBook book,
        final Account account,
        final Quote quote,
        final Order side,
        final int action,
        final boolean buy,
        final long price,
        final long size,
        final long sessionId,
        final int setId,
        final byte stp)
    {
        if (action == REENTER)
        {
            side.price(price);
            side.quantity(side.filledQuantity() + size);
            entry.execute(book, account, side, EventEncoder.NO_CLIENT_ORDER_ID);
        }
        else if (action == ENTER)
        {
            final Order order = state.pool.acquire();
            order.init(++state.lastOrderId, account.accountId(), sessionId, book.instrument().instrumentId(), buy,
                Order.TYPE_LIMIT, Order.TIF_GTC, false, stp, price, size);
            order.quoteSetId(setId);
            System.arraycopy(quoteId, 0, order.clientOrderId(), 0, Order.CLIENT_ORDER_ID_LENGTH);
            lifecycle.acceptQuote(book, account, order);
            quote.attach(order);
            entry.execute(book, account, order, EventEncoder.NO_CLIENT_ORDER_ID);
        }
    }

    /**
     * Handle a QuoteCancel: withdraw the account's quote orders in the scope (no execution reports: the
     * QuoteCancelReport says how many), answering UNKNOWN_ACCOUNT or MALFORMED (an unknown scope) with nothing done.
     *
     * @param decoder wrapped on the command.
     */
    void onQuoteCancel(final QuoteCancelDecoder decoder)
    {
        final long sessionId = decoder.sessionId();
        final long accountId = decoder.accountId();
        decoder.getQuoteId(quoteId, 0);
        final short scope = decoder.scopeRaw();
        final int instrumentId = decoder.instrumentId();
        final int setId = decoder.quoteSetId();
        final Account account = state.account(accountId);
        if (null == account || scope < QuoteCancelScope.INSTRUMENT.value() || scope > QuoteCancelScope.ALL.value())
        {
            events.quoteCancelReport(sessionId, accountId, quoteId, scope, instrumentId, setId,
                null == account ? RejectReason.UNKNOWN_ACCOUNT : RejectReason.MALFORMED, 0);
            return;
        }
        int canceled = 0;
        Order order = account.firstOpenOrder();
        while (null != order)
        {
            final Order next = order.accountNext;
            if (order.isQuote() && (scope == QuoteCancelScope.ALL.value() ||
                (scope == QuoteCancelScope.INSTRUMENT.value() && order.instrumentId() == instrumentId) ||
                (scope == QuoteCancelScope.QUOTE_SET.value() && order.quoteSetId() == setId)))
            {
                lifecycle.withdraw(state.book(order.instrumentId()), order);
                canceled++;
            }
            order = next;
        }
        events.quoteCancelReport(sessionId, accountId, quoteId, scope, instrumentId, setId, RejectReason.NONE,
            canceled);
    }
}
