package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Crash drill: an engine node in a child JVM takes orders over UDP, is killed with SIGKILL at a random moment, and is
 * started again from the same directory. Every order acknowledged before the kill must be in the recovered state
 * (it is journaled, and a cancel of it succeeds), and the recovered state hash must equal a clean replay of the
 * journal. Repeated with different kill points.
 */
class EngineCrashIT
{
    private static final int KILLS = Integer.getInteger("ringex.crash.kills", 4);

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path dir;

    @Test
    void acknowledgedOrdersSurviveSigkillAndRecoveryEqualsReplay()
    {
        final long seed = Long.getLong("ringex.crash.seed", System.nanoTime());
        final Random random = new Random(seed);
        final int ingressPort = NodeTestSupport.freeUdpPort();
        final int outboundPort = NodeTestSupport.freeUdpPort();
        final Map<String, String> properties = new HashMap<>();
        properties.put("ringex.engine.aeron.embedded", "true");
        properties.put("ringex.engine.aeron.dir", dir.resolve("child-aeron").toString());
        properties.put("ringex.engine.ingress.channel", "aeron:udp?endpoint=localhost:" + ingressPort);
        properties.put("ringex.engine.outbound.channel",
            "aeron:udp?control=localhost:" + outboundPort + "|control-mode=dynamic");
        properties.put("ringex.engine.journal.dir", dir.resolve("node/journal").toString());
        properties.put("ringex.engine.snapshot.dir", dir.resolve("node/snapshots").toString());
        properties.put("ringex.engine.snapshot.every.commands", "700");
        properties.put("ringex.engine.admin.keys.file", NodeTestSupport.writeAdminKeys(dir).toString());
        properties.put("ringex.engine.marketdata.request.channel",
            "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort());
        properties.put("ringex.engine.status.interval", "100ms");
        properties.put("aeron.term.buffer.length", "1048576");
        properties.put("aeron.ipc.term.buffer.length", "1048576");

        final EngineContext clientView = NodeTestSupport.forTest(new EngineContext())
            .ingressChannel("aeron:udp?endpoint=localhost:" + ingressPort);
        final String subscriberChannel =
            "aeron:udp?endpoint=localhost:0|control=localhost:" + outboundPort + "|control-mode=dynamic";
        final Path journalDir = dir.resolve("node/journal");

        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        long nextClientOrderId = 1;
        try
        {
            for (int round = 0; round < KILLS; round++)
            {
                try (ChildProcess child = startNode(properties, round))
                {
                    try (EngineTestClient client = new EngineTestClient(driver.aeronDirectoryName(), clientView,
                        subscriberChannel))
                    {
                        client.awaitConnected();
                        if (round == 0)
                        {
                            client.setUpMarket(1, 2, 3, 4);
                        }
                        else
                        {
                            verifyRecovered(client, journalDir, round, seed);
                        }

                        // Orders that rest (buys below, sells above the reference price), sent until the kill.
                        final long killAfterNs = (150 + random.nextInt(900)) * 1_000_000L;
                        final long start = System.nanoTime();
                        while (System.nanoTime() - start < killAfterNs)
                        {
                            final boolean buy = random.nextBoolean();
                            client.limit(1 + random.nextInt(4), nextClientOrderId++, buy ? Side.BUY : Side.SELL,
                                buy ? 9_000 + random.nextInt(500) : 10_500 + random.nextInt(500),
                                1 + random.nextInt(10));
                            client.poll();
                        }
                        child.kill();
                        final long deadline = System.nanoTime() + 200_000_000L;
                        while (System.nanoTime() < deadline)
                        {
                            client.poll();
                        }
                        acknowledged.addAll(newOrders(client));
                    }
                }
                assertTrue(journaledOrders(journalDir).containsAll(acknowledged),
                    "every acknowledged order is journaled (seed " + seed + ")");
            }

            try (ChildProcess child = startNode(properties, KILLS))
            {
                try (EngineTestClient client = new EngineTestClient(driver.aeronDirectoryName(), clientView,
                    subscriberChannel))
                {
                    client.awaitConnected();
                    verifyRecovered(client, journalDir, KILLS, seed);
                }
            }
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
    }

    private final Set<String> acknowledged = new HashSet<>();

    /** A node for one round, ready; its output in a log of that round's. */
    private ChildProcess startNode(final Map<String, String> properties, final int round)
    {
        final ChildProcess child = children.start(ChildEngine.builder(properties)
            .log(dir.resolve("engine-" + round + ".log")));
        ChildEngine.awaitReady(child);
        return child;
    }

    private void verifyRecovered(final EngineTestClient client, final Path journalDir, final int round, final long seed)
    {
        // The engine's status names the sequence its hash is at; a clean replay of the journal up to that sequence
        // must give the same hash. (Orders the dead node never received may still reach the new one: Aeron
        // redelivers what the sender's driver held, so the engine may move on while the test looks.)
        final long[] compared = { -1, 0, 0 };
        client.await(() ->
        {
            if (client.statusCount == 0 || client.lastStatusProcessed == compared[0])
            {
                return false;
            }
            compared[0] = client.lastStatusProcessed;
            compared[1] = client.lastStatusHash;
            compared[2] = EngineNodeIT.replayHash(journalDir, null, compared[0]);
            return compared[1] == compared[2];
        }, "recovered state hash equal to a clean replay of the journal (round " + round + ", seed " + seed +
            ", last compared at " + compared[0] + ")");

        // Every order acknowledged before a kill is still resting: cancelling it must succeed.
        final Set<String> cancelled = new HashSet<>();
        long cancelId = 900_000_000L + round * 1_000_000L;
        for (final String order : acknowledged)
        {
            final String[] parts = order.split(":");
            client.cancel(Long.parseLong(parts[0]), cancelId++, Long.parseLong(parts[1]));
        }
        client.await(() -> client.count("CANCELED") + client.cancelRejects.size() >= acknowledged.size(),
            "answers to " + acknowledged.size() + " cancels");
        assertEquals(List.of(), client.cancelRejects, "acknowledged orders missing after recovery (seed " + seed +
            ")");
        client.reports.stream().filter((r) -> r.execType().equals("CANCELED"))
            .forEach((r) -> cancelled.add(r.accountId() + ":" + r.clientOrderId()));
        acknowledged.clear();
    }

    private static Set<String> newOrders(final EngineTestClient client)
    {
        final Set<String> orders = new HashSet<>();
        client.reports.stream().filter((r) -> r.execType().equals("NEW"))
            .forEach((r) -> orders.add(r.accountId() + ":" + r.clientOrderId()));
        return orders;
    }

    private static Set<String> journaledOrders(final Path journalDir)
    {
        final Set<String> orders = new HashSet<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final NewOrderDecoder order = new NewOrderDecoder();
        try (Journal journal = Journal.open(journalDir, Journal.Durability.PROCESS);
            JournalReader reader = journal.newReader())
        {
            while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                if (templateId == NewOrderDecoder.TEMPLATE_ID)
                {
                    order.wrapAndApplyHeader(buffer, offset, header);
                    orders.add(order.accountId() + ":" + order.clientOrderId());
                }
            }, 4096) > 0)
            {
                // whole journal
            }
        }
        return orders;
    }
}
