package io.ringex.engine.node;

import java.util.List;

import io.ringex.protocol.codecs.NodeRole;
import org.agrona.concurrent.Agent;

/**
 * A node on its own (replication off):
 * <pre>
 *  Aeron ingress -> [ingress] -> INPUT RING -> [journal] -> [processor] -> OUTPUT RING -> [publishers]
 *                                                           (+ status, refresh)
 * </pre>
 * The ingress takes client commands once {@link #open()}ed, after recovery; the processor's output goes to clients
 * from the first command.
 * <p>
 * Thread safety: built, opened and stopped on the thread that launches and closes the node.
 */
final class SingleNodeAgents implements RoleAgents
{
    private final NodeResources resources;
    private final IngressAgent ingress;
    private final Publishers publishers;
    private final ProcessorAgents processing;

    /**
     * @param resources the node's resources, recovered.
     */
    SingleNodeAgents(final NodeResources resources)
    {
        this.resources = resources;
        ingress = resources.newIngress(new RingCommandSink(resources.inputRing, resources.trace));
        publishers = resources.newPublishers();
        resources.sink.target(resources.ringSink);
        processing = new ProcessorAgents(resources, publishers, null);
    }

    public List<Agent> inputAgents()
    {
        return List.of(ingress, resources.journalStage);
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
        resources.role.set(NodeRole.PRIMARY);
        ingress.open(resources.processor.state().epoch());
    }

    public void stopInput()
    {
        ingress.close();
    }
}
