package io.ringex.engine.replay;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalWriter;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.nio.file.Path;

/**
 * A venue in a test: each command is journaled, as the node's journal stage does, and applied to a live processor, as
 * its processor stage does, whose events and state the replay tools' answers are checked against. Snapshots are the
 * live processor's, written as the node writes them.
 */
final class JournalFixture implements AutoCloseable
{
    static final long ADMIN = 1;
    static final long START_NS = DemoJournal.DEFAULT_START_NS;
    static final long STEP_NS = 1_000_000;

    final Path journalDirectory;
    final Path snapshotDirectory;
    final CommandEncoder encoder = new CommandEncoder();
    final EventLog liveEvents = new EventLog();
    final BusinessLogicProcessor live = new BusinessLogicProcessor(liveEvents, 1024, null);
    private final long[] clock = { START_NS };
    private final Journal journal;
    private final JournalWriter writer;
    private final SnapshotStore snapshots;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ExpandableArrayBuffer snapshotBuffer = new ExpandableArrayBuffer(4096);
    long sequence;
    long timeNs = START_NS;

    JournalFixture(final Path directory)
    {
        journalDirectory = directory.resolve("journal");
        snapshotDirectory = directory.resolve("snapshots");
        journal = Journal.open(journalDirectory, Journal.Durability.PROCESS, () -> clock[0] / 1_000_000);
        writer = journal.newWriter(0);
        snapshots = new SnapshotStore(snapshotDirectory);
    }

    /** Journal and apply the encoder's command from a source, one millisecond after the previous one. */
    EventLog send(final long sourceId, final int length)
    {
        return send(sourceId, encoder.buffer(), length);
    }

    EventLog send(final long sourceId, final DirectBuffer buffer, final int length)
    {
        sequence++;
        timeNs += STEP_NS;
        clock[0] = timeNs;
        header.wrap(buffer, 0);
        writer.append(sequence, timeNs, sourceId, header.templateId(), buffer, 0, length);
        writer.endOfBatch();
        liveEvents.clear();
        live.onCommand(sequence, timeNs, sourceId, buffer, 0, length);
        live.onEndOfBatch();
        return liveEvents;
    }

    /** Write the live processor's snapshot, as the node does between batches. */
    void snapshot()
    {
        final int length = live.writeSnapshot(snapshotBuffer, 0);
        snapshots.write(sequence, timeNs, live.stateHash(), SnapshotDescriptor.VERSION, snapshotBuffer, 0, length);
    }

    /** Close the journal so the tools open it as they would a stopped node's. */
    public void close()
    {
        writer.close();
        journal.close();
    }
}
