package io.ringex.engine.replication;

import java.util.function.LongSupplier;

import io.aeron.Publication;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationHeartbeatEncoder;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Between a primary and its standby, every interval, each way: "I am alive, and my journal has got this far". A
 * standby hearing it from the primary can tell a quiet market from a dead primary; a primary hearing it from the
 * standby takes the sequence as a cumulative acknowledgement, so an ack lost on a quiet market does not leave SYNC
 * replication waiting. It runs on the processor's thread, which never waits on replication, so a primary waiting for
 * an acknowledgement still sounds alive.
 * <p>
 * A node heartbeats to its standby's replication channel while primary, and to its primary's acknowledgement channel
 * while standby; a promoted standby does both, so the old primary, if it still runs, hears the higher epoch and
 * fences itself, and a new standby hears that its primary lives. A standby heartbeats sequence 0 until its primary has
 * matched its journal (a standby's journaled sequence counts as an acknowledgement only then).
 * <p>
 * Thread safety: its agent's thread.
 */
public final class ReplicationHeartbeatAgent implements Agent
{
    private final Publication toStandby;
    private final Publication toPrimary;
    private final AtomicCounter journalSequence;
    private final SequenceBase sequences;
    private final ActingRole role;
    private final LongSupplier epoch;
    private final StandbyReceiver receiver;
    private final EpochNanoClock epochClock;
    private final NanoClock clock;
    private final long intervalNs;
    private final int nodeId;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicationHeartbeatEncoder encoder = new ReplicationHeartbeatEncoder();
    private long nextNs;

    /**
     * @param toStandby       the peer's replication channel, used while primary; null if none.
     * @param toPrimary       the peer's acknowledgement channel, used while standby and after a promotion; null if
     *                        this node started primary.
     * @param journalSequence the journal stage's sequence.
     * @param sequences       ring to command sequences.
     * @param role            the node's role now (a promoted standby heartbeats as PRIMARY of its new epoch, which is
     *                        how a superseded primary learns it is fenced).
     * @param epoch           the node's epoch now.
     * @param receiver        a standby's receiver, which says whether this node's journaled sequence may be reported
     *                        (not while its journal is not yet matched by its primary); null on a node started as
     *                        primary.
     * @param epochClock      stamps each heartbeat.
     * @param clock           times the interval.
     * @param intervalNs      between heartbeats.
     * @param nodeId          this node's id.
     */
    public ReplicationHeartbeatAgent(
        final Publication toStandby,
        final Publication toPrimary,
        final AtomicCounter journalSequence,
        final SequenceBase sequences,
        final ActingRole role,
        final LongSupplier epoch,
        final StandbyReceiver receiver,
        final EpochNanoClock epochClock,
        final NanoClock clock,
        final long intervalNs,
        final int nodeId)
    {
        this.toStandby = toStandby;
        this.toPrimary = toPrimary;
        this.journalSequence = journalSequence;
        this.sequences = sequences;
        this.role = role;
        this.epoch = epoch;
        this.receiver = receiver;
        this.epochClock = epochClock;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.nodeId = nodeId;
    }

    public int doWork()
    {
        final long now = clock.nanoTime();
        if (now < nextNs)
        {
            return 0;
        }
        nextNs = now + intervalNs;
        final NodeRole current = role.get();
        final boolean primary = current == NodeRole.PRIMARY || current == NodeRole.FENCED;
        final boolean reportJournaled = primary || null == receiver || receiver.acknowledging();
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(epoch.getAsLong())
            .nodeId(nodeId)
            .role(current)
            .sequence(reportJournaled ? sequences.commandSequence(journalSequence.get()) : 0)
            .timestampNs(epochClock.nanoTime());
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        // A heartbeat not sent (no peer, back-pressure) is not retried: the next one, an interval later, says the
        // same or more, and a peer judges silence over several intervals.
        if (primary && null != toStandby)
        {
            toStandby.offer(buffer, 0, length);
        }
        if (null != toPrimary)
        {
            toPrimary.offer(buffer, 0, length);
        }
        return 1;
    }

    public String roleName()
    {
        return "replication-heartbeat";
    }
}
