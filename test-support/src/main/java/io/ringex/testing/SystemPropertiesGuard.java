package io.ringex.testing;

import java.util.Properties;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests of what a runnable reads from the system properties (its configuration's defaults, and the files its main
 * loads into them): each test starts with no {@code ringex.*} key set and leaves the JVM's properties as it found
 * them. Register it with {@code @RegisterExtension}.
 */
public final class SystemPropertiesGuard implements BeforeEachCallback, AfterEachCallback
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
