package io.ringex.engine.node;

import java.nio.file.Path;

import io.ringex.client.AdminKeys;
import io.ringex.testing.FreePorts;

/**
 * Small helpers the node tests (and the gateway's failover drills) share.
 */
public final class NodeTestSupport
{
    private static final String IPC = "aeron:ipc";

    /** The admin keys the tests' nodes take; {@link EngineTestClient} signs with the first. */
    public static final AdminKeys ADMIN_KEYS = AdminKeys.generate("test-operator");

    private NodeTestSupport()
    {
    }

    /**
     * What a test's node needs besides its streams: the tests' admin keys, and its market-data requests on IPC (the
     * default UDP port would meet the nodes of other tests and builds on the machine).
     *
     * @param ctx a node's context.
     * @return it.
     */
    public static EngineContext forTest(final EngineContext ctx)
    {
        return ctx.adminKeys(ADMIN_KEYS).marketDataRequestChannel(IPC);
    }

    /**
     * Write the tests' admin keys to a file, for a node in a child process
     * ({@code ringex.engine.admin.keys.file}) or a tool that reads one.
     *
     * @param directory where.
     * @return the file.
     */
    public static Path writeAdminKeys(final Path directory)
    {
        final Path file = directory.resolve("admin.keys");
        try
        {
            java.nio.file.Files.createDirectories(directory);
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        if (!java.nio.file.Files.exists(file))
        {
            ADMIN_KEYS.writeTo(file);
        }
        return file;
    }

    /**
     * @return a UDP port free at the time of asking.
     */
    public static int freeUdpPort()
    {
        return FreePorts.udp();
    }

    /**
     * A symmetric SYNC pair in one process: node 1 (PRIMARY) and node 2 (STANDBY), each with its own UDP loopback
     * replication and ack endpoints and the other's as peer, its own IPC ingress, outbound and control streams
     * (1001-1020 for node 1, 3001-3020 for node 2), its journal and snapshots under {@code directory/node<id>},
     * small rings, a 500 ms ack timeout, heartbeats and status every 50 ms.
     *
     * @param aeronDirectoryName the media driver both nodes use.
     * @param directory          where their data goes.
     * @param replicationParams  appended to the replication channels (e.g. a small term, to fill them quickly).
     * @return { node 1, node 2 }, to adjust before launching.
     */
    public static EngineContext[] symmetricPair(
        final String aeronDirectoryName, final Path directory, final String replicationParams)
    {
        final String[] replication = { udp() + replicationParams, udp() + replicationParams };
        final String[] acks = { udp(), udp() };
        final EngineContext[] nodes = new EngineContext[2];
        for (int i = 0; i < 2; i++)
        {
            final int base = 1000 + 2000 * i;
            nodes[i] = forTest(new EngineContext())
                .marketDataRequestStreamId(base + 31)
                .aeronDirectoryName(aeronDirectoryName)
                .nodeId(i + 1)
                .role(i == 0 ? EngineContext.Role.PRIMARY : EngineContext.Role.STANDBY)
                .ingressChannel(IPC).ingressStreamId(base + 1)
                .outboundChannel(IPC).egressStreamId(base + 2).marketDataStreamId(base + 3).riskStreamId(base + 4)
                .controlChannel(IPC).controlStreamId(base + 20)
                .replicationMode(EngineContext.ReplicationMode.SYNC)
                .replicationAckTimeoutNs(500_000_000L)
                .replicationHeartbeatIntervalNs(50_000_000L)
                .replicationChannel(replication[i]).replicationAckChannel(acks[i])
                .peerReplicationChannel(replication[1 - i]).peerReplicationAckChannel(acks[1 - i])
                .journalDirectory(directory.resolve("node" + (i + 1)).resolve("journal"))
                .snapshotDirectory(directory.resolve("node" + (i + 1)).resolve("snapshots"))
                .inputRingCapacity(1024)
                .outputRingCapacity(1024)
                .statusIntervalNs(50_000_000L);
        }
        return nodes;
    }

    private static String udp()
    {
        return "aeron:udp?endpoint=localhost:" + freeUdpPort();
    }
}
