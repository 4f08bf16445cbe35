package io.ringex.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator tools' command lines ({@code ./ringex journal}, {@code ./ringex node}), read strictly: an option the
 * command does not take, an option without its value, an option given twice and a value that does not parse each
 * stop the command with a message naming the option, where a lenient reader would ignore {@code --form 100} and dump
 * the whole journal. Options ({@code --name value}, or a lone {@code --switch}) may come before or after the
 * positional arguments.
 * <p>
 * Thread safety: one thread (a command-line tool).
 */
public final class CommandLineOptions
{
    private final String command;
    private final List<String> positionals = new ArrayList<>();
    private final Map<String, String> values = new HashMap<>();

    /** Bad usage: the message names the option (or the missing argument). */
    public static final class UsageException extends IllegalArgumentException
    {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what is wrong, naming the option.
         */
        public UsageException(final String message)
        {
            super(message);
        }
    }

    private CommandLineOptions(final String command)
    {
        this.command = command;
    }

    /**
     * @param command    the command, for messages.
     * @param args       the arguments after the command.
     * @param withValues the options that take a value, as typed ({@code --from}).
     * @param switches   the options that take none ({@code --allow-gaps}).
     * @return the options and the positional arguments.
     * @throws UsageException naming an unknown option, one without its value, or one given twice.
     */
    public static CommandLineOptions parse(
        final String command, final List<String> args, final Set<String> withValues, final Set<String> switches)
    {
        final CommandLineOptions options = new CommandLineOptions(command);
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if (!arg.startsWith("--"))
            {
                options.positionals.add(arg);
                continue;
            }
            final String value;
            if (withValues.contains(arg))
            {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--"))
                {
                    throw new UsageException(arg + ": needs a value");
                }
                value = args.get(++i);
            }
            else if (switches.contains(arg))
            {
                value = "true";
            }
            else
            {
                final TreeSet<String> known = new TreeSet<>(withValues);
                known.addAll(switches);
                throw new UsageException(arg + ": unknown option for " + command + " (it takes " +
                    (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
            }
            if (null != options.values.put(arg, value))
            {
                throw new UsageException(arg + ": given twice");
            }
        }
        return options;
    }

    /**
     * @return the arguments that are not options, in order.
     */
    public List<String> positionals()
    {
        return Collections.unmodifiableList(positionals);
    }

    /**
     * @param count how many positional arguments the command takes.
     * @param names their names, for the message.
     * @throws UsageException if there are more or fewer.
     */
    public void requirePositionals(final int count, final String names)
    {
        if (positionals.size() != count)
        {
            throw new UsageException(command + " takes " + names + (positionals.size() > count ?
                ", not also " + positionals.subList(count, positionals.size()) : ""));
        }
    }

    /**
     * @param option the option.
     * @return whether it was given.
     */
    public boolean has(final String option)
    {
        return values.containsKey(option);
    }

    /**
     * @param option       the option.
     * @param defaultValue when absent.
     * @return its value.
     */
    public String string(final String option, final String defaultValue)
    {
        return values.getOrDefault(option, defaultValue);
    }

    /**
     * @param option the option.
     * @return its value.
     * @throws UsageException if it was not given.
     */
    public String required(final String option)
    {
        final String value = values.get(option);
        if (null == value)
        {
            throw new UsageException(option + " is required");
        }
        return value;
    }

    /**
     * @param option       the option.
     * @param defaultValue when absent.
     * @param min          the least value allowed.
     * @return its value.
     * @throws UsageException naming the option if it is not an integer of at least {@code min}.
     */
    public long longValue(final String option, final long defaultValue, final long min)
    {
        final String value = values.get(option);
        if (null == value)
        {
            return defaultValue;
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(option + ": must be an integer (was '" + value + "')");
        }
        if (parsed < min)
        {
            throw new UsageException(option + ": must be at least " + min + " (was '" + value + "')");
        }
        return parsed;
    }

    /**
     * @param option       the option.
     * @param defaultValue when absent.
     * @param min          the least value allowed.
     * @return its value.
     * @throws UsageException naming the option if it is not an int of at least {@code min}.
     */
    public int intValue(final String option, final int defaultValue, final int min)
    {
        final long value = longValue(option, defaultValue, min);
        if (value > Integer.MAX_VALUE)
        {
            throw new UsageException(option + ": must be at most " + Integer.MAX_VALUE + " (was '" + value + "')");
        }
        return (int)value;
    }
}
