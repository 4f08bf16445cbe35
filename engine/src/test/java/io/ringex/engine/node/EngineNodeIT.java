package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.Side;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine node end to end in one process with a real media driver and real Chronicle files: commands in over
 * Aeron, events out over Aeron, the journal equal to the input, replay equal to the live state, and bad input
 * refused without harm.
 */
class EngineNodeIT
{
    private static final String IPC = "aeron:ipc";

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;


    private EngineContext context(final String name)
    {
        return NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve(name).resolve("journal"))
            .snapshotDirectory(dir.resolve(name).resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
    }

    @Test
    void ordersTradeAndTheJournalHoldsExactlyTheInputAndReplaysToTheLiveState() throws Exception
    {
        final EngineContext ctx = context("primary");
        final EngineNode node = env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();

        client.setUpMarket(1, 2);
        client.limit(1, 1, Side.SELL, 10_100, 50);
        client.limit(2, 2, Side.BUY, 10_100, 30);
        client.limit(2, 3, Side.BUY, 9_900, 10);
        client.cancel(2, 4, 3);
        client.await(() -> client.count("CANCELED") == 1, "the cancel");

        assertEquals(3, client.count("NEW"));
        assertEquals(2, client.count("PARTIAL_FILL") + client.count("FILL"), client.reports.toString());
        client.await(() -> client.tradeIds.size() == 1, "the trade on the risk stream");
        assertTrue(client.adminResponses.stream().allMatch((r) -> r.startsWith("ACCEPTED")), client.adminResponses
            .toString());

        final long liveHash = node.stateHash();
        final List<byte[]> journaled = readJournal(ctx.journalDirectory());
        assertEquals(client.sent.size(), journaled.size());
        for (int i = 0; i < journaled.size(); i++)
        {
            assertArrayEquals(client.sent.get(i), journaled.get(i), "command " + (i + 1));
        }
        assertEquals(liveHash, replayHash(ctx.journalDirectory(), null));

        // The status stream carries the same hash, and says that this node replicates nothing (no lag to show).
        client.await(() -> client.lastStatusHash == liveHash, "EngineStatus with the live hash");
        assertEquals(EngineStatusDecoder.replicationSequenceNullValue(), client.lastStatusReplication);
    }

    @Test
    void aLateJoinerLearnsTheVenueFromThePeriodicRefreshWithoutAnyNewCommand() throws Exception
    {
        final EngineContext ctx = context("primary");
        env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        client.setUpMarket(1, 2);
        client.await(() -> client.adminResponses.size() == 7, "the market set up");

        // Subscribed after the last command: only the refresh (written between commands) can tell it the instrument.
        final EngineTestClient late = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        late.awaitConnected();
        // Within a few refreshes (every 5 status intervals, 250 ms here), not whenever something else pushes the
        // output ring's cursor: unpublished, the refresh's events went out only once 256 of them had piled up.
        final long deadlineNs = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (late.instrumentDefinitions == 0 && System.nanoTime() < deadlineNs)
        {
            if (late.poll() == 0)
            {
                Thread.yield();
            }
        }
        assertTrue(late.instrumentDefinitions > 0, "no InstrumentDefinition from the refresh within 5 s");
    }

