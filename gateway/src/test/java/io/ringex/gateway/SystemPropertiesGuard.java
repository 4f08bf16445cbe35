package io.ringex.gateway;

import java.util.Properties;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests of what the gateway reads from the system properties ({@link GatewayContext}'s defaults, and the files
 * {@link GatewayMain} loads into them): each test starts with no {@code ringex.*} key set and leaves the JVM's
 * properties as it found them.
 */
final class SystemPropertiesGuard implements BeforeEachCallback, AfterEachCallback
{
    private Properties saved;

    public void beforeEach(final ExtensionContext context)
    {
        saved = (Properties)System.getProperties().clone();
        System.getProperties().stringPropertyNames().stream().filter((key) -> key.startsWith("ringex."))
            .forEach(System::clearProperty);
    }

    public void afterEach(final ExtensionContext context)
    {
        System.setProperties(saved);
    }
}
