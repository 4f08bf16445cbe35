package io.ringex.engine.node;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.EventSink;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.NewEpochDecoder;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import org.HdrHistogram.Histogram;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The input ring's last stage: hands each command to the business-logic processor, gated on the journal (and the
 * replication) stage, so the processor only ever acts on commands that will survive a crash.
 * <p>
 * Around the processor it does what the processor must not: publishes each command's events to the output ring in
 * one go; measures ingress-to-processed latency with the wall clock, read once per batch for the whole batch (a
 * {@link Histogram} that the status agent, on the same thread, reads and resets); asks for a full book snapshot on
 * the market data every interval of command time (deterministic: it follows the slots' timestamps); and takes state
 * snapshots every N commands and on {@code TakeSnapshot}: the processor serialises into memory here (the only pause),
 * and the {@link BackgroundSnapshotWriter} writes the file on its own thread.
 * <p>
 * Thread safety: the stage's thread only.
 */
final class ProcessorStage implements SlotHandler
{
    private final BusinessLogicProcessor processor;
    private final AtomicCounter nextDeadline;
    private final EventSink sink;
    private final RingEventSink output;
    private final SequenceBase sequences;
    private final EpochNanoClock epochClock;
    private final Histogram latency;
    private final LongArrayList batchTimestamps = new LongArrayList(1024, Long.MIN_VALUE);
    private final BackgroundSnapshotWriter snapshots;
    private final long snapshotEveryCommands;
    private final long bookSnapshotIntervalNs;
    private final ExpandableArrayBuffer snapshotBuffer = new ExpandableArrayBuffer(1 << 20);
    private final ClusterHandoff handoff;
    private final StageTrace trace;
    private Runnable takeSnapshotListener;
    private long lastSnapshotSequence;
    private long nextBookSnapshotNs;

    /**
     * @param processor              the business-logic processor.
     * @param sink                   the processor's sink, told each command before it runs.
     * @param output                 the output ring's sink, published after each command.
     * @param sequences              ring to command sequences.
     * @param epochClock             the clock the ingress stamps commands with, for the latency.
     * @param latency                where ingress-to-processed latency is recorded.
     * @param snapshots              writes state snapshots off this thread.
     * @param snapshotEveryCommands  commands between automatic snapshots.
     * @param bookSnapshotIntervalNs command time between full books on the market data.
     * @param handoff                a cluster member's: whom its output serves from a {@code NewEpoch} on; null on
     *                               a single node.
     * @param nextDeadline           where the processor's earliest deadline is published for the ingress.
     * @param trace                  told each command processed (its own clock, never the processor's).
     */
    ProcessorStage(
        final BusinessLogicProcessor processor,
        final EventSink sink,
        final RingEventSink output,
        final SequenceBase sequences,
        final EpochNanoClock epochClock,
        final Histogram latency,
        final BackgroundSnapshotWriter snapshots,
        final long snapshotEveryCommands,
        final long bookSnapshotIntervalNs,
        final ClusterHandoff handoff,
        final AtomicCounter nextDeadline,
        final StageTrace trace)
    {
        this.nextDeadline = nextDeadline;
        this.trace = trace;
        this.processor = processor;
        this.sink = sink;
        this.output = output;
        this.sequences = sequences;
        this.epochClock = epochClock;
        this.latency = latency;
        this.snapshots = snapshots;
        this.snapshotEveryCommands = snapshotEveryCommands;
        this.bookSnapshotIntervalNs = bookSnapshotIntervalNs;
        this.handoff = handoff;
        this.lastSnapshotSequence = sequences.firstCommandSequence() - 1;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final long commandSequence = sequences.commandSequence(sequence);
        final long timestampNs = buffer.getLong(slotOffset + SlotDescriptor.TIMESTAMP_OFFSET);
        final int templateId = buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET);
        try
        {
            process(buffer, slotOffset, sequence, endOfBatch, commandSequence, timestampNs, templateId);
        }
        finally
        {
            // Stamped before its events are visible: the publishers read the stamp when they send them.
            trace.processed(sequence, System.nanoTime());
            // Whatever happens after, and even if the stage halts on a throw: what the command produced goes out now.
            output.publish();
        }
        batchTimestamps.addLong(timestampNs);

        if (snapshotDue(templateId, commandSequence))
        {
            snapshot(commandSequence, timestampNs);
            if (null != takeSnapshotListener && templateId == TakeSnapshotDecoder.TEMPLATE_ID)
            {
                takeSnapshotListener.run();
            }
        }
        if (endOfBatch)
        {
            recordLatencies();
        }
    }

    private void process(
        final AtomicBuffer buffer,
        final int slotOffset,
        final long sequence,
        final boolean endOfBatch,
        final long commandSequence,
        final long timestampNs,
        final int templateId)
    {
        if (null != handoff && templateId == NewEpochDecoder.TEMPLATE_ID)
        {
            // Clients may hear of everything from here on (and first the recent reports the old primary may not have
            // sent, which stamp their own commands on the sink), or no longer.
            handoff.onNewEpoch(sequence, commandSequence, buffer, slotOffset + SlotDescriptor.PAYLOAD_OFFSET);
        }
        sink.command(commandSequence, timestampNs);
        processor.onCommand(
            commandSequence,
            timestampNs,
            buffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET),
            buffer,
            slotOffset + SlotDescriptor.PAYLOAD_OFFSET,
            buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET));

        if (timestampNs >= nextBookSnapshotNs)
        {
            nextBookSnapshotNs = timestampNs + bookSnapshotIntervalNs;
            for (int i = 0, n = processor.state().bookCount(); i < n; i++)
            {
                processor.publishBookSnapshot(processor.state().bookAt(i).instrument().instrumentId());
            }
        }

        // A state snapshot is taken at a batch boundary: end the batch (the risk flush) before it.
        if (endOfBatch || snapshotDue(templateId, commandSequence))
        {
            processor.onEndOfBatch();
            // Once a batch: when the state next needs the clock (an expiry, a scheduled phase), for the ingress.
            nextDeadline.setRelease(processor.nextDeadlineNs());
        }
    }

    /**
     * @param listener told of each {@code TakeSnapshot} command (a cluster member's leader asks the cluster for one).
     */
    void takeSnapshotListener(final Runnable listener)
    {
        this.takeSnapshotListener = listener;
    }

    private boolean snapshotDue(final int templateId, final long commandSequence)
    {
        return templateId == TakeSnapshotDecoder.TEMPLATE_ID ||
            commandSequence - lastSnapshotSequence >= snapshotEveryCommands;
    }

    /**
     * Ingress stamp to the end of the batch, for each command of the batch: one clock read per batch, not per command
     * (the wall clock costs more than a typical command's matching), at most a batch's time over the true figure.
     */
    private void recordLatencies()
    {
        final long nowNs = epochClock.nanoTime();
        for (int i = 0, n = batchTimestamps.size(); i < n; i++)
        {
            latency.recordValue(Math.max(0, nowNs - batchTimestamps.getLong(i)));
        }
        batchTimestamps.clear();
    }

    private void snapshot(final long commandSequence, final long timestampNs)
    {
        final int length = processor.writeSnapshot(snapshotBuffer, 0);
        final long stateHash = processor.stateHash();
        final byte[] copy = new byte[length];
        snapshotBuffer.getBytes(0, copy);
        snapshots.submit(commandSequence, timestampNs, stateHash, SnapshotDescriptor.VERSION, copy, length);
        lastSnapshotSequence = commandSequence;
    }
}