    @Test
    void snapshotPlusTailEqualsFullReplayAndARestartRecoversTheSameState() throws Exception
    {
        final EngineContext ctx = context("primary");
        EngineNode node = EngineNode.launch(ctx);
        final EngineTestClient first = new EngineTestClient(env.aeronDirectoryName(), ctx, IPC);
        EngineTestClient client = first;
        client.awaitConnected();
        client.setUpMarket(1, 2);
        final Random random = new Random(42);
        for (int i = 1; i <= 200; i++)
        {
            client.limit(1 + (i & 1), i, (i & 1) == 0 ? Side.BUY : Side.SELL, 9_950 + random.nextInt(100),
                1 + random.nextInt(20));
            if (i == 120)
            {
                client.takeSnapshot();
            }
        }
        first.await(() -> first.count("NEW") == 200, "200 acknowledgements");
        client.limit(1, 1_000, Side.BUY, 1, 1);
        first.await(() -> first.count("REJECTED") == 1, "a reject, so the status counts one");
        final long liveHash = node.stateHash();
        final String liveCounters = statusCounters(first, node);
        final EngineTestClient done = client;
        client.await(() -> new SnapshotStore(ctx.snapshotDirectory()).list().size() == 1 &&
            done.poll() >= 0, "the snapshot file");
        client.close();
        node.close();

        assertEquals(liveHash, replayHash(ctx.journalDirectory(), null), "full replay");
        assertEquals(liveHash, replayHash(ctx.journalDirectory(), ctx.snapshotDirectory()), "snapshot + tail");

        node = env.closing(EngineNode.launch(ctx));
        assertTrue(node.recoveredCommands() > 0 && node.recoveredCommands() < client.sent.size(),
            "recovered from the snapshot and the tail: " + node.recoveredCommands());
        assertEquals(liveHash, node.stateHash());

        client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        // An order that was still resting before the restart must still be there after it.
        final EngineTestClient.Report resting = first.reports.stream()
            .filter((r) -> r.execType().equals("NEW"))
            .filter((r) -> first.reports.stream().noneMatch((o) -> o.orderId() == r.orderId() &&
                !o.execType().equals("NEW")))
            .reduce((a, b) -> b).orElseThrow();
        client.cancel(resting.accountId(), 1_000, Long.parseLong(resting.clientOrderId()));
        final EngineTestClient after = client;
        final EngineNode restarted = node;
        after.await(() -> restarted.processedSequence() == after.sent.size() + done.sent.size(),
            "the cancel to be processed: processed=" + restarted.processedSequence() + " journaled=" +
            restarted.journaledSequence());
        client.await(() -> after.count("CANCELED") == 1 || !after.cancelRejects.isEmpty(), "cancel after restart");
        assertEquals(1, client.count("CANCELED"), resting + " survived the restart: " + after.cancelRejects);
        assertNotEquals(liveHash, node.stateHash());
        // The venue's counts are part of its state: a restart reports what was decided before it, not zero.
        assertEquals(liveCounters, statusCounters(after, restarted));
    }

    /** The latest EngineStatus counters once the status reflects everything processed, commands and errors aside. */
    private static String statusCounters(final EngineTestClient client, final EngineNode node)
    {
        final long processed = node.processedSequence();
        client.await(() -> client.lastStatusProcessed >= processed, "a status after sequence " + processed);
        return client.lastStatusCounters.replaceAll("(COMMANDS|MALFORMED_INGRESS|BACK_PRESSURE_EVENTS|ERRORS|" +
            "OPEN_ORDERS)=\\d+ ", "");
    }

    @Test
    void oneCommandWithMoreEventsThanTheOutputRingHoldsDoesNotStallTheProcessor() throws Exception
    {
        // SHARED threading, a 64-slot output ring, and a sweep through 100 price levels: several hundred events
        // from one command, which the publishers must drain while the processor is still producing them.
        final EngineContext ctx = context("primary").outputRingCapacity(64).threading(EngineContext.Threading.SHARED);
        env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        client.setUpMarket(1, 2);
        for (int i = 0; i < 100; i++)
        {
            client.limit(1, 1 + i, Side.SELL, 10_001 + i, 1);
        }
        client.await(() -> client.count("NEW") == 100, "100 resting offers");
        client.limit(2, 1_000, Side.BUY, 10_200, 100);
        // Trades arrive on the risk stream and reports on the egress: wait for both to be complete.
        client.await(() -> client.tradeIds.size() == 100 && client.count("FILL") == 101,
            "one order sweeping 100 levels: 100 trades, each offer and the sweeping order filled");
    }

