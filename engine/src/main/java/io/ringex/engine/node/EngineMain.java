package io.ringex.engine.node;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.config.Config;
import io.ringex.common.config.KnownKeys;
import org.agrona.concurrent.ShutdownSignalBarrier;

/**
 * Runs an engine node until SIGINT/SIGTERM: {@code EngineMain [config.properties ...]}. Keys are the
 * {@code ringex.engine.*} system properties of {@link EngineContext.Configuration}; the files' keys are loaded into
 * the system properties ({@link Config#loadPropertiesFiles}), a later file's key winning over an
 * earlier one's and a key set on the command line ({@code -D}, {@code JAVA_TOOL_OPTIONS}) winning over every file, so
 * an operator can override one key of a shared file for one node.
 * <p>
 * Before anything starts, a {@code ringex.*} key no {@link EngineContext.Configuration} constant names is refused
 * with the closest known key named ({@code ringex.engine.replication.mod=CLUSTER} would otherwise run with replication
 * off), and a value that does not parse is refused naming its key: the process prints one line and exits with 2.
 * Prints one {@code RINGEX ENGINE READY} line once recovered and open.
 */
public final class EngineMain
{
    /** The exit status of a configuration the node refuses. */
    public static final int CONFIGURATION_ERROR_STATUS = 2;

    private EngineMain()
    {
    }

    /**
     * @param args properties files, none or several.
     */
    public static void main(final String[] args)
    {
        final EngineContext ctx;
        try
        {
            ctx = configure(args);
        }
        catch (final ConfigurationException ex)
        {
            System.err.println("ringex engine: " + ex.getMessage());
            System.exit(CONFIGURATION_ERROR_STATUS);
            return;
        }
        // The barrier's shutdown hook waits until it is closed, so the node closes cleanly before the JVM exits.
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            EngineNode node = EngineNode.launch(ctx))
        {
            System.out.println("RINGEX ENGINE READY node=" + node.context().nodeId() + " mode=" +
                node.context().replicationMode() + " recovered: " + node.recoverySummary() + "; aeron=" +
                node.aeronDirectoryName());
            System.out.flush();
            barrier.await();
            System.out.println("RINGEX ENGINE STOPPING");
        }
    }

    /**
     * What {@link #main} does before it launches the node: load the files into the system properties, refuse unknown
     * keys, read and conclude the context.
     *
     * @param files properties files (paths, classpath resources or URLs), none or several; a later file's key wins.
     * @return the concluded context.
     * @throws ConfigurationException naming the file that cannot be read, the unknown key (and the closest known
     *                                one) or the key whose value is malformed or out of range.
     */
    public static EngineContext configure(final String... files)
    {
        Config.loadPropertiesFiles(files);
        knownKeys().check(System.getProperties());
        return new EngineContext().conclude();
    }

    /**
     * @return the {@code ringex.*} keys an engine node understands.
     */
    public static KnownKeys knownKeys()
    {
        return KnownKeys.of(EngineContext.Configuration.class);
    }
}
