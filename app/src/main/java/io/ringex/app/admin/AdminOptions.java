package io.ringex.app.admin;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.ringex.common.config.CommandLineOptions;
import io.ringex.protocol.CommandText;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.PriceBandType;

/**
 * How {@link AdminCli} reads its options: strictly ({@link CommandLineOptions}), each bad value a usage error naming
 * the option, checked by the engine's rules for text (operator, reason, names) before anything is sent.
 * <p>
 * Stateless.
 */
final class AdminOptions
{
    private static final Set<String> AUDIT = Set.of("--operator", "--reason");
    private static final int MAX_OPERATOR = 32;
    private static final int MAX_TEXT = 64;

    private AdminOptions()
    {
    }

    static CommandLineOptions parse(
        final String command, final List<String> args, final Set<String> withValues, final Set<String> switches)
    {
        return CommandLineOptions.parse(command, args, union(union(withValues, AUDIT), AdminConnection.OPTIONS),
            union(switches, AdminConnection.SWITCHES));
    }

    static String verb(final String noun, final List<String> args, final Set<String> verbs)
    {
        if (args.isEmpty() || !verbs.contains(args.get(0)))
        {
            throw new CommandLineOptions.UsageException(noun + " takes one of " + String.join(", ",
                new TreeSet<>(verbs)) + (args.isEmpty() ? "" : " (not '" + args.get(0) + "')"));
        }
        return args.get(0);
    }

    static Set<String> union(final Set<String> a, final Set<String> b)
    {
        final Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    static String operator(final CommandLineOptions options)
    {
        final String operator = options.required("--operator");
        if (!CommandText.isToken(operator, MAX_OPERATOR))
        {
            throw new CommandLineOptions.UsageException("--operator: 1 to " + MAX_OPERATOR +
                " printable characters without spaces (was '" + operator + "')");
        }
        return operator;
    }

    static String reason(final CommandLineOptions options)
    {
        return text(options, "--reason");
    }

    static String text(final CommandLineOptions options, final String option)
    {
        final String text = options.string(option, "");
        for (int i = 0; i < text.length(); i++)
        {
            if (text.charAt(i) < 0x20 || text.charAt(i) > 0x7E)
            {
                throw new CommandLineOptions.UsageException(option + ": printable ASCII only");
            }
        }
        if (text.length() > MAX_TEXT)
        {
            throw new CommandLineOptions.UsageException(option + ": at most " + MAX_TEXT + " characters");
        }
        return text;
    }

    static void requireOption(final CommandLineOptions options, final String option)
    {
        options.required(option);
    }

    static long requiredLong(final CommandLineOptions options, final String option)
    {
        requireOption(options, option);
        return options.longValue(option, 0, 0);
    }

    /**
     * A cancel-on-disconnect grace, as the engine takes it.
     *
     * @param options      the options.
     * @param option       the option naming it.
     * @param defaultValue when absent.
     * @return the grace in ms, 0 to {@link MessageCatalog#MAX_CANCEL_ON_DISCONNECT_GRACE_MS}.
     * @throws CommandLineOptions.UsageException naming the option otherwise.
     */
    static int codGraceMs(final CommandLineOptions options, final String option, final int defaultValue)
    {
        final String text = options.string(option, null);
        final int max = MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS;
        long value = -1;
        if (null == text)
        {
            return defaultValue;
        }
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            // refused below
        }
        if (value < 0 || value > max)
        {
            throw new CommandLineOptions.UsageException(option + ": the cancel-on-disconnect grace is 0 (none) to " +
                max + " ms (ten minutes) (was '" + text + "')");
        }
        return (int)value;
    }

    static String symbol(final String symbol)
    {
        if (!CommandText.isToken(symbol, ReferenceDataParser.MAX_SYMBOL))
        {
            throw new CommandLineOptions.UsageException("--symbol: 1 to " + ReferenceDataParser.MAX_SYMBOL +
                " printable characters without spaces (was '" + symbol + "')");
        }
        return symbol;
    }

    static long price(final CommandLineOptions options, final String option, final int scale)
    {
        final String text = options.required(option);
        final long value = FixedPoint.parse(text, scale);
        if (value == FixedPoint.INVALID || value <= 0)
        {
            throw new CommandLineOptions.UsageException(option + ": must be a positive price with at most " + scale +
                " decimal places (was '" + text + "')");
        }
        return value;
    }

    static long money(final String text, final String option)
    {
        final long value = FixedPoint.parse(text, FixedPoint.MONEY_SCALE);
        if (value == FixedPoint.INVALID || value < 0)
        {
            throw new CommandLineOptions.UsageException(option + ": must be an amount of zero or more with at most " +
                FixedPoint.MONEY_SCALE + " decimal places (was '" + text + "')");
        }
        return value;
    }

    static PriceBandType bandType(final String text)
    {
        return switch (text)
        {
            case "bps" -> PriceBandType.BASIS_POINTS;
            case "ticks" -> PriceBandType.TICKS;
            default -> throw new CommandLineOptions.UsageException("--band-type: must be bps or ticks (was '" + text +
                "')");
        };
    }