    @Test
    void syncReplicationOnSharedThreadsDoesNotWaitOutItsAckTimeoutWhileTheOutputRingIsFull() throws Exception
    {
        // The SYNC wait runs on the I/O thread with the publishers, and the acknowledgements are read on the
        // processor's thread. Sweeps that overfill a 64-slot output ring, with orders arriving behind them, put the
        // processor in a wait for output slots while the replication stage waits for an acknowledgement: the wait
        // must drain the output ring, or the batch waits the whole ack timeout and replication degrades.
        final EngineContext[] pair = replicatedPair();
        env.closing(EngineNode.launch(pair[0]));
        final EngineContext primaryCtx = pair[1].outputRingCapacity(64).threading(EngineContext.Threading.SHARED)
            .replicationAckTimeoutNs(2_000_000_000L);
        final EngineNode primary = env.closing(EngineNode.launch(primaryCtx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx, IPC));
        client.awaitConnected();
        client.setUpMarket(1, 2);
        final int sweeps = 5;
        long clientOrderId = 1;
        for (int sweep = 1; sweep <= sweeps; sweep++)
        {
            for (int level = 0; level < 100; level++)
            {
                client.limit(1, clientOrderId++, Side.SELL, 10_001 + level, 1);
            }
            client.limit(2, clientOrderId++, Side.BUY, 10_200, 100);
            for (int i = 0; i < 20; i++)
            {
                client.limit(2, clientOrderId++, Side.BUY, 9_000 + i, 1);
            }
        }
        final long orders = clientOrderId - 1;
        final long startNs = System.nanoTime();
        client.await(() -> client.tradeIds.size() == sweeps * 100 && client.reports.stream()
            .map(EngineTestClient.Report::clientOrderId).distinct().count() == orders, "every order answered");
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        assertEquals(sweeps * 100, client.tradeIds.size(), "every sweep filled its 100 offers");
        assertEquals(0, primary.replicationDegradations(), "replication degraded (answered in " + elapsedMs + " ms)");
        assertFalse(primary.replicationDegraded());
    }

    @ParameterizedTest
    @EnumSource(EngineContext.Threading.class)
    void everyCommandIsTracedThroughEachStageInEveryThreadingProfile(final EngineContext.Threading threading)
        throws Exception
    {
        // SYNC replication to a standby, so every hop is on the path, with the stages waking the threads they feed
        // (the default): each profile's wake-up wiring runs end to end, every command answered.
        final EngineContext[] pair = replicatedPair();
        env.closing(EngineNode.launch(pair[0].threading(threading)));
        final EngineContext ctx = pair[1].threading(threading);
        assertTrue(ctx.idleWake());
        final EngineNode node = env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        client.setUpMarket(1, 2);
        final int orders = 20;
        for (int i = 1; i <= orders; i++)
        {
            client.limit(1 + i % 2, i, i % 2 == 0 ? Side.BUY : Side.SELL, 10_000, 1);
            // One at a time, so the threads go idle between commands and must be woken.
            final int answered = i;
            client.await(() -> client.reports.stream().map(EngineTestClient.Report::clientOrderId).distinct()
                .count() >= answered, "order " + i);
            Thread.sleep(2);
        }
        final int commands = client.sent.size();
        // Quiet now: the next status intervals report every command (the hops of one command may straddle a report).
        client.await(() ->
        {
            final Map<String, Histogram> now = node.stageLatencies();
            return now.get("journal").getTotalCount() >= commands && now.get("total").getTotalCount() >= orders &&
                now.get("total").getTotalCount() == now.get("publishers").getTotalCount();
        }, "every command traced through every hop");

        final Map<String, Histogram> stages = node.stageLatencies();
        final String counts = commands + " sent, traced " + stages.entrySet().stream()
            .map((e) -> e.getKey() + "=" + e.getValue().getTotalCount()).toList();
        assertEquals(List.of("journal", "replication", "processor", "publishers", "total"),
            new ArrayList<>(stages.keySet()));
        final long journaled = stages.get("journal").getTotalCount();
        assertTrue(journaled >= commands, counts);
        assertEquals(journaled, stages.get("replication").getTotalCount());
        assertEquals(journaled, stages.get("processor").getTotalCount());
        assertEquals(stages.get("publishers").getTotalCount(), stages.get("total").getTotalCount());
        assertTrue(stages.get("total").getTotalCount() >= orders, "every order's events published: " + counts);
        node.resetStageLatencies();
        assertEquals(0, node.stageLatencies().get("journal").getTotalCount());
    }

