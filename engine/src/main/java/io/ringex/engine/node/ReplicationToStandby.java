package io.ringex.engine.node;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.replication.CatchUpAgent;
import io.ringex.engine.replication.ClientIngress;
import io.ringex.engine.replication.PeerMonitor;
import io.ringex.engine.replication.ReplicationStage;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What a node runs to replicate to a standby: a primary with replication on, and a standby that replicates onward once
 * promoted (its peer's endpoints configured). The replication stage on the input ring (idle until activated), the
 * catch-up server on the node's own journal, the peer monitor that reads the standby's acknowledgements and fences
 * this node when a newer primary is heard, and the publication its heartbeats to the standby go on.
 * <p>
 * Under {@link EngineContext.Threading#SHARED} the replication stage shares its thread with the catch-up server and the
 * publishers, so it runs them while it waits for the standby ({@link ReplicationStage}); under COMPACT the peer
 * monitor, which reads the acknowledgements, as well.
 * <p>
 * Thread safety: built on the launching thread; each agent then runs on the thread it is put on.
 */
final class ReplicationToStandby
{
    final ReplicationStage handler;
    final Stage stage;
    final CatchUpAgent catchUp;
    final PeerMonitor peerMonitor;
    /** Where this node's heartbeats to its standby go (the peer's replication channel). */
    final Publication heartbeats;

    /**
     * @param resources  the node's resources.
     * @param ingress    the node's client ingress, which the peer monitor closes if this node is fenced.
     * @param publishers the output ring's publishers, run by the replication stage while it waits (SHARED).
     */
    ReplicationToStandby(final NodeResources resources, final ClientIngress ingress, final Publishers publishers)
    {
        final EngineContext ctx = resources.ctx;
        final Aeron aeron = resources.aeron;
        final ExclusivePublication replication = aeron.addExclusivePublication(ctx.peerReplicationChannel(),
            ctx.replicationStreamId());
        heartbeats = aeron.addPublication(ctx.peerReplicationChannel(), ctx.replicationStreamId());
        resources.replicated.setRelease(resources.lastRecoveredSequence());

        final SequenceBase sequences = resources.sequences;
        final AtomicCounter cursor = resources.inputRing.cursorCounter();
        final BusinessLogicProcessor processor = resources.processor;
        catchUp = new CatchUpAgent(
            aeron.addSubscription(ctx.replicationAckChannel(), ctx.replicationAckStreamId()),
            aeron.addExclusivePublication(ctx.peerReplicationChannel(), ctx.catchUpStreamId()),
            resources.journal, () -> sequences.commandSequence(cursor.get()), () -> processor.state().epoch(),
            resources.role, resources.clock,
            ctx.nodeId(), ctx.replicationAckTimeoutNs(), resources.counters.newCounter("catch-up-sent"),
            resources.inputRing.maxPayloadLength());
        peerMonitor = new PeerMonitor(aeron.addSubscription(ctx.replicationAckChannel(), ctx.replicationAckStreamId()),
            resources.replicated, resources.processor, resources.role, ingress, catchUp);
        // What shares the stage's thread and must go on while it waits: SHARED, the catch-up server and the
        // publishers; COMPACT, the peer monitor too, which reads the acknowledgements it waits for.
        final Agent whileWaiting;
        switch (ctx.threading())
        {
            case SHARED:
                whileWaiting = new CompositeAgent(catchUp, publishers.stage);
                break;
            case COMPACT:
                whileWaiting = new CompositeAgent(catchUp, publishers.stage, peerMonitor);
                break;
            default:
                whileWaiting = null;
                break;
        }
        handler = new ReplicationStage(replication, ctx.replicationMode() == EngineContext.ReplicationMode.SYNC,
            ctx.replicationAckTimeoutNs(), resources.sequences, resources.clock, ctx.newIdleStrategy(),
            resources.replicated, resources.degraded, resources.inputRing.maxPayloadLength(), whileWaiting);
        stage = resources.inputRing.stage("replication", resources.trace.replicated(handler))
            .errorPolicy(StageErrorPolicy.HALT).errorHandler(resources.stageErrors("input/replication")).build();
    }
}
