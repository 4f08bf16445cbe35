package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
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
import io.ringex.testing.Await;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Await.until("an InstrumentDefinition from the refresh", Duration.ofSeconds(5),
            () -> late.instrumentDefinitions > 0, late::poll);
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
        final long lastJournaled = node.journaledSequence();
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
        // One count, one wording: the journal's last sequence, the snapshot, the commands replayed after it, and the
        // next sequence one past the journal's last (what the log, the ready line and the banner all print).
        final long snapshotAt = lastJournaled - node.recoveredCommands();
        assertEquals(lastJournaled, node.recoveredSequence());
        assertEquals("the journal to sequence " + lastJournaled + " (snapshot at " + snapshotAt + ", " +
            node.recoveredCommands() + " commands replayed after it), next sequence " + (lastJournaled + 1),
            node.recoverySummary());

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

    @ParameterizedTest
    @EnumSource(EngineContext.Threading.class)
    void everyCommandIsTracedThroughEachStageInEveryThreadingProfile(final EngineContext.Threading threading)
        throws Exception
    {
        // The stages waking the threads they feed (the default): each profile's wake-up wiring runs end to end,
        // every command answered. A cluster member's replication is the cluster's commit, before its ring.
        final EngineContext ctx = context("trace").threading(threading);
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
        assertEquals(0, stages.get("replication").getTotalCount(), "a single node replicates nothing");
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
