package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.archive.client.AeronArchive;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.gateway.fix.FixAcceptor;
import io.ringex.gateway.fix.FixGatewayAgent;
import io.ringex.gateway.sbe.SbeGatewayAgent;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.File;

/**
 * A running gateway: optionally an embedded media driver (archiving, when FIX is on), an Aeron client, the Artio
 * FIX engine, and the SBE and FIX agents composed onto one {@link AgentRunner} (one thread: the gateway is I/O
 * bound and the machines here have two cores). Embedders who want their own threading build
 * {@link SbeGatewayAgent} and {@link FixGatewayAgent} themselves.
 */
public final class Gateway implements AutoCloseable
{
    private static final int LOGON_COUNTER_TYPE_ID = 7102;

    private final ArchivingMediaDriver archivingDriver;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final FixAcceptor fixAcceptor;
    private final FixGatewayAgent fixAgent;
    private final AgentRunner runner;
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
            .idleStrategySupplier(ctx::idleStrategy);
    }

    private Gateway(final GatewayContext ctx, final ErrorHandler errorHandler)
    {
        ctx.conclude();
        this.ctx = ctx;
        ArchivingMediaDriver archiving = null;
        MediaDriver plain = null;
        if (ctx.embeddedDriver())
        {
            final MediaDriver.Context driverContext = new MediaDriver.Context()
                .aeronDirectoryName(ctx.aeronDirectoryName())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true);
            if (ctx.fixEnabled())
            {
                archiving = ArchivingMediaDriver.launch(driverContext, fixArchive(ctx));
            }
            else
            {
                plain = MediaDriver.launch(driverContext);
            }
        }
        archivingDriver = archiving;
        driver = plain;
        Aeron client = null;
        FixAcceptor acceptor = null;
        try
        {
            client = Aeron.connect(new Aeron.Context().aeronDirectoryName(ctx.aeronDirectoryName()));
            final String prefix = "ringex-gateway-" + ctx.gatewayId() + " ";
            logonFailures = client.addCounter(LOGON_COUNTER_TYPE_ID, prefix + "logons failed");
            logonLockouts = client.addCounter(LOGON_COUNTER_TYPE_ID, prefix + "logon lockouts");
            ctx.logonAuthenticator().guard().counters(logonFailures, logonLockouts);
            final Agent sbeAgent = new SbeGatewayAgent(ctx, client, SystemNanoClock.INSTANCE);
            final Agent agent;
            if (ctx.fixEnabled())
            {
                acceptor = FixAcceptor.launch(ctx);
                fixAgent = new FixGatewayAgent(ctx, client, SystemNanoClock.INSTANCE);
                agent = new CompositeAgent(sbeAgent, fixAgent);
            }
            else
            {
                fixAgent = null;
                agent = sbeAgent;
            }
            aeron = client;
            fixAcceptor = acceptor;
            runner = new AgentRunner(ctx.idleStrategy(), errorHandler, null, agent);
            AgentRunner.startOnThread(runner);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(acceptor, client, archiving, plain);
            throw ex;
        }
    }

    /**
     * Start a gateway.
     *
     * @param ctx          configuration (concluded here).
     * @param errorHandler for agent errors.
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
        return fixAgent;
    }

    /**
     * Stop the agents, then Artio, the client and any embedded driver.
     */
    public void close()
    {
        CloseHelper.closeAll(runner, fixAcceptor, ctx, logonFailures, logonLockouts, aeron, archivingDriver, driver);
    }
}
