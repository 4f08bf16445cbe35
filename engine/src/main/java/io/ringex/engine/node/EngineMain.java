package io.ringex.engine.node;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.agrona.concurrent.ShutdownSignalBarrier;

/**
 * Runs an engine node until SIGINT/SIGTERM: {@code EngineMain [config.properties]}. Keys are the
 * {@code ringex.engine.*} system properties of {@link EngineContext}; a file's keys are applied as system properties
 * unless already set on the command line. Prints one {@code RINGEX ENGINE READY} line once recovered and open.
 */
public final class EngineMain
{
    private EngineMain()
    {
    }

    /**
     * @param args an optional properties file.
     * @throws IOException if the file cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length > 0)
        {
            loadProperties(Path.of(args[0]));
        }
        // The barrier's shutdown hook waits until it is closed, so the node closes cleanly before the JVM exits.
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            EngineNode node = EngineNode.launch(new EngineContext()))
        {
            System.out.println("RINGEX ENGINE READY node=" + node.context().nodeId() + " role=" +
                node.context().role() + " recovered=" + node.recoveredCommands() + " next=" +
                (node.journaledSequence() + 1) + " aeron=" + node.aeronDirectoryName());
            System.out.flush();
            barrier.await();
            System.out.println("RINGEX ENGINE STOPPING");
        }
    }

    static void loadProperties(final Path file) throws IOException
    {
        final Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file))
        {
            properties.load(in);
        }
        for (final String key : properties.stringPropertyNames())
        {
            if (System.getProperty(key) == null)
            {
                System.setProperty(key, properties.getProperty(key).trim());
            }
        }
    }
}
