package io.ringex.engine.node;

import io.ringex.engine.cluster.EngineLog;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.engine.ring.SequenceBase;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Takes the processor's state for a cluster snapshot, on the processor's thread, once the processor has applied every
 * command the service fed before the snapshot (the service feeds nothing meanwhile: it waits in its snapshot). The
 * same state also goes to the node's own snapshot files, so the journal's tools start from the same snapshots as the
 * cluster.
 * <p>
 * Thread safety: {@link #request} and {@link #taken} on the service's thread, {@link #doWork()} on the processor's;
 * the request and the answer are volatile, the state written before the answer.
 */
final class ClusterSnapshotTaker implements Agent
{
    private static final long NONE = Long.MIN_VALUE;

    private final BusinessLogicProcessor processor;
    private final SequenceBase sequences;
    private final AtomicCounter processorSequence;
    private final BackgroundSnapshotWriter files;
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1 << 20);
    private volatile long requested = NONE;
    private volatile long requestedTimestampNs;
    private volatile long answered = NONE;
    private EngineLog.ProcessorState state;

    /**
     * @param processor         the processor.
     * @param sequences         ring to command sequences.
     * @param processorSequence the processor stage's ring sequence.
     * @param files             the node's snapshot files.
     */
    ClusterSnapshotTaker(
        final BusinessLogicProcessor processor,
        final SequenceBase sequences,
        final AtomicCounter processorSequence,
        final BackgroundSnapshotWriter files)
    {
        this.processor = processor;
        this.sequences = sequences;
        this.processorSequence = processorSequence;
        this.files = files;
    }

    /**
     * @param sequence    the last command fed.
     * @param timestampNs its time.
     */
    void request(final long sequence, final long timestampNs)
    {
        requestedTimestampNs = timestampNs;
        requested = sequence;
    }

    /**
     * @param sequence the sequence asked for.
     * @return the state once taken at it, otherwise null.
     */
    EngineLog.ProcessorState taken(final long sequence)
    {
        return answered == sequence ? state : null;
    }

    public int doWork()
    {
        final long sequence = requested;
        if (sequence == NONE || sequence == answered ||
            sequences.commandSequence(processorSequence.getAcquire()) != sequence)
        {
            return 0;
        }
        final int length = processor.writeSnapshot(buffer, 0);
        final long stateHash = processor.stateHash();
        state = new EngineLog.ProcessorState(sequence, stateHash, buffer, length);
        final byte[] copy = new byte[length];
        buffer.getBytes(0, copy);
        files.submit(sequence, requestedTimestampNs, stateHash, SnapshotDescriptor.VERSION, copy, length);
        answered = sequence;
        return 1;
    }

    public String roleName()
    {
        return "cluster-snapshot";
    }
}
