package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.Side;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hot standby and failover with two nodes that can each be primary (each has its own replication endpoints and
 * names its peer's, over UDP loopback), a real media driver and real Chronicle journals: a late standby catches up
 * from the primary's journal under load, a promoted standby replicates onward to the restarted old primary, a node
 * whose journal diverges is refused, and a promoted standby re-sends reports the old primary never delivered.
 */
class StandbyCatchUpIT
{
    private static final String IPC = "aeron:ipc";

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;


    /** @return the shared symmetric pair ({@link NodeTestSupport#symmetricPair}), node 1 PRIMARY, node 2 STANDBY. */
    private EngineContext[] symmetricPair()
    {
        return symmetricPair("");
    }

    private EngineContext[] symmetricPair(final String replicationParams)
    {
        return NodeTestSupport.symmetricPair(env.aeronDirectoryName(), dir, replicationParams);
    }

    private EngineTestClient client(final EngineContext ctx)
    {
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        return client;
    }

    private void orders(final EngineTestClient client, final Random random, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            client.limit(1 + random.nextInt(3), i, random.nextBoolean() ? Side.BUY : Side.SELL,
                9_950 + random.nextInt(100), 1 + random.nextInt(10));
        }
    }

    private static void awaitApplied(final EngineTestClient polling, final EngineNode node, final long sequence)
    {
        try
        {
            polling.await(() -> node.processedSequence() >= sequence, "node " + node.context().nodeId() +
                " to apply up to " + sequence);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + " (processed " + node.processedSequence() + ", journaled " +
                node.journaledSequence() + ")", ex);
        }
    }

    @Test
    void aStandbyStartedLateCatchesUpFromThePrimarysJournalUnderLoad()
    {
        final EngineContext[] pair = symmetricPair();
        final EngineNode primary = env.closing(EngineNode.launch(pair[0]));
        final EngineTestClient client = client(pair[0]);
        client.setUpMarket(1, 2, 3);
        final Random random = new Random(5);
        orders(client, random, 1, 2_500);
        client.await(() -> client.answered() == 2_500, "2,500 orders answered");
        final long before = client.sent.size();

        final long startNs = System.nanoTime();
        final EngineNode standby = env.closing(EngineNode.launch(pair[1]));
        // Load goes on while it catches up: the primary is not stopped by it.
        orders(client, random, 2_501, 1_500);
        awaitApplied(client, standby, before);
        final long caughtUpNs = System.nanoTime() - startNs;
        client.await(() -> client.answered() == 4_000, "4,000 orders answered");
        final long all = client.sent.size();
        awaitApplied(client, standby, all);
        System.out.printf("CATCH-UP: %d journaled commands applied by a late standby in %.1f ms (%.0f commands/s, " +
            "start-up included) while %d more arrived%n", before, caughtUpNs / 1e6, before * 1e9 / caughtUpNs,
            all - before);

        assertEquals(primary.stateHash(), standby.stateHash());
        assertEquals(EngineNodeIT.replayHash(pair[0].journalDirectory(), null),
            EngineNodeIT.replayHash(pair[1].journalDirectory(), null));
        // Once the standby's acknowledgements caught up, replication is SYNC again.
        client.limit(1, 9_999, Side.BUY, 9_000, 1);
        client.await(() -> !primary.replicationDegraded(), "replication back to SYNC");
    }

    @Test
    void aRestartedOldPrimaryRejoinsAsStandbyOfThePromotedNodeAndConverges()
    {
        final EngineContext[] pair = symmetricPair();
        // A long ack timeout on the node to be promoted: its first batches after the promotion, with no standby in
        // step, must not wait for acknowledgements (a regression once stalled them a whole timeout).
        final long promotedAckTimeoutNs = 10_000_000_000L;
        final EngineNode standby = env.closing(
            EngineNode.launch(pair[1].replicationAckTimeoutNs(promotedAckTimeoutNs)));
        final EngineNode oldPrimary = EngineNode.launch(pair[0]);
        final EngineTestClient first = client(pair[0]);
        first.setUpMarket(1, 2, 3);
        final Random random = new Random(9);
        orders(first, random, 1, 300);
        first.await(() -> first.answered() == 300, "300 orders answered");
        awaitApplied(first, standby, first.sent.size());
        oldPrimary.close();

        // The promoted node re-sends the old primary's recent reports first: count only answers to commands after
        // its NewEpoch, which follows the old primary's commands.
        final long newEpoch = first.sent.size() + 1;
        final EngineTestClient second = client(pair[1]);
        requestPromotion(second, pair[1]);
        second.await(() -> standby.role() == NodeRole.PRIMARY, "promotion");
        final long promotedNs = System.nanoTime();
        orders(second, random, 1_000, 200);
        second.await(() -> second.answeredAfter(newEpoch) >= 1, "a first order on the new primary");
        final long firstAnswerNs = System.nanoTime() - promotedNs;
        assertTrue(firstAnswerNs < promotedAckTimeoutNs / 2, "the promoted node answered its first order after " +
            firstAnswerNs / 1_000_000 + " ms: it waited for acknowledgements from a dead peer");
        second.await(() -> second.answeredAfter(newEpoch) == 200, "200 orders on the new primary");

        // The old primary comes back as standby of the new one, from its own journal.
        final EngineNode rejoined = env.closing(EngineNode.launch(pair[0].role(EngineContext.Role.STANDBY)));
        assertEquals(NodeRole.STANDBY, rejoined.role());
        orders(second, random, 2_000, 200);
        second.await(() -> second.answeredAfter(newEpoch) == 400, "400 orders on the new primary");
        assertEquals(newEpoch + 400, standby.journaledSequence());
        final long journaled = standby.journaledSequence();
        awaitApplied(second, rejoined, journaled);
        assertEquals(standby.stateHash(), rejoined.stateHash());
        assertEquals(EngineNodeIT.replayHash(pair[1].journalDirectory(), null),
            EngineNodeIT.replayHash(pair[0].journalDirectory(), null));
        // The new primary started ASYNC (no standby in step); its next batch finds the rejoined node in step.
        second.limit(1, 3_000, Side.BUY, 9_000, 1);
        second.await(() -> !standby.replicationDegraded(), "the new primary's replication SYNC with its standby");
    }

    @Test
    void aNodeWhoseJournalHoldsCommandsTheNewPrimaryNeverSawIsRefusedAndAppliesNothing()
    {
        // Small replication terms: a few hundred commands fill what the primary may send ahead of a standby's reading.
        final EngineContext[] pair = symmetricPair("|term-length=65536");
        final EngineNode standby = EngineNode.launch(pair[1]);
        final EngineNode oldPrimary = EngineNode.launch(pair[0]);
        final EngineTestClient first = client(pair[0]);
        first.setUpMarket(1, 2);
        orders(first, new Random(3), 1, 50);
        first.await(() -> first.answered() == 50, "50 orders answered");
        final long shared = first.sent.size();
        awaitApplied(first, standby, shared);

        // The standby goes away; the old primary takes 20 more commands alone (degraded), then dies.
        standby.close();
        orders(first, new Random(4), 100, 20);
        first.await(() -> first.answered() == 70, "20 more on the old primary alone");
        final long oldLast = oldPrimary.journaledSequence();
        oldPrimary.close();
        first.close();

        // The standby comes back as primary and takes other commands at those sequences.
        env.closing(EngineNode.launch(pair[1].role(EngineContext.Role.PRIMARY)));
        final EngineTestClient second = client(pair[1]);
        orders(second, new Random(5), 500, 30);
        second.await(() -> second.answered() == 30, "30 on the new primary");

        final List<String> errors = new ArrayList<>();
        final Logger logger = Logger.getLogger("io.ringex.engine.replication.DivergenceProbe");
        final Handler capture = new Handler()
        {
            public void publish(final LogRecord record)
            {
                if (record.getLevel() == java.util.logging.Level.SEVERE)
                {
                    synchronized (errors)
                    {
                        errors.add(java.text.MessageFormat.format(record.getMessage(), record.getParameters()));
                    }
                }
            }

            public void flush()
            {
            }

            public void close()
            {
            }
        };
        logger.addHandler(capture);
        try
        {
            final EngineNode refused = env.closing(EngineNode.launch(pair[0].role(EngineContext.Role.STANDBY)));
            final long hashBefore = refused.stateHash();
            second.await(() -> refused.role() == NodeRole.DIVERGED, "the rejoining node refused as DIVERGED");
            final String error;
            synchronized (errors)
            {
                assertEquals(1, errors.size(), errors.toString());
                error = errors.get(0);
            }
            assertTrue(error.contains("DIVERGES") && error.contains("at sequence " + (shared + 1) + ":"), error);
            assertTrue(error.contains("journal dump --from " + (shared + 1)), error);
            assertTrue(error.contains(String.valueOf(oldLast)), error);

            // It applies nothing: neither the new primary's commands nor anything else, and cannot be promoted.
            orders(second, new Random(6), 900, 10);
            second.await(() -> second.answered() == 40, "10 more on the new primary");
            final long quietUntil = System.nanoTime() + 500_000_000L;
            second.await(() -> System.nanoTime() > quietUntil, "half a second");
            assertEquals(oldLast, refused.journaledSequence());
            assertEquals(oldLast, refused.processedSequence());
            assertEquals(hashBefore, refused.stateHash());
            assertEquals(NodeRole.DIVERGED, refused.role());

            // The refused node does not hold up its primary: far more commands than its replication buffers hold
            // are all answered (it drains and discards what it cannot apply; the primary degrades once).
            orders(second, new Random(7), 10_000, 3_000);
            second.await(() -> second.answered() == 3_040, "3,000 more on the new " +
                "primary with a refused standby");
            assertEquals(oldLast, refused.processedSequence());
        }
        finally
        {
            logger.removeHandler(capture);
        }
    }

    @Test
    void aStandbyRestartedWhileItsPrimaryIsDownRefusesPromotionUntilAPrimaryHasMatchedItsJournal()
    {
        final EngineContext[] pair = symmetricPair();
        final EngineNode standby = EngineNode.launch(pair[1]);
        final EngineNode primary = EngineNode.launch(pair[0]);
        final EngineTestClient client = client(pair[0]);
        client.setUpMarket(1, 2);
        orders(client, new Random(11), 1, 50);
        client.await(() -> client.answered() == 50, "50 orders answered");
        awaitApplied(client, standby, client.sent.size());

        // The standby goes away; the primary acknowledges 20 more alone (degraded), then dies too.
        standby.close();
        orders(client, new Random(12), 100, 20);
        client.await(() -> client.answered() == 70, "20 more on the primary alone");
        primary.close();

        // The standby comes back first: no primary has matched its journal, which lacks 20 acknowledged orders.
        final EngineNode restarted = env.closing(EngineNode.launch(pair[1]));
        final long held = restarted.processedSequence();
        requestPromotion(client, pair[1]);
        final long until = System.nanoTime() + 1_000_000_000L;
        client.await(() -> System.nanoTime() > until, "a second");
        assertEquals(NodeRole.STANDBY, restarted.role());
        assertEquals(held, restarted.journaledSequence());
    }

    @Test
    void aPrimaryRestartedWithAShorterJournalThanItsStandbysIsNoticedAndTheStandbyTakesNoneOfItsNewHistory()
        throws Exception
    {
        final EngineContext[] pair = symmetricPair();
        final EngineNode standby = env.closing(EngineNode.launch(pair[1]));
        final EngineNode first = env.closing(EngineNode.launch(pair[0]));
        final EngineTestClient firstClient = client(pair[0]);
        firstClient.setUpMarket(1, 2, 3);
        final Random random = new Random(21);
        orders(firstClient, random, 1, 50);
        firstClient.await(() -> firstClient.answered() == 50, "50 orders answered");
        awaitApplied(firstClient, standby, firstClient.sent.size());
        first.close();
        firstClient.close();
        // The primary's data as it is now, to put back later: a journal shorter than the standby's will be.
        final Path kept = dir.resolve("kept");
        copyTree(pair[0].journalDirectory(), kept.resolve("journal"));
        copyTree(pair[0].snapshotDirectory(), kept.resolve("snapshots"));

        // Restarted with its whole journal: the standby checks its last record against it again and follows on.
        final EngineNode second = env.closing(EngineNode.launch(pair[0]));
        final EngineTestClient secondClient = client(pair[0]);
        final long secondFrom = second.processedSequence();
        orders(secondClient, random, 100, 30);
        // The node's own progress, not the client's reports: a client new to a restarted node's streams may join
        // them after its first reports went out.
        awaitApplied(secondClient, second, secondFrom + 30);
        awaitApplied(secondClient, standby, secondFrom + 30);
        assertEquals(second.stateHash(), standby.stateHash());
        assertEquals(NodeRole.STANDBY, standby.role());
        final long held = standby.processedSequence();
        final long heldHash = standby.stateHash();
        second.close();
        secondClient.close();

        // Restarted with the shorter journal (a lost tail): it re-sequences the standby's last 30 numbers with other
        // commands. The standby must not take them, nor anything after them, as if they followed its own.
        deleteTree(pair[0].journalDirectory());
        deleteTree(pair[0].snapshotDirectory());
        copyTree(kept.resolve("journal"), pair[0].journalDirectory());
        copyTree(kept.resolve("snapshots"), pair[0].snapshotDirectory());
        final EngineNode third = env.closing(EngineNode.launch(pair[0]));
        final EngineTestClient thirdClient = client(pair[0]);
        final long thirdFrom = third.processedSequence();
        orders(thirdClient, random, 200, 60);
        awaitApplied(thirdClient, third, thirdFrom + 60);
        thirdClient.await(() -> standby.role() == NodeRole.DIVERGED, "the standby refusing the shorter primary");
        assertEquals(held, standby.processedSequence());
        assertEquals(heldHash, standby.stateHash());
    }

    private static void copyTree(final Path from, final Path to) throws java.io.IOException
    {
        java.nio.file.Files.createDirectories(to.getParent());
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(from))
        {
            for (final Path path : (Iterable<Path>)paths::iterator)
            {
                java.nio.file.Files.copy(path, to.resolve(from.relativize(path).toString()));
            }
        }
    }

    private static void deleteTree(final Path path)
    {
        org.agrona.IoUtil.delete(path.toFile(), false);
    }

    @Test
    void aPromotedStandbyResendsTheReportsTheOldPrimaryNeverDelivered()
    {
        final EngineContext[] pair = symmetricPair();
        final EngineNode standby = env.closing(EngineNode.launch(pair[1]));
        final EngineNode primary = EngineNode.launch(pair[0]);
        // This client sends to the old primary but listens only to the standby's egress: the old primary's reports
        // reach nobody (as if it died between processing and publishing), the standby's are its only chance.
        final EngineContext crossed = new EngineContext()
            .ingressChannel(IPC).ingressStreamId(pair[0].ingressStreamId())
            .egressStreamId(pair[1].egressStreamId()).marketDataStreamId(pair[1].marketDataStreamId())
            .riskStreamId(pair[1].riskStreamId());
        final EngineTestClient client = client(crossed);
        client.setUpMarket(1, 2);
        client.limit(1, 41, Side.SELL, 10_100, 5);
        client.limit(2, 42, Side.BUY, 10_100, 2);
        final long sent = client.sent.size();
        awaitApplied(client, standby, sent);
        awaitApplied(client, primary, sent);
        assertTrue(client.reports.isEmpty(), "nothing delivered before the failover: " + client.reports);
        primary.close();

        requestPromotion(client, pair[1]);
        client.await(() -> client.reports.size() >= 4, "the re-sent reports: NEW, NEW, the fills");
        final EngineTestClient.Report sell = client.reports.stream()
            .filter((r) -> r.clientOrderId().equals("41") && r.execType().equals("NEW")).findFirst().orElseThrow();
        final EngineTestClient.Report buy = client.reports.stream()
            .filter((r) -> r.clientOrderId().equals("42") && r.execType().equals("FILL")).findFirst().orElseThrow();
        assertEquals(sent - 1, sell.commandSequence());
        assertEquals(sent, buy.commandSequence());
        final long epoch = client.reports.get(0).epoch();
        assertTrue(epoch >= 1 && client.reports.stream().allMatch((r) -> r.epoch() == epoch), client.reports
            .toString());

        // New output follows under the same epoch.
        final EngineTestClient after = client(pair[1]);
        after.limit(2, 43, Side.BUY, 10_100, 1);
        after.await(() -> after.reports.stream().anyMatch((r) -> r.clientOrderId().equals("43") &&
            r.execType().equals("FILL")), "a new order on the new primary");
        assertTrue(after.reports.stream().allMatch((r) -> r.epoch() == epoch), after.reports.toString());
    }

    private void requestPromotion(final EngineTestClient polling, final EngineContext standby)
    {
        final io.aeron.Publication control = env.closing(io.aeron.Aeron.connect(new io.aeron.Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName()))).addPublication(standby.controlChannel(),
            standby.controlStreamId());
        final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
        final io.ringex.protocol.codecs.NewEpochEncoder newEpoch = new io.ringex.protocol.codecs.NewEpochEncoder()
            .wrapAndApplyHeader(request, 0, new MessageHeaderEncoder()).requestId(1).epoch(1)
            .nodeId(standby.nodeId());
        polling.await(() -> control.offer(request, 0, MessageHeaderEncoder.ENCODED_LENGTH +
            newEpoch.encodedLength()) > 0, "the promotion request sent");
    }
}