    static long[] accounts(final String text)
    {
        final String[] parts = text.split(",", -1);
        final long[] accounts = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                accounts[i] = Long.parseLong(parts[i].trim());
            }
            catch (final NumberFormatException ex)
            {
                accounts[i] = 0;
            }
            if (accounts[i] <= 0)
            {
                throw new CommandLineOptions.UsageException("--accounts: a list of account ids, the default first " +
                    "(was '" + text + "')");
            }
        }
        return accounts;
    }

    static Map<Integer, Long> instrumentLimits(final String text)
    {
        final Map<Integer, Long> limits = new TreeMap<>();
        if (text.isEmpty())
        {
            return limits;
        }
        for (final String part : text.split(",", -1))
        {
            final String[] pair = part.split("=", -1);
            try
            {
                final int instrument = Integer.parseInt(pair[0].trim());
                final long limit = Long.parseLong(pair[1].trim());
                if (pair.length != 2 || instrument <= 0 || limit < 0 || null != limits.put(instrument, limit))
                {
                    throw new NumberFormatException(part);
                }
            }
            catch (final NumberFormatException | ArrayIndexOutOfBoundsException ex)
            {
                throw new CommandLineOptions.UsageException("--instrument-limits: INSTRUMENT_ID=LIMIT,... each " +
                    "instrument once (was '" + text + "')");
            }
        }
        return limits;
    }

    /** The five limits an account needs before it may trade, in the order the usage gives them. */
    static final List<String> FIVE_LIMITS = List.of("--max-order-quantity", "--max-order-notional", "--credit-limit",
        "--position-limit", "--max-open-orders");
    /** The limit options that take a value: the five and the per-instrument ones. */
    static final Set<String> LIMIT_OPTIONS = union(Set.copyOf(FIVE_LIMITS), Set.of("--instrument-limits"));
    /** The limit option that takes none. */
    static final String ALLOW_SHORT = "--allow-short";

    /**
     * An account's limits as SetLimits replaces them.
     *
     * @param maxOrderQuantity units per order.
     * @param maxOrderNotional money per order.
     * @param creditLimit      how far cash may go below zero.
     * @param positionLimit    the default absolute position limit.
     * @param maxOpenOrders    orders that may wait at once.
     * @param allowShort       sells beyond the position.
     * @param instruments      instruments with a position limit of their own.
     * @param positionLimits   their limits.
     */
    record Limits(
        long maxOrderQuantity,
        long maxOrderNotional,
        long creditLimit,
        long positionLimit,
        int maxOpenOrders,
        boolean allowShort,
        int[] instruments,
        long[] positionLimits)
    {
    }

    /**
     * Read the limits: the five together, or (when not required) none at all; {@code --allow-short} and
     * {@code --instrument-limits} only with them.
     *
     * @param options  the command line.
     * @param command  the command, for the message.
     * @param required whether the command needs them ({@code account limits}) or may go without ({@code account
     *                 open}).
     * @return the limits, or null when none were given and none are required.
     * @throws CommandLineOptions.UsageException naming what is missing or malformed.
     */
    static Limits limits(final CommandLineOptions options, final String command, final boolean required)
    {
        final List<String> missing = FIVE_LIMITS.stream().filter((o) -> !options.has(o)).toList();
        if (!required && missing.size() == FIVE_LIMITS.size())
        {
            if (options.has(ALLOW_SHORT) || options.has("--instrument-limits"))
            {
                throw new CommandLineOptions.UsageException(command + ": " + ALLOW_SHORT + " and " +
                    "--instrument-limits come with the five limits (" + String.join(" ", FIVE_LIMITS) + ")");
            }
            return null;
        }
        if (!missing.isEmpty())
        {
            throw new CommandLineOptions.UsageException(command + " takes the five limits together (" +
                String.join(" ", FIVE_LIMITS) + (required ? "" : ", or none") + "): missing " +
                String.join(", ", missing));
        }
        final long maxQuantity = requiredLong(options, "--max-order-quantity");
        final long maxNotional = money(options.required("--max-order-notional"), "--max-order-notional");
        final long credit = money(options.required("--credit-limit"), "--credit-limit");
        final long positionLimit = requiredLong(options, "--position-limit");
        final int maxOpen = (int)Math.min(Integer.MAX_VALUE, requiredLong(options, "--max-open-orders"));
        final Map<Integer, Long> overrides = instrumentLimits(options.string("--instrument-limits", ""));
        return new Limits(maxQuantity, maxNotional, credit, positionLimit, maxOpen, options.has(ALLOW_SHORT),
            overrides.keySet().stream().mapToInt(Integer::intValue).toArray(),
            overrides.values().stream().mapToLong(Long::longValue).toArray());
    }

    static int[] instruments(final String text)
    {
        final String[] parts = text.split(",", -1);
        final int[] instruments = new int[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                instruments[i] = Integer.parseInt(parts[i].trim());
            }
            catch (final NumberFormatException ex)
            {
                instruments[i] = 0;
            }
            if (instruments[i] <= 0)
            {
                throw new CommandLineOptions.UsageException("--instruments: a list of instrument ids (was '" + text +
                    "')");
            }
        }
        return instruments;
    }

    /** Request ids from the clock: distinct across runs, so the journal's audit trail tells runs apart. */
    static long firstRequestId()
    {
        return System.currentTimeMillis() * 1000;
    }
}
