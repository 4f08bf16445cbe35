package io.ringex.engine.node;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.ringex.engine.cluster.ClusterClient;
import io.ringex.engine.cluster.ClusterMembers;
import io.ringex.engine.cluster.ClusterSecret;
import io.ringex.engine.cluster.EngineLog;
import io.ringex.engine.cluster.EngineService;
import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.ring.Sequencer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

/**
 * A member of an engine cluster: the leader's ingress appends to Aeron Cluster's log ({@link LeaderIngress}), and on
 * every member the service ({@link EngineService}) feeds the input ring with what the log has committed
 * (docs/architecture.md, "A cluster of engine nodes"). Output goes to clients only from the member that leads ({@link
 * ClusterHandoff}), to its report window on the others.
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node; the {@link EngineLog}
 * methods on the service's thread, the only producer of the input ring.
 */
final class ClusterAgents implements RoleAgents, EngineLog
{
    private final NodeResources resources;
    private final Leadership leadership = new Leadership();
    private final LeaderIngress leaderIngress;
    private final Publishers publishers;
    private final ProcessorAgents processing;
    private final Sequencer sequencer;
    private final EngineService service;
    private volatile boolean started;
    private volatile String rebuild;

    /**
     * @param resources the node's resources: its journal verified, its processor empty until the service starts it.
     */
    ClusterAgents(final NodeResources resources)
    {
        final EngineContext ctx = resources.ctx;
        final Aeron aeron = resources.aeron;
        final ClusterMembers members = ctx.clusterMembers();
        this.resources = resources;
        this.sequencer = resources.inputRing.sequencer();
        final ClusterClient client = new ClusterClient(aeron, members, members.member(ctx.nodeId()),
            new ClusterSecret(ctx.clusterSecret()), Math.max(ctx.clusterLeaderHeartbeatTimeoutNs() * 2,
            TimeUnit.SECONDS.toNanos(1)), resources.clock);
        leaderIngress = new LeaderIngress(client, leadership, ctx.nodeId(), resources.epochClock, resources.clock);
        leaderIngress.ingress(resources.newIngress(leaderIngress));
        publishers = resources.newPublishers();
        processing = new ProcessorAgents(resources, publishers, leadership);
        service = new EngineService(ctx.nodeId(), this, leadership,
            resources.counters.newCounter("cluster-commands-refused"), resources.committed);
    }

    /**
     * @return the clustered service the member's container runs.
     */
    EngineService service()
    {
        return service;
    }

    /**
     * @return the member's leadership.
     */
    Leadership leadership()
    {
        return leadership;
    }

    /**
     * @return whether the service has started the engine (restored or empty).
     */
    boolean isStarted()
    {
        return started;
    }

    /**
     * @return why the journal must be rebuilt from the log before this member can start, or null.
     */
    String rebuildNeeded()
    {
        return rebuild;
    }

    public List<Agent> inputAgents()
    {
        return List.of(leaderIngress, resources.journalStage);
    }

    public List<Agent> processorAgents()
    {
        return processing.agents();
    }

    public Agent publishers()
    {
        return publishers.stage;
    }

    public Agent marketDataRecovery()
    {
        return publishers.recovery;
    }

    public ProcessorAgents processing()
    {
        return processing;
    }

    public void open()
    {
    }

    public void stopInput()
    {
        leadership.role(io.aeron.cluster.service.Cluster.Role.FOLLOWER);
    }

    public void start(final long nextSequence, final DirectBuffer state, final long stateHash)
    {
        final long journaled = resources.journalHandler.verifyThrough();
        if (journaled < nextSequence - 1)
        {
            rebuild = "the journal ends at command " + journaled + ", before the cluster's snapshot at " +
                (nextSequence - 1);
            return;
        }
        if (null != state)
        {
            resources.processor.restore(state, 0, state.capacity());
            if (resources.processor.stateHash() != stateHash)
            {
                throw new IllegalStateException("the cluster's snapshot at sequence " + (nextSequence - 1) +
                    " restores to a different state hash than it was written with");
            }
        }
        resources.sequences.start(nextSequence);
        started = true;
    }

    public boolean tryAppend(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final long ringSequence = sequencer.tryNext();
        if (ringSequence < 0)
        {
            return false;
        }
        if (resources.sequences.commandSequence(ringSequence) != sequence)
        {
            throw new IllegalStateException("command " + sequence + " would take ring slot " + ringSequence +
                " of command " + resources.sequences.commandSequence(ringSequence));
        }
        RingCommandSink.write(resources.inputRing, ringSequence, timestampNs, sourceId, templateId, buffer, offset,
            length);
        resources.trace.received(ringSequence, System.nanoTime());
        sequencer.publish(ringSequence);
        return true;
    }

    public int maxCommandLength()
    {
        return resources.inputRing.maxPayloadLength();
    }

    public void requestSnapshot(final long sequence, final long timestampNs)
    {
        processing.snapshotTaker.request(sequence, timestampNs);
    }

    public ProcessorState snapshot(final long sequence)
    {
        return processing.snapshotTaker.taken(sequence);
    }
}
