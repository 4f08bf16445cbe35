package io.ringex.engine.replication;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochDecoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * A standby's input side and its promotion. Until promoted it runs the {@link StandbyReceiver}; it also listens on the
 * control stream for {@code NewEpoch}. On one naming this node (or node 0), it applies the replicated commands that
 * have already arrived, stops taking more, writes a {@code NewEpoch} command of a higher epoch into its own input
 * ring (so the promotion is journaled and replayed like everything else), and opens the ingress: from then on it is
 * the primary. The processor stage sees the NewEpoch it wrote and, at that command, points the processor's output at
 * the output ring: the events of every command after the promotion go to clients, none before.
 * <p>
 * With {@code ringex.engine.standby.auto.promote} set, a standby that has heard nothing from its primary (neither
 * commands nor heartbeats) for that long promotes itself: quick, and, without a third party to break ties, able to give
 * two primaries under a network partition; only when in step with its primary (caught up). A standby whose journal
 * diverged from its primary's, or that no primary has matched yet (still requesting or bisecting), refuses to
 * promote and stays STANDBY.
 * On promotion the node's replication stage, idle until then, starts replicating to the node's peer (the restarted
 * old primary, rejoining as standby); the processor stage re-sends the standby's recent reports
 * ({@link ReportWindow}) before the promotion command's events. What promotion does not do: move the gateways.
 * <p>
 * Thread safety: {@link #doWork()} on the input thread, the only producer of the input ring;
 * {@link #isPromotionCommand}, {@link #completed()}, {@link #epoch()} and {@link #promotionSequence()} from the
 * processor's thread.
 */
public final class Promotion implements Agent
{
    private static final System.Logger LOG = System.getLogger(Promotion.class.getName());
    private static final long PROMOTION_SOURCE = SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, 0);

    private final StandbyReceiver receiver;
    private final ClientIngress ingress;
    private final Subscription control;
    private final Ring ring;
    private final Sequencer sequencer;
    private final EpochNanoClock epochClock;
    private final NanoClock clock;
    private final ActingRole role;
    private final int nodeId;
    private final long autoPromoteTimeoutNs;
    private final ReplicationStage replication;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final NewEpochDecoder request = new NewEpochDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewEpochEncoder command = new NewEpochEncoder();
    private final FragmentHandler controlHandler = this::onControl;
    private volatile boolean pending;
    private boolean promoted;
    private long requestedEpoch;
    private long requestId;
    private long epoch;
    private long promotionSequence = -1;
    private boolean refusalLogged;
    private boolean autoRefusalLogged;

    /**
     * How to wait for input-ring slots at the promotion: spin by default, the processor being on another thread; a
     * node whose processor shares this agent's thread sets one that runs it ({@link #whileRingFull(IdleStrategy)}).
     */
    private IdleStrategy whileRingFull = new BusySpinIdleStrategy();

    /**
     * @param receiver             the standby's receiver, run by this agent until the promotion.
     * @param ingress              the node's client ingress, opened by the promotion and run by this agent after it.
     * @param control              the control stream promotion requests arrive on.
     * @param ring                 the input ring the promotion command is written into.
     * @param epochClock           stamps the promotion command.
     * @param clock                times the primary's silence.
     * @param role                 the node's role: PRIMARY once promoted.
     * @param nodeId               this node's id.
     * @param autoPromoteTimeoutNs silence from the primary after which it promotes itself; 0 never.
     * @param replication          the node's replication stage, activated by the promotion; null if it has none.
     */
    public Promotion(
        final StandbyReceiver receiver,
        final ClientIngress ingress,
        final Subscription control,
        final Ring ring,
        final EpochNanoClock epochClock,
        final NanoClock clock,
        final ActingRole role,
        final int nodeId,
        final long autoPromoteTimeoutNs,
        final ReplicationStage replication)
    {
        this.receiver = receiver;
        this.ingress = ingress;
        this.control = control;
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.epochClock = epochClock;
        this.clock = clock;
        this.role = role;
        this.nodeId = nodeId;
        this.autoPromoteTimeoutNs = autoPromoteTimeoutNs;
        this.replication = replication;
    }

    public int doWork()
    {
        if (promoted)
        {
            return ingress.doWork() + receiver.doWork();
        }
        int work = control.poll(controlHandler, 1);
        // Read what has already arrived before judging silence: after a stall of this thread (GC, disk) the primary's
        // heartbeats and commands are waiting in the buffers, and a live primary must not be taken for a dead one.
        work += receiver.doWork();
        final long lastHeardNs = receiver.lastHeardNs();
        if (requestedEpoch == 0 && autoPromoteTimeoutNs > 0 && lastHeardNs != 0 &&
            clock.nanoTime() - lastHeardNs > autoPromoteTimeoutNs)
        {
            if (receiver.isInStep())
            {
                LOG.log(System.Logger.Level.WARNING, "no word from the primary for {0} ms: promoting automatically",
                    autoPromoteTimeoutNs / 1_000_000);
                requestedEpoch = receiver.epoch() + 1;
            }
            else if (!autoRefusalLogged)
            {
                autoRefusalLogged = true;
                LOG.log(System.Logger.Level.ERROR, "no word from the primary for {0} ms, but node {1} is not in step " +
                    "with it (catch-up state {2}): NOT promoting automatically; an operator decides " +
                    "(docs/operations.md)",
                    autoPromoteTimeoutNs / 1_000_000, nodeId, receiver.stateName());
            }
        }
        if (requestedEpoch > 0 && receiver.isDiverged())
        {
            if (!refusalLogged)
            {
                refusalLogged = true;
                LOG.log(System.Logger.Level.ERROR, "promotion of node {0} REFUSED: its journal diverges from its " +
                    "primary''s (see the error above); resolve that first", nodeId);
            }
            requestedEpoch = 0;
        }
        if (requestedEpoch > 0 && !receiver.acknowledging())
        {
            // Its journal was never matched against a primary's: it may lack commands the primary acknowledged.
            LOG.log(System.Logger.Level.ERROR, "promotion of node {0} REFUSED: no primary has matched its journal " +
                "yet (catch-up state {1}, next sequence {2}), so it may lack commands its primary acknowledged. It " +
                "stays STANDBY. If the primary is gone for good and this journal is to be the truth, restart this " +
                "node with ringex.engine.role=PRIMARY (docs/operations.md)", nodeId, receiver.stateName(),
                receiver.nextSequence());
            requestedEpoch = 0;
        }
        if (requestedEpoch > 0)
        {
            // Apply what the primary already sent (commands it may have acknowledged) before taking over.
            work += receiver.drain(whileRingFull);
            promote();
            return work + 1;
        }
        return work;
    }

    private void onControl(
        final DirectBuffer buffer, final int offset, final int length, final io.aeron.logbuffer.Header frame)
    {
        header.wrap(buffer, offset);
        if (header.schemaId() == NewEpochDecoder.SCHEMA_ID && header.templateId() == NewEpochDecoder.TEMPLATE_ID &&
            length >= MessageHeaderDecoder.ENCODED_LENGTH + NewEpochDecoder.BLOCK_LENGTH)
        {
            request.wrapAndApplyHeader(buffer, offset, header);
            if (request.nodeId() == 0 || request.nodeId() == nodeId)
            {
                requestId = request.requestId();
                requestedEpoch = Math.max(1, request.epoch());
            }
        }
    }

    /**
     * Set how to wait for input-ring slots at the promotion, before the agent runs: a node that runs its processor on
     * this agent's thread gives one that runs the stages behind it, which alone free slots.
     *
     * @param idleStrategy the wait.
     */
    public void whileRingFull(final IdleStrategy idleStrategy)
    {
        this.whileRingFull = idleStrategy;
    }

    private void promote()
    {
        receiver.stop();
        epoch = Math.max(requestedEpoch, receiver.epoch() + 1);
        if (null != replication)
        {
            replication.activate(epoch, true);
        }
        long sequence;
        whileRingFull.reset();
        while ((sequence = sequencer.tryNext()) < 0)
        {
            whileRingFull.idle();
        }
        final AtomicBuffer slots = ring.buffer();
        final int slot = ring.slotOffset(sequence);
        command.wrapAndApplyHeader(slots, slot + SlotDescriptor.PAYLOAD_OFFSET, headerEncoder)
            .requestId(requestId)
            .epoch(epoch)
            .nodeId(nodeId);
        slots.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, epochClock.nanoTime());
        slots.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, PROMOTION_SOURCE);
        slots.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, NewEpochEncoder.TEMPLATE_ID);
        slots.putInt(slot + SlotDescriptor.LENGTH_OFFSET,
            MessageHeaderEncoder.ENCODED_LENGTH + command.encodedLength());
        promotionSequence = sequence;
        // Release before the slot: the processor must see the flag (and the sequence) when it reaches this command.
        pending = true;
        sequencer.publish(sequence);
        ingress.open(epoch);
        role.set(NodeRole.PRIMARY);
        promoted = true;
        LOG.log(System.Logger.Level.WARNING, "node {0} PROMOTED to primary at epoch {1}: ingress open", nodeId, epoch);
    }

    /**
     * Whether a command is the one this node wrote to promote itself, not yet reached by the processor: not any
     * NewEpoch, since one replicated from the old primary may still be ahead of this node's own.
     *
     * @param ringSequence the command's input-ring sequence.
     * @return true for the promotion command (processor's thread).
     */
    public boolean isPromotionCommand(final long ringSequence)
    {
        // Acquire: the flag is released after the sequence is written.
        return pending && ringSequence == promotionSequence;
    }

    /**
     * @return the epoch this node was promoted to (read after the role says PRIMARY, which publishes it).
     */
    public long epoch()
    {
        return epoch;
    }

    /**
     * @return the ring sequence of the NewEpoch command this node wrote to promote itself (the first it handles as
     * primary), or -1 before that; written before the pending flag and the role are set, so a reader that saw either
     * (volatile reads) sees it.
     */
    public long promotionSequence()
    {
        return promotionSequence;
    }

    /**
     * The processor has reached the promotion command.
     */
    public void completed()
    {
        pending = false;
    }

    public String roleName()
    {
        return "standby-input";
    }
}
