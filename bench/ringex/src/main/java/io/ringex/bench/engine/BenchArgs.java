package io.ringex.bench.engine;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code --name value} command-line options for the engine benchmarks, with defaults at the point of use.
 * <p>
 * Threading: main thread only.
 */
public final class BenchArgs
{
    private final Map<String, String> values = new HashMap<>();

    /** @param args {@code --name value} pairs. */
    public BenchArgs(final String[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            if (!args[i].startsWith("--") || i + 1 >= args.length)
            {
                throw new IllegalArgumentException("options come in pairs: --name value; got " + args[i]);
            }
            values.put(args[i], args[++i]);
        }
    }

    public String string(final String name, final String defaultValue)
    {
        return values.getOrDefault(name, defaultValue);
    }

    public String required(final String name)
    {
        final String value = values.get(name);
        if (value == null)
        {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }

    public int integer(final String name, final int defaultValue)
    {
        return values.containsKey(name) ? Integer.parseInt(values.get(name)) : defaultValue;
    }

    public long number(final String name, final long defaultValue)
    {
        return values.containsKey(name) ? Long.parseLong(values.get(name)) : defaultValue;
    }
}
