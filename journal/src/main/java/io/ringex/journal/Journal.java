package io.ringex.journal;

import java.io.File;
import java.nio.file.Path;

import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * A command journal: one Chronicle Queue directory holding {@link JournalRecordDescriptor} records in sequence
 * order. Open it once per process; take one {@link JournalWriter} for the journal stage and any number of
 * {@link JournalReader}s for replay, verification and tools.
 * <p>
 * Durability ({@link Durability}): {@code PROCESS} survives the process being killed (records live in the page cache
 * the moment an excerpt closes; the kernel writes them out), {@code MACHINE} also survives the machine losing power,
 * by forcing the mapped pages to disk once per batch before the batch counts as journaled.
 * <p>
 * Thread safety: the writer belongs to one thread; each reader belongs to one thread; open and close from any one
 * thread.
 */
public final class Journal implements AutoCloseable
{
    /** What a journaled command survives. */
    public enum Durability
    {
        /** Survives a process crash (kill -9), not a machine crash: pages reach disk when the kernel writes them. */
        PROCESS,
        /** Survives a machine crash: msync of the written pages at each end of batch. Slower, by the disk's sync. */
        MACHINE
    }

    private final SingleChronicleQueue queue;
    private final Path directory;
    private final Durability durability;

    private Journal(final Path directory, final Durability durability, final TimeProvider clock, final boolean readOnly)
    {
        this.directory = directory;
        this.durability = durability;
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.binary(directory.toFile())
            .rollCycle(RollCycles.FAST_DAILY)
            .readOnly(readOnly)
            .syncMode(durability == Durability.MACHINE ? SyncMode.SYNC : SyncMode.NONE);
        if (null != clock)
        {
            builder.timeProvider(clock);
        }
        this.queue = builder.build();
    }

    /**
     * Open (or create) a journal.
     *
     * @param directory  the queue directory.
     * @param durability what an appended batch survives.
     * @return the journal.
     */
    public static Journal open(final Path directory, final Durability durability)
    {
        return open(directory, durability, null);
    }

    /**
     * Open (or create) a journal whose files are named by the given clock instead of the wall clock: Chronicle names
     * each file by the day (roll cycle) it was written, so a program that must write the same journal every time it
     * runs (a reference journal, a generated benchmark journal) gives the time of its commands here.
     *
     * @param directory  the queue directory.
     * @param durability what an appended batch survives.
     * @param clock      the time that picks the file a record goes to, or null for the wall clock.
     * @return the journal.
     */
    public static Journal open(final Path directory, final Durability durability, final TimeProvider clock)
    {
        final File dir = directory.toFile();
        if (!dir.isDirectory() && !dir.mkdirs())
        {
            throw new IllegalStateException("cannot create journal directory " + directory);
        }
        return new Journal(directory, durability, clock, false);
    }

    /**
     * Open an existing journal to read only, as tools do beside a running node (the audit page, the replay tools):
     * nothing of the directory is created or changed, and no writer can be taken.
     *
     * @param directory the queue directory.
     * @return the journal.
     * @throws IllegalStateException if there is no such directory.
     */
    public static Journal openReadOnly(final Path directory)
    {
        if (!directory.toFile().isDirectory())
        {
            throw new IllegalStateException("no journal directory " + directory);
        }
        return new Journal(directory, Durability.PROCESS, null, true);
    }

    /**
     * @return the queue directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * @return what an appended batch survives.
     */
    public Durability durability()
    {
        return durability;
    }

    /**
     * The writer of the journal stage. Call once; the writer is owned by the calling thread from then on.
     *
     * @param lastSequence the sequence of the last good record already journaled (0 if none), from a
     *                     {@link JournalVerifier} report; the writer refuses anything but lastSequence + 1 next.
     * @return the writer.
     */
    public JournalWriter newWriter(final long lastSequence)
    {
        return new JournalWriter(queue.createAppender(), durability, lastSequence);
    }

    /**
     * A reader from the start of the journal.
     *
     * @return the reader.
     */
    public JournalReader newReader()
    {
        return new JournalReader(queue.createTailer());
    }

    /**
     * A reader that starts at the record of a sequence, found by binary search over the queue's indexes instead of
     * reading everything before it. Gaps are only detected from there on: use {@link JournalVerifier} for the whole
     * journal.
     *
     * @param sequence the first sequence the reader should deliver (it also delivers nothing before it).
     * @return the reader, positioned at or just before the sequence's record.
     */
    public JournalReader newReaderAt(final long sequence)
    {
        final long index = new JournalSeek(queue).indexAtOrBefore(sequence);
        final net.openhft.chronicle.queue.ExcerptTailer tailer = queue.createTailer();
        if (index >= 0)
        {
            tailer.moveToIndex(index);
        }
        return new JournalReader(tailer).fromSequence(sequence);
    }

    /**
     * The first and last good records, found from each end without reading what lies between: what a tool needs to
     * tell a question about a time or sequence outside the journal from one inside it, at once on a long journal.
     *
     * @return the ends; both zero for an empty journal.
     */
    public Ends ends()
    {
        final Ends ends = new Ends();
        try (ExcerptScanner forward = new ExcerptScanner(queue.createTailer()))
        {
            ExcerptScanner.Verdict verdict;
            do
            {
                verdict = forward.next((v, index, record) ->
                {
                    if (v == ExcerptScanner.Verdict.GOOD)
                    {
                        ends.firstSequence = ExcerptScanner.sequence(record);
                        ends.firstTimestampNs = record.getLong(JournalRecordDescriptor.TIMESTAMP_OFFSET);
                    }
                });
            }
            while (verdict != ExcerptScanner.Verdict.END && verdict != ExcerptScanner.Verdict.GOOD);
        }
        try (ExcerptScanner backward = new ExcerptScanner(
            queue.createTailer().direction(TailerDirection.BACKWARD).toEnd()))
        {
            ExcerptScanner.Verdict verdict;
            do
            {
                verdict = backward.next((v, index, record) ->
                {
                    if (v == ExcerptScanner.Verdict.GOOD)
                    {
                        ends.lastSequence = ExcerptScanner.sequence(record);
                        ends.lastTimestampNs = record.getLong(JournalRecordDescriptor.TIMESTAMP_OFFSET);
                    }
                });
            }
            while (verdict != ExcerptScanner.Verdict.END && verdict != ExcerptScanner.Verdict.GOOD);
        }
        return ends;
    }

    /** The first and last good records of a journal. */
    public static final class Ends
    {
        long firstSequence;
        long firstTimestampNs;
        long lastSequence;
        long lastTimestampNs;

        /** @return the first good record's sequence, 0 if none. */
        public long firstSequence()
        {
            return firstSequence;
        }

        /** @return its timestamp. */
        public long firstTimestampNs()
        {
            return firstTimestampNs;
        }

        /** @return the last good record's sequence, 0 if none. */
        public long lastSequence()
        {
            return lastSequence;
        }

        /** @return its timestamp. */
        public long lastTimestampNs()
        {
            return lastTimestampNs;
        }
    }

    SingleChronicleQueue queue()
    {
        return queue;
    }

    /**
     * Close the queue files.
     */
    public void close()
    {
        queue.close();
    }
}
