package io.ringex.gateway.fix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.ringex.common.IdleStrategies;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.StaleOwnerFiles;
import io.ringex.gateway.fix.codecs.FixDictionaryImpl;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.SystemEpochClock;
import uk.co.real_logic.artio.engine.EngineConfiguration;
import uk.co.real_logic.artio.engine.FixEngine;
import uk.co.real_logic.artio.messages.InitialAcceptedSessionOwner;
import uk.co.real_logic.artio.validation.SessionPersistenceStrategy;

/**
 * The Artio {@link FixEngine} of the FIX acceptor: TCP sockets, session-level protocol, the persistent sequence
 * numbers and message archive (in {@link GatewayContext#fixLogDir()} and the Aeron Archive) that answer
 * ResendRequests with PossDupFlag=Y copies and gap fills. Accepted sessions go to the one {@link FixGatewayAgent}
 * library ({@code SOLE_LIBRARY}). Logon is checked by {@link FixAuthenticator} on the gateway's logon worker; the
 * dictionary is the FIX 4.4 one generated at build time ({@link FixDictionaryImpl}).
 * <p>
 * Needs an Aeron Archive reachable on {@link GatewayContext#fixArchiveControlChannel()} (the gateway's embedded
 * driver starts one; see {@code io.ringex.gateway.Gateway}). The engine runs its own threads.
 */
public final class FixAcceptor implements AutoCloseable
{
    private final FixEngine engine;
    private final Path monitoringDir;

    private FixAcceptor(final FixEngine engine, final Path monitoringDir)
    {
        this.monitoringDir = monitoringDir;
        this.engine = engine;
    }

    /**
     * Build Artio's engine configuration from the gateway's.
     *
     * @param ctx concluded configuration.
     * @return the configuration, not yet launched.
     */
    public static EngineConfiguration configuration(final GatewayContext ctx)
    {
        final EngineConfiguration configuration = new EngineConfiguration()
            .bindTo(ctx.fixHost(), ctx.fixPort())
            .libraryAeronChannel(ctx.fixLibraryChannel())
            .logFileDir(ctx.fixLogDir())
            .acceptorfixDictionary(FixDictionaryImpl.class)
            .authenticationStrategy(new FixAuthenticator(ctx.logonAuthenticator(), SystemEpochClock.INSTANCE,
                TimeUnit.NANOSECONDS.toSeconds(ctx.fixHeartbeatMinNs()),
                TimeUnit.NANOSECONDS.toSeconds(ctx.fixHeartbeatMaxNs())))
            // A logon the worker has not answered by then (refusals come after the failure delay) is dropped.
            .authenticationTimeoutInMs(
                ctx.logonPolicy().failureDelayMs() + TimeUnit.NANOSECONDS.toMillis(ctx.logonTimeoutNs()))
            .initialAcceptedSessionOwner(InitialAcceptedSessionOwner.SOLE_LIBRARY)
            .sessionPersistenceStrategy(SessionPersistenceStrategy.alwaysPersistent())
            .logInboundMessages(true)
            .logOutboundMessages(true)
            .deleteLogFileDirOnStart(false)
            .framerIdleStrategy(ctx.idleStrategy())
            // the indexer of the resend store: no FIX message waits for it
            .archiverIdleStrategy(IdleStrategies.background());
        // The framer and the library each write to a stream the other reads, on one thread each: a claim that parks
        // until the other side reads can wait for a side parked in its own claim (a flood from a client the library
        // cannot keep up with made both wait ~1 s per message). Give up after the spins and yields instead, and let
        // each side's duty cycle drain what the other wrote before it tries again (FixGatewayAgent.LIBRARY_CLAIMS).
        configuration.inboundMaxClaimAttempts(FixGatewayAgent.LIBRARY_CLAIMS);
        configuration.monitoringFile(monitoringFile(ctx, "engine"));
        configuration.aeronContext().aeronDirectoryName(ctx.aeronDirectoryName());
        configuration.aeronArchiveContext()
            .aeronDirectoryName(ctx.aeronDirectoryName())
            .controlRequestChannel(ctx.fixArchiveControlChannel())
            .controlRequestStreamId(ctx.fixArchiveControlStreamId())
            .controlResponseChannel(ctx.fixArchiveResponseChannel());
        return configuration;
    }

    /**
     * @param ctx  concluded configuration.
     * @param name the file's name.
     * @return the path of one of Artio's monitoring files in {@link GatewayContext#fixMonitoringDir()}, created.
     */
    public static String monitoringFile(final GatewayContext ctx, final String name)
    {
        final Path dir = ctx.fixMonitoringDir();
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + dir, ex);
        }
        return dir.resolve(name).toString();
    }

    /**
     * Start the engine and bind the FIX port.
     *
     * @param ctx concluded configuration.
     * @return the running acceptor.
     */
    public static FixAcceptor launch(final GatewayContext ctx)
    {
        StaleOwnerFiles.removeArtioEngineInfoIfOwnerGone(ctx.fixLogDir());
        return new FixAcceptor(FixEngine.launch(configuration(ctx)), ctx.fixMonitoringDir());
    }

    /**
     * @return Artio's engine.
     */
    public FixEngine engine()
    {
        return engine;
    }

    /**
     * @return every session Artio's engine knows, connected or not (safe from any thread: a copy-on-write list).
     */
    public java.util.List<uk.co.real_logic.artio.engine.SessionInfo> allSessions()
    {
        return engine.allSessions();
    }

    /**
     * Stop the engine (close the library agent first).
     */
    public void close()
    {
        CloseHelper.close(engine);
        // Artio leaves its engine's monitoring file; after a crash the next start of this gateway reuses it.
        IoUtil.delete(monitoringDir.toFile(), true);
    }
}
