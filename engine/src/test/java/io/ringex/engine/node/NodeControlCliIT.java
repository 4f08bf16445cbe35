package io.ringex.engine.node;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex node status} against a real node over UDP, as an operator runs it: the command embeds its own media
 * driver, as it does on a machine where it is run by hand. A cluster's members are read the same way, one
 * {@code --outbound} address each (the cluster drills in system-tests run it against three).
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
    void statusShowsTheNodesRoleAndSequencesAndAnUnknownCommandIsBadUsage()
    {
        final int outbound = NodeTestSupport.freeUdpPort();
        env.closing(EngineNode.launch(NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .nodeId(7)
            .ingressChannel("aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort())
            .outboundChannel("aeron:udp?control=localhost:" + outbound + "|control-mode=dynamic")
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(100_000_000L)));

        assertEquals(0, cli.run(new String[]{ "status", "--outbound", "localhost:" + outbound }), text(err));
        assertTrue(text(out).contains("node=7 role=PRIMARY"), text(out));

        // The pair's manual promotion is gone: a cluster elects its leader.
        assertEquals(2, cli.run(new String[]{ "promote", "--node", "2" }));
        assertTrue(text(err).contains("usage: node status"), text(err));
    }

    private static String text(final ByteArrayOutputStream stream)
    {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
