package io.ringex.engine.node;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The engine configurations the project ships (docker/config) conclude: a typo'd or stale key there would only show
 * when someone starts the compose venue.
 */
class ShippedConfigurationTest
{
    private static final Path CONFIG = Path.of(System.getProperty("ringex.project.dir", ".."), "docker", "config");

    @ParameterizedTest
    @ValueSource(strings = { "engine-primary", "engine-standby", "engine-single" })
    void concludes(final String name) throws IOException
    {
        final Properties file = new Properties();
        try (Reader reader = Files.newBufferedReader(CONFIG.resolve(name + ".properties")))
        {
            file.load(reader);
        }
        // EngineContext reads system properties, as EngineMain sets them from the file.
        final Properties saved = (Properties)System.getProperties().clone();
        try
        {
            file.stringPropertyNames().forEach((key) -> System.setProperty(key, file.getProperty(key).trim()));
            final EngineContext ctx = new EngineContext().conclude();
            assertEquals(file.getProperty("ringex.engine.role", "PRIMARY"), ctx.role().name());
            if (!name.equals("engine-single"))
            {
                assertNotEquals(ctx.replicationChannel(), ctx.peerReplicationChannel(), "a pair replicates both ways");
            }
        }
        finally
        {
            System.setProperties(saved);
        }
    }
}
