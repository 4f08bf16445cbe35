package io.ringex.engine.node;

import io.aeron.Publication;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReplicationHeartbeatEncoder;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Between a primary and its standby, every interval, each way: "I am alive, and my journal has got this far". A
 * standby hearing it from the primary can tell a quiet market from a dead primary; a primary hearing it from the
 * standby takes the sequence as a cumulative acknowledgement, so an ack lost on a quiet market does not leave SYNC
 * replication waiting. It runs on the processor's thread, which never waits on replication, so a primary waiting for
 * an acknowledgement still sounds alive.
 * <p>
 * Thread safety: its agent's thread.
 */
final class ReplicationHeartbeatAgent implements Agent
{
    private final Publication publication;
    private AtomicCounter journalSequence;
    private final SequenceBase sequences;
    private final EpochNanoClock clock;
    private final long intervalNs;
    private final int nodeId;
    private final NodeRole initialRole;
    private java.util.function.Supplier<NodeRole> role;
    private java.util.function.LongSupplier epoch;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicationHeartbeatEncoder encoder = new ReplicationHeartbeatEncoder();
    private long nextNs;

    ReplicationHeartbeatAgent(
        final Publication publication,
        final AtomicCounter journalSequence,
        final SequenceBase sequences,
        final EpochNanoClock clock,
        final long intervalNs,
        final int nodeId,
        final NodeRole role)
    {
        this.initialRole = role;
        this.publication = publication;
        this.journalSequence = journalSequence;
        this.sequences = sequences;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.nodeId = nodeId;
    }

    /**
     * Where the node's current role and epoch come from (a promoted standby heartbeats as PRIMARY of its new epoch,
     * which is how a superseded primary learns it is fenced). Both are read on the processor's thread.
     */
    void identity(final java.util.function.Supplier<NodeRole> role, final java.util.function.LongSupplier epoch)
    {
        this.role = role;
        this.epoch = epoch;
    }

    void journalSequence(final AtomicCounter journalSequence)
    {
        this.journalSequence = journalSequence;
    }

    public int doWork()
    {
        final long now = clock.nanoTime();
        if (now < nextNs)
        {
            return 0;
        }
        nextNs = now + intervalNs;
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(null == epoch ? 0 : epoch.getAsLong())
            .nodeId(nodeId)
            .role(null == role ? initialRole : role.get())
            .sequence(sequences.commandSequence(journalSequence.get()))
            .timestampNs(now);
        publication.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
        return 1;
    }

    public String roleName()
    {
        return "replication-heartbeat";
    }
}
