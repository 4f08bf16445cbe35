package io.ringex.engine.replay;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalRecordHandler;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A journal replayed into a fresh business-logic processor, from the nearest usable snapshot before the point asked
 * for, command by command, with each command's events at hand: what every replay tool (point-in-time state, audit
 * trail, post-trade files, shadow comparison) is built on. It never touches a running engine: it opens the journal
 * and snapshot files read-only in the caller's thread.
 * <p>
 * It refuses what would make the replayed state differ from the venue's: a gap in the journal before the point (unless
 * gaps are allowed, as the node itself allows them), a command of a schema version this build cannot read, a snapshot
 * that restores to another hash than it was written with.
 * <p>
 * Threading: one thread.
 */
public final class Replayer implements AutoCloseable
{
    /** Sees each command after the processor applied it. */
    @FunctionalInterface
    public interface CommandVisitor
    {
        /**
         * @param sequence    the command's sequence.
         * @param timestampNs its ingress time.
         * @param sourceId    its source (gateway and session).
         * @param buffer      holding the command, SBE header included.
         * @param offset      where it starts.
         * @param length      its length.
         * @param events      the events it produced (valid during the call).
         * @return false to stop the replay after this command.
         */
        boolean onCommand(
            long sequence,
            long timestampNs,
            long sourceId,
            DirectBuffer buffer,
            int offset,
            int length,
            EventLog events);
    }

    private final Journal journal;
    private final Journal.Ends ends;
    private final SnapshotStore snapshots;
    private final EventLog events = new EventLog();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final List<String> notes = new ArrayList<>();
    private BusinessLogicProcessor processor;
    private boolean allowGaps;
    private long restoredSequence;
    private long lastApplied;
    private long lastTimestampNs;
    private long applied;

    private Replayer(final Journal journal, final SnapshotStore snapshots)
    {
        this.journal = journal;
        this.snapshots = snapshots;
        this.ends = journal.ends();
    }

    /**
     * Open a journal (and optionally its snapshots) for replay.
     *
     * @param journalDirectory  the journal.
     * @param snapshotDirectory the node's snapshots, or null to replay from the first command.
     * @return the replayer.
     * @throws ReplayException if there is no journal there, or it holds no command.
     */
    public static Replayer open(final Path journalDirectory, final Path snapshotDirectory)
    {
        if (!Files.isDirectory(journalDirectory) || !holdsQueueFiles(journalDirectory))
        {
            throw new ReplayException("no journal at " + journalDirectory + " (a directory of .cq4 files)");
        }
        if (snapshotDirectory != null && !Files.isDirectory(snapshotDirectory))
        {
            throw new ReplayException("no snapshot directory at " + snapshotDirectory);
        }
        final Journal journal;
        try
        {
            journal = Journal.openReadOnly(journalDirectory);
        }
        catch (final RuntimeException ex)
        {
            throw new ReplayException("cannot open the journal at " + journalDirectory + ": " + ex.getMessage());
        }
        try
        {
            final Replayer replayer = new Replayer(journal,
                snapshotDirectory == null ? null : new SnapshotStore(snapshotDirectory));
            if (replayer.ends.lastSequence() == 0)
            {
                throw new ReplayException("the journal at " + journalDirectory + " holds no readable command");
            }
            return replayer;
        }
        catch (final Exception ex)
        {
            // Chronicle throws some checked exceptions undeclared (a damaged file's StreamCorruptedException)
            journal.close();
            throw ex instanceof ReplayException ? (ReplayException)ex : new ReplayException("cannot read the " +
                "journal at " + journalDirectory + " (a damaged or foreign file?): " + ex);
        }
    }

    private static boolean holdsQueueFiles(final Path directory)
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.anyMatch((p) -> p.getFileName().toString().endsWith(".cq4"));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * Go on over a gap in the middle of the journal, as a node started with
     * {@code ringex.engine.journal.allow.gaps=true} does; a point inside the gap is still refused.
     *
     * @param allowGaps whether to.
     * @return this.
     */
    public Replayer allowGaps(final boolean allowGaps)
    {
        this.allowGaps = allowGaps;
        return this;
    }

