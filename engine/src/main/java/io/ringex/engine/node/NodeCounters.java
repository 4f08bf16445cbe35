package io.ringex.engine.node;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * The node's counters (ring sequences, stage errors, ingress rejects, replication acks...) in a memory-mapped file,
 * so that they can be read from outside the process while it runs, as Aeron's counters are: the file holds
 * {@link #METADATA_LENGTH} bytes of counter metadata followed by {@link #VALUES_LENGTH} bytes of values, the layout of
 * Agrona's {@link CountersManager}. {@link #reader(Path)} opens it read-only for tools.
 * <p>
 * Thread safety: counters are allocated on the thread that builds the node; values are then written by their owners
 * and read by anyone.
 */
final class NodeCounters implements AutoCloseable
{
    static final int MAX_COUNTERS = 512;
    static final int VALUES_LENGTH = MAX_COUNTERS * CountersReader.COUNTER_LENGTH;
    static final int METADATA_LENGTH = MAX_COUNTERS * CountersReader.METADATA_LENGTH;
    static final String FILE_NAME = "counters.dat";

    private final MappedByteBuffer mapped;
    private final CountersManager manager;

    NodeCounters(final Path directory)
    {
        final File file = directory.resolve(FILE_NAME).toFile();
        IoUtil.ensureDirectoryExists(directory.toFile(), "node directory");
        IoUtil.deleteIfExists(file);
        mapped = IoUtil.mapNewFile(file, METADATA_LENGTH + VALUES_LENGTH);
        manager = new CountersManager(
            new UnsafeBuffer(mapped, 0, METADATA_LENGTH),
            new UnsafeBuffer(mapped, METADATA_LENGTH, VALUES_LENGTH));
    }

    CountersManager manager()
    {
        return manager;
    }

    AtomicCounter newCounter(final String label)
    {
        return manager.newCounter(label);
    }

    /**
     * Open a node's counters file for reading.
     *
     * @param directory the node directory.
     * @return a reader over it.
     */
    static CountersReader reader(final Path directory)
    {
        final MappedByteBuffer buffer = IoUtil.mapExistingFile(directory.resolve(FILE_NAME).toFile(), FILE_NAME);
        return new CountersReader(
            new UnsafeBuffer(buffer, 0, METADATA_LENGTH),
            new UnsafeBuffer(buffer, METADATA_LENGTH, VALUES_LENGTH));
    }

    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
