package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.fix.FixGatewayAgent;
import io.ringex.gateway.marketdata.GatewayMarketData;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.gateway.sbe.SbeGatewayAgent;
import io.ringex.gateway.web.WebGatewayAgent;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The gateway on one duty cycle: its one link to the engine nodes ({@link EngineRouter}: one ingress publication and
 * one egress and status subscription per node, one choice of primary), the SBE agent and, when FIX is enabled, the
 * FIX agent. The router is polled once per cycle and each client-bound event is handed to the agent whose session it
 * is (the session number says which: {@link SessionNumbers}); both agents send to the same primary through the
 * router's {@link EngineIngress}. Every ExecutionReport the router lets through, whoever's session it is for, is also
 * copied to the drop-copy sessions that see its account ({@link DropCopyScopes}).
 * <p>
 * When FIX or the web front end is enabled, the gateway keeps one copy of the market ({@link MarketDataCache}), fed by
 * one market-data client per engine node that recovers what the feed loses ({@link GatewayMarketData}); both serve
 * their subscribers from it, and both learn the engine's instrument definitions from it.
 * <p>
 * Threading: one thread (an {@link org.agrona.concurrent.AgentRunner}); the sub-agents are built on the launching
 * thread, so {@link #fixAgent()} may be read once launched.
 */
public final class GatewayAgent implements Agent
{
    private static final int COUNTER_TYPE_ID = 7104;

    private final NanoClock clock;
    private final EngineRouter router;
    private final SbeGatewayAgent sbe;
    private final FixGatewayAgent fix;
    private final WebGatewayAgent web;
    private final GatewayContext ctx;
    private final Aeron aeron;
    private final MarketDataCache market;
    private GatewayMarketData marketFeed;
    private volatile AtomicCounter feedGaps;
    private volatile AtomicCounter feedRetransmissions;
    private volatile AtomicCounter feedRecoveries;
    private final DropCopyScopes dropCopyScopes = new DropCopyScopes();
    private final DropCopyScopes.SessionVisitor copyTo = this::copyTo;
    private DirectBuffer copyBuffer;
    private int copyOffset;
    private int copyLength;

    /**
     * @param ctx   concluded configuration; FIX runs if {@link GatewayContext#fixEnabled()} (its Artio engine must be
     *              launched separately, see {@link Gateway}).
     * @param aeron client connected to the media driver; not closed by the agent.
     * @param clock monotonic clock.
     */
    public GatewayAgent(final GatewayContext ctx, final Aeron aeron, final NanoClock clock)
    {
        if (!ctx.isConcluded())
        {
            throw new IllegalStateException("GatewayContext.conclude() first");
        }
        this.clock = clock;
        this.ctx = ctx;
        this.aeron = aeron;
        this.market = ctx.fixEnabled() || ctx.webEnabled() ? new MarketDataCache() : null;
        this.router = new EngineRouter(
            ctx, aeron, "ringex-gateway-" + ctx.gatewayId() + " ", this::dispatch, this::endSessionsOf);
        this.sbe = new SbeGatewayAgent(ctx, aeron, clock, router);
        this.fix = ctx.fixEnabled() ?
            new FixGatewayAgent(ctx, aeron, clock, router, market).dropCopyScopes(dropCopyScopes) : null;
        this.web = ctx.webEnabled() ? new WebGatewayAgent(ctx, router, market, clock.nanoTime()) : null;
        router.reportObserver(this::onReport);
        if (null != web)
        {
            router.riskObserver(web::onRiskUpdate);
        }
    }

    /**
     * @return the web front end's agent-thread part, or null when it is disabled.
     */
    public WebGatewayAgent webAgent()
    {
        return web;
    }

    /**
     * @return the FIX agent, or null when FIX is disabled.
     */
    public FixGatewayAgent fixAgent()
    {
        return fix;
    }

    /**
     * @return the drop-copy sessions of this gateway, both protocols (agent thread).
     */
    public DropCopyScopes dropCopyScopes()
    {
        return dropCopyScopes;
    }

    /**
     * @return the SBE agent.
     */
    public SbeGatewayAgent sbeAgent()
    {
        return sbe;
    }

    /**
     * {@inheritDoc}
     */
    public void onStart()
    {
        if (null != market)
        {
            final String prefix = "ringex-gateway-" + ctx.gatewayId() + " market data ";
            feedGaps = aeron.addCounter(COUNTER_TYPE_ID, prefix + "feed gaps");
            feedRetransmissions = aeron.addCounter(COUNTER_TYPE_ID, prefix + "gaps retransmitted");
            feedRecoveries = aeron.addCounter(COUNTER_TYPE_ID, prefix + "books rebuilt from snapshots");
            marketFeed = new GatewayMarketData(aeron, ctx.engines(), ctx.marketDataRecoveryChannel(),
                ctx.marketDataRecoveryStreamId(), ctx.marketDataRequestStreamId(), market,
                new MessageValidator(ctx.maxMessageLength()), this::onInstrumentDefinition);
        }
        sbe.onStart();
        if (null != fix)
        {
            fix.onStart();
        }
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        int work = router.poll(nowNs);
        if (null != marketFeed)
        {
            final int feedWork = marketFeed.poll();
            if (feedWork > 0)
            {
                feedGaps.setRelease(marketFeed.channelGaps());
                feedRetransmissions.setRelease(marketFeed.retransmissions());
                feedRecoveries.setRelease(marketFeed.recoveries());
            }
            work += feedWork;
        }
        work += sbe.doWork();
        if (null != web)
        {
            work += web.doWork(nowNs);
        }
        if (null != fix)
        {
            work += fix.doWork();
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        try
        {
            if (null != web)
            {
                web.onClose();
            }
            if (null != fix)
            {
                fix.onClose();
            }
        }
        finally
        {
            try
            {
                sbe.onClose();
            }
            finally
            {
                CloseHelper.closeAll(marketFeed, feedGaps, feedRetransmissions, feedRecoveries, router);
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "ringex-gateway";
    }

    /**
     * @return gaps the gateway saw in the engines' market-data feeds (any thread).
     */
    public long marketDataFeedGaps()
    {
        return valueOf(feedGaps);
    }

    /**
     * @return feed gaps mended by the engine's retransmission (any thread).
     */
    public long marketDataRetransmissions()
    {
        return valueOf(feedRetransmissions);
    }

    /**
     * @return books rebuilt from the engine's snapshots, each instrument's first one included (any thread).
     */
    public long marketDataRecoveries()
    {
        return valueOf(feedRecoveries);
    }

    private static long valueOf(final AtomicCounter counter)
    {
        return null == counter ? 0 : counter.get();
    }

    private void onInstrumentDefinition(final InstrumentDefinitionDecoder definition)
    {
        if (null != fix)
        {
            fix.onInstrumentDefinition(definition);
        }
        if (null != web)
        {
            web.onInstrument(definition.instrumentId(), definition.symbol().trim(), definition.priceScale());
        }
    }

    private void endSessionsOf(final String username, final boolean disabled, final String change)
    {
        // Before the sessions end: a drop copy that lost its role or accounts sees nothing more from now on.
        dropCopyScopes.userChanged(username, ctx.users().user(username));
        sbe.endSessionsOf(username, disabled, change);
        if (null != web)
        {
            web.endSessionsOf(username, disabled, change);
        }
        if (null != fix)
        {
            fix.endSessionsOf(username, disabled, change);
        }
    }

    /**
     * An ExecutionReport the router let through, for any gateway's session: a copy to each drop-copy session that
     * sees its account, in the engine's order.
     */
    private void onReport(
        final DirectBuffer buffer, final int offset, final int length, final long sessionId, final long accountId)
    {
        sbe.onDropCopyReport(buffer, offset, length);
        if (dropCopyScopes.size() == 0)
        {
            return;
        }
        copyBuffer = buffer;
        copyOffset = offset;
        copyLength = length;
        dropCopyScopes.forEachSeeing(accountId, copyTo);
        copyBuffer = null;
    }

    private void copyTo(final long dropCopySessionId, final User user)
    {
        if (SessionNumbers.isFix(SessionIds.sessionNumber(dropCopySessionId)))
        {
            if (null != fix)
            {
                fix.onDropCopy(dropCopySessionId, copyBuffer, copyOffset, copyLength);
            }
        }
        // SBE drop-copy sessions: served by the SBE side.
    }

    private Action dispatch(
        final int templateId, final DirectBuffer buffer, final int offset, final int length, final long sessionId)
    {
        if (SessionNumbers.isWeb(SessionIds.sessionNumber(sessionId)))
        {
            return null == web ? Action.CONTINUE : web.onEngineEvent(templateId, buffer, offset, length, sessionId);
        }
        if (SessionNumbers.isFix(SessionIds.sessionNumber(sessionId)))
        {
            return null == fix ? Action.CONTINUE : fix.onEngineEvent(templateId, buffer, offset, length, sessionId);
        }
        return sbe.onEngineEvent(templateId, buffer, offset, length, sessionId);
    }
}
