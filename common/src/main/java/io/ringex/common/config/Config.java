package io.ringex.common.config;

import io.aeron.exceptions.ConfigurationException;
import org.agrona.PropertyAction;
import org.agrona.SystemUtil;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.Arrays;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Strict readers of configuration values, as the {@code Configuration} classes' getters use them: a value that does
 * not parse stops the process with a {@link ConfigurationException} naming the key and the value, where
 * {@code Integer.getInteger} and friends would silently use the default. Sizes take Agrona's suffixes ({@code 16k},
 * {@code 64m}, {@code 1g}); durations take {@code ns}, {@code us}, {@code ms} and {@code s} ({@code 100ms}; a bare
 * number is nanoseconds).
 * <p>
 * Values come from a {@link Properties} source: the system properties by default, into which
 * {@link #loadPropertiesFiles(String...)} loads files (Agrona's {@link SystemUtil#loadPropertiesFiles}), as Aeron's
 * runnables do.
 * <p>
 * Thread safety: reads only; the source is not copied, so configure before reading.
 */
public final class Config
{
    private final Properties source;

    private Config(final Properties source)
    {
        this.source = source;
    }

    /**
     * @return values from the system properties.
     */
    public static Config system()
    {
        return new Config(System.getProperties());
    }

    /**
     * @param source the keys and values.
     * @return values from the given properties.
     */
    public static Config of(final Properties source)
    {
        return new Config(source);
    }

    /**
     * Load properties files into the system properties, as a runnable's {@code main} does with its arguments before
     * building its contexts: a key already set (on the command line, {@code -D}) is kept, and of the files a later
     * one's key wins (Agrona's loader preserving what is set, given the files last first). So an operator can restart a
     * node of a pair with {@code -Dringex.engine.role=STANDBY} and the same file.
     *
     * @param files paths, classpath resources or URLs; none is fine.
     * @throws ConfigurationException naming a file that cannot be read: Agrona's loader passes over it in silence,
     *                                which would start the process on its defaults.
     */
    public static void loadPropertiesFiles(final String... files)
    {
        final String[] lastFirst = new String[files.length];
        for (int i = 0; i < files.length; i++)
        {
            requireReadable(files[i]);
            lastFirst[files.length - 1 - i] = files[i];
        }
        if (files.length > 0)
        {
            SystemUtil.loadPropertiesFiles(PropertyAction.PRESERVE, lastFirst);
        }
    }

    private static void requireReadable(final String file)
    {
        final Path path = Path.of(file);
        if (Files.isRegularFile(path) && Files.isReadable(path))
        {
            return;
        }
        if (null != ClassLoader.getSystemClassLoader().getResource(file))
        {
            return;
        }
        if (file.contains("://"))
        {
            try (InputStream in = URI.create(file).toURL().openStream())
            {
                new Properties().load(in);
                return;
            }
            catch (final Exception ex)
            {
                throw new ConfigurationException("configuration file " + file + " cannot be read: " + ex);
            }
        }
        throw new ConfigurationException("configuration file " + file + " does not exist or cannot be read");
    }

    /**
     * @return the source.
     */
    public Properties source()
    {
        return source;
    }

    /**
     * @param key the key.
     * @return its trimmed value, or null when absent.
     */
    public String get(final String key)
    {
        final String value = source.getProperty(key);
        return null == value ? null : value.trim();
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent.
     * @return the trimmed value.
     */
    public String string(final String key, final String defaultValue)
    {
        final String value = get(key);
        return null == value ? defaultValue : value;
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent.
     * @return the value.
     * @throws ConfigurationException if it is not an integer.
     */
    public int intValue(final String key, final int defaultValue)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, value, "must be an integer");
        }
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent.
     * @return the value.
     * @throws ConfigurationException if it is not an integer.
     */
    public long longValue(final String key, final long defaultValue)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, value, "must be an integer");
        }
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent, in bytes.
     * @return the size in bytes ({@code 16k}, {@code 64m}, {@code 1g} or a number of bytes).
     * @throws ConfigurationException if it is not a size or does not fit an int.
     */
    public int sizeAsInt(final String key, final int defaultValue)
    {
        final long size = sizeAsLong(key, defaultValue);
        if (size > Integer.MAX_VALUE)
        {
            throw bad(key, get(key), "must be below 2g");
        }
        return (int)size;
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent, in bytes.
     * @return the size in bytes.
     * @throws ConfigurationException if it is not a size.
     */
    public long sizeAsLong(final String key, final long defaultValue)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            return SystemUtil.parseSize(key, value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, value, "must be a size: a number of bytes, or with k, m or g");
        }
    }

    /**
     * @param key            the key.
     * @param defaultValueNs when absent.
     * @return the duration in nanoseconds ({@code 100ms}, {@code 5s}, {@code 250us}; a bare number is nanoseconds).
     * @throws ConfigurationException if it is not a duration.
     */
    public long durationNs(final String key, final long defaultValueNs)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValueNs;
        }
        try
        {
            return SystemUtil.parseDuration(key, value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, value, "must be a duration: a number with ns, us, ms or s");
        }
    }

    /**
     * @param key          the key.
     * @param defaultValue when absent.
     * @return true or false (any case).
     * @throws ConfigurationException for anything else.
     */
    public boolean bool(final String key, final boolean defaultValue)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValue;
        }
        if ("true".equalsIgnoreCase(value))
        {
            return true;
        }
        if ("false".equalsIgnoreCase(value))
        {
            return false;
        }
        throw bad(key, value, "must be true or false");
    }

    /**
     * @param key          the key.
     * @param type         the enum.
     * @param defaultValue when absent.
     * @param <E>          the enum.
     * @return the constant of that name (any case).
     * @throws ConfigurationException naming the allowed values otherwise.
     */
    public <E extends Enum<E>> E enumValue(final String key, final Class<E> type, final E defaultValue)
    {
        final String value = get(key);
        if (null == value)
        {
            return defaultValue;
        }
        for (final E constant : type.getEnumConstants())
        {
            if (constant.name().equalsIgnoreCase(value))
            {
                return constant;
            }
        }
        throw bad(key, value, "must be one of " + Arrays.toString(type.getEnumConstants()));
    }

    /**
     * @param prefix a key prefix.
     * @return the keys starting with it, sorted.
     */
    public TreeSet<String> keys(final String prefix)
    {
        final TreeSet<String> keys = new TreeSet<>();
        for (final String key : source.stringPropertyNames())
        {
            if (key.startsWith(prefix))
            {
                keys.add(key);
            }
        }
        return keys;
    }

    /**
     * @param key   the key.
     * @param value what it was set to (may be null).
     * @param rule  what it must be.
     * @return the exception to throw: "key: rule (was 'value')".
     */
    public static ConfigurationException bad(final String key, final Object value, final String rule)
    {
        return new ConfigurationException(key + ": " + rule + " (was '" + value + "')");
    }

    /**
     * Check a value, naming the key if it fails.
     *
     * @param ok    the condition.
     * @param key   the key.
     * @param value its value.
     * @param rule  what it must be.
     * @throws ConfigurationException if not ok.
     */
    public static void require(final boolean ok, final String key, final Object value, final String rule)
    {
        if (!ok)
        {
            throw bad(key, value, rule);
        }
    }

    /**
     * Check that a value is an Aeron channel URI, naming the key if it is not.
     *
     * @param key     the key.
     * @param channel its value.
     * @throws ConfigurationException unless the value starts with {@code aeron:}.
     */
    public static void requireChannel(final String key, final String channel)
    {
        require(channel != null && channel.startsWith("aeron:"), key, channel, "must be an Aeron channel URI");
    }
}
