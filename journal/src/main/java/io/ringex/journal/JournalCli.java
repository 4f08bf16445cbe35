package io.ringex.journal;

import io.ringex.common.config.CommandLineOptions;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;

/**
 * The {@code journal} command: {@code dump}, {@code verify}, {@code replay} and {@code stats} over a journal
 * directory. Run it as {@code ./ringex journal <command> <dir> [options]}.
 * <ul>
 *     <li>{@code dump [--from S] [--to S] [--account A] [--instrument I]}: one readable line per command.</li>
 *     <li>{@code verify}: checksums, sequence continuity, torn writes and tail; exit 1 on a gap in the middle.</li>
 *     <li>{@code replay [--snapshots DIR] [--allow-gaps]}: into a fresh processor, with a progress bar; prints the
 *     state hash and commands/s.</li>
 *     <li>{@code stats}: counts per message, sequence and time range, sizes.</li>
 * </ul>
 * Options may come before or after the directory. An option the command does not take, an option without its value
 * and a value that does not parse stop the command (exit 2) with a message naming the option, before the journal is
 * opened ({@link CommandLineOptions}). It reads no system properties.
 */
public final class JournalCli
{
    private static final String USAGE = "usage: journal dump|verify|replay|stats <journal-dir> [options]\n" +
        "       dump [--from S] [--to S] [--account A] [--instrument I]\n" +
        "       replay [--snapshots DIR] [--allow-gaps]\n" +
        "       (state, audit, trades, statements, events, digest, compare and synth replay through the engine:\n" +
        "       ./ringex journal <command> runs them; docs/operations.md, \"Replay and audit\")";
    /** The options each command takes with a value. */
    private static final Map<String, Set<String>> OPTIONS = Map.of(
        "dump", Set.of("--from", "--to", "--account", "--instrument"),
        "verify", Set.of(),
        "replay", Set.of("--snapshots"),
        "stats", Set.of());
    /** The options each command takes without one. */
    private static final Map<String, Set<String>> SWITCHES = Map.of(
        "dump", Set.of(),
        "verify", Set.of(),
        "replay", Set.of("--allow-gaps"),
        "stats", Set.of());

    private final PrintStream out;
    private final PrintStream err;

