package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.Side;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three engine nodes as an Aeron Cluster in one process, each on a media driver of its own, reached over UDP as a
 * gateway would: a leader is elected and serves; every member applies the same commands (equal state hashes); the
 * leader closed, another is elected and serves, with every acknowledged order still there; the closed member, started
 * again on its directories, rejoins as a follower and converges.
 */
class ClusterMemberIT
{
    private static final long BUYER = 1001;
    private static final long SELLER = 1002;

    @TempDir
    Path directory;

    private final EngineNode[] nodes = new EngineNode[3];
    private final EngineContext[] contexts = new EngineContext[3];
    private final EngineTestClient[] clients = new EngineTestClient[3];
    private MediaDriver clientDriver;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(clients);
        CloseHelper.quietCloseAll(nodes);
        CloseHelper.quietClose(clientDriver);
    }

    @Test
    void electsALeaderReplicatesToEveryMemberAndFailsOver()
    {
        final TestClusterMembers members = TestClusterMembers.onLocalhost(3, directory,
            NodeTestSupport.writeAdminKeys(directory))
            .set(EngineContext.Configuration.CLUSTER_LOG_TERM_LENGTH_PROP_NAME, "1m")
            .set(EngineContext.Configuration.INPUT_RING_CAPACITY_PROP_NAME, "1024")
            .set(EngineContext.Configuration.OUTPUT_RING_CAPACITY_PROP_NAME, "1024")
            .set(EngineContext.Configuration.STATUS_INTERVAL_PROP_NAME, "50ms");
        for (int i = 0; i < 3; i++)
        {
            contexts[i] = members.member(i + 1).context();
        }
        for (int i = 0; i < 3; i++)
        {
            nodes[i] = EngineNode.launch(contexts[i]);
        }
        clientDriver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .aeronDirectoryName(directory.resolve("client-aeron").toString()).dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        for (int i = 0; i < 3; i++)
        {
            clients[i] = new EngineTestClient(clientDriver.aeronDirectoryName(), contexts[i],
                members.member(i + 1).subscriberChannel("localhost"));
        }

        final int leader = awaitPrimary(-1);
        final EngineTestClient first = clients[leader];
        first.awaitConnected();
        first.setUpMarket(BUYER, SELLER);
        first.limit(BUYER, 1, Side.BUY, 9_900, 10);
        first.limit(SELLER, 2, Side.SELL, 10_100, 10);
        first.await(() -> first.count("NEW") == 2, "both orders acknowledged by the leader");
        awaitConverged(List.of(0, 1, 2));

        nodes[leader].close();
        nodes[leader] = null;
        final int next = awaitPrimary(leader);
        assertNotEquals(leader, next);
        final EngineTestClient second = clients[next];
        second.awaitConnected();
        second.limit(BUYER, 3, Side.BUY, 10_100, 10);
        second.await(() -> second.count("FILL") == 2, "the resting sell, acknowledged by the old leader, fills " +
            "against a buy on the new one");
        final List<Integer> alive = new ArrayList<>(List.of(0, 1, 2));
        alive.remove(Integer.valueOf(leader));
        awaitConverged(alive);

        nodes[leader] = EngineNode.launch(contexts[leader]);
        awaitConverged(List.of(0, 1, 2));
        assertEquals(NodeRole.STANDBY, nodes[leader].role(), "the old leader rejoined as a follower");

        // A snapshot asked for on the leader is taken by every member at the same command; a member restarted
        // afterwards recovers from it and the log after it.
        second.takeSnapshot();
        second.limit(SELLER, 4, Side.SELL, 10_200, 5);
        awaitConverged(List.of(0, 1, 2));
        Await.until("every member's snapshot of the last command", Duration.ofSeconds(30), () ->
            nodes[0].snapshotSequence() == nodes[0].processedSequence() &&
            nodes[1].snapshotSequence() == nodes[1].processedSequence() &&
            nodes[2].snapshotSequence() == nodes[2].processedSequence(), this::pollAll);
        final int restarted = (next + 1) % 3;
        final long snapshotAt = nodes[restarted].processedSequence();
        nodes[restarted].close();
        nodes[restarted] = EngineNode.launch(contexts[restarted]);
        awaitConverged(List.of(0, 1, 2));
        assertEquals(snapshotAt + 1, nodes[restarted].firstSequence(), "member " + (restarted + 1) +
            " recovered from the cluster's snapshot of command " + snapshotAt + ", and the log after it");
    }

    private int awaitPrimary(final int not)
    {
        final int[] found = { -1 };
        Await.until("a member serving as PRIMARY", Duration.ofSeconds(30), () ->
        {
            for (int i = 0; i < 3; i++)
            {
                if (i != not && null != nodes[i] && nodes[i].role() == NodeRole.PRIMARY &&
                    clients[i].lastStatusRole == NodeRole.PRIMARY)
                {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        }, this::pollAll);
        return found[0];
    }

    private void awaitConverged(final List<Integer> members)
    {
        Await.until("members " + members + " at the same sequence and state hash", Duration.ofSeconds(30), () ->
        {
            long sequence = -1;
            long hash = 0;
            for (final int i : members)
            {
                final long processed = nodes[i].processedSequence();
                final long stateHash = nodes[i].stateHash();
                if (sequence == -1)
                {
                    sequence = processed;
                    hash = stateHash;
                }
                else if (processed != sequence || stateHash != hash)
                {
                    return false;
                }
            }
            return sequence > 0;
        }, this::pollAll, () -> describe(members));
        assertTrue(nodes[members.get(0)].processedSequence() > 0);
    }

    private String describe(final List<Integer> members)
    {
        final StringBuilder out = new StringBuilder();
        for (final int i : members)
        {
            out.append(" node").append(i + 1).append(": role=").append(nodes[i].role()).append(" processed=")
                .append(nodes[i].processedSequence()).append(" journaled=").append(nodes[i].journaledSequence());
        }
        return out.toString();
    }

    private void pollAll()
    {
        for (final EngineTestClient client : clients)
        {
            client.poll();
        }
    }
}
