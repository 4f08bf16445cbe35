package io.ringex.journal;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalPretoucherTest
{
    private static final int PAYLOAD = 64;
    private static final long AHEAD = 4L << 20;

    @TempDir
    Path dir;

    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);

    @Test
    void theFrontierIsTheFileOffsetJustPastTheLastRecordOfTheBatch() throws Exception
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            assertNull(writer.frontierFile(), "nothing published before the first batch");
            for (int s = 1; s <= 500; s++)
            {
                append(writer, s);
            }
            writer.endOfBatch();

            // The pretoucher relies on this: the record that ends at the frontier is the batch's last one.
            final long frontier = writer.frontierPosition();
            final int recordLength = JournalRecordDescriptor.recordLength(PAYLOAD);
            try (RandomAccessFile file = new RandomAccessFile(writer.frontierFile(), "r"))
            {
                file.seek(frontier - recordLength + JournalRecordDescriptor.SEQUENCE_OFFSET);
                assertEquals(500L, Long.reverseBytes(file.readLong()), "little-endian sequence of record 500");
            }
        }
    }

    @Test
    void touchesAheadOfTheWriterWithinTheFileAndNeverGrowsIt() throws Exception
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            final JournalPretoucher pretoucher = new JournalPretoucher(writer, AHEAD);
            assertEquals(0, pretoucher.doWork(), "idle before the writer's first batch");
            for (int s = 1; s <= 1000; s++)
            {
                append(writer, s);
            }
            writer.endOfBatch();
            final File file = writer.frontierFile();
            final long lengthBefore = file.length();

            int cycles = 0;
            while (pretoucher.doWork() > 0)
            {
                cycles++;
            }
            final long frontierPage = writer.frontierPosition() & ~(JournalPretoucher.PAGE_SIZE - 1L);
            final long expected = Math.min(frontierPage + AHEAD, lengthBefore & ~(JournalPretoucher.PAGE_SIZE - 1L));
            assertEquals(expected, pretoucher.touchedTo());
            assertTrue(cycles >= (expected - frontierPage) / JournalPretoucher.MAX_BYTES_PER_CYCLE,
                "bounded work per duty cycle: " + cycles);
            assertEquals(lengthBefore, file.length(), "the file is not extended");
            assertEquals(1, pretoucher.windowsMapped(), "one mapping for the whole run ahead, not one per cycle");

            // The writer carries on over the touched pages; every record reads back with its checksum.
            for (int s = 1001; s <= 20_000; s++)
            {
                append(writer, s);
            }
            writer.endOfBatch();
            pretoucher.onClose();
            final JournalVerifier.Report report = JournalVerifier.verify(journal);
            assertTrue(report.isClean(), report.toString());
            assertEquals(20_000, report.records());
        }
    }

    @Test
    void aWriterRacingThePretoucherLosesNoByte() throws Exception
    {
        final int records = 300_000;
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            // a window of 8 pages: the pretoucher moves its mapping along the file all the time it races the writer
            final JournalPretoucher pretoucher = new JournalPretoucher(writer, AHEAD, 8 * JournalPretoucher.PAGE_SIZE);
            final AtomicBoolean running = new AtomicBoolean(true);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread toucher = new Thread(() ->
            {
                try
                {
                    while (running.get())
                    {
                        if (pretoucher.doWork() == 0)
                        {
                            Thread.onSpinWait();
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
                finally
                {
                    pretoucher.onClose();
                }
            });
            toucher.start();
            for (int s = 1; s <= records; s++)
            {
                append(writer, s);
                if (s % 16 == 0)
                {
                    writer.endOfBatch();
                }
            }
            writer.endOfBatch();
            running.set(false);
            toucher.join();

            assertNull(failure.get());
            assertTrue(pretoucher.pagesTouched() > 0);
            assertTrue(pretoucher.windowsMapped() > 1, "windows mapped: " + pretoucher.windowsMapped());
            final JournalVerifier.Report report = JournalVerifier.verify(journal);
            assertTrue(report.isClean(), report.toString());
            assertEquals(records, report.records());
        }
    }

    @Test
    void aheadMustBeAPageMultiple()
    {
        try (Journal journal = Journal.open(dir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher(writer, 0));
            assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher(writer, 5000));
            assertThrows(IllegalArgumentException.class, () -> new JournalPretoucher(writer, AHEAD, 5000));
        }
    }

    private void append(final JournalWriter writer, final long sequence)
    {
        payload.putLong(0, sequence * 31);
        writer.append(sequence, sequence * 1000, 7, 11, payload, 0, PAYLOAD);
    }
}
