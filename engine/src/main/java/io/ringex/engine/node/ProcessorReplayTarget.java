package io.ringex.engine.node;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.ReplayTarget;
import io.ringex.journal.SnapshotStore;
import org.agrona.DirectBuffer;

/**
 * What {@code journal replay} replays into: a fresh business-logic processor with its events discarded. Found by the
 * journal CLI through {@link java.util.ServiceLoader}.
 * <p>
 * Thread safety: one thread.
 */
public final class ProcessorReplayTarget implements ReplayTarget
{
    private final BusinessLogicProcessor processor = new BusinessLogicProcessor(new SwitchableEventSink(4096));

    public String name()
    {
        return "business-logic processor";
    }

    public void restore(final SnapshotStore.Snapshot snapshot)
    {
        processor.restore(snapshot.state(), 0, snapshot.state().capacity());
    }

    public int snapshotStateVersion()
    {
        return SnapshotDescriptor.VERSION;
    }

    public void onCommand(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        processor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
    }

    public void onEndOfBatch()
    {
        processor.onEndOfBatch();
    }

    public long stateHash()
    {
        return processor.stateHash();
    }
}
