package io.ringex.engine.node;

import io.ringex.engine.processor.BusinessLogicProcessor;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * Late joiners (a dashboard or gateway started after the engine) learn the venue from a slow, periodic refresh: every
 * instrument's definition and book, every account's risk and market-maker protection, and the trading schedule. The
 * book goes out as levels (BookSnapshot) and order by order (BookOrders): the market-data publisher builds its copy of
 * each book from the latter, and mends it with them should it ever fall out of step. Output only: the state is not
 * touched, and it runs between batches on the processor's thread, the output ring's only producer. A node refreshes
 * once it serves clients: a single node from the start, a cluster member while it leads ({@link #enable()}).
 * <p>
 * Thread safety: {@link #doWork()} on the processor's thread; {@link #enable()} and {@link #disable()} from any thread.
 */
final class LateJoinerRefresh implements Agent
{
    private final BusinessLogicProcessor processor;
    private final RingEventSink output;
    private final NanoClock clock;
    private final long intervalNs;
    private volatile boolean enabled;
    private long nextRefreshNs;

    /**
     * @param processor  publishes the definitions, books and risk.
     * @param output     the output ring's sink, published here since the events are written outside any command.
     * @param clock      times the interval.
     * @param intervalNs between refreshes.
     * @param enabled    whether to refresh from the start.
     */
    LateJoinerRefresh(
        final BusinessLogicProcessor processor,
        final RingEventSink output,
        final NanoClock clock,
        final long intervalNs,
        final boolean enabled)
    {
        this.processor = processor;
        this.output = output;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.enabled = enabled;
    }

    /**
     * Refresh from now on (a cluster member that now serves clients).
     */
    void enable()
    {
        enabled = true;
    }

    /**
     * Refresh no more (a cluster member no longer serving clients).
     */
    void disable()
    {
        enabled = false;
    }

    public int doWork()
    {
        final long now = clock.nanoTime();
        if (now < nextRefreshNs)
        {
            return 0;
        }
        nextRefreshNs = now + intervalNs;
        if (!enabled)
        {
            return 0;
        }
        for (int i = 0, n = processor.state().bookCount(); i < n; i++)
        {
            final int instrumentId = processor.state().bookAt(i).instrument().instrumentId();
            processor.publishInstrumentDefinition(instrumentId);
            processor.publishBookSnapshot(instrumentId);
            processor.publishBookOrders(instrumentId);
        }
        for (int i = 0, n = processor.state().accountCount(); i < n; i++)
        {
            processor.publishAccountRisk(processor.state().accountAt(i).accountId());
            processor.publishMarketMakerProtection(processor.state().accountAt(i).accountId());
        }
        processor.publishTradingSchedule();
        output.publish();
        return 1;
    }

    public String roleName()
    {
        return "late-joiner-refresh";
    }
}
