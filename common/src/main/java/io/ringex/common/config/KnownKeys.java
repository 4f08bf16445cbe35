package io.ringex.common.config;

import io.aeron.exceptions.ConfigurationException;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code ringex.*} keys a process understands, so that a key it does not is refused at start with the closest
 * known key named: a typo ({@code ringex.engine.replication.mod=SYNC}) stops the process instead of running with
 * replication off. Keys are the {@code *_PROP_NAME} constants marked {@link ConfigOption} in the process's
 * {@code Configuration} classes, plus families of numbered or named keys ({@code ringex.gateway.user.<name>.accounts})
 * given as patterns. Keys under {@code ringex.jvm.} (the launchers' and tests' JVM flags) are nobody's configuration
 * and are passed over.
 * <p>
 * Thread safety: build on one thread, then read-only.
 */
public final class KnownKeys
{
    /** Every Ringex key starts with this. */
    public static final String PREFIX = "ringex.";
    /** Not configuration: the launchers' and tests' JVM flags live here. */
    public static final String IGNORED_PREFIX = "ringex.jvm.";

    private final TreeMap<String, Field> keys = new TreeMap<>();
    private final List<Family> families = new ArrayList<>();

    /** A family of keys: its pattern and how the reference shows it. */
    private record Family(Pattern pattern, String shown, String description)
    {
    }

    /**
     * @param configurationClasses classes whose {@link ConfigOption} constants are keys.
     * @return the keys.
     */
    public static KnownKeys of(final Class<?>... configurationClasses)
    {
        final KnownKeys known = new KnownKeys();
        for (final Class<?> type : configurationClasses)
        {
            known.add(type);
        }
        return known;
    }

    /**
     * Add a class's keys.
     *
     * @param configurationClass a class with {@link ConfigOption} {@code *_PROP_NAME} constants.
     * @return this.
     */
    public KnownKeys add(final Class<?> configurationClass)
    {
        for (final Field field : configurationClass.getFields())
        {
            if (field.isAnnotationPresent(ConfigOption.class) && Modifier.isStatic(field.getModifiers()) &&
                field.getType() == String.class)
            {
                keys.put((String)read(field), field);
            }
        }
        return this;
    }

    /**
     * Add a family of keys.
     *
     * @param regex       the keys, as a regular expression over the whole key.
     * @param shown       how the reference and suggestions show it, e.g. {@code ringex.gateway.user.<name>.accounts}.
     * @param description what the keys set.
     * @return this.
     */
    public KnownKeys family(final String regex, final String shown, final String description)
    {
        families.add(new Family(Pattern.compile(regex), shown, description));
        return this;
    }

    /**
     * @return the single keys, sorted, with the constants that name them.
     */
    public TreeMap<String, Field> keys()
    {
        return keys;
    }

    /**
     * @return the families, as shown: {@code shown -> description}.
     */
    public List<String[]> families()
    {
        final List<String[]> shown = new ArrayList<>();
        for (final Family family : families)
        {
            shown.add(new String[]{ family.shown, family.description });
        }
        return Collections.unmodifiableList(shown);
    }

    /**
     * @param key a key.
     * @return whether this process understands it.
     */
    public boolean isKnown(final String key)
    {
        if (keys.containsKey(key))
        {
            return true;
        }
        for (final Family family : families)
        {
            if (family.pattern.matcher(key).matches())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Refuse every {@code ringex.*} key of the source this process does not understand.
     *
     * @param source the configuration (system properties after loading files, or a file's keys).
     * @throws ConfigurationException naming the first unknown key (in sorted order) and the closest known key.
     */
    public void check(final Properties source)
    {
        final List<String> unknown = new ArrayList<>();
        for (final String key : source.stringPropertyNames())
        {
            if (key.startsWith(PREFIX) && !key.startsWith(IGNORED_PREFIX) && !isKnown(key))
            {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty())
        {
            Collections.sort(unknown);
            final String key = unknown.get(0);
            final String closest = closest(key);
            throw new ConfigurationException(key + ": unknown key" + (null == closest ? "" :
                " (did you mean " + closest + "?)") + (unknown.size() > 1 ? "; also unknown: " +
                unknown.subList(1, unknown.size()) : ""));
        }
    }

    /**
     * @param key an unknown key.
     * @return the known key (or family, as shown) nearest to it by edit distance, or null if none is close.
     */
    public String closest(final String key)
    {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String known : keys.keySet())
        {
            final int distance = distance(key, known);
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = known;
            }
        }
        for (final Family family : families)
        {
            final int distance = Math.min(distance(key, family.shown), distance(key, instance(family.shown, key)));
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = family.shown;
            }
        }
        return null != best && bestDistance <= Math.max(3, key.length() / 3) ? best : null;
    }

    /**
     * The family's key for the key's own name or number, so a typo after the placeholder is measured as one:
     * {@code ringex.gateway.engine.2.egress.chanel} is 1 from {@code ringex.gateway.engine.<n>.egress.channel} read
     * as {@code ringex.gateway.engine.2.egress.channel}, where a single key 3 away would otherwise be named.
     *
     * @param shown a family as shown, with one {@code <placeholder>}.
     * @param key   a key.
     * @return the family's key with the placeholder replaced by the key's segment at its place, or {@code shown}.
     */
    static String instance(final String shown, final String key)
    {
        final int open = shown.indexOf('<');
        final int close = shown.indexOf('>', open);
        if (open < 0 || close < 0 || !key.startsWith(shown.substring(0, open)))
        {
            return shown;
        }
        final int end = key.indexOf('.', open);
        return shown.substring(0, open) + key.substring(open, end < 0 ? key.length() : end) +
            shown.substring(close + 1);
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    static Object read(final Field field)
    {
        try
        {
            return field.get(null);
        }
        catch (final IllegalAccessException ex)
        {
            throw new IllegalStateException(field + " is not readable", ex);
        }
    }
}
