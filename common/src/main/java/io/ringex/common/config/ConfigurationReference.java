package io.ringex.common.config;

import org.agrona.SystemUtil;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * Writes the configuration reference (a Markdown table: key, default, meaning) from the {@link ConfigOption}
 * constants themselves, so docs/operations.md shows what the code does; a test regenerates each table and fails when
 * the document's copy differs. A key's default comes from the constant of the same stem: {@code X_DEFAULT}, or
 * {@code X_DEFAULT_NS} (shown as a duration), or {@code X_DEFAULT_BYTES} (shown as a size); or from
 * {@link ConfigOption#defaultText()}.
 * <p>
 * Thread safety: stateless.
 */
public final class ConfigurationReference
{
    private static final String PROP_NAME = "_PROP_NAME";

    private ConfigurationReference()
    {
    }

    /**
     * @param known the keys of one component.
     * @return the table, one row per key then per family, each line ending in a newline.
     */
    public static String table(final KnownKeys known)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append("| key | default | meaning |\n|---|---|---|\n");
        for (final Map.Entry<String, Field> entry : known.keys().entrySet())
        {
            final Field field = entry.getValue();
            final ConfigOption option = field.getAnnotation(ConfigOption.class);
            out.append("| `").append(entry.getKey()).append("` | ").append(defaultOf(field, option)).append(" | ")
                .append(option.value()).append(" |\n");
        }
        for (final String[] family : known.families())
        {
            out.append("| `").append(family[0]).append("` | | ").append(family[1]).append(" |\n");
        }
        return out.toString();
    }

    /**
     * @param field  a {@code *_PROP_NAME} constant.
     * @param option its annotation.
     * @return the default as shown in the reference.
     * @throws IllegalStateException if the key has neither a default constant nor a default text.
     */
    static String defaultOf(final Field field, final ConfigOption option)
    {
        if (!option.defaultText().isEmpty())
        {
            return option.defaultText();
        }
        final String name = field.getName();
        if (!name.endsWith(PROP_NAME))
        {
            throw new IllegalStateException(field + ": a key constant's name ends in " + PROP_NAME);
        }
        final String stem = name.substring(0, name.length() - PROP_NAME.length());
        final Class<?> owner = field.getDeclaringClass();
        final Object plain = constant(owner, stem + "_DEFAULT");
        if (null != plain)
        {
            return "`" + plain + "`";
        }
        final Object nanos = constant(owner, stem + "_DEFAULT_NS");
        if (null != nanos)
        {
            return "`" + SystemUtil.formatDuration(((Number)nanos).longValue()) + "`";
        }
        final Object bytes = constant(owner, stem + "_DEFAULT_BYTES");
        if (null != bytes)
        {
            return "`" + SystemUtil.formatSize(((Number)bytes).longValue()) + "`";
        }
        throw new IllegalStateException(field + ": no " + stem + "_DEFAULT[_NS|_BYTES] constant and no defaultText");
    }

    private static Object constant(final Class<?> owner, final String name)
    {
        try
        {
            return KnownKeys.read(owner.getField(name));
        }
        catch (final NoSuchFieldException ex)
        {
            return null;
        }
    }
}
