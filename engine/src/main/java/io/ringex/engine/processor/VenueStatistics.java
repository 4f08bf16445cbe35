package io.ringex.engine.processor;

import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.RejectReason;

/**
 * What the processor has decided since the venue began: orders accepted, trades, rejects in all and by reason. Part of
 * the engine's state (written in snapshots, so in the state hash), so a restarted node, every cluster member and a
 * replay all report the same counts as the node that decided them. Counted as the events are encoded ({@link
 * EventEncoder}).
 * <p>
 * Thread safety: written on the processor's thread; read there (the status agent runs on it too).
 */
public final class VenueStatistics
{
    /** Slots in {@link #rejects(RejectReason)}: one per possible reason value. */
    static final int REASON_SLOTS = 256;

    private long ordersAccepted;
    private long trades;
    private long rejects;
    private final long[] rejectsByReason = new long[REASON_SLOTS];

    void onExecutionReport(final ExecType execType, final RejectReason rejectReason)
    {
        if (execType == ExecType.NEW)
        {
            ordersAccepted++;
        }
        else if (execType == ExecType.REJECTED)
        {
            rejects++;
            final int value = rejectReason.value();
            if (value >= 0 && value < REASON_SLOTS)
            {
                rejectsByReason[value]++;
            }
        }
    }

    void onTrade()
    {
        trades++;
    }

    /**
     * @return orders accepted (ExecutionReports NEW).
     */
    public long ordersAccepted()
    {
        return ordersAccepted;
    }

    /**
     * @return trades.
     */
    public long trades()
    {
        return trades;
    }

    /**
     * @return orders and amendments rejected (ExecutionReports REJECTED).
     */
    public long rejects()
    {
        return rejects;
    }

    /**
     * @param reason a reason.
     * @return rejects for it.
     */
    public long rejects(final RejectReason reason)
    {
        final int value = reason.value();
        return value >= 0 && value < REASON_SLOTS ? rejectsByReason[value] : 0;
    }

    void restore(final long ordersAccepted, final long trades, final long rejects)
    {
        this.ordersAccepted = ordersAccepted;
        this.trades = trades;
        this.rejects = rejects;
    }

    long rejectsByValue(final int value)
    {
        return rejectsByReason[value];
    }

    void rejectsByValue(final int value, final long count)
    {
        rejectsByReason[value] = count;
    }
}
