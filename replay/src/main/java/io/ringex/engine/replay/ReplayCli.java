package io.ringex.engine.replay;

import io.ringex.common.config.CommandLineOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The journal commands that replay through the business-logic processor ({@code state}, {@code audit}, {@code trades},
 * {@code statements}, {@code events}, {@code digest}, {@code compare}, {@code synth}), run as {@code ./ringex journal
 * <command>}; docs/operations.md, "Replay and audit". The journal module's CLI takes the others, since it cannot depend
 * on the engine.
 * <p>
 * Options are read strictly ({@link CommandLineOptions}): a bad one stops the command (exit 2) before the journal is
 * opened; a question the journal cannot answer exits 1 with a message. Reads the journal and snapshots only.
 */
public final class ReplayCli
{
    private static final String USAGE = String.join("\n",
        "usage: journal <command> <journal-dir> [options]",
        "  state      DIR --at SEQUENCE|TIME [--snapshots DIR] [--format text|json|csv] [--instrument I] [--account A]",
        "  audit      DIR --order ID | --client-order ID --account A | --account A | --admin  [--from TIME]",
        "             [--to TIME]",
        "             [--snapshots DIR] [--format text|json] [--limit N]",
        "  trades     DIR --day YYYY-MM-DD | --from SEQ|TIME --to SEQ|TIME [--snapshots DIR] [--out FILE]",
        "  statements DIR --day YYYY-MM-DD | --from SEQ|TIME --to SEQ|TIME [--account A] [--snapshots DIR]",
        "             [--out FILE]",
        "  events     DIR --from SEQ [--to SEQ]",
        "  digest     DIR [--hash-every N]",
        "  compare    DIR --with CLASSPATH [--hash-every N] [--java PATH]",
        "  synth      DIR --commands N [--snapshots DIR --snapshot-every N] [--seed S] [--start TIME]",
        "TIME is ISO-8601 in UTC (2026-01-05T10:32:05.120Z); every command also takes --allow-gaps");
    private static final Map<String, Set<String>> OPTIONS = Map.of(
        "state", Set.of("--at", "--snapshots", "--format", "--instrument", "--account"),
        "audit", Set.of("--order", "--client-order", "--account", "--from", "--to", "--snapshots", "--format",
            "--limit"),
        "trades", Set.of("--day", "--from", "--to", "--snapshots", "--out"),
        "statements", Set.of("--day", "--from", "--to", "--account", "--snapshots", "--out"),
        "events", Set.of("--from", "--to"),
        "digest", Set.of("--hash-every"),
        "compare", Set.of("--with", "--hash-every", "--java"),
        "synth", Set.of("--commands", "--snapshots", "--snapshot-every", "--seed", "--start"));

    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param out where answers go.
     * @param err where problems and progress go.
     */
    public ReplayCli(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * @param args command, journal directory, options.
     */
    public static void main(final String[] args)
    {
        // answers can be millions of lines (digest): buffered, flushed once at the end, not at every line
        final PrintStream out = new PrintStream(new java.io.BufferedOutputStream(
            new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
        final int status = new ReplayCli(out, System.err).run(args);
        out.flush();
        System.exit(status);
    }

    /**
     * @param command a command name.
     * @return whether this CLI runs it (the launcher asks).
     */
    public static boolean runs(final String command)
    {
        return OPTIONS.containsKey(command);
    }

    /**
     * @param args command, journal directory, options.
     * @return the exit status.
     */
    public int run(final String[] args)
    {
        if (args.length == 0 || !OPTIONS.containsKey(args[0]))
        {
            if (args.length > 0)
            {
                err.println("unknown command " + args[0]);
            }
            err.println(USAGE);
            return 2;
        }
        final String command = args[0];
        final CommandLineOptions options;
        try
        {
            options = CommandLineOptions.parse(command, Arrays.asList(args).subList(1, args.length),
                OPTIONS.get(command), "audit".equals(command) ? Set.of("--allow-gaps", "--admin") :
                Set.of("--allow-gaps"));
            options.requirePositionals(1, "one journal directory");
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        final Path directory = Path.of(options.positionals().get(0));
        try
        {
            switch (command)
            {
                case "state":
                    return state(directory, options);
                case "audit":
                    return audit(directory, options);
                case "trades":
                case "statements":
                    return postTrade(command, directory, options);
                case "events":
                    return events(directory, options);
                case "digest":
                    return digest(directory, options);
                case "compare":
                    return compare(directory, options);
                default:
                    return synth(directory, options);
            }
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return ReplayException.USAGE;
        }
        catch (final ReplayException ex)
        {
            err.println(command + ": " + ex.getMessage());
            return ex.exitStatus();
        }
        catch (final RuntimeException ex)
        {
            // a failure nothing above foresaw: say what, and where, rather than a bare stack trace
            err.println(command + ": failed on " + directory + ": " + ex);
            return ReplayException.NOT_ANSWERABLE;
        }
    }

    private Replayer open(final Path directory, final CommandLineOptions options)
    {
        final Path snapshots = options.has("--snapshots") ? Path.of(options.string("--snapshots", null)) : null;
        return Replayer.open(directory, snapshots).allowGaps(options.has("--allow-gaps"));
    }

    private int state(final Path directory, final CommandLineOptions options)
    {
        final String at = options.required("--at");
        final String format = format(options, "text", "json", "csv");
        final int instrument = options.intValue("--instrument", 0, 1);
        final long account = options.longValue("--account", 0, 1);
        final Point point = Point.parse(at, "--at");
        final long startNs = System.nanoTime();
        try (Replayer replayer = open(directory, options))
        {
            final PointInTime.State state = PointInTime.rebuild(replayer, point);
            final Map<String, Object> export = StateExport.export(replayer.processor().state(),
                state.sequence(), state.timestampNs(), instrument, account);
            final long elapsedNs = System.nanoTime() - startNs;
            switch (format)
            {
                case "json":
                    export.put("stateHash", String.format("%016x", state.stateHash()));
                    out.print(StateExport.prettyJson(export));
                    break;
                case "csv":
                    out.print(StateExport.csv(export));
                    break;
                default:
                    out.print(StateExport.text(export));
                    out.printf("%nstate hash %016x%n", state.stateHash());
                    break;
            }
            err.printf("rebuilt in %.3f s: %s, then %d commands from the journal%n", elapsedNs / 1e9,
                replayer.restoredSequence() == 0 ? "no snapshot" : "snapshot at " + replayer.restoredSequence(),
                replayer.appliedCount());
            replayer.notes().stream().filter((n) -> !n.startsWith("started")).forEach(
                (n) -> err.println("note: " + n));
            return 0;
        }
    }

    private int audit(final Path directory, final CommandLineOptions options)
    {
        final String format = format(options, "text", "json");
        final AuditTrail.Query query;
        if (options.has("--admin"))
        {
            if (options.has("--order") || options.has("--client-order") || options.has("--account"))
            {
                throw new CommandLineOptions.UsageException("audit: --admin stands alone (not with --order, " +
                    "--client-order or --account)");
            }
            query = AuditTrail.Query.admin();
        }
        else if (options.has("--order"))
        {
            if (options.has("--client-order") || options.has("--account"))
            {
                throw new CommandLineOptions.UsageException("audit: --order stands alone (not with --client-order " +
                    "or --account)");
            }
            query = AuditTrail.Query.order(options.longValue("--order", 0, 1));
        }
        else if (options.has("--client-order"))
        {
            query = AuditTrail.Query.clientOrder(options.string("--client-order", null),
                options.longValue("--account", 0, 1));
            if (!options.has("--account"))
            {
                throw new CommandLineOptions.UsageException("audit: --client-order needs --account");
            }
        }
        else if (options.has("--account"))
        {
            query = AuditTrail.Query.account(options.longValue("--account", 0, 1));
        }
        else
        {
            throw new CommandLineOptions.UsageException("audit: say whose trail: --order, --client-order with " +
                "--account, --account, or --admin");
        }
        query.window(options.has("--from") ? time(options.string("--from", null), "--from") : Long.MIN_VALUE,
            options.has("--to") ? time(options.string("--to", null), "--to") : Long.MAX_VALUE);
        query.limit(options.intValue("--limit", 10_000, 1));
        try (Replayer replayer = open(directory, options))
        {
            final AuditTrail.Result result = new AuditTrail().run(replayer, query);
            out.print("json".equals(format) ? AuditTrail.json(result) + "\n" : AuditTrail.text(result));
            return 0;
        }
    }

    private int postTrade(final String command, final Path directory, final CommandLineOptions options)
    {
        final Point from;
        final Point to;
        if (options.has("--day"))
        {
            if (options.has("--from") || options.has("--to"))
            {
                throw new CommandLineOptions.UsageException(command + ": --day or --from/--to, not both");
            }
            final LocalDate day;
            try
            {
                day = LocalDate.parse(options.string("--day", null));
            }
            catch (final DateTimeParseException ex)
            {
                throw new CommandLineOptions.UsageException("--day: not a date (YYYY-MM-DD): " +
                    options.string("--day", null));
            }
            final long startNs = day.atStartOfDay(ZoneOffset.UTC).toEpochSecond() * 1_000_000_000L;
            from = Point.time(startNs);
            to = Point.time(startNs + 86_400_000_000_000L - 1);
        }
        else if (options.has("--from") && options.has("--to"))
        {
            from = Point.parse(options.string("--from", null), "--from");
            to = Point.parse(options.string("--to", null), "--to");
        }
        else
        {
            throw new CommandLineOptions.UsageException(command + ": say which part of the journal: --day, or " +
                "--from and --to");
        }
        final long account = options.longValue("--account", 0, 1);
        final String text;
        try (Replayer replayer = open(directory, options))
        {
            final PostTrade.Period period = PostTrade.collect(replayer, from, to);
            text = command.equals("trades") ? PostTrade.tradeFile(period) : PostTrade.statements(period, account);
            err.printf("%s: sequences %d..%d, %d trades%n", command, period.fromSequence(), period.toSequence(),
                period.trades().size());
        }
        if (options.has("--out"))
        {
            final Path file = Path.of(options.string("--out", null));
            try
            {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new ReplayException("cannot write " + file + ": " + ex.getMessage());
            }
            err.println("wrote " + file);
        }
        else
        {
            out.print(text);
        }
        return 0;
    }

    private int events(final Path directory, final CommandLineOptions options)
    {
        final long from = options.longValue("--from", 1, 1);
        final long to = options.longValue("--to", from, from);
        try (Replayer replayer = open(directory, options))
        {
            replayer.checkSequence(from);
            replayer.startAtOrBefore(from - 1, Long.MAX_VALUE);
            final MessageText text = new MessageText();
            replayer.replay(to, Long.MAX_VALUE, (sequence, timestampNs, sourceId, buffer, offset, length, log) ->
            {
                if (sequence >= from)
                {
                    out.println(ShadowCompare.render(text, sequence, timestampNs, sourceId, buffer, offset, log));
                }
                return true;
            });
            return 0;
        }
    }

    private int digest(final Path directory, final CommandLineOptions options)
    {
        final long every = options.longValue("--hash-every", 100_000, 1);
        try (Replayer replayer = open(directory, options))
        {
            ShadowCompare.digest(replayer, every, (line) ->
            {
                out.println(line);
                return true;
            });
            out.flush();
            return 0;
        }
    }

    private int compare(final Path directory, final CommandLineOptions options)
    {
        final String with = options.required("--with");
        final long every = options.longValue("--hash-every", 100_000, 1);
        final String java = options.string("--java", Path.of(System.getProperty("java.home"), "bin", "java")
            .toString());
        if (!Files.isDirectory(directory))
        {
            throw new ReplayException("no journal at " + directory);
        }
        final ShadowCompare.Outcome outcome = new ShadowCompare(java, with, err).compare(directory, every,
            options.has("--allow-gaps"));
        out.print(outcome.report());
        return outcome.same() ? 0 : 3;
    }

    private int synth(final Path directory, final CommandLineOptions options)
    {
        final long commands = options.longValue("--commands", 0, 21);
        if (!options.has("--commands"))
        {
            throw new CommandLineOptions.UsageException("synth: --commands N is needed");
        }
        final Path snapshots = options.has("--snapshots") ? Path.of(options.string("--snapshots", null)) : null;
        final long every = options.longValue("--snapshot-every", 1_000_000, 1);
        final long seed = options.longValue("--seed", 42, Long.MIN_VALUE);
        final long start = options.has("--start") ? time(options.string("--start", null), "--start") :
            DemoJournal.DEFAULT_START_NS;
        try (java.util.stream.Stream<Path> existing = Files.exists(directory) ? Files.list(directory) :
            java.util.stream.Stream.empty())
        {
            if (existing.findAny().isPresent())
            {
                throw new ReplayException("synth writes a new journal: " + directory + " is not empty");
            }
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot read " + directory + ": " + ex.getMessage());
        }
        final long startNs = System.nanoTime();
        final DemoJournal.Summary summary = DemoJournal.write(directory, snapshots, commands, every, seed, start);
        out.printf("wrote %d commands (%s .. %s)%s in %.1f s; state hash %016x%n", summary.commands(),
            Instant.ofEpochSecond(0, summary.firstTimestampNs()), Instant.ofEpochSecond(0, summary.lastTimestampNs()),
            snapshots == null ? "" : ", " + summary.snapshots() + " snapshots", (System.nanoTime() - startNs) / 1e9,
            summary.stateHash());
        return 0;
    }

    private static String format(final CommandLineOptions options, final String... allowed)
    {
        final String format = options.string("--format", allowed[0]);
        if (!Arrays.asList(allowed).contains(format))
        {
            throw new CommandLineOptions.UsageException("--format: " + format + " is not one of " +
                String.join(", ", allowed));
        }
        return format;
    }

    /**
     * @param text  an ISO-8601 time in UTC, with or without the zone ("2026-01-05T10:32:05.120Z").
     * @param option the option, for the message.
     * @return ns since the epoch.
     */
    static long time(final String text, final String option)
    {
        try
        {
            final Instant instant = text.endsWith("Z") || text.matches(".*[+-]\\d\\d:\\d\\d$") ?
                java.time.OffsetDateTime.parse(text).toInstant() :
                LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }
        catch (final DateTimeParseException ex)
        {
            throw new CommandLineOptions.UsageException(option + ": not a sequence or an ISO-8601 time: " + text);
        }
    }

    /** A point of the journal: a sequence, or a time. */
    record Point(long sequence, long timestampNs)
    {
        static Point time(final long timestampNs)
        {
            return new Point(0, timestampNs);
        }

        static Point parse(final String text, final String option)
        {
            if (text.chars().allMatch(Character::isDigit) && !text.isEmpty())
            {
                try
                {
                    return new Point(Long.parseLong(text), 0);
                }
                catch (final NumberFormatException ex)
                {
                    throw new CommandLineOptions.UsageException(option + ": sequence out of range: " + text);
                }
            }
            return time(ReplayCli.time(text, option));
        }

        boolean isTime()
        {
            return sequence == 0;
        }
    }
}
