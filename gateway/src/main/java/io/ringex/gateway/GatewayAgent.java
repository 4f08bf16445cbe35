package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.fix.FixGatewayAgent;
import io.ringex.gateway.sbe.SbeGatewayAgent;
import io.ringex.gateway.web.WebGatewayAgent;
import io.ringex.protocol.SessionIds;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * The gateway on one duty cycle: its one link to the engine nodes ({@link EngineRouter}: one ingress publication and
 * one egress and status subscription per node, one choice of primary), the SBE agent and, when FIX is enabled, the
 * FIX agent. The router is polled once per cycle and each client-bound event is handed to the agent whose session it
 * is (the session number says which: {@link SessionNumbers}); both agents send to the same primary through the
 * router's {@link EngineIngress}. Every ExecutionReport the router lets through, whoever's session it is for, is also
 * copied to the drop-copy sessions that see its account ({@link DropCopyScopes}).
 * <p>
 * Threading: one thread (an {@link org.agrona.concurrent.AgentRunner}); the sub-agents are built on the launching
 * thread, so {@link #fixAgent()} may be read once launched.
 */
public final class GatewayAgent implements Agent
{
    private final NanoClock clock;
    private final EngineRouter router;
    private final SbeGatewayAgent sbe;
    private final FixGatewayAgent fix;
    private final WebGatewayAgent web;
    private final GatewayContext ctx;
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
        this.router = new EngineRouter(
            ctx, aeron, "ringex-gateway-" + ctx.gatewayId() + " ", this::dispatch, this::endSessionsOf);
        this.sbe = new SbeGatewayAgent(ctx, aeron, clock, router);
        this.fix = ctx.fixEnabled() ? new FixGatewayAgent(ctx, aeron, clock, router).dropCopyScopes(dropCopyScopes) :
            null;
        this.web = ctx.webEnabled() ? new WebGatewayAgent(ctx, router, clock.nanoTime()) : null;
        if (null != fix && null != web)
        {
            // The engine's instrument definitions reach the web front end through the FIX side's market data.
            fix.instrumentListener(web::onInstrument);
        }
        router.reportObserver(this::onReport);
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
                CloseHelper.close(router);
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
