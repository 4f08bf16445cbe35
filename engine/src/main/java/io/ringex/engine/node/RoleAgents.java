package io.ringex.engine.node;

import java.util.List;

import org.agrona.concurrent.Agent;

/**
 * The agents of a node, a single node's ({@link SingleNodeAgents}) or a cluster member's ({@link ClusterAgents}),
 * built from its {@link NodeResources}, for {@link NodeThreads} to put on threads.
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node.
 */
interface RoleAgents
{
    /**
     * @return the input side's agents: the ingress first, then the input ring's stages before the processor's.
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
     * @return the market-data recovery service, on a thread of its own so that no request slows the engine.
     */
    Agent marketDataRecovery();

    /**
     * @return the agents of the processor's thread every node has.
     */
    ProcessorAgents processing();

    /**
     * Take up the role, once the agents run: a single node opens its ingress.
     */
    void open();

    /**
     * Stop taking commands (the node is closing): what is in flight stays in the streams.
     */
    void stopInput();
}