    JournalCli(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * @param args command, journal directory, options.
     */
    public static void main(final String[] args)
    {
        System.exit(new JournalCli(System.out, System.err).run(args));
    }

    int run(final String[] args)
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
        final Dump dump;
        try
        {
            options = CommandLineOptions.parse(command, Arrays.asList(args).subList(1, args.length),
                OPTIONS.get(command), SWITCHES.get(command));
            options.requirePositionals(1, "one journal directory");
            dump = command.equals("dump") ? new Dump(options) : null;
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        final Path directory = Path.of(options.positionals().get(0));
        if (!directory.toFile().isDirectory())
        {
            err.println("no journal at " + directory);
            return 2;
        }
        try (Journal journal = Journal.open(directory, Journal.Durability.PROCESS))
        {
            switch (command)
            {
                case "dump":
                    return dump(journal, dump);
                case "verify":
                    return verify(journal);
                case "replay":
                    return replay(journal, options);
                default:
                    return stats(journal);
            }
        }
    }

    private int verify(final Journal journal)
    {
        final JournalVerifier.Report report = JournalVerifier.verify(journal);
        out.println(report);
        if (report.tornTail())
        {
            out.println("torn tail: the last record was cut short by a crash; it was never processed and is ignored");
        }
        if (!report.isClean())
        {
            err.println("GAP in the middle: recovery refuses this journal unless started with --allow-gaps");
            return 1;
        }
        out.println("OK");
        return 0;
    }

    private int stats(final Journal journal)
    {
        final JournalVerifier.Report report = JournalVerifier.verify(journal);
        out.println(report);
        out.printf("payload bytes: %d%n", report.payloadBytes());
        final double seconds = (report.lastTimestampNs() - report.firstTimestampNs()) / 1e9;
        out.printf("time span: %.3f s (%s .. %s)%n", seconds,
            java.time.Instant.ofEpochSecond(0, report.firstTimestampNs()),
            java.time.Instant.ofEpochSecond(0, report.lastTimestampNs()));
        for (int id = 0; id < 128; id++)
        {
            if (report.count(id) > 0)
            {
                out.printf("  %-22s %,d%n", MessageCatalog.name(id), report.count(id));
            }
        }
        return report.isClean() ? 0 : 1;
    }

    private int dump(final Journal journal, final Dump range)
    {
        final long from = range.from;
        final long to = range.to;
        final Long account = range.account;
        final Integer instrument = range.instrument;
        final CommandPrinter printer = new CommandPrinter();
        final boolean[] done = new boolean[1];
        try (JournalReader reader = journal.newReader().fromSequence(from).allowGaps(true))
        {
            final JournalRecordHandler handler = (sequence, timestampNs, sourceId, templateId, buffer, offset,
                length) ->
            {
                if (sequence > to)
                {
                    done[0] = true;
                    return;
                }
                final String line = printer.print(sequence, timestampNs, sourceId, buffer, offset, length,
                    account, instrument);
                if (line != null)
                {
                    out.println(line);
                }
            };
            while (!done[0] && reader.read(handler, 1024) > 0)
            {
                // until the end or past --to
            }
            if (reader.problem() != null)
            {
                err.println("gap: " + reader.problem());
            }
        }
        return 0;
    }

    private int replay(final Journal journal, final CommandLineOptions options)
    {
        final Iterator<ReplayTarget> targets = ServiceLoader.load(ReplayTarget.class).iterator();
        if (!targets.hasNext())
        {
            err.println("no ReplayTarget on the classpath: run through ./ringex, which includes the engine");
            return 2;
        }
        final ReplayTarget target = targets.next();
        final JournalVerifier.Report report = JournalVerifier.verify(journal);
        final boolean allowGaps = options.has("--allow-gaps");
        if (!report.isClean() && !allowGaps)
        {
            err.println("refusing to replay over a gap: " + report.firstProblem() + " (use --allow-gaps)");
            return 1;
        }

        long fromSequence = 1;
        if (options.has("--snapshots"))
        {
            final SnapshotStore.Snapshot snapshot = new SnapshotStore(Path.of(options.string("--snapshots", null)))
                .loadNewest(target.snapshotStateVersion(), (problem) -> err.println("snapshot skipped: " + problem));
            if (snapshot != null)
            {
                target.restore(snapshot);
                fromSequence = snapshot.sequence() + 1;
                out.println("restored " + snapshot.file().getFileName() + " at sequence " + snapshot.sequence());
            }
        }

        final long total = Math.max(0, report.lastSequence() - fromSequence + 1);
        final ProgressBar progress = new ProgressBar(err, total);
        final long[] applied = new long[1];
        final long startNs = System.nanoTime();
        try (JournalReader reader = journal.newReader().fromSequence(fromSequence).allowGaps(allowGaps))
        {
            final JournalRecordHandler handler = (sequence, timestampNs, sourceId, templateId, buffer, offset,
                length) ->
            {
                target.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                applied[0]++;
            };
            int read;
            while ((read = reader.read(handler, 4096)) > 0)
            {
                target.onEndOfBatch();
                progress.update(applied[0]);
            }
            if (read < 0)
            {
                err.println("stopped: " + reader.problem());
                return 1;
            }
        }
        final long elapsedNs = Math.max(1, System.nanoTime() - startNs);
        progress.finish(applied[0]);
        out.printf("replayed %d commands into %s in %.3f s: %.0f commands/s%n", applied[0], target.name(),
            elapsedNs / 1e9, applied[0] * 1e9 / elapsedNs);
        out.printf("state hash: %016x%n", target.stateHash());
        return 0;
    }

    /** The dump's filters, read before the journal is opened. */
    private static final class Dump
    {
        final long from;
        final long to;
        final Long account;
        final Integer instrument;

        Dump(final CommandLineOptions options)
        {
            from = options.longValue("--from", 1, 1);
            to = options.longValue("--to", Long.MAX_VALUE, from);
            account = options.has("--account") ? options.longValue("--account", 0, 0) : null;
            instrument = options.has("--instrument") ? options.intValue("--instrument", 0, 0) : null;
        }
    }

    /** Decodes commands into readable lines with the generated codecs' own formatting. */
    static final class CommandPrinter
    {
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final Map<Integer, Object> decoders = new HashMap<>();
        private final StringBuilder line = new StringBuilder(256);

        String print(
            final long sequence,
            final long timestampNs,
            final long sourceId,
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final Long account,
            final Integer instrument)
        {
            header.wrap(buffer, offset);
            final int templateId = header.templateId();
            try
            {
                final Object decoder = decoder(templateId);
                decoder.getClass().getMethod("wrap", DirectBuffer.class, int.class, int.class, int.class)
                    .invoke(decoder, buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(),
                        header.version());
                if (account != null && !account.equals(field(decoder, "accountId")))
                {
                    return null;
                }
                if (instrument != null && !instrument.equals(field(decoder, "instrumentId")))
                {
                    return null;
                }
                line.setLength(0);
                line.append(sequence).append(' ').append(java.time.Instant.ofEpochSecond(0, timestampNs))
                    .append(" source=").append(sourceId).append(' ');
                decoder.getClass().getMethod("appendTo", StringBuilder.class).invoke(decoder, line);
                return line.toString();
            }
            catch (final ReflectiveOperationException ex)
            {
                return sequence + " undecodable " + MessageCatalog.name(templateId) + ": " + ex;
            }
        }

        private Object decoder(final int templateId) throws ReflectiveOperationException
        {
            Object decoder = decoders.get(templateId);
            if (decoder == null)
            {
                decoder = Class.forName("io.ringex.protocol.codecs." + MessageCatalog.name(templateId) + "Decoder")
                    .getConstructor().newInstance();
                decoders.put(templateId, decoder);
            }
            return decoder;
        }

        private static Object field(final Object decoder, final String name) throws ReflectiveOperationException
        {
            for (final Method method : decoder.getClass().getMethods())
            {
                if (method.getName().equals(name) && method.getParameterCount() == 0)
                {
                    return method.invoke(decoder);
                }
            }
            return null;
        }
    }
}
