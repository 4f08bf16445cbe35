package io.ringex.app.admin;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.ringex.protocol.CommandText;
import io.ringex.protocol.FixedPoint;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * One YAML mapping of a reference-data file, read for {@link ReferenceDataParser}: its keys checked against what it
 * may hold, each given once, and its values taken as typed values, each problem recorded with the line and the key's
 * path ({@code instruments[2].tick}) rather than thrown, so a file's every problem is reported at once.
 * <p>
 * Not thread-safe: one parse.
 */
final class YamlFields
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");

    /** The problems of one file, each {@code FILE:LINE: path: message}, in the order found. */
    static final class Problems
    {
        private final String source;
        private final List<String> list = new ArrayList<>();

        /**
         * @param source the file's name, for messages.
         */
        Problems(final String source)
        {
            this.source = source;
        }

        void add(final Node node, final String path, final String message)
        {
            list.add(source + ":" + line(node) + ": " + path + ": " + message);
        }

        /**
         * @param lineAndMessage {@code LINE: message}.
         */
        void addLine(final String lineAndMessage)
        {
            list.add(source + ":" + lineAndMessage);
        }

        int count()
        {
            return list.size();
        }

        List<String> list()
        {
            return list;
        }
    }

    private final Problems problems;
    private final String path;
    private final Node node;
    private final Map<String, NodeTuple> byKey = new LinkedHashMap<>();

    /**
     * @param problems where problems go.
     * @param path    the mapping's place in the file, for messages.
     * @param node    the mapping.
     * @param allowed its keys, or null for any (a map keyed by symbol).
     */
    YamlFields(final Problems problems, final String path, final Node node, final Set<String> allowed)
    {
        this.problems = problems;
        this.path = path;
        this.node = node;
        if (!(node instanceof MappingNode mapping))
        {
            problems.add(node, path.isEmpty() ? "(top level)" : path, "must be a mapping of keys to values");
            return;
        }
        for (final NodeTuple tuple : mapping.getValue())
        {
            final Node keyNode = tuple.getKeyNode();
            if (!(keyNode instanceof ScalarNode scalar))
            {
                problems.add(keyNode, path, "a key must be a plain name");
                continue;
            }
            final String key = scalar.getValue();
            final NodeTuple first = byKey.get(key);
            if (null != allowed && !allowed.contains(key))
            {
                problems.add(keyNode, path(key), "unknown key '" + key + "' (" + (path.isEmpty() ? "the top level" :
                    path) + " takes " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
            else if (null != first)
            {
                problems.add(keyNode, path(key), "given twice (first on line " +
                    line(first.getKeyNode()) + ")");
            }
            else
            {
                byKey.put(key, tuple);
            }
        }
    }

    int line()
    {
        return line(node);
    }

    String path(final String key)
    {
        return path.isEmpty() ? key : path + "." + key;
    }

    Set<String> keys()
    {
        return byKey.keySet();
    }

    boolean has(final String key)
    {
        return byKey.containsKey(key);
    }

    Node node(final String key)
    {
        final NodeTuple tuple = byKey.get(key);
        return null == tuple ? null : tuple.getValueNode();
    }

    Node keyNode(final String key)
    {
        final NodeTuple tuple = byKey.get(key);
        return null == tuple ? node : tuple.getKeyNode();
    }

    void missing(final String key)
    {
        if (node instanceof MappingNode)
        {
            problems.add(node, path(key), "missing (required)");
        }
    }

    List<YamlFields> list(final String key, final Set<String> allowed)
    {
        final Node value = node(key);
        if (null == value || isNull(value))
        {
            return List.of();
        }
        if (!(value instanceof SequenceNode sequence))
        {
            problems.add(value, path(key), "must be a list (items starting with '- ')");
            return List.of();
        }
        final List<YamlFields> items = new ArrayList<>();
        for (int i = 0; i < sequence.getValue().size(); i++)
        {
            items.add(new YamlFields(problems, path(key) + "[" + (i + 1) + "]", sequence.getValue().get(i), allowed));
        }
        return items;
    }

    /** The key's text as written, or null; never a problem. */
    String raw(final String key)
    {
        return node(key) instanceof ScalarNode scalar ? scalar.getValue() : null;
    }

    /** The key's text; a problem (and null) if required and absent, or not a single value. */
    String text(final String key, final boolean required)
    {
        final Node value = node(key);
        if (null == value)
        {
            if (required)
            {
                missing(key);
            }
            return null;
        }
        if (!(value instanceof ScalarNode scalar) || isNull(value))
        {
            problems.add(value, path(key), "must be a single value");
            return null;
        }
        return scalar.getValue();
    }

    Long integer(final String key, final long min, final long max, final Long defaultValue)
    {
        if (null != defaultValue && !has(key))
        {
            return defaultValue;
        }
        return null == text(key, true) ? null : integer(problems, node(key), path(key), min, max);
    }

    Long decimal(final String key, final int scale, final long min, final String what)
    {
        final String text = text(key, true);
        if (null == text)
        {
            return null;
        }
        final long value = FixedPoint.parse(text.replace("_", ""), scale);
        if (value == FixedPoint.INVALID)
        {
            problems.add(node(key), path(key), "'" + text + "' is not " + what + " with at most " + scale +
                " decimal places");
            return null;
        }
        if (value < min)
        {
            problems.add(node(key), path(key), text + " must be " + (min == 0 ? "zero or more" : "more than zero"));
            return null;
        }
        return value;
    }

    Boolean bool(final String key, final Boolean defaultValue)
    {
        if (!has(key))
        {
            return defaultValue;
        }
        final String text = text(key, true);
        if (null == text)
        {
            return null;
        }
        if (text.equals("true") || text.equals("false"))
        {
            return Boolean.valueOf(text);
        }
        problems.add(node(key), path(key), "must be true or false, not '" + text + "'");
        return null;
    }

    String token(final String key, final int maxLength, final String defaultValue)
    {
        if (null != defaultValue && !has(key))
        {
            return defaultValue;
        }
        final String text = text(key, true);
        if (null == text)
        {
            return null;
        }
        if (!CommandText.isToken(text, maxLength))
        {
            problems.add(node(key), path(key), "'" + text + "' must be 1 to " + maxLength +
                " printable ASCII characters without spaces");
            return null;
        }
        return text;
    }

    LocalTime time(final String key)
    {
        final String text = text(key, true);
        if (null == text)
        {
            return null;
        }
        try
        {
            return LocalTime.parse(text, TIME);
        }
        catch (final DateTimeParseException ex)
        {
            problems.add(node(key), path(key), "'" + text + "' is not a time of day HH:MM");
            return null;
        }
    }

    static int line(final Node node)
    {
        return null == node ? 1 : node.getStartMark().getLine() + 1;
    }

    static Long integer(final Problems problems, final Node node, final String path, final long min, final long max)
    {
        final String text = node instanceof ScalarNode scalar ? scalar.getValue() : null;
        if (null == text || text.isEmpty())
        {
            problems.add(node, path, "must be a whole number");
            return null;
        }
        final long value;
        try
        {
            value = Long.parseLong(text.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            problems.add(node, path, "must be a whole number, not '" + text + "'");
            return null;
        }
        if (value < min || value > max)
        {
            problems.add(node, path, value + " is out of range (" + min + " to " + max + ")");
            return null;
        }
        return value;
    }

    static boolean isNull(final Node node)
    {
        return node instanceof ScalarNode scalar && scalar.isPlain() &&
            (scalar.getValue().isEmpty() || scalar.getValue().equals("~") || scalar.getValue().equals("null"));
    }
}
