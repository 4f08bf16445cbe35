package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.replication.ReplicationHeartbeatAgent;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.concurrent.Agent;

/**
 * A node started as primary:
 * <pre>
 *  Aeron ingress -> [ingress] -> INPUT RING -> [journal] -----+-> [processor] -> OUTPUT RING -> [publishers]
 *                                           -> [replication] +    (+ status, refresh, heartbeat, peer monitor)
 * </pre>
 * The ingress takes client commands once {@link #open()}ed, after recovery. With replication on it replicates to its
 * standby from the start ({@link ReplicationToStandby}), heartbeats to it, and serves its catch-ups; the processor's
 * output goes to clients from the first command.
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node.
 */
final class PrimaryAgents implements RoleAgents
{
    private final NodeResources resources;
    private final IngressAgent ingress;
    private final Publishers publishers;
    private final ReplicationToStandby replication;
    private final ReplicationHeartbeatAgent heartbeat;
    private final ProcessorAgents processing;

    /**
     * @param resources the node's resources, recovered.
     */
    PrimaryAgents(final NodeResources resources)
    {
        final EngineContext ctx = resources.ctx;
        final Aeron aeron = resources.aeron;
        final BusinessLogicProcessor processor = resources.processor;
        this.resources = resources;
        ingress = new IngressAgent(aeron.addSubscription(ctx.ingressChannel(), ctx.ingressStreamId()),
            resources.inputRing, resources.epochClock, resources.clock,
            aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId()), resources.malformed,
            resources.backPressure, resources.dropped, resources.nextDeadline, resources.trace,
            resources.adminAuthenticator);
        publishers = new Publishers(resources);
        if (ctx.threading() == EngineContext.Threading.COMPACT)
        {
            resources.outputFullWait.work(publishers.stage);
        }
        if (ctx.replicationMode() != EngineContext.ReplicationMode.OFF)
        {
            replication = new ReplicationToStandby(resources, ingress, publishers);
            // Before its stage runs: every command this node takes is replicated, at the epoch it recovered to.
            replication.handler.activate(processor.state().epoch(), false);
            heartbeat = new ReplicationHeartbeatAgent(replication.heartbeats, null,
                resources.journalStage.sequenceCounter(), resources.sequences, resources.role,
                () -> processor.state().epoch(), null, resources.epochClock, resources.clock,
                ctx.replicationHeartbeatIntervalNs(), ctx.nodeId());
        }
        else
        {
            replication = null;
            heartbeat = null;
        }
        resources.sink.target(resources.ringSink);
        processing = new ProcessorAgents(resources, publishers, replication, null);
    }

    public List<Agent> inputAgents()
    {
        final List<Agent> agents = new ArrayList<>();
        agents.add(ingress);
        if (null != replication)
        {
            agents.add(replication.catchUp);
        }
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
        if (null != replication)
        {
            agents.add(heartbeat);
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
        resources.role.set(NodeRole.PRIMARY);
        ingress.open(resources.processor.state().epoch());
    }

    public void stopInput()
    {
        ingress.close();
    }
}
