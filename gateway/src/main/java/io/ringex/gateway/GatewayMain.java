package io.ringex.gateway;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.config.Config;
import io.ringex.common.config.KnownKeys;
import io.ringex.gateway.auth.UserDirectory;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a gateway until SIGINT/SIGTERM: {@code GatewayMain [gateway.properties ...]}. Keys are the
 * {@code ringex.gateway.*} system properties of {@link GatewayContext.Configuration} and the user, instrument and
 * numbered engine families; the files' keys are loaded into the system properties ({@link Config#loadPropertiesFiles}),
 * a later file's key winning over an earlier one's and a key set on the command line ({@code -D},
 * {@code JAVA_TOOL_OPTIONS}) winning over every file. Connects to the media driver in {@code ringex.gateway.aeron.dir},
 * or embeds one (with an Aeron Archive for Artio) when {@code ringex.gateway.embedded.driver=true}.
 * <p>
 * Before anything starts, a {@code ringex.*} key the gateway does not know is refused with the closest known key named
 * ({@code ringex.gateway.heartbeat.interval.ms}, the name before durations took units, names
 * {@code ringex.gateway.heartbeat.interval}), and a value that does not parse or is out of range is refused naming its
 * key: the process prints one line and exits with 2.
 */
public final class GatewayMain
{
    /** The exit status of a configuration the gateway refuses. */
    public static final int CONFIGURATION_ERROR_STATUS = 2;
    private static final Logger LOG = LoggerFactory.getLogger(GatewayMain.class);

    private GatewayMain()
    {
    }

    /**
     * @param args properties files, none or several.
     */
    public static void main(final String[] args)
    {
        final GatewayContext ctx;
        try
        {
            ctx = configure(args);
        }
        catch (final ConfigurationException ex)
        {
            System.err.println("ringex gateway: " + ex.getMessage());
            System.exit(CONFIGURATION_ERROR_STATUS);
            return;
        }
        // The barrier's shutdown hook waits until it is closed, so the gateway closes cleanly before the JVM exits.
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            Gateway ignore = Gateway.launch(ctx, (ex) -> LOG.error("gateway agent failed", ex)))
        {
            System.out.println("ringex gateway " + ctx.gatewayId() + " up: SBE on " + ctx.clientChannel() +
                " stream " + ctx.clientStreamId() + (ctx.fixEnabled() ? ", FIX on " + ctx.fixHost() + ':' +
                ctx.fixPort() : "") + ", " + ctx.users().users().size() + " users");
            barrier.await();
        }
    }

    /**
     * What {@link #main} does before it launches the gateway: load the files into the system properties, refuse
     * unknown keys, read and conclude the context. The caller closes the context (its logon checker runs a thread).
     *
     * @param files properties files (paths, classpath resources or URLs), none or several; a later file's key wins.
     * @return the concluded context.
     * @throws ConfigurationException naming the file that cannot be read, the unknown key (and the closest known
     *                                one) or the key whose value is malformed or out of range.
     */
    public static GatewayContext configure(final String... files)
    {
        Config.loadPropertiesFiles(files);
        knownKeys().check(System.getProperties());
        return new GatewayContext().conclude();
    }

    /**
     * @return the {@code ringex.*} keys a gateway understands: {@link GatewayContext.Configuration}'s and the user,
     * instrument and numbered engine families.
     */
    public static KnownKeys knownKeys()
    {
        final KnownKeys known = KnownKeys.of(GatewayContext.Configuration.class);
        UserDirectory.addKeys(known);
        StaticInstruments.addKeys(known);
        EngineList.addKeys(known);
        return known;
    }
}
