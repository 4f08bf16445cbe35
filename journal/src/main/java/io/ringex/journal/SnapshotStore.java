package io.ringex.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringex.journal.SnapshotFileDescriptor.FILE_VERSION;
import static io.ringex.journal.SnapshotFileDescriptor.FILE_VERSION_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.HEADER_CHECKSUM_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.HEADER_LENGTH;
import static io.ringex.journal.SnapshotFileDescriptor.MAGIC;
import static io.ringex.journal.SnapshotFileDescriptor.MAGIC_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.PREFIX;
import static io.ringex.journal.SnapshotFileDescriptor.SEQUENCE_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.STATE_CHECKSUM_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.STATE_HASH_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.STATE_LENGTH_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.STATE_VERSION_OFFSET;
import static io.ringex.journal.SnapshotFileDescriptor.SUFFIX;
import static io.ringex.journal.SnapshotFileDescriptor.TIMESTAMP_OFFSET;

/**
 * Snapshot files in one directory ({@link SnapshotFileDescriptor}). Writing is atomic (temporary file, force, rename);
 * loading takes the newest file that checks out and reports every newer one it had to pass over.
 * <p>
 * Snapshots are written off the processor's thread: the processor copies its state into a buffer at a sequence (a
 * pause proportional to the state's size, not the disk's speed) and hands the buffer to a writer thread, which calls
 * {@link #write}. Thread safety: {@link #write} and {@link #loadNewest} may run on different threads; two concurrent
 * writes of the same sequence are not supported.
 */
public final class SnapshotStore
{
    /** A loaded snapshot. */
    public static final class Snapshot
    {
        private final long sequence;
        private final long timestampNs;
        private final long stateHash;
        private final int stateVersion;
        private final DirectBuffer state;
        private final Path file;

        Snapshot(
            final long sequence,
            final long timestampNs,
            final long stateHash,
            final int stateVersion,
            final DirectBuffer state,
            final Path file)
        {
            this.sequence = sequence;
            this.timestampNs = timestampNs;
            this.stateHash = stateHash;
            this.stateVersion = stateVersion;
            this.state = state;
            this.file = file;
        }

        /** @return the last sequence the state includes. */
        public long sequence()
        {
            return sequence;
        }

        /** @return that command's timestamp. */
        public long timestampNs()
        {
            return timestampNs;
        }

        /** @return the state hash written with it. */
        public long stateHash()
        {
            return stateHash;
        }

        /** @return the processor's state format version. */
        public int stateVersion()
        {
            return stateVersion;
        }

        /** @return the state bytes. */
        public DirectBuffer state()
        {
            return state;
        }

        /** @return the file it came from. */
        public Path file()
        {
            return file;
        }
    }

    private final Path directory;

