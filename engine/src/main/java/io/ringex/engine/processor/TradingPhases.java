package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.engine.book.Uncrossing;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetDynamicBandDecoder;
import io.ringex.protocol.codecs.SetTradingStatusDecoder;

/**
 * Trading phases per instrument (OPEN, the call phases, HALTED, CLOSED): their changes by admin command, by a timed
 * phase's end on the ring's clock and by the dynamic band ({@link #interrupt}); the uncrossing, at the {@link
 * Uncrossing}'s price; and the auction indicatives. The rules are docs/matching.md's ("Trading phases and auctions").
 * <p>
 * Every change is published as the instrument's InstrumentDefinition.
 * <p>
 * Threading: single business-logic thread.
 */
public final class TradingPhases
{
    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;
    private final MassCancels massCancels;
    private final Uncrossing uncrossing = new Uncrossing();
    private final AuditFields audit = new AuditFields();

    /**
     * @param state       engine state.
     * @param events      event encoder.
     * @param lifecycle   order lifecycle.
     * @param massCancels bulk cancels (closing).
     */
    public TradingPhases(
        final EngineState state, final EventEncoder events, final OrderLifecycle lifecycle,
        final MassCancels massCancels)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
        this.massCancels = massCancels;
    }

    /**
     * SetTradingStatus: UNKNOWN_INSTRUMENT, INSTRUMENT_DELISTED (a delisted instrument is not relisted), or
     * INVALID_ARGUMENT for a status outside 1-7 (DELISTED is DelistInstrument's), a negative duration or a duration
     * for a phase that is not a call phase; else the change, the AdminResponse and the definition.
     *
     * @param decoder wrapped on the command.
     * @return whether the status was set, so the trading day lets go of the instrument until its next close.
     */
    public boolean onSetTradingStatus(final SetTradingStatusDecoder decoder)
    {
        final OrderBook book = state.book(decoder.instrumentId());
        final short status = decoder.statusRaw();
        final long durationNs = decoder.actingVersion() >= 2 ? decoder.phaseDurationNs() : 0;
        RejectReason reason = RejectReason.NONE;
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else if (book == null)
        {
            reason = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (book.instrument().status() == Instrument.STATUS_DELISTED)
        {
            reason = RejectReason.INSTRUMENT_DELISTED;
        }
        else if (status < Instrument.STATUS_OPEN || status > Instrument.STATUS_VOLATILITY_AUCTION || durationNs < 0 ||
            (durationNs > 0 && !Instrument.isCallPhase((byte)status)))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        if (reason != RejectReason.NONE)
        {
            events.adminResponse(decoder.requestId(), SetTradingStatusDecoder.TEMPLATE_ID, reason);
            return false;
        }
        transition(book, (byte)status, durationNs);
        events.adminResponse(decoder.requestId(), SetTradingStatusDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.instrumentDefinition(book.instrument());
        return true;
    }

    /**
     * The trading day moves an instrument to a phase (pre-open, open with its uncrossing, held at the close).
     *
     * @param book the instrument's book.
     * @param to   the phase.
     */
    void scheduled(final OrderBook book, final byte to)
    {
        transition(book, to, 0);
        events.instrumentDefinition(book.instrument());
    }

    /**
     * SetDynamicBand: UNKNOWN_INSTRUMENT, or INVALID_ARGUMENT for a band outside 0..{@link
     * Instrument#MAX_BAND_BASIS_POINTS}, a negative duration or a band without a positive duration.
     *
     * @param decoder wrapped on the command.
     */
    public void onSetDynamicBand(final SetDynamicBandDecoder decoder)
    {
        final OrderBook book = state.book(decoder.instrumentId());
        final int band = decoder.bandBasisPoints();
        final long durationNs = decoder.auctionDurationNs();
        RejectReason reason = RejectReason.NONE;
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else if (book == null)
        {
            reason = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (band < 0 || band > Instrument.MAX_BAND_BASIS_POINTS || durationNs < 0 || (band > 0 && durationNs == 0))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else
        {
            book.dynamicBand(band, durationNs);
        }
        events.adminResponse(decoder.requestId(), SetDynamicBandDecoder.TEMPLATE_ID, reason);
    }

    /**
     * The dynamic band stopped a match: continuous trading becomes a volatility auction for the book's configured
     * length.
     *
     * @param book a book in continuous trading.
     */
    void interrupt(final OrderBook book)
    {
        transition(book, Instrument.STATUS_VOLATILITY_AUCTION, book.volatilityAuctionNs());
        events.instrumentDefinition(book.instrument());
    }

    /**
     * End the timed phase due first (the first book in creation order among equal ends): CLOSING_AUCTION into
     * CLOSED, any other call phase into OPEN, each uncrossing.
     */
    void onPhaseEnd()
    {
        final long due = state.nextPhaseEndNs;
        for (int i = 0, n = state.bookCount(); i < n; i++)
        {
            final OrderBook book = state.bookAt(i);
            if (book.phaseEndNs() == due)
            {
                final byte next = book.instrument().status() == Instrument.STATUS_CLOSING_AUCTION ?
                    Instrument.STATUS_CLOSED : Instrument.STATUS_OPEN;
                transition(book, next, 0);
                events.instrumentDefinition(book.instrument());
                return;
            }
        }
        state.recomputePhases();
    }

    /**
     * For every book touched by the command that is in a call phase, publish its AuctionIndicative if it changed.
     */
    void publishIndicatives()
    {
        for (int i = 0, n = events.touchedCount(); i < n; i++)
        {
            final OrderBook book = events.touchedBook(i);
            final Instrument instrument = book.instrument();
            if (!instrument.inCallPhase())
            {
                continue;
            }
            final boolean crosses = uncrossing.compute(book);
            final long price = crosses ? uncrossing.price() : 0;
            final long matched = crosses ? uncrossing.matched() : 0;
            final long imbalance = crosses ? uncrossing.imbalance() : 0;
            final long endNs = book.phaseEndNs() == Long.MAX_VALUE ? 0 : book.phaseEndNs();
            if (book.publishedIndicative().take(instrument.status(), price, matched, imbalance, endNs))
            {
                events.auctionIndicative(book, price, matched, imbalance, endNs);
            }
        }
    }

    private void transition(final OrderBook book, final byte to, final long durationNs)
    {
        final Instrument instrument = book.instrument();
        final byte from = instrument.status();
        if (from != to && (to == Instrument.STATUS_OPEN ||
            (from == Instrument.STATUS_CLOSING_AUCTION && to == Instrument.STATUS_CLOSED)))
        {
            uncross(book);
            lifecycle.afterUncrossing();
        }
        instrument.status(to);
        final long now = events.timestampNs();
        book.phaseEndNs(Instrument.isCallPhase(to) && durationNs > 0 ?
            (now > Long.MAX_VALUE - 1 - durationNs ? Long.MAX_VALUE - 1 : now + durationNs) : Long.MAX_VALUE);
        state.recomputePhases();
        if (to == Instrument.STATUS_OPEN && from != Instrument.STATUS_OPEN)
        {
            cancelLeftovers(book);
        }
        if (to == Instrument.STATUS_CLOSED)
        {
            massCancels.cancelVenue(instrument.instrumentId(), MassCancels.ANY_SESSION, false, ExecType.CANCELED,
                CancelReason.INSTRUMENT_HALTED, null);
        }
        if (Instrument.isCallPhase(to))
        {
            events.touch(book);
        }
        else
        {
            book.publishedIndicative().clear();
        }
    }

    private void uncross(final OrderBook book)
    {
        if (!uncrossing.compute(book))
        {
            return;
        }
        final long price = uncrossing.price();
        final int scale = book.instrument().priceScale();
        long remaining = uncrossing.matched();
        while (remaining > 0)
        {
            final Order buy = nextEligible(book, true, price);
            final Order sell = nextEligible(book, false, price);
            if (buy == null || sell == null)
            {
                throw new IllegalStateException("uncrossing found less than its volume at " + price);
            }
            final long quantity = Math.min(remaining, Math.min(buy.leavesQuantity(), sell.leavesQuantity()));
            final long notional = FixedPoint.notional(price, quantity, scale);
            fill(book, buy, quantity, notional);
            fill(book, sell, quantity, notional);
            book.lastTradePrice(price);
            lifecycle.onAuctionTrade(book, buy, sell, price, quantity, notional);
            remaining -= quantity;
        }
        refreshPartlyFilled(book, true);
        refreshPartlyFilled(book, false);
    }

    private static Order nextEligible(final OrderBook book, final boolean buy, final long price)
    {
        final Order market = book.marketQueue(buy).first();
        if (market != null)
        {
            return market;
        }
        final PriceLevels levels = book.levels();
        final int index = buy ? levels.bestBid() : levels.bestAsk();
        if (index == PriceLevels.NONE)
        {
            return null;
        }
        final long levelPrice = levels.price(index);
        return (buy ? levelPrice < price : levelPrice > price) ? null : levels.head(index, buy);
    }

    private static void fill(final OrderBook book, final Order order, final long quantity, final long notional)
    {
        if (order.location() == Order.AT_AUCTION_MARKET)
        {
            book.fillMarket(order, quantity, notional);
        }
        else
        {
            book.fillResting(order, quantity, notional);
        }
    }

    private void refreshPartlyFilled(final OrderBook book, final boolean buy)
    {
        final PriceLevels levels = book.levels();
        final int index = buy ? levels.bestBid() : levels.bestAsk();
        if (index == PriceLevels.NONE)
        {
            return;
        }
        final Order head = levels.head(index, buy);
        if (OrderBook.needsRefresh(head))
        {
            book.refreshPeak(head);
            // it left its place at the uncrossing trade (OrderLifecycle): the new peak joins the back
            events.levelUpdate(book, buy, index, head.orderId(), OrderAction.ADD, head.visibleQuantity());
        }
    }

    /**
     * Cancel what a call phase leaves when continuous trading starts: queued market orders and resting IOC orders
     * (which wait only for an uncrossing).
     */
    private void cancelLeftovers(final OrderBook book)
    {
        for (int side = 0; side < 2; side++)
        {
            final boolean buy = side == 0;
            Order market;
            while ((market = book.marketQueue(buy).first()) != null)
            {
                cancelLeftover(book, market);
            }
            final PriceLevels levels = book.levels();
            int index = buy ? levels.bestBid() : levels.bestAsk();
            while (index != PriceLevels.NONE)
            {
                Order order = levels.head(index, buy);
                while (order != null)
                {
                    final Order next = PriceLevels.next(order);
                    if (order.timeInForce() == Order.TIF_IOC)
                    {
                        cancelLeftover(book, order);
                    }
                    order = next;
                }
                index = buy ? levels.nextBidBelow(index) : levels.nextAskAbove(index);
            }
        }
    }

    private void cancelLeftover(final OrderBook book, final Order order)
    {
        lifecycle.cancelResting(book, order, ExecType.CANCELED, CancelReason.IOC_REMAINDER, order.clientOrderId(),
            EventEncoder.NO_CLIENT_ORDER_ID);
    }
}
