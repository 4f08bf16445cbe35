package io.ringex.logging;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.spi.LifeCycle;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Started by logback.xml: routes java.util.logging into SLF4J and sets the level of each logger named by a
 * {@code logging.level.<logger>=<LEVEL>} system property ({@code root} for the root logger), the keys Spring Boot
 * reads. A value that is not a level stops the JVM naming the key, as the runnables' other configuration errors do.
 */
public final class SystemPropertyLevels extends ContextAwareBase implements LoggerContextListener, LifeCycle
{
    /** The system properties' prefix; the rest of the name is the logger's. */
    public static final String PREFIX = "logging.level.";
    /** The exit status of a malformed level, as of the runnables' other configuration errors. */
    static final int CONFIGURATION_ERROR_STATUS = 2;

    private boolean started;

    public void start()
    {
        if (!SLF4JBridgeHandler.isInstalled())
        {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        final Map<String, Level> levels;
        try
        {
            levels = levels(System.getProperties());
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("ringex: " + ex.getMessage());
            System.exit(CONFIGURATION_ERROR_STATUS);
            return;
        }
        final LoggerContext loggers = (LoggerContext)getContext();
        levels.forEach((name, level) -> loggers.getLogger(name).setLevel(level));
        started = true;
    }

    /**
     * @param properties system properties.
     * @return the level of each logger a {@code logging.level.*} property names.
     * @throws IllegalArgumentException naming a property that names no logger or whose value is not a level.
     */
    static Map<String, Level> levels(final Properties properties)
    {
        final Map<String, Level> levels = new TreeMap<>();
        for (final String key : properties.stringPropertyNames())
        {
            if (key.startsWith(PREFIX))
            {
                final String name = key.substring(PREFIX.length());
                if (name.isEmpty())
                {
                    throw new IllegalArgumentException(key + ": names no logger (logging.level.<logger>=<LEVEL>)");
                }
                levels.put("root".equals(name) ? Logger.ROOT_LOGGER_NAME : name,
                    level(key, properties.getProperty(key).trim()));
            }
        }
        return levels;
    }

    private static Level level(final String key, final String value)
    {
        switch (value.toUpperCase(Locale.ROOT))
        {
            case "TRACE":
                return Level.TRACE;
            case "DEBUG":
                return Level.DEBUG;
            case "INFO":
                return Level.INFO;
            case "WARN":
                return Level.WARN;
            case "ERROR":
                return Level.ERROR;
            case "OFF":
                return Level.OFF;
            default:
                throw new IllegalArgumentException(key + "=" + value +
                    ": not a level (TRACE, DEBUG, INFO, WARN, ERROR or OFF)");
        }
    }

    public void stop()
    {
        started = false;
    }

    public boolean isStarted()
    {
        return started;
    }

    public boolean isResetResistant()
    {
        return false;
    }

    public void onStart(final LoggerContext context)
    {
    }

    public void onReset(final LoggerContext context)
    {
    }

    public void onStop(final LoggerContext context)
    {
    }

    public void onLevelChange(final Logger logger, final Level level)
    {
    }
}
