package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;

/**
 * Everything the ring's clock ends, in time order: GTD orders reaching their expire time ({@link Expiries}) and
 * timed phases reaching their end ({@link TradingPhases#onPhaseEnd}). One {@link Clocked} for both, so that when
 * several are due before one command they act in the order of their times, as they would have with a Tick at each:
 * an order that expires after an auction's end takes part in its uncrossing, one that expires before does not. At
 * equal times an expiry comes first (an order good till t is no longer good at t); expiries at equal times go in
 * order id order, phase ends in book creation order. After each, the stops its trades triggered enter.
 * <p>
 * Everything happens at the command's time: a volatility auction a due expiry's trades start ends the auction's
 * length after the command's timestamp.
 * <p>
 * Threading: single business-logic thread.
 */
final class Deadlines implements Clocked
{
    private final EngineState state;
    private final OrderLifecycle lifecycle;
    private final TradingPhases phases;
    private final OrderEntry entry;

    Deadlines(
        final EngineState state, final OrderLifecycle lifecycle, final TradingPhases phases, final OrderEntry entry)
    {
        this.state = state;
        this.lifecycle = lifecycle;
        this.phases = phases;
        this.entry = entry;
    }

    /** {@inheritDoc} */
    public long nextDeadlineNs()
    {
        return Math.min(state.expiries.nextExpiryNs(), state.nextPhaseEndNs);
    }

    /** {@inheritDoc} */
    public void onTime(final long nowNs)
    {
        while (true)
        {
            final long expiry = state.expiries.nextExpiryNs();
            final long phaseEnd = state.nextPhaseEndNs;
            if (Math.min(expiry, phaseEnd) > nowNs)
            {
                return;
            }
            if (expiry <= phaseEnd)
            {
                final Order order = state.expiries.first();
                lifecycle.cancelResting(state.book(order.instrumentId()), order, ExecType.EXPIRED,
                    CancelReason.EXPIRE_TIME, order.clientOrderId(), EventEncoder.NO_CLIENT_ORDER_ID);
            }
            else
            {
                phases.onPhaseEnd();
            }
            entry.enterTriggeredStops();
        }
    }
}
