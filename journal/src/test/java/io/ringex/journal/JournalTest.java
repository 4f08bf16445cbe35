package io.ringex.journal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.SyncMode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalTest
{
    @TempDir
    Path dir;

    @Test
    void recordsComeBackAsWrittenFromAnySequence()
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            for (int s = 1; s <= 1000; s++)
            {
                append(writer, s);
                if (s % 100 == 0)
                {
                    writer.endOfBatch();
                }
            }
            assertEquals(1000, writer.lastSequence());

            final List<String> read = readAll(journal, 995);
            assertEquals(List.of("995:MARK0995", "996:MARK0996", "997:MARK0997", "998:MARK0998", "999:MARK0999",
                "1000:MARK1000"), read);
        }
    }

    @Test
    void theReaderReadsBackTheChecksumTheWriterWroteAndADifferentRecordHasADifferentOne()
    {
        final java.util.Map<Long, Integer> written = new java.util.HashMap<>();
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            assertEquals(0, writer.lastChecksum());
            for (int s = 1; s <= 20; s++)
            {
                append(writer, s);
                written.put((long)s, writer.lastChecksum());
            }
            writer.endOfBatch();

            final java.util.Map<Long, Integer> read = new java.util.HashMap<>();
            try (JournalReader reader = journal.newReader().fromSequence(5))
            {
                while (reader.read((sequence, ts, source, templateId, buffer, offset, length) ->
                    read.put(sequence, 0), 64) > 0)
                {
                    // to the end
                }
                assertEquals(20, reader.lastSequence());
                assertEquals(written.get(20L), reader.lastChecksum(), "the last record's, delivered or not");
            }
            try (JournalReader reader = journal.newReader())
            {
                reader.read((sequence, ts, source, templateId, buffer, offset, length) -> read.put(sequence,
                    0), 7);
                assertEquals(7, reader.lastSequence());
                assertEquals(written.get(7L), reader.lastChecksum());
            }
        }
        // The same sequence with other content (another primary's command 7) has another identity.
        try (Journal other = Journal.open(dir.resolve("other"), Journal.Durability.PROCESS);
            JournalWriter writer = other.newWriter(6))
        {
            final byte[] payload = "MARK9999".getBytes(StandardCharsets.US_ASCII);
            writer.append(7, 7_000_000L, 7, 10, new UnsafeBuffer(payload), 0, payload.length);
            assertTrue(written.get(7L) != writer.lastChecksum());
        }
    }

    @Test
    void machineDurabilityMsyncsEachBatchBeforeItCountsAsJournaled()
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.MACHINE);
            JournalWriter writer = journal.newWriter(0))
        {
            for (int s = 1; s <= 50; s++)
            {
                append(writer, s);
                final long appended = writer.appender().lastIndexAppended();
                assertTrue(journal.queue().lastIndexMSynced() < appended,
                    "record " + s + " synced before its batch ended");
                writer.endOfBatch();
                // Chronicle records the index it msynced up to, after the msync of the mapped pages returns.
                assertEquals(appended, journal.queue().lastIndexMSynced(), "batch " + s + " not msynced at its end");
            }
            // Chronicle's sync() is an msync only when the mapped file's mode asks for one: NONE returns at once.
            assertEquals(SyncMode.SYNC, mappedStore(writer).syncMode());
            assertEquals(50, readAll(journal, 1).size());
        }
    }

    @Test
    void processDurabilityLeavesThePagesToTheKernel()
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            final long syncedAtStart = journal.queue().lastIndexMSynced();
            for (int s = 1; s <= 5; s++)
            {
                append(writer, s);
                writer.endOfBatch();
            }
            assertEquals(syncedAtStart, journal.queue().lastIndexMSynced());
            assertEquals(SyncMode.NONE, mappedStore(writer).syncMode());
        }
    }

    @Test
    void writerRefusesAGapOrARepeat()
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            append(writer, 1);
            assertThrows(IllegalStateException.class, () -> append(writer, 3));
            assertThrows(IllegalStateException.class, () -> append(writer, 1));
            append(writer, 2);
        }
    }

    @Test
    void corruptRecordInTheMiddleIsAGapThatStopsTheReader() throws IOException
    {
        writeJournal(1, 20);
        corrupt("MARK0010");

        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS))
        {
            final JournalVerifier.Report report = JournalVerifier.verify(journal);
            assertFalse(report.isClean());
            assertEquals(19, report.records());
            assertNotNull(report.firstProblem());

            final List<String> read = new ArrayList<>();
            try (JournalReader reader = journal.newReader())
            {
                while (reader.read((seq, ts, src, tid, buffer, offset, length) -> read.add(Long.toString(seq)),
                    100) > 0)
                {
                    // read until stopped
                }
                assertEquals(-1, reader.read((seq, ts, src, tid, buffer, offset, length) -> { }, 100));
            }
            assertEquals(9, read.size(), "stops before the gap, never skips it silently");
        }
    }

    @Test
    void tornTailIsReportedAndARepairedTornWriteIsAccepted() throws IOException
    {
        writeJournal(1, 10);
        corrupt("MARK0010");

        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS))
        {
            final JournalVerifier.Report report = JournalVerifier.verify(journal);
            assertTrue(report.tornTail());
            assertTrue(report.isClean());
            assertEquals(9, report.lastSequence());

            try (JournalWriter writer = journal.newWriter(report.lastSequence()))
            {
                append(writer, 10);
                append(writer, 11);
            }
            final JournalVerifier.Report after = JournalVerifier.verify(journal);
            assertTrue(after.isClean(), after.toString());
            assertFalse(after.tornTail());
            assertEquals(1, after.repairedRecords());
            assertEquals(11, after.lastSequence());
            assertEquals(11, readAll(journal, 1).size());
        }
    }

    @Test
    void cliVerifiesDumpsAndCountsAndExplainsWhatItCannotDo() throws IOException
    {
        writeJournal(1, 5);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JournalCli cli = new JournalCli(new PrintStream(out, true), new PrintStream(err, true));

        assertEquals(0, cli.run(new String[]{ "verify", dir.toString() }));
        assertTrue(out.toString().contains("records=5 sequences=1..5"), out.toString());
        assertEquals(0, cli.run(new String[]{ "stats", dir.toString() }));
        assertEquals(0, cli.run(new String[]{ "dump", dir.toString(), "--from", "2", "--to", "3" }));
        assertTrue(out.toString().contains("\n2 "), out.toString());
        assertFalse(out.toString().contains("\n4 "), out.toString());
        assertEquals(2, cli.run(new String[]{ "replay", dir.toString() }), "no engine on this classpath");
        assertEquals(2, cli.run(new String[]{ "verify", dir.resolve("missing").toString() }));

        corrupt("MARK0003");
        assertEquals(1, cli.run(new String[]{ "verify", dir.toString() }));
        assertTrue(err.toString().contains("GAP"));
    }

    @Test
    void cliRefusesATypoedOptionOrAMalformedValueNamingItAndTakesOptionsBeforeTheDirectory()
    {
        writeJournal(1, 5);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JournalCli cli = new JournalCli(new PrintStream(out, true), new PrintStream(err, true));

        // A lenient reader would ignore --form and dump the whole journal.
        assertEquals(2, cli.run(new String[]{ "dump", dir.toString(), "--form", "4" }));
        assertTrue(err.toString().contains(
            "--form: unknown option for dump (it takes --account, --from, --instrument, --to)"), err.toString());
        assertEquals(2, cli.run(new String[]{ "dump", dir.toString(), "--from", "four" }));
        assertTrue(err.toString().contains("--from: must be an integer (was 'four')"), err.toString());
        assertEquals(2, cli.run(new String[]{ "dump", dir.toString(), "--from", "4", "--to", "2" }));
        assertTrue(err.toString().contains("--to: must be at least 4 (was '2')"), err.toString());
        assertEquals(2, cli.run(new String[]{ "verify", dir.toString(), "--allow-gaps" }));
        assertTrue(err.toString().contains("--allow-gaps: unknown option for verify (it takes none)"), err.toString());
        assertEquals(2, cli.run(new String[]{ "replay", dir.toString(), "--snapshots" }));
        assertTrue(err.toString().contains("--snapshots: needs a value"), err.toString());
        assertEquals(2, cli.run(new String[]{ "stats", dir.toString(), dir.toString() }));
        assertTrue(err.toString().contains("stats takes one journal directory, not also"), err.toString());
        assertEquals(2, cli.run(new String[]{ "dupm", dir.toString() }));
        assertTrue(err.toString().contains("unknown command dupm"), err.toString());
        assertEquals("", out.toString(), "nothing was dumped");

        assertEquals(0, cli.run(new String[]{ "dump", "--from", "4", dir.toString() }));
        assertTrue(out.toString().startsWith("4 ") && out.toString().contains("\n5 "), out.toString());
        assertFalse(out.toString().contains("\n3 "), out.toString());
    }

    private void writeJournal(final long from, final long to)
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(from - 1))
        {
            for (long s = from; s <= to; s++)
            {
                append(writer, s);
            }
            writer.endOfBatch();
        }
    }

    private static MappedBytesStore mappedStore(final JournalWriter writer)
    {
        return (MappedBytesStore)writer.appender().wire().bytes().bytesStore();
    }

    private static void append(final JournalWriter writer, final long sequence)
    {
        final byte[] payload = String.format("MARK%04d", sequence).getBytes(StandardCharsets.US_ASCII);
        writer.append(sequence, 1_000_000L * sequence, 7, 10, new UnsafeBuffer(payload), 0, payload.length);
    }

    private static List<String> readAll(final Journal journal, final long from)
    {
        final List<String> read = new ArrayList<>();
        try (JournalReader reader = journal.newReader().fromSequence(from))
        {
            while (reader.read((sequence, ts, source, templateId, buffer, offset, length) ->
                read.add(sequence + ":" + buffer.getStringWithoutLengthAscii(offset, length)), 64) > 0)
            {
                // until the end
            }
            assertNull(reader.problem());
        }
        return read;
    }

    /** Flip a byte of the record whose payload holds the marker, as a disk or a torn write would. */
    private void corrupt(final String marker) throws IOException
    {
        final byte[] needle = marker.getBytes(StandardCharsets.US_ASCII);
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : (Iterable<Path>)files.filter((p) -> p.toString().endsWith(".cq4"))::iterator)
            {
                final byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i + needle.length <= bytes.length; i++)
                {
                    if (java.util.Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length))
                    {
                        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
                        {
                            raf.seek(i + 4);
                            raf.write('X');
                        }
                        return;
                    }
                }
            }
        }
        throw new AssertionError("marker not found: " + marker);
    }
}
