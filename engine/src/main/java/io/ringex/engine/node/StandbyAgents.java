package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.replication.AckStage;
import io.ringex.engine.replication.Promotion;
import io.ringex.engine.replication.ReplicationHeartbeatAgent;
import io.ringex.engine.replication.StandbyReceiver;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;

/**
 * A node started as standby:
 * <pre>
 *  replication -> [receiver] -> INPUT RING -> [journal] -> [processor, output kept in the report window]
 *  (in [promotion])                                     -> [ack] -> primary
 * </pre>
 * The {@link Promotion} agent runs the {@link StandbyReceiver} until a promotion, then the client ingress it opens;
 * the processor stage hands the node over to clients at the promotion command. With the peer's endpoints configured,
 * the node replicates onward once promoted ({@link ReplicationToStandby}, idle until then). It heartbeats to its
 * primary's acknowledgement channel (and, promoted, to its own standby).
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node.
 */
final class StandbyAgents implements RoleAgents
{
    private static final System.Logger LOG = System.getLogger(StandbyAgents.class.getName());

    private final NodeResources resources;
    private final StandbyReceiver receiver;
    private final IngressAgent ingress;
    private final Publishers publishers;
    private final ReplicationToStandby replication;
    private final Promotion promotion;
    private final Stage ackStage;
    private final ReplicationHeartbeatAgent heartbeat;
    private final ProcessorAgents processing;

    /**
     * @param resources the node's resources, recovered (the processor's output in the report window).
     */
    StandbyAgents(final NodeResources resources)
    {
        final EngineContext ctx = resources.ctx;
        final Aeron aeron = resources.aeron;
        final BusinessLogicProcessor processor = resources.processor;
        final boolean replicating = ctx.replicationMode() != EngineContext.ReplicationMode.OFF;
        if (replicating && !ctx.hasPeerChannels())
        {
            LOG.log(System.Logger.Level.WARNING, "standby without ringex.engine.replication.peer.channel / " +
                ".peer.ack.channel: if promoted it will not replicate to a standby of its own");
        }
        this.resources = resources;
        final Publication toPrimary = aeron.addPublication(ctx.peerReplicationAckChannel(),
            ctx.replicationAckStreamId());
        final JournalStage journal = resources.journalHandler;
        receiver = new StandbyReceiver(aeron.addSubscription(ctx.replicationChannel(), ctx.replicationStreamId()),
            aeron.addSubscription(ctx.replicationChannel(), ctx.catchUpStreamId()), toPrimary, resources.inputRing,
            resources.sequences, resources.journal, resources.journalStage.sequenceCounter(), journal::lastChecksum,
            resources.counters.manager(), resources.role, resources.clock, ctx.nodeId());
        // Closed until a promotion opens it.
        ingress = new IngressAgent(aeron.addSubscription(ctx.ingressChannel(), ctx.ingressStreamId()),
            resources.inputRing, resources.epochClock, resources.clock,
            aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId()), resources.malformed,
            resources.backPressure, resources.dropped, resources.nextDeadline, resources.trace,
            resources.adminAuthenticator);
        publishers = new Publishers(resources);
        final boolean compact = ctx.threading() == EngineContext.Threading.COMPACT;
        if (compact)
        {
            resources.outputFullWait.work(publishers.stage);
        }
        replication = replicating && ctx.hasPeerChannels() ?
            new ReplicationToStandby(resources, ingress, publishers) : null;
        promotion = new Promotion(receiver, ingress, aeron.addSubscription(ctx.controlChannel(),
            ctx.controlStreamId()), resources.inputRing, resources.epochClock, resources.clock, resources.role,
            ctx.nodeId(), ctx.autoPromoteTimeoutNs(), null == replication ? null : replication.handler);
        ackStage = resources.inputRing.stage("ack", new AckStage(toPrimary, resources.sequences, ctx.nodeId(),
            resources.role, receiver)).gatedOn(resources.journalStage).errorPolicy(StageErrorPolicy.SKIP)
            .errorHandler(resources.stageErrors("input/ack")).build();
        heartbeat = new ReplicationHeartbeatAgent(null == replication ? null : replication.heartbeats, toPrimary,
            resources.journalStage.sequenceCounter(), resources.sequences, resources.role,
            () -> processor.state().epoch(), receiver, resources.epochClock, resources.clock,
            ctx.replicationHeartbeatIntervalNs(), ctx.nodeId());
        processing = new ProcessorAgents(resources, publishers, replication, promotion);
        if (compact)
        {
            // A promotion waiting for input-ring slots (the last replicated commands, then its own command) waits
            // for the stages behind it, on its own thread: it runs them while it waits.
            final List<Agent> behind = new ArrayList<>();
            behind.add(ackStage);
            behind.add(resources.journalStage);
            if (null != replication)
            {
                behind.add(replication.stage);
            }
            behind.add(processing.stage);
            behind.add(publishers.stage);
            final WorkingIdleStrategy whileRingFull = new WorkingIdleStrategy(ctx.newIdleStrategy());
            whileRingFull.work(new CompositeAgent(behind));
            promotion.whileRingFull(whileRingFull);
        }
    }

    public List<Agent> inputAgents()
    {
        final List<Agent> agents = new ArrayList<>();
        agents.add(promotion);
        if (null != replication)
        {
            agents.add(replication.catchUp);
        }
        agents.add(ackStage);
        agents.add(resources.journalStage);
        if (null != replication)
        {
            agents.add(replication.stage);
        }
        return agents;
    }

    public List<Agent> processorAgents()
    {
        final List<Agent> agents = new ArrayList<>(processing.agents());
        agents.add(heartbeat);
        if (null != replication)
        {
            agents.add(replication.peerMonitor);
        }
        return agents;
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

    public ReplicationToStandby replication()
    {
        return replication;
    }

    public void open()
    {
        resources.role.set(NodeRole.STANDBY);
    }

    public void stopInput()
    {
        ingress.close();
        receiver.close();
    }
}
