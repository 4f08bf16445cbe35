package io.ringex.engine.replay;

import io.ringex.protocol.MessageValidator;
import org.agrona.DirectBuffer;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shadow replay: the same journal through this build and another one (a classpath or jar, run in a child JVM), command
 * by command, to find the first command whose events or state differ. This is how a venue checks a new engine build
 * against yesterday's journal before it trades on it.
 * <p>
 * Each build prints its digest ({@link #digest}): one line per command with a digest of the events it produced (bytes
 * and boundaries), and the state hash every so many commands and at the end. The lines are compared as they come, so
 * the first difference stops both replays; the command is then replayed by both builds with its events written out
 * ({@code journal events}) and shown side by side. The other build must have the {@code journal digest} and
 * {@code journal events} commands (this release or later); for one that does not, compare digests written by hand.
 * <p>
 * Threading: the caller's; the child's output is read on the caller's thread.
 */
public final class ShadowCompare
{
    /** First line of a digest: format and the schema the build reads. */
    static final String DIGEST_HEADER = "# ringex journal digest 1";

    /** What a comparison found. */
    public record Outcome(boolean same, long firstDifference, String report)
    {
    }

    private final String java;
    private final String otherClasspath;
    private final PrintStream err;

    /**
     * @param java           the java executable the other build runs on.
     * @param otherClasspath the other build's classpath (directories and jars, path-separated) or a jar.
     * @param err            progress.
     */
    public ShadowCompare(final String java, final String otherClasspath, final PrintStream err)
    {
        this.java = java;
        this.otherClasspath = otherClasspath;
        this.err = err;
    }

    /**
     * Replay the whole journal, writing the digest.
     *
     * @param replayer   a replayer not yet started.
     * @param hashEvery  commands between state hashes.
     * @param out        receives the lines; false stops the replay.
     */
    public static void digest(final Replayer replayer, final long hashEvery, final Predicate<String> out)
    {
        out.test(DIGEST_HEADER + " schema " + MessageValidator.SCHEMA_ID + " version " +
            MessageValidator.SCHEMA_VERSION);
        final long last = replayer.ends().lastSequence();
        final StringBuilder line = new StringBuilder(64);
        replayer.replay(Long.MAX_VALUE, Long.MAX_VALUE, (sequence, timestampNs, sourceId, buffer, offset, length,
            log) ->
        {
            line.setLength(0);
            line.append(sequence).append(' ').append(hex(log.digest(0)));
            if (sequence % hashEvery == 0 || sequence == last)
            {
                line.append(" state ").append(hex(replayer.processor().stateHash()));
            }
            return out.test(line.toString());
        });
        out.test("end " + replayer.lastApplied() + " state " + hex(replayer.processor().stateHash()));
    }

    private static String hex(final long value)
    {
        final String digits = Long.toHexString(value);
        return "0000000000000000".substring(digits.length()) + digits;
    }

    /**
     * One command and every event it produced, as text.
     *
     * @param text        a message reader.
     * @param sequence    the command's sequence.
     * @param timestampNs its time.
     * @param sourceId    its source.
     * @param buffer      holding it.
     * @param offset      where it starts.
     * @param log         its events.
     * @return the lines.
     */
    static String render(
        final MessageText text,
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final DirectBuffer buffer,
        final int offset,
        final EventLog log)
    {
        text.wrap(buffer, offset);
        final StringBuilder out = new StringBuilder(1024);
        out.append('#').append(sequence).append(' ').append(Instant.ofEpochSecond(0, timestampNs))
            .append(" gateway ").append(sourceId >>> 32).append(" session ").append(sourceId & 0xFFFF_FFFFL)
            .append("  ").append(text.text());
        for (int i = 0; i < log.count(); i++)
        {
            text.wrap(log.events(), log.offset(i));
            out.append("\n    -> ").append(text.text());
        }
        return out.toString();
    }

    /**
     * Compare this build's replay of a journal with the other build's.
     *
     * @param journal   the journal directory.
     * @param hashEvery commands between state hashes.
     * @param allowGaps replay over gaps (both builds).
     * @return what was found.
     */
    public Outcome compare(final Path journal, final long hashEvery, final boolean allowGaps)
    {
        final List<String> args = new ArrayList<>(List.of("digest", journal.toString(), "--hash-every",
            Long.toString(hashEvery)));
        if (allowGaps)
        {
            args.add("--allow-gaps");
        }
        final Process child = start(args);
        final long startNs = System.nanoTime();
        final String[] difference = new String[2];
        final long[] compared = new long[1];
        try (BufferedReader theirs = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8), 1 << 16);
            Replayer replayer = Replayer.open(journal, null).allowGaps(allowGaps))
        {
            final String header = theirs.readLine();
            if (header == null || !header.startsWith(DIGEST_HEADER))
            {
                child.waitFor();
                throw new ReplayException("the other build (" + otherClasspath + ") did not write a digest: " +
                    (header == null ? "" : header + " ") + childError(child) + "; it needs `journal digest` (this " +
                    "release or later) and a readable journal");
            }
            digest(replayer, hashEvery, (ours) ->
            {
                if (difference[0] != null || ours.startsWith("#"))
                {
                    return false;
                }
                final String line = readLine(theirs);
                compared[0]++;
                if (!ours.equals(line))
                {
                    difference[0] = ours;
                    difference[1] = line == null ? "(ended)" : line;
                    return false;
                }
                return true;
            });
            final String extra = difference[0] == null ? readLine(theirs) : null;
            if (extra != null)
            {
                difference[0] = "(ended)";
                difference[1] = extra;
            }
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot read the other build's digest: " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ReplayException("interrupted");
        }
        finally
        {
            child.destroy();
        }
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        if (difference[0] == null)
        {
            return new Outcome(true, 0, String.format("SAME: %d commands gave the same events and state hashes " +
                "in both builds (%.1f s)%n", compared[0] - 1, seconds));
        }
        final long sequence = firstSequence(difference[0], difference[1]);
        final StringBuilder report = new StringBuilder(4096);
        report.append(String.format("DIFFERENT at sequence %d (after %d identical commands, %.1f s)%n", sequence,
            Math.max(0, compared[0] - 1), seconds));
        report.append("  this build:  ").append(difference[0]).append('\n');
        report.append("  other build: ").append(difference[1]).append('\n');
        if (sequence > 0)
        {
            final String[] ours = eventsHere(journal, sequence, allowGaps).split("\n");
            final String[] theirs = eventsThere(journal, sequence, allowGaps).split("\n");
            report.append("\nthe command and its events, line by line ('=' same, '<' this build, '>' other " +
                "build):\n");
            diff(ours, theirs, report);
        }
        return new Outcome(false, sequence, report.toString());
    }

    /**
     * The two outputs aligned on their longest common subsequence, as diff does: '=' in both, '<' only in this
     * build's, '>' only in the other's. A command has tens of events, so the quadratic table is small.
     */
    static void diff(final String[] ours, final String[] theirs, final StringBuilder out)
    {
        final int n = ours.length;
        final int m = theirs.length;
        final int[][] common = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--)
        {
            for (int j = m - 1; j >= 0; j--)
            {
                common[i][j] = ours[i].equals(theirs[j]) ? common[i + 1][j + 1] + 1 :
                    Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m)
        {
            if (i < n && j < m && ours[i].equals(theirs[j]))
            {
                out.append("= ").append(ours[i++]).append('\n');
                j++;
            }
            else if (j == m || (i < n && common[i + 1][j] >= common[i][j + 1]))
            {
                out.append("< ").append(ours[i++]).append('\n');
            }
            else
            {
                out.append("> ").append(theirs[j++]).append('\n');
            }
        }
    }

    private static long firstSequence(final String ours, final String theirs)
    {
        for (final String line : new String[]{ ours, theirs })
        {
            final int space = line.indexOf(' ');
            if (space > 0 && Character.isDigit(line.charAt(0)))
            {
                return Long.parseLong(line.substring(0, space));
            }
        }
        return 0;
    }

    private String eventsHere(final Path journal, final long sequence, final boolean allowGaps)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final List<String> args = new ArrayList<>(List.of("events", journal.toString(), "--from",
            Long.toString(sequence)));
        if (allowGaps)
        {
            args.add("--allow-gaps");
        }
        new ReplayCli(print, print).run(args.toArray(new String[0]));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private String eventsThere(final Path journal, final long sequence, final boolean allowGaps)
    {
        final List<String> args = new ArrayList<>(List.of("events", journal.toString(), "--from",
            Long.toString(sequence)));
        if (allowGaps)
        {
            args.add("--allow-gaps");
        }
        final Process child = start(args);
        try
        {
            final String text = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            child.waitFor();
            return text;
        }
        catch (final IOException ex)
        {
            return "(the other build's events could not be read: " + ex.getMessage() + ")";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private Process start(final List<String> args)
    {
        final List<String> command = new ArrayList<>();
        command.add(java);
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            // the JVM flags this process was started with (exports, opens, system properties), not agents
            if (arg.startsWith("--add-") || arg.startsWith("-Dchronicle") || arg.startsWith("-Dsbe") ||
                arg.startsWith("-XX:+Use"))
            {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(otherClasspath);
        command.add(ReplayCli.class.getName());
        command.addAll(args);
        try
        {
            final Path errors = Files.createTempFile("ringex-compare", ".err");
            errors.toFile().deleteOnExit();
            final Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            processErrors = errors;
            return process;
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot start the other build (" + java + " -cp " + otherClasspath + "): " +
                ex.getMessage());
        }
    }

    private Path processErrors;

    private String childError(final Process child)
    {
        try
        {
            final String text = processErrors == null ? "" : Files.readString(processErrors).trim();
            return "exit " + child.exitValue() + (text.isEmpty() ? "" : ": " + text.lines().limit(5)
                .reduce((a, b) -> a + " / " + b).orElse(""));
        }
        catch (final IOException ex)
        {
            return "exit " + child.exitValue();
        }
    }

    private static String readLine(final BufferedReader reader)
    {
        try
        {
            return reader.readLine();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }
}