    @Test
    void badInputIsRefusedAndCountedAndTheNodeGoesOn() throws Exception
    {
        final EngineContext ctx = context("primary");
        final EngineNode node = env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        client.awaitConnected();
        client.setUpMarket(1);
        final int validCommands = client.sent.size();

        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        final Random random = new Random(7);
        final byte[] noise = new byte[40];
        random.nextBytes(noise);
        client.sendRaw(new UnsafeBuffer(noise), 0, noise.length);

        final int orderLength = client.commands.newOrder(EngineTestClient.SESSION, 1, 99, 1, Side.BUY,
            io.ringex.protocol.codecs.OrderType.LIMIT, io.ringex.protocol.codecs.TimeInForce.GTC, false,
            io.ringex.protocol.codecs.SelfTradePrevention.ACCOUNT_DEFAULT, 10_000, 1);
        buffer.putBytes(0, client.commands.buffer(), 0, orderLength);
        final MessageHeaderEncoder header = new MessageHeaderEncoder().wrap(buffer, 0);

        header.schemaId(NewOrderEncoder.SCHEMA_ID + 1);
        client.sendRaw(buffer, 0, orderLength);
        header.schemaId(NewOrderEncoder.SCHEMA_ID).version(NewOrderEncoder.SCHEMA_VERSION + 1);
        client.sendRaw(buffer, 0, orderLength);
        header.version(NewOrderEncoder.SCHEMA_VERSION);
        client.sendRaw(buffer, 0, orderLength - 5);
        client.sendRaw(buffer, 0, 1500);
        header.templateId(3);
        client.sendRaw(buffer, 0, orderLength);

        client.limit(1, 100, Side.BUY, 10_000, 1);
        client.await(() -> client.count("NEW") == 1, "the valid order after the bad ones");
        client.await(() -> client.businessRejects.size() >= 2, "rejects naming the session");
        assertTrue(client.businessRejects.contains("UNSUPPORTED_VERSION"), client.businessRejects.toString());

        final List<byte[]> journaled = readJournal(ctx.journalDirectory());
        assertEquals(validCommands + 1, journaled.size(), "only valid commands are journaled");
        assertArrayEquals(client.sent.get(client.sent.size() - 1), journaled.get(journaled.size() - 1));
        assertEquals(replayHash(ctx.journalDirectory(), null), node.stateHash());
    }

    @Test
    void aStandbyOverUdpEndsWithThePrimarysState() throws Exception
    {
        final EngineContext[] pair = replicatedPair();
        final EngineContext standbyCtx = pair[0];
        final EngineNode standby = env.closing(EngineNode.launch(standbyCtx));

        final EngineContext primaryCtx = pair[1];
        final EngineNode primary = env.closing(EngineNode.launch(primaryCtx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx, IPC));
        client.awaitConnected();

        client.setUpMarket(1, 2, 3);
        final Random random = new Random(11);
        for (int i = 1; i <= 500; i++)
        {
            client.limit(1 + random.nextInt(3), i, random.nextBoolean() ? Side.BUY : Side.SELL,
                9_950 + random.nextInt(100), 1 + random.nextInt(10));
        }
        client.await(() -> client.answered() == 500, "500 orders answered");
        final long expected = client.sent.size();
        client.await(() -> standby.processedSequence() == expected, "the standby to apply everything");
        client.await(() -> client.lastStatusReplication == expected, "the primary's status: everything replicated");

        assertEquals(primary.stateHash(), standby.stateHash());
        assertEquals(primary.stateHash(), replayHash(standbyCtx.journalDirectory(), null));
    }

