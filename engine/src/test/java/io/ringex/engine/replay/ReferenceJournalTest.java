package io.ringex.engine.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine's events on a committed reference journal (the demo venue's first 3,000 commands, from
 * {@link DemoJournal}) are what they were when the reference was made: the digest of every command's events and the
 * final state hash, kept beside the journal. A change to matching, risk or the events' encoding fails this test until
 * the reference is regenerated on purpose:
 * <pre>
 * mvn -B -o test -pl protocol,common,client,journal,engine -Dtest=ReferenceJournalTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dringex.reference.regenerate=true
 * </pre>
 * and the new journal and expected.properties committed with the change that explains them (compare the two builds
 * first: {@code ./ringex journal compare}). The journal's files are named by the simulated day (5 January 2026), not
 * today, and are read from a copy, so the test does not depend on the date it runs.
 */
class ReferenceJournalTest
{
    static final Path REFERENCE = Path.of("src/test/resources/reference-journal");
    static final int COMMANDS = 3000;
    static final long SEED = 42;

    @TempDir
    Path temp;

    @Test
    void eventsAndStateOfTheReferenceJournalAreUnchanged() throws Exception
    {
        if (Boolean.getBoolean("ringex.reference.regenerate"))
        {
            regenerate();
        }
        final Properties expected = new Properties();
        try (Reader in = Files.newBufferedReader(REFERENCE.resolve("expected.properties")))
        {
            expected.load(in);
        }
        final Path copy = temp.resolve("journal");
        copy(REFERENCE.resolve("journal"), copy);
        final String[] actual = digest(copy);
        final String hint = ": the engine's events on the reference journal changed. If that is intended, compare " +
            "the builds (./ringex journal compare), regenerate the reference (ReferenceJournalTest's Javadoc) and " +
            "commit it with the change";
        assertEquals(expected.getProperty("commands"), actual[0], "commands" + hint);
        assertEquals(expected.getProperty("events.digest"), actual[1], "events digest" + hint);
        assertEquals(expected.getProperty("state.hash"), actual[2], "state hash" + hint);
    }

    /** @return commands, SHA-256 of the digest lines, final state hash. */
    private static String[] digest(final Path journal) throws NoSuchAlgorithmException
    {
        final MessageDigest sha = MessageDigest.getInstance("SHA-256");
        final String[] end = new String[1];
        try (Replayer replayer = Replayer.open(journal, null))
        {
            ShadowCompare.digest(replayer, 500, (line) ->
            {
                sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
                if (line.startsWith("end "))
                {
                    end[0] = line;
                }
                return true;
            });
        }
        final String[] parts = end[0].split(" ");
        return new String[]{ parts[1], HexFormat.of().formatHex(sha.digest()), parts[3] };
    }

    private void regenerate() throws IOException, NoSuchAlgorithmException
    {
        final Path fresh = temp.resolve("fresh");
        DemoJournal.write(fresh, null, COMMANDS, 0, SEED, DemoJournal.DEFAULT_START_NS);
        final Path target = REFERENCE.resolve("journal");
        if (Files.isDirectory(target))
        {
            try (Stream<Path> old = Files.list(target))
            {
                for (final Path file : old.toList())
                {
                    Files.delete(file);
                }
            }
        }
        copy(fresh, target);
        try (Stream<Path> files = Files.list(target))
        {
            for (final Path file : files.filter((p) -> p.toString().endsWith(".cq4")).toList())
            {
                trimPreallocation(file);
            }
        }
        final String[] digest = digest(fresh);
        final Properties expected = new Properties();
        expected.setProperty("commands", digest[0]);
        expected.setProperty("events.digest", digest[1]);
        expected.setProperty("state.hash", digest[2]);
        final List<String> lines = List.of(
            "# The reference journal's expected replay: DemoJournal, " + COMMANDS + " commands, seed " + SEED + ".",
            "# events.digest: SHA-256 of `./ringex journal digest journal --hash-every 500`.",
            "# Regenerate on purpose only (see ReferenceJournalTest):",
            "# mvn -B -o test -pl protocol,common,client,journal,engine -Dtest=ReferenceJournalTest \\",
            "#     -Dsurefire.failIfNoSpecifiedTests=false -Dringex.reference.regenerate=true",
            "commands=" + digest[0],
            "events.digest=" + digest[1],
            "state.hash=" + digest[2]);
        try (Writer out = Files.newBufferedWriter(REFERENCE.resolve("expected.properties")))
        {
            for (final String line : lines)
            {
                out.write(line + "\n");
            }
        }
    }

    /**
     * Chronicle preallocates each queue file (tens of MB of zeros): cut it after the last written byte, to the page,
     * so the committed file is small. Chronicle grows it again when it opens the copy.
     */
    private static void trimPreallocation(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0)
        {
            end--;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(Math.min(bytes.length, (end + 4095L) / 4096 * 4096));
        }
    }

    private static void copy(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from))
        {
            for (final Path file : files.toList())
            {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
