package io.ringex.risk.cluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;

import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.testing.FreePorts;

/**
 * Three real engine nodes as an Aeron Cluster in this process, each on a media driver of its own and reached over UDP
 * loopback as a deployment reaches them: ingress {@code aeron:udp?endpoint=localhost:<port>}, outbound channel a
 * multi-destination cast joined at {@code control=localhost:<port>}. The ports are drawn when the object is made, so
 * that the risk service's {@code ringex.risk.members[n]} ({@link #serviceKeys()}) can be set before the members run.
 * <p>
 * Thread safety: the test's thread.
 */
public final class EngineCluster implements AutoCloseable
{
    /** Members of the cluster. */
    public static final int MEMBERS = 3;
    /** The engine's ingress stream, the default on every member. */
    public static final int INGRESS_STREAM = 1001;

    private final int[] ingressPorts = new int[MEMBERS];
    private final int[] outboundPorts = new int[MEMBERS];
    private final EngineNode[] nodes = new EngineNode[MEMBERS];

    /** Draws the members' client-facing ports. */
    public EngineCluster()
    {
        for (int i = 0; i < MEMBERS; i++)
        {
            ingressPorts[i] = FreePorts.udp();
            outboundPorts[i] = FreePorts.udp();
        }
    }

    /**
     * @param member index of a member, 0 to 2 (node id {@code member + 1}).
     * @return its ingress channel.
     */
    public String ingressChannel(final int member)
    {
        return "aeron:udp?endpoint=localhost:" + ingressPorts[member];
    }

    /** @return the risk service's keys naming the three members, in member order. */
    public Map<String, String> serviceKeys()
    {
        final Map<String, String> keys = new LinkedHashMap<>();
        for (int i = 0; i < MEMBERS; i++)
        {
            keys.put("ringex.risk.members[" + i + "].ingress-channel", ingressChannel(i));
            keys.put("ringex.risk.members[" + i + "].risk-channel", "aeron:udp?endpoint=localhost:0|control=" +
                "localhost:" + outboundPorts[i] + "|control-mode=dynamic");
        }
        return keys;
    }

    /**
     * Launch the three members; they elect a leader among themselves.
     *
     * @param directory where each member keeps its media driver, cluster, journal and snapshot directories.
     */
    public void start(final Path directory)
    {
        final String members = "1=localhost:" + FreePorts.udpRange(5) + ",2=localhost:" + FreePorts.udpRange(5) +
            ",3=localhost:" + FreePorts.udpRange(5);
        final EngineContext[] contexts = new EngineContext[MEMBERS];
        for (int i = 0; i < MEMBERS; i++)
        {
            final Path home = directory.resolve("node" + (i + 1));
            contexts[i] = io.ringex.engine.node.NodeTestSupport.forTest(new EngineContext())
                .nodeId(i + 1)
                .embeddedMediaDriver(true)
                .aeronDirectoryName(home.resolve("aeron").toString())
                .replicationMode(EngineContext.ReplicationMode.CLUSTER)
                .clusterMembers(members)
                .clusterSecret("a secret of the three members")
                .clusterDirectory(home.resolve("cluster"))
                .clusterLogTermLength(1024 * 1024)
                .ingressChannel(ingressChannel(i))
                .outboundChannel("aeron:udp?control=localhost:" + outboundPorts[i] + "|control-mode=dynamic")
                .journalDirectory(home.resolve("journal"))
                .snapshotDirectory(home.resolve("snapshots"))
                .inputRingCapacity(1024)
                .outputRingCapacity(1024)
                .statusIntervalNs(TimeUnit.MILLISECONDS.toNanos(100));
        }
        for (int i = 0; i < MEMBERS; i++)
        {
            nodes[i] = EngineNode.launch(contexts[i]);
        }
    }

    /**
     * @param member index of a member.
     * @return it, or null once stopped.
     */
    public EngineNode node(final int member)
    {
        return nodes[member];
    }

    /** @return index of the member whose node serves as PRIMARY (the cluster's leader), or -1 for none. */
    public int leader()
    {
        for (int i = 0; i < MEMBERS; i++)
        {
            if (null != nodes[i] && nodes[i].role() == NodeRole.PRIMARY)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Close a member, as a lost node: the others elect a leader among themselves if it led.
     *
     * @param member index of the member.
     */
    public void stop(final int member)
    {
        CloseHelper.close(nodes[member]);
        nodes[member] = null;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(nodes);
    }
}
