package io.ringex.engine.node;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ringex.protocol.codecs.NodeRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex node promote|status} against a real standby over UDP, as an operator runs them: the command embeds
 * its own media driver, as it does on a machine where it is run by hand. A standby no primary has matched yet refuses
 * promotion; once its primary has served it, promotion succeeds.
 */
class NodeControlCliIT
{
    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final NodeControlCli cli = new NodeControlCli(
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void promoteTurnsTheStandbyIntoThePrimaryAndWaitsForItToSaySo()
    {
        final int control = NodeTestSupport.freeUdpPort();
        final int outbound = NodeTestSupport.freeUdpPort();
        final String replication = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        final String acks = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        final EngineNode standby = env.closing(EngineNode.launch(NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .role(EngineContext.Role.STANDBY)
            .nodeId(2)
            .ingressChannel("aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort())
            .outboundChannel("aeron:udp?control=localhost:" + outbound + "|control-mode=dynamic")
            .replicationChannel(replication)
            .replicationAckChannel(acks)
            .controlChannel("aeron:udp?endpoint=localhost:" + control)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(100_000_000L)));

        assertEquals(0, cli.run(new String[]{ "status", "--outbound", "localhost:" + outbound }), text(err));
        assertTrue(text(out).contains("node=2 role=STANDBY"), text(out));

        // No primary has matched its journal yet: the promotion is refused, the node stays STANDBY.
        assertEquals(1, cli.run(new String[]{ "promote", "--node", "2", "--control", "localhost:" + control,
            "--outbound", "localhost:" + outbound, "--timeout-ms", "1500" }), text(err));
        assertEquals(NodeRole.STANDBY, standby.role());

        // Once a primary has served it (it is live), the same command promotes it.
        final EngineContext primaryCtx = NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .role(EngineContext.Role.PRIMARY)
            .nodeId(1)
            .ingressChannel("aeron:ipc")
            .outboundChannel("aeron:ipc")
            .replicationMode(EngineContext.ReplicationMode.SYNC)
            .replicationChannel(replication)
            .replicationAckChannel(acks)
            .journalDirectory(dir.resolve("primary").resolve("journal"))
            .snapshotDirectory(dir.resolve("primary").resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024);
        final EngineNode primary = EngineNode.launch(primaryCtx);
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx,
            "aeron:ipc"));
        client.awaitConnected();
        client.setUpMarket(1);
        client.await(() -> standby.processedSequence() >= client.sent.size(), "the standby live");
        primary.close();

        assertEquals(0, cli.run(new String[]{ "promote", "--node", "2", "--control", "localhost:" + control,
            "--outbound", "localhost:" + outbound, "--timeout-ms", "30000" }), text(err));
        assertTrue(text(out).contains("node=2 role=PRIMARY epoch=1"), text(out));
        assertEquals(NodeRole.PRIMARY, standby.role());
    }

    private static String text(final ByteArrayOutputStream stream)
    {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