    /** @return the journal's first and last commands. */
    public Journal.Ends ends()
    {
        return ends;
    }

    /**
     * The sequence of the last command at or before a time: what "the state as of T" is the state after.
     *
     * @param timestampNs the time, ns since the epoch.
     * @return the time checked against the journal's span.
     * @throws ReplayException if the time is before the first command or after the last.
     */
    public long checkTime(final long timestampNs)
    {
        if (timestampNs < ends.firstTimestampNs())
        {
            throw new ReplayException(Instant.ofEpochSecond(0, timestampNs) + " is before the journal starts (its " +
                "first command, sequence " + ends.firstSequence() + ", is at " +
                Instant.ofEpochSecond(0, ends.firstTimestampNs()) + ")");
        }
        if (timestampNs > ends.lastTimestampNs())
        {
            throw new ReplayException(Instant.ofEpochSecond(0, timestampNs) + " is after the journal ends (its " +
                "last command, sequence " + ends.lastSequence() + ", is at " +
                Instant.ofEpochSecond(0, ends.lastTimestampNs()) + ")");
        }
        return timestampNs;
    }

    /**
     * @param sequence a sequence asked for.
     * @return it, checked against the journal's range.
     * @throws ReplayException if it is outside the journal.
     */
    public long checkSequence(final long sequence)
    {
        if (sequence < ends.firstSequence() || sequence > ends.lastSequence())
        {
            throw new ReplayException("sequence " + sequence + " is outside the journal, which holds sequences " +
                ends.firstSequence() + ".." + ends.lastSequence());
        }
        return sequence;
    }

    /**
     * Start from the newest usable snapshot at or before a point (or from nothing without snapshots). Call once,
     * before {@link #replay}.
     *
     * @param maxSequence    the snapshot may hold commands up to this sequence.
     * @param maxTimestampNs and stamped up to this time.
     * @return the snapshot's sequence, or 0 if replay starts from the journal's first command.
     */
    public long startAtOrBefore(final long maxSequence, final long maxTimestampNs)
    {
        if (processor != null)
        {
            throw new IllegalStateException("already started");
        }
        processor = new BusinessLogicProcessor(events, 1 << 16, null);
        if (snapshots != null && maxSequence > 0)
        {
            final SnapshotStore.Snapshot snapshot = snapshots.loadAtOrBefore(SnapshotDescriptor.VERSION,
                maxSequence, maxTimestampNs, notes::add);
            if (snapshot != null)
            {
                processor.restore(snapshot.state(), 0, snapshot.state().capacity());
                if (processor.stateHash() != snapshot.stateHash())
                {
                    throw new ReplayException("snapshot " + snapshot.file() + " restores to another state hash " +
                        "than it was written with: move it aside, or replay without --snapshots");
                }
                restoredSequence = snapshot.sequence();
                lastApplied = snapshot.sequence();
                lastTimestampNs = snapshot.timestampNs();
                notes.add("started from " + snapshot.file().getFileName() + " (sequence " + snapshot.sequence() + ")");
            }
        }
        return restoredSequence;
    }

    /**
     * Start from the newest usable snapshot taken before an order was accepted (order ids are assigned in sequence,
     * and a snapshot records the last one), so the order's whole life lies after the start.
     *
     * @param orderId the engine's order id.
     * @return the snapshot's sequence, or 0 if replay starts from the journal's first command.
     */
    public long startBeforeOrder(final long orderId)
    {
        long maxSequence = ends.lastSequence();
        if (snapshots != null)
        {
            while (maxSequence > 0)
            {
                final SnapshotStore.Snapshot snapshot = snapshots.loadAtOrBefore(SnapshotDescriptor.VERSION,
                    maxSequence, Long.MAX_VALUE, notes::add);
                if (snapshot == null)
                {
                    maxSequence = 0;
                    break;
                }
                if (snapshot.state().getLong(SnapshotDescriptor.LAST_ORDER_ID_OFFSET,
                    java.nio.ByteOrder.LITTLE_ENDIAN) < orderId)
                {
                    maxSequence = snapshot.sequence();
                    break;
                }
                maxSequence = snapshot.sequence() - 1;
            }
        }
        return startAtOrBefore(maxSequence, Long.MAX_VALUE);
    }

