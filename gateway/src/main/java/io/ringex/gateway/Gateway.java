package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.ringex.common.IdleStrategies;
import io.ringex.common.aeron.AeronBootstrap;
import io.ringex.gateway.fix.FixAcceptor;
import io.ringex.gateway.fix.FixGatewayAgent;
import io.ringex.gateway.web.WebServer;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.File;

/**
 * A running gateway: optionally an embedded media driver (archiving, when FIX is on) and an Aeron client, both
 * through {@link AeronBootstrap} (whose error handler logs and counts and never exits the JVM), the Artio FIX engine,
 * and the {@link GatewayAgent} (the link to the engine nodes, the SBE and the FIX agents) on one {@link AgentRunner}:
 * the gateway is I/O bound and one thread serves it. Embedders who want their own threading run a
 * {@link GatewayAgent} themselves.
 */
public final class Gateway implements AutoCloseable
{
    private static final int LOGON_COUNTER_TYPE_ID = 7102;

    private final AeronBootstrap bootstrap;
    private final FixAcceptor fixAcceptor;
    private final GatewayAgent agent;
    private final AgentRunner runner;
    private final WebServer webServer;
    private final GatewayContext ctx;
    private final AtomicCounter logonFailures;
    private final AtomicCounter logonLockouts;

    /**
     * The Aeron Archive that Artio records FIX messages in (its resend store), local to the gateway's media driver.
     * A stale mark file left by a killed predecessor is removed first ({@link StaleOwnerFiles}).
     *
     * @param ctx concluded configuration.
     * @return the archive's context, not yet launched.
     */
    public static Archive.Context fixArchive(final GatewayContext ctx)
    {
        StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(new File(ctx.archiveDir()));
        return new Archive.Context()
            .aeronDirectoryName(ctx.aeronDirectoryName())
            .archiveDir(new File(ctx.archiveDir()))
            .controlChannelEnabled(false)
            .localControlChannel(ctx.fixArchiveControlChannel())
            .localControlStreamId(ctx.fixArchiveControlStreamId())
            .replicationChannel("aeron:udp?endpoint=localhost:0")
            .archiveClientContext(new AeronArchive.Context()
                .controlResponseChannel(ctx.fixArchiveResponseChannel()))
            .threadingMode(ArchiveThreadingMode.SHARED)
            // recording and replaying for resends may wait a millisecond; no order waits for it
            .idleStrategySupplier(IdleStrategies::background);
    }

    private Gateway(final GatewayContext ctx, final ErrorHandler errorHandler)
    {
        ctx.conclude();
        this.ctx = ctx;
        final String name = "ringex-gateway-" + ctx.gatewayId();
        bootstrap = ctx.embeddedDriver() ?
            AeronBootstrap.launchEmbedded(name, ctx.aeronDirectoryName(), null,
            ctx.fixEnabled() ? fixArchive(ctx) : null, errorHandler) :
            AeronBootstrap.connect(name, ctx.aeronDirectoryName(), 0, errorHandler);
        FixAcceptor acceptor = null;
        WebServer web = null;
        try
        {
            final Aeron aeron = bootstrap.aeron();
            logonFailures = aeron.addCounter(LOGON_COUNTER_TYPE_ID, name + " logons failed");
            logonLockouts = aeron.addCounter(LOGON_COUNTER_TYPE_ID, name + " logon lockouts");
            ctx.logonAuthenticator().guard().counters(logonFailures, logonLockouts);
            if (ctx.fixEnabled())
            {
                acceptor = FixAcceptor.launch(ctx);
            }
            fixAcceptor = acceptor;
            agent = new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE);
            if (null != acceptor)
            {
                agent.fixAgent().artioSessions(acceptor::allSessions);
            }
            if (ctx.webEnabled())
            {
                // Bound before the agent runs: requests wait in the agent's queue until it does.
                web = WebServer.launch(ctx, agent.webAgent());
            }
            webServer = web;
            runner = new AgentRunner(ctx.idleStrategy(), bootstrap.errorHandler(), null, agent);
            AgentRunner.startOnThread(runner);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(web, acceptor, bootstrap);
            throw ex;
        }
    }

    /**
     * Start a gateway.
     *
     * @param ctx          configuration (concluded here).
     * @param errorHandler also told of every error (after it is logged and counted), or null.
     * @return the running gateway.
     */
    public static Gateway launch(final GatewayContext ctx, final ErrorHandler errorHandler)
    {
        return new Gateway(ctx, errorHandler);
    }

    /**
     * @return the FIX agent, or null when FIX is disabled.
     */
    public FixGatewayAgent fixAgent()
    {
        return agent.fixAgent();
    }

    /**
     * @return the agent on the gateway's thread.
     */
    public GatewayAgent agent()
    {
        return agent;
    }

    /**
     * @return the web front end's port, or -1 when it is disabled.
     */
    public int webPort()
    {
        return null == webServer ? -1 : webServer.port();
    }

    /**
     * Stop the web front end's sockets, the agents, then Artio, the logon checker, the client and any embedded driver.
     */
    public void close()
    {
        CloseHelper.closeAll(webServer, runner, fixAcceptor, ctx, logonFailures, logonLockouts, bootstrap);
    }
}