    /**
     * @param directory where snapshot files live; created if missing.
     */
    public SnapshotStore(final Path directory)
    {
        this.directory = directory;
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create snapshot directory " + directory, ex);
        }
    }

    /**
     * @return the snapshot directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * Write a snapshot atomically.
     *
     * @param sequence     last sequence the state includes.
     * @param timestampNs  that command's timestamp.
     * @param stateHash    the processor's state hash at that sequence.
     * @param stateVersion the processor's state format version.
     * @param state        the state bytes.
     * @param offset       where they start.
     * @param length       how many.
     * @return the file written.
     */
    public Path write(
        final long sequence,
        final long timestampNs,
        final long stateHash,
        final int stateVersion,
        final DirectBuffer state,
        final int offset,
        final int length)
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer headerView = new UnsafeBuffer(header);
        headerView.putLong(MAGIC_OFFSET, MAGIC);
        headerView.putInt(FILE_VERSION_OFFSET, FILE_VERSION);
        headerView.putInt(STATE_VERSION_OFFSET, stateVersion);
        headerView.putLong(SEQUENCE_OFFSET, sequence);
        headerView.putLong(TIMESTAMP_OFFSET, timestampNs);
        headerView.putLong(STATE_HASH_OFFSET, stateHash);
        headerView.putLong(STATE_LENGTH_OFFSET, length);
        headerView.putInt(STATE_CHECKSUM_OFFSET, crc32c(state, offset, length));
        headerView.putInt(HEADER_CHECKSUM_OFFSET, crc32c(headerView, 0, HEADER_CHECKSUM_OFFSET));

        final Path target = directory.resolve(SnapshotFileDescriptor.fileName(sequence));
        final Path temporary = directory.resolve(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
        {
            writeFully(channel, header);
            final byte[] bytes = new byte[length];
            state.getBytes(offset, bytes);
            writeFully(channel, ByteBuffer.wrap(bytes));
            channel.force(true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write snapshot " + temporary, ex);
        }
        try
        {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ))
            {
                dir.force(true);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot publish snapshot " + target, ex);
        }
        return target;
    }

    /**
     * Load the newest snapshot that checks out.
     *
     * @param stateVersion the state format version the caller can restore; files of another version are passed over.
     * @param report       told of every file passed over, and why.
     * @return the snapshot, or null if there is none usable.
     */
    public Snapshot loadNewest(final int stateVersion, final Consumer<String> report)
    {
        final List<Path> files = list();
        for (int i = files.size() - 1; i >= 0; i--)
        {
            final Path file = files.get(i);
            final Snapshot snapshot = load(file, stateVersion, report);
            if (snapshot != null)
            {
                return snapshot;
            }
        }
        return null;
    }

    /**
     * Load the newest snapshot that checks out and lies at or before a point of the journal: for rebuilding the state
     * as of that point, replay starts from it.
     *
     * @param stateVersion   the state format version the caller can restore; files of another version are passed over.
     * @param maxSequence    the snapshot's last sequence must be at most this.
     * @param maxTimestampNs the snapshot's last command must be stamped at most this.
     * @param report         told of every file passed over for being unusable, and why.
     * @return the snapshot, or null if there is none usable at or before the point.
     */
    public Snapshot loadAtOrBefore(
        final int stateVersion, final long maxSequence, final long maxTimestampNs, final Consumer<String> report)
    {
        final List<Path> files = list();
        for (int i = files.size() - 1; i >= 0; i--)
        {
            final Path file = files.get(i);
            if (SnapshotFileDescriptor.sequenceOf(file) > maxSequence)
            {
                continue;
            }
            final Snapshot snapshot = load(file, stateVersion, report);
            if (snapshot != null && snapshot.sequence() <= maxSequence && snapshot.timestampNs() <= maxTimestampNs)
            {
                return snapshot;
            }
        }
        return null;
    }

    /**
     * Snapshot files, oldest first.
     *
     * @return the files.
     */
    public List<Path> list()
    {
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory))
        {
            entries.filter((p) ->
            {
                final String name = p.getFileName().toString();
                return name.startsWith(PREFIX) && name.endsWith(SUFFIX);
            }).sorted().forEach(files::add);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
        return files;
    }

    /**
     * Keep only the newest {@code keep} snapshot files.
     *
     * @param keep how many to keep, at least 1.
     */
    public void prune(final int keep)
    {
        final List<Path> files = list();
        for (int i = 0; i < files.size() - Math.max(1, keep); i++)
        {
            try
            {
                Files.deleteIfExists(files.get(i));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot delete " + files.get(i), ex);
            }
        }
    }

    private static Snapshot load(final Path file, final int stateVersion, final Consumer<String> report)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            report.accept(file + ": unreadable: " + ex.getMessage());
            return null;
        }
        if (bytes.length < HEADER_LENGTH)
        {
            report.accept(file + ": shorter than a header");
            return null;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (buffer.getLong(MAGIC_OFFSET) != MAGIC || buffer.getInt(FILE_VERSION_OFFSET) != FILE_VERSION)
        {
            report.accept(file + ": not a snapshot of this file format");
            return null;
        }
        if (crc32c(buffer, 0, HEADER_CHECKSUM_OFFSET) != buffer.getInt(HEADER_CHECKSUM_OFFSET))
        {
            report.accept(file + ": header checksum mismatch");
            return null;
        }
        final long length = buffer.getLong(STATE_LENGTH_OFFSET);
        if (length != bytes.length - HEADER_LENGTH)
        {
            report.accept(file + ": state length " + length + " but " + (bytes.length - HEADER_LENGTH) + " bytes");
            return null;
        }
        if (crc32c(buffer, HEADER_LENGTH, (int)length) != buffer.getInt(STATE_CHECKSUM_OFFSET))
        {
            report.accept(file + ": state checksum mismatch");
            return null;
        }
        if (buffer.getInt(STATE_VERSION_OFFSET) != stateVersion)
        {
            report.accept(file + ": state version " + buffer.getInt(STATE_VERSION_OFFSET) + ", this build reads " +
                stateVersion);
            return null;
        }
        return new Snapshot(
            buffer.getLong(SEQUENCE_OFFSET),
            buffer.getLong(TIMESTAMP_OFFSET),
            buffer.getLong(STATE_HASH_OFFSET),
            buffer.getInt(STATE_VERSION_OFFSET),
            new UnsafeBuffer(bytes, HEADER_LENGTH, (int)length),
            file);
    }

    private static int crc32c(final DirectBuffer buffer, final int offset, final int length)
    {
        // Snapshots are written and read off the hot path: a copy keeps this simple for heap and direct buffers.
        final CRC32C crc = new CRC32C();
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        crc.update(copy, 0, length);
        return (int)crc.getValue();
    }

    private static void writeFully(final FileChannel channel, final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
    }
}
