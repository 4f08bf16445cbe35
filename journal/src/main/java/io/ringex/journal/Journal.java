package io.ringex.journal;

import java.io.File;
import java.nio.file.Path;

import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.RollCycles;
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

    private Journal(final Path directory, final Durability durability)
    {
        this.directory = directory;
        this.durability = durability;
        this.queue = SingleChronicleQueueBuilder.binary(directory.toFile())
            .rollCycle(RollCycles.FAST_DAILY)
            .syncMode(durability == Durability.MACHINE ? SyncMode.SYNC : SyncMode.NONE)
            .build();
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
        final File dir = directory.toFile();
        if (!dir.isDirectory() && !dir.mkdirs())
        {
            throw new IllegalStateException("cannot create journal directory " + directory);
        }
        return new Journal(directory, durability);
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
