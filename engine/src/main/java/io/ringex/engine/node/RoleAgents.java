package io.ringex.engine.node;

import java.util.List;

import org.agrona.concurrent.Agent;

/**
 * The agents of a node in the role it starts in ({@link PrimaryAgents} or {@link StandbyAgents}), built from its
 * {@link NodeResources}, for {@link NodeThreads} to put on threads.
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node.
 */
interface RoleAgents
{
    /**
     * @return the input side's agents: the input ring's producer first, then its stages before the processor's.
     */
    List<Agent> inputAgents();

    /**
     * @return the agents of the processor's thread (the output ring's only producer): the processor stage first.
     */
    List<Agent> processorAgents();

    /**
     * @return the output ring's publishers.
     */
    Agent publishers();

    /**
     * @return the agents of the processor's thread every role has.
     */
    ProcessorAgents processing();

    /**
     * @return the node's replication to a standby, or null if it has none.
     */
    ReplicationToStandby replication();

    /**
     * Take up the role, once the agents run: a primary opens its ingress, a standby announces itself.
     */
    void open();

    /**
     * Stop taking commands (the node is closing): what is in flight stays in the streams.
     */
    void stopInput();
}