    /**
     * Apply the journal's commands after the start, in order, up to a point (the first command past it is not
     * applied), showing each to a visitor with its events.
     *
     * @param toSequence    last sequence to apply.
     * @param toTimestampNs apply no command stamped after this.
     * @param visitor       sees each command with its events (each command then ends its own batch, so the
     *                      account updates it caused are among its events), or null to replay at full speed.
     * @return the last sequence applied.
     * @throws ReplayException on a gap before the point, or a command this build cannot read.
     */
    public long replay(final long toSequence, final long toTimestampNs, final CommandVisitor visitor)
    {
        if (processor == null)
        {
            startAtOrBefore(toSequence, toTimestampNs);
        }
        final boolean[] stop = new boolean[1];
        final JournalRecordHandler handler = (sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
        {
            if (stop[0])
            {
                return;
            }
            if (sequence > toSequence || timestampNs > toTimestampNs)
            {
                stop[0] = true;
                return;
            }
            checkReadable(sequence, buffer, offset);
            events.clear();
            processor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
            lastApplied = sequence;
            lastTimestampNs = timestampNs;
            applied++;
            if (visitor != null)
            {
                processor.onEndOfBatch();
                if (!visitor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length, events))
                {
                    stop[0] = true;
                }
            }
        };
        try (JournalReader reader = journal.newReaderAt(lastApplied + 1).allowGaps(allowGaps))
        {
            int read;
            // a gap met after the point asked for (in the same batch of records) does not concern this replay
            while (!stop[0] && (read = reader.read(handler, 4096)) != 0)
            {
                if (read < 0 && !stop[0] && lastApplied >= toSequence)
                {
                    break; // the gap lies after the last sequence asked for
                }
                if (read < 0 && !stop[0])
                {
                    throw new ReplayException("the journal has a gap after sequence " + lastApplied + " (" +
                        reader.problem() + "): the state after it cannot be rebuilt; see `journal verify`, or " +
                        "pass --allow-gaps to apply the commands after the gap without the missing ones");
                }
                if (visitor == null)
                {
                    processor.onEndOfBatch();
                }
            }
        }
        catch (final ReplayException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            // Chronicle throws some checked exceptions undeclared (a damaged file's StreamCorruptedException)
            throw new ReplayException("cannot read the journal after sequence " + lastApplied + " (a damaged " +
                "file?): " + ex);
        }
        return lastApplied;
    }

    private void checkReadable(final long sequence, final DirectBuffer buffer, final int offset)
    {
        header.wrap(buffer, offset);
        final int schemaId = header.schemaId();
        final int version = header.version();
        if (schemaId != MessageValidator.SCHEMA_ID || version > MessageValidator.SCHEMA_VERSION ||
            version < MessageValidator.MIN_SUPPORTED_VERSION)
        {
            throw new ReplayException("sequence " + sequence + " is a " + MessageCatalog.name(header.templateId()) +
                " of schema " + schemaId + " version " + version + "; this build reads schema " +
                MessageValidator.SCHEMA_ID + " versions " + MessageValidator.MIN_SUPPORTED_VERSION + ".." +
                MessageValidator.SCHEMA_VERSION + ": replay this journal with the build that wrote it, or a later one");
        }
    }

    /** @return the processor (after {@link #startAtOrBefore} or {@link #replay}); its state is the replayed one. */
    public BusinessLogicProcessor processor()
    {
        return processor;
    }

    /** @return the sequence of the snapshot replay started from, 0 if none. */
    public long restoredSequence()
    {
        return restoredSequence;
    }

    /** @return the last sequence applied (or restored). */
    public long lastApplied()
    {
        return lastApplied;
    }

    /** @return the timestamp of the last command applied (or of the snapshot's). */
    public long lastTimestampNs()
    {
        return lastTimestampNs;
    }

    /** @return commands applied from the journal. */
    public long appliedCount()
    {
        return applied;
    }

    /** @return what the replayer did that an operator should know (snapshots passed over or used). */
    public List<String> notes()
    {
        return notes;
    }

    /** Close the journal. */
    public void close()
    {
        journal.close();
    }
}
