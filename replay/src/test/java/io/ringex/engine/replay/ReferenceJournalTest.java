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
 * The engine's events on the committed reference journals (the demo venue's first 3,000 commands, from
 * {@link DemoJournal}) are what they were when each reference was made: the digest of every command's events and the
 * final state hash, kept beside the journal. There is one journal per schema version that changed what a command
 * carries: {@code reference-journal} was written at schema version 2, {@code reference-journal-v4} at version 4 (every
 * operator's change names its operator and reason); both are the same commands and replay to the same state hash.
 * A change to matching, risk or the events' encoding fails this test until the references are regenerated on purpose:
 * <pre>
 * mvn -B -o test -pl protocol,common,client,journal,engine -Dtest=ReferenceJournalTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dringex.reference.regenerate=true
 * </pre>
 * which writes the current version's journal afresh and, for the older journals, kept as their version wrote them,
 * only their events digest (their state hash must not move: an old journal replays to the state it always did); then
 * commit them with the change that explains them (compare the two builds first: {@code ./ringex journal compare}).
 * The journal's files are named by the simulated day (5 January 2026), not today, and are read from a copy, so the
 * test does not depend on the date it runs.
 */
class ReferenceJournalTest
{
    /** Written at schema version 2, kept as it was written. */
    static final Path REFERENCE = Path.of("src/test/resources/reference-journal");
    /** Written at schema version 4 (the current one) by {@link DemoJournal}. */
    static final Path REFERENCE_V4 = Path.of("src/test/resources/reference-journal-v4");
    static final int COMMANDS = 3000;
    static final long SEED = 42;

    @TempDir
    Path temp;

    @Test
    void eventsAndStateOfTheVersion2ReferenceJournalAreUnchanged() throws Exception
    {
        if (Boolean.getBoolean("ringex.reference.regenerate"))
        {
            regenerateDigest(REFERENCE);
        }
        check(REFERENCE);
    }

    @Test
    void eventsAndStateOfTheVersion4ReferenceJournalAreUnchanged() throws Exception
    {
        if (Boolean.getBoolean("ringex.reference.regenerate"))
        {
            regenerate(REFERENCE_V4);
        }
        check(REFERENCE_V4);
    }

    @Test
    void theSameCommandsWrittenAtVersion2AndAtVersion4ReachTheSameState() throws Exception
    {
        assertEquals(expected(REFERENCE).getProperty("commands"), expected(REFERENCE_V4).getProperty("commands"));
        assertEquals(expected(REFERENCE).getProperty("state.hash"), expected(REFERENCE_V4).getProperty("state.hash"),
            "the version-2 and version-4 reference journals hold the same commands; only the audit fields differ");
    }

    @Test
    void theVersion4JournalNamesTheOperatorAndReasonOfEveryChangeAndTheVersion2OneNone() throws Exception
    {
        final Path v4 = temp.resolve("v4");
        copy(REFERENCE_V4.resolve("journal"), v4);
        final AuditTrail.Result newer;
        try (Replayer replayer = Replayer.open(v4, null))
        {
            newer = new AuditTrail().run(replayer, AuditTrail.Query.admin());
        }
        final Path v2 = temp.resolve("v2");
        copy(REFERENCE.resolve("journal"), v2);
        final AuditTrail.Result older;
        try (Replayer replayer = Replayer.open(v2, null))
        {
            older = new AuditTrail().run(replayer, AuditTrail.Query.admin());
        }
        assertEquals(older.entries().size(), newer.entries().size());
        final java.util.Set<String> seen = new java.util.TreeSet<>();
        for (int i = 0; i < newer.entries().size(); i++)
        {
            final AuditTrail.Entry entry = newer.entries().get(i);
            final String text = entry.commandText();
            seen.add(entry.command());
            org.junit.jupiter.api.Assertions.assertTrue(text.contains("operatorName='ringex'"), text);
            // AdjustBalance takes a reason of its own (the demo gives none); the others carry the encoder's.
            org.junit.jupiter.api.Assertions.assertTrue("AdjustBalance".equals(entry.command()) ||
                text.contains("reason='the demo venue's reference data'"), text);
            org.junit.jupiter.api.Assertions.assertEquals("AdminResponse", entry.events().get(0), text);
            org.junit.jupiter.api.Assertions.assertTrue(entry.eventTexts().get(0).contains("status=ACCEPTED"),
                entry.eventTexts().get(0));
            final String old = older.entries().get(i).commandText();
            if (!"AdjustBalance".equals(entry.command()))
            {
                // Written before version 4: the change carried neither; it was taken all the same.
                org.junit.jupiter.api.Assertions.assertFalse(old.contains("operatorName='ringex'"), old);
            }
        }
        assertEquals(java.util.Set.of("AddAccount", "AddInstrument", "AdjustBalance", "SetLimits"), seen);
    }

    private static Properties expected(final Path reference) throws IOException
    {
        final Properties expected = new Properties();
        try (Reader in = Files.newBufferedReader(reference.resolve("expected.properties")))
        {
            expected.load(in);
        }
        return expected;
    }

    private void check(final Path reference) throws Exception
    {
        final Properties expected = expected(reference);
        final Path copy = temp.resolve("journal");
        copy(reference.resolve("journal"), copy);
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

    /**
     * An older version's journal stays as that version wrote it: only the digest of the events the engine writes for
     * it now is renewed, and its state hash must be the one it always replayed to.
     */
    private void regenerateDigest(final Path reference) throws IOException, NoSuchAlgorithmException
    {
        final Properties expected = expected(reference);
        final Path copy = temp.resolve("old");
        copy(reference.resolve("journal"), copy);
        final String[] digest = digest(copy);
        if (!expected.getProperty("state.hash").equals(digest[2]))
        {
            throw new IllegalStateException(reference + " now replays to state hash " + digest[2] + ", not " +
                expected.getProperty("state.hash") + ": an old journal must replay to the state it always did");
        }
        final List<String> lines = new java.util.ArrayList<>();
        for (final String line : Files.readAllLines(reference.resolve("expected.properties")))
        {
            lines.add(line.startsWith("events.digest=") ? "events.digest=" + digest[1] : line);
        }
        Files.write(reference.resolve("expected.properties"), lines);
    }

    private void regenerate(final Path reference) throws IOException, NoSuchAlgorithmException
    {
        final Path fresh = temp.resolve("fresh");
        DemoJournal.write(fresh, null, COMMANDS, 0, SEED, DemoJournal.DEFAULT_START_NS);
        final Path target = reference.resolve("journal");
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
            "# The reference journal's expected replay: DemoJournal, " + COMMANDS + " commands, seed " + SEED +
            ", written at schema version " + io.ringex.protocol.MessageValidator.SCHEMA_VERSION + ".",
            "# events.digest: SHA-256 of `./ringex journal digest journal --hash-every 500`.",
            "# Regenerate on purpose only (see ReferenceJournalTest):",
            "# mvn -B -o test -pl protocol,common,client,journal,engine -Dtest=ReferenceJournalTest \\",
            "#     -Dsurefire.failIfNoSpecifiedTests=false -Dringex.reference.regenerate=true",
            "commands=" + digest[0],
            "events.digest=" + digest[1],
            "state.hash=" + digest[2]);
        Files.createDirectories(reference);
        try (Writer out = Files.newBufferedWriter(reference.resolve("expected.properties")))
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