    @Test
    void aStandbyPromotedAfterThePrimaryIsGoneServesClientsWithEveryAcknowledgedOrder() throws Exception
    {
        final EngineContext[] pair = replicatedPair();
        final EngineContext standbyCtx = pair[0];
        final EngineNode standby = env.closing(EngineNode.launch(standbyCtx));
        final EngineContext primaryCtx = pair[1];
        final EngineNode primary = env.closing(EngineNode.launch(primaryCtx));
        final EngineTestClient before = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx, IPC));
        before.awaitConnected();
        before.setUpMarket(1, 2);
        for (int i = 1; i <= 50; i++)
        {
            before.limit(1 + (i & 1), i, (i & 1) == 0 ? Side.BUY : Side.SELL, (i & 1) == 0 ? 9_900 : 10_100, 1);
        }
        before.await(() -> before.count("NEW") == 50, "50 acknowledged orders");
        final long acknowledged = before.sent.size();
        before.await(() -> standby.processedSequence() == acknowledged, "the standby to hold them");
        // A node started as primary on an empty journal: its epoch starts with command 1.
        before.await(() -> before.statusCount > 0 && before.lastStatusEpochStart == 1, "the primary's epoch start");
        final long primaryHash = primary.stateHash();
        final long killedNs = System.nanoTime();
        primary.close();

        // No output while a standby.
        final EngineTestClient after = env.closing(new EngineTestClient(env.aeronDirectoryName(), standbyCtx, IPC));
        after.awaitConnected();
        assertEquals(primaryHash, standby.stateHash());
        assertTrue(after.reports.isEmpty());

        requestPromotion(after, 7);
        // Its epoch starts with the NewEpoch it wrote after the replicated commands: gateways tell its re-sent window
        // (below) from its new commands (from) by it.
        after.await(() -> after.lastStatusEpochStart == acknowledged + 1, "the promoted node's epoch start");

        // Every order acknowledged by the old primary is there: cancelling one succeeds, under the new epoch.
        after.cancel(1, 1_000, 2);
        after.await(() -> after.count("CANCELED") == 1 || !after.cancelRejects.isEmpty(),
            "a cancel on the new primary");
        assertEquals(1, after.count("CANCELED"), after.cancelRejects.toString());
        // (The promoted standby first re-sent the old primary's recent reports: the 50 NEWs are among them.)
        assertTrue(after.count("NEW") >= 50, after.reports.toString());
        after.limit(1, 2_000, Side.BUY, 9_800, 1);
        after.await(() -> after.reports.stream().anyMatch((r) -> r.clientOrderId().equals("2000") &&
            r.execType().equals("NEW")), "a new order on the new primary");
        System.out.printf("FAILOVER explicit promote: primary closed -> new order acknowledged in %.1f ms%n",
            (System.nanoTime() - killedNs) / 1e6);
        assertEquals(replayHash(standbyCtx.journalDirectory(), null), standby.stateHash());
    }

    @Test
    void aStandbyThatStopsHearingFromItsPrimaryPromotesItselfWhenConfiguredTo() throws Exception
    {
        final EngineContext[] pair = replicatedPair();
        final EngineContext standbyCtx = pair[0].autoPromoteTimeoutNs(2_000_000_000L);
        final EngineNode standby = env.closing(EngineNode.launch(standbyCtx));
        final EngineContext primaryCtx = pair[1].replicationHeartbeatIntervalNs(50_000_000L);
        final EngineNode primary = env.closing(EngineNode.launch(primaryCtx));
        final EngineTestClient before = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx, IPC));
        before.awaitConnected();
        before.setUpMarket(1);
        before.limit(1, 1, Side.BUY, 9_900, 1);
        before.await(() -> before.count("NEW") == 1, "an acknowledged order");

        // A quiet market is not a dead primary: heartbeats keep the standby a standby. (The timeout is generous: the
        // heartbeats share the I/O thread with the journal, and these machines' disks can stall for a second.)
        final long quietUntil = System.nanoTime() + 3_000_000_000L;
        before.await(() -> System.nanoTime() > quietUntil, "3 s of quiet");
        assertEquals(io.ringex.protocol.codecs.NodeRole.STANDBY, standby.role());

        final long killedNs = System.nanoTime();
        primary.close();
        final EngineTestClient after = env.closing(new EngineTestClient(env.aeronDirectoryName(), standbyCtx, IPC));
        after.await(() -> standby.role() == io.ringex.protocol.codecs.NodeRole.PRIMARY, "automatic promotion");
        after.awaitConnected();
        after.limit(1, 2, Side.BUY, 9_800, 1);
        after.await(() -> after.reports.stream().anyMatch((r) -> r.clientOrderId().equals("2") &&
            r.execType().equals("NEW")), "a new order on the promoted standby");
        System.out.printf("FAILOVER automatic promote (timeout 2000 ms): primary closed -> new order acknowledged " +
            "in %.1f ms%n", (System.nanoTime() - killedNs) / 1e6);
        after.cancel(1, 3, 1);
        after.await(() -> after.count("CANCELED") == 1, "the old primary's order cancelled on the new one");
    }

    @Test
    void aPrimarySupersededWhileStillRunningFencesItselfAndTakesNoMoreCommands() throws Exception
    {
        final EngineContext[] pair = replicatedPair();
        final EngineContext standbyCtx = pair[0].replicationHeartbeatIntervalNs(50_000_000L);
        final EngineNode standby = env.closing(EngineNode.launch(standbyCtx));
        final EngineContext primaryCtx = pair[1];
        final EngineNode primary = env.closing(EngineNode.launch(primaryCtx));
        final EngineTestClient oldClient = env.closing(new EngineTestClient(env.aeronDirectoryName(), primaryCtx,
            IPC));
        oldClient.awaitConnected();
        oldClient.setUpMarket(1);
        oldClient.limit(1, 1, Side.BUY, 9_900, 1);
        oldClient.await(() -> oldClient.count("NEW") == 1, "an acknowledged order");

        // Promote the standby while the primary still runs (as if the primary had been paused and come back).
        requestPromotion(oldClient, 8);

        oldClient.await(() -> primary.role() == io.ringex.protocol.codecs.NodeRole.FENCED,
            "the superseded primary to fence itself");
        assertEquals(io.ringex.protocol.codecs.NodeRole.PRIMARY, standby.role());

        // The old primary takes nothing more: an order sent to it is neither answered nor journaled.
        final long journaled = primary.journaledSequence();
        oldClient.limit(1, 2, Side.BUY, 9_800, 1);
        final long until = System.nanoTime() + 1_000_000_000L;
        oldClient.await(() -> System.nanoTime() > until, "a second of silence from the fenced node");
        assertEquals(1, oldClient.count("NEW"), oldClient.reports.toString());
        assertEquals(journaled, primary.journaledSequence());

        // The new primary trades.
        final EngineTestClient newClient = env.closing(new EngineTestClient(env.aeronDirectoryName(), standbyCtx,
            IPC));
        newClient.awaitConnected();
        newClient.limit(1, 3, Side.BUY, 9_800, 1);
        newClient.await(() -> newClient.count("NEW") == 1, "an order on the new primary");
    }

    /**
     * A standby (node 2; its own ingress, outbound and control streams) and a SYNC primary replicating to it over UDP
     * loopback. Tests add what they need to either before launching them.
     *
     * @return { standby, primary }.
     */
    private EngineContext[] replicatedPair()
    {
        final String replication = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        final String acks = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        final EngineContext standby = context("standby")
            .role(EngineContext.Role.STANDBY)
            .nodeId(2)
            .ingressStreamId(3001)
            .egressStreamId(3002).marketDataStreamId(3003).riskStreamId(3004)
            .controlChannel(IPC).controlStreamId(3020)
            .replicationChannel(replication)
            .replicationAckChannel(acks);
        final EngineContext primary = context("primary")
            .replicationMode(EngineContext.ReplicationMode.SYNC)
            .replicationChannel(replication)
            .replicationAckChannel(acks);
        return new EngineContext[]{ standby, primary };
    }

    /** Ask the pair's standby to promote itself, as the dashboard's "Promote" action does. */
    private void requestPromotion(final EngineTestClient polling, final long requestId)
    {
        final io.aeron.Publication control = env.closing(io.aeron.Aeron.connect(new io.aeron.Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName()))).addPublication(IPC, 3020);
        final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
        final io.ringex.protocol.codecs.NewEpochEncoder newEpoch = new io.ringex.protocol.codecs.NewEpochEncoder()
            .wrapAndApplyHeader(request, 0, new MessageHeaderEncoder()).requestId(requestId).epoch(1).nodeId(2);
        polling.await(() -> control.offer(request, 0, MessageHeaderEncoder.ENCODED_LENGTH +
            newEpoch.encodedLength()) > 0, "the promotion request sent");
    }

    static List<byte[]> readJournal(final Path journalDirectory)
    {
        final List<byte[]> commands = new ArrayList<>();
        try (Journal journal = Journal.open(journalDirectory, Journal.Durability.PROCESS);
            JournalReader reader = journal.newReader())
        {
            while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                commands.add(bytes);
            }, 1024) > 0)
            {
                // until the end
            }
        }
        return commands;
    }

    static long replayHash(final Path journalDirectory, final Path snapshotDirectory)
    {
        return replayHash(journalDirectory, snapshotDirectory, Long.MAX_VALUE);
    }

    static long replayHash(final Path journalDirectory, final Path snapshotDirectory, final long toSequence)
    {
        final ProcessorReplayTarget target = new ProcessorReplayTarget();
        long from = 1;
        if (null != snapshotDirectory)
        {
            final SnapshotStore.Snapshot snapshot = new SnapshotStore(snapshotDirectory)
                .loadNewest(target.snapshotStateVersion(), (problem) -> { });
            target.restore(snapshot);
            from = snapshot.sequence() + 1;
        }
        try (Journal journal = Journal.open(journalDirectory, Journal.Durability.PROCESS);
            JournalReader reader = journal.newReader().fromSequence(from))
        {
            int read;
            while ((read = reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                if (sequence <= toSequence)
                {
                    target.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                }
            }, 1024)) > 0)
            {
                target.onEndOfBatch();
            }
            if (read < 0)
            {
                throw new AssertionError("replay stopped: " + reader.problem());
            }
        }
        return target.stateHash();
    }
}
