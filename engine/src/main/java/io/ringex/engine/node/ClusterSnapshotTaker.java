package io.ringex.engine.node;

import io.aeron.cluster.ClusterControl;
import io.ringex.engine.cluster.EngineLog;
import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.engine.ring.SequenceBase;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

/**
 * Takes the processor's state for a cluster snapshot, on the processor's thread, once the processor has applied every
 * command the service fed before the snapshot (the service feeds nothing meanwhile: it waits in its snapshot). The
 * same state also goes to the node's own snapshot files, so the journal's tools start from the same snapshots as the
 * cluster.
 * <p>
 * On the leader it also asks for them, through the consensus module's control toggle: every
 * {@code ringex.engine.snapshot.every.commands} commands, and at each {@code TakeSnapshot} command. The consensus
 * module puts the snapshot into the log, so every member takes it at the same command; a member recovers from its
 * latest snapshot and the log after it.
 * <p>
 * Thread safety: {@link #request} and {@link #taken} on the service's thread, {@link #doWork()} and
 * {@link #onTakeSnapshotCommand()} on the processor's;
 * the request and the answer are volatile, the state written before the answer.
 */
final class ClusterSnapshotTaker implements Agent
{
    private static final long NONE = Long.MIN_VALUE;

    private final BusinessLogicProcessor processor;
    private final SequenceBase sequences;
    private final AtomicCounter processorSequence;
    private final BackgroundSnapshotWriter files;
    private static final long TOGGLE_RETRY_NS = 10_000_000_000L;

    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1 << 20);
    private final Leadership leadership;
    private final CountersReader counters;
    private final long everyCommands;
    private final NanoClock clock;
    private AtomicCounter controlToggle;
    private long lastSnapshotSequence = NONE;
    private long toggledNs;
    private boolean toggled;
    private volatile boolean takeSnapshotCommand;
    private volatile long requested = NONE;
    private volatile long requestedTimestampNs;
    private volatile long answered = NONE;
    private EngineLog.ProcessorState state;

    /**
     * @param processor         the processor.
     * @param sequences         ring to command sequences.
     * @param processorSequence the processor stage's ring sequence.
     * @param files             the node's snapshot files.
     * @param leadership        the member's leadership: only the leader asks for snapshots.
     * @param counters          the media driver's counters, where the consensus module's control toggle is.
     * @param everyCommands     commands between snapshots the leader asks for.
     * @param clock             times a request the consensus module has not acted on.
     */
    ClusterSnapshotTaker(
        final BusinessLogicProcessor processor,
        final SequenceBase sequences,
        final AtomicCounter processorSequence,
        final BackgroundSnapshotWriter files,
        final Leadership leadership,
        final CountersReader counters,
        final long everyCommands,
        final NanoClock clock)
    {
        this.processor = processor;
        this.sequences = sequences;
        this.processorSequence = processorSequence;
        this.files = files;
        this.leadership = leadership;
        this.counters = counters;
        this.everyCommands = everyCommands;
        this.clock = clock;
    }

    /**
     * A {@code TakeSnapshot} command was processed (the processor's thread): the leader asks the cluster for one.
     */
    void onTakeSnapshotCommand()
    {
        takeSnapshotCommand = true;
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
        final long processed = sequences.commandSequence(processorSequence.getAcquire());
        if (lastSnapshotSequence == NONE)
        {
            lastSnapshotSequence = processed;
        }
        final long sequence = requested;
        if (sequence == NONE || sequence == answered || processed != sequence)
        {
            return askIfDue(processed);
        }
        final int length = processor.writeSnapshot(buffer, 0);
        final long stateHash = processor.stateHash();
        state = new EngineLog.ProcessorState(sequence, stateHash, buffer, length);
        final byte[] copy = new byte[length];
        buffer.getBytes(0, copy);
        files.submit(sequence, requestedTimestampNs, stateHash, SnapshotDescriptor.VERSION, copy, length);
        lastSnapshotSequence = sequence;
        toggled = false;
        answered = sequence;
        return 1;
    }

    /**
     * On the leader: ask the consensus module for a snapshot when enough commands have gone by, or one was asked for.
     */
    private int askIfDue(final long processed)
    {
        if (!leadership.isPrimary() || (!takeSnapshotCommand && processed - lastSnapshotSequence < everyCommands))
        {
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (toggled && nowNs - toggledNs < TOGGLE_RETRY_NS)
        {
            return 0;
        }
        if (null == controlToggle)
        {
            controlToggle = ClusterControl.findControlToggle(counters, 0);
            if (null == controlToggle)
            {
                return 0;
            }
        }
        if (ClusterControl.ToggleState.SNAPSHOT.toggle(controlToggle))
        {
            toggled = true;
            toggledNs = nowNs;
            takeSnapshotCommand = false;
            return 1;
        }
        return 0;
    }

    public String roleName()
    {
        return "cluster-snapshot";
    }
}
