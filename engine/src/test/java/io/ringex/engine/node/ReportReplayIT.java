package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.EventBatches;
import io.ringex.engine.replay.ReportReplayService;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalWriter;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.ReportReplayEndDecoder;
import io.ringex.protocol.codecs.ReportReplayRequestEncoder;
import io.ringex.protocol.codecs.ReportReplayResponseDecoder;
import io.ringex.protocol.codecs.ReportReplayStatus;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.testing.Await;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report replay service of a real node, over its real Chronicle journal and snapshots: the execution reports and
 * trade busts it regenerates are, byte for byte, those the engine published live, from the start or from any command
 * (snapshots or not); bad and abundant requests are answered with a reason while the engine trades on.
 */
class ReportReplayIT
{
    private static final String IPC = "aeron:ipc";
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int GATEWAY = 3;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final ReportReplayResponseDecoder response = new ReportReplayResponseDecoder();
    private final ReportReplayEndDecoder end = new ReportReplayEndDecoder();
    private final UnsafeBuffer requestBuffer = new UnsafeBuffer(new byte[128]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    /** Live: each ExecutionReport (egress) and TradeBusted (risk stream) as published, with its command sequence. */
    private final List<Event> live = new ArrayList<>();
    private final List<long[]> trades = new ArrayList<>();
    /** Per request id: what the replay stream said about it, and the events between its ACCEPTED and its end. */
    private final Map<Long, List<String>> answers = new HashMap<>();
    private final Map<Long, List<Event>> replayed = new HashMap<>();
    private long replaying = -1;
    private long nextRequestId = 1;
    private EngineNode node;
    private EngineContext ctx;
    private EngineTestClient trader;
    private Subscription egress;
    private Subscription risk;
    private Subscription replay;
    private Publication requests;

    record Event(int templateId, long commandSequence, String hex)
    {
    }

    private final FragmentHandler onLive = EventBatches.unpacking((buffer, offset, length, h) ->
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                report.wrapAndApplyHeader(buffer, offset, header);
                live.add(event(buffer, offset, length, report.commandSequence()));
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                live.add(event(buffer, offset, length, buffer.getLong(offset + HEADER +
                    TradeBustedDecoder.commandSequenceEncodingOffset(), TradeBustedDecoder.BYTE_ORDER)));
                break;
            case TradeDecoder.TEMPLATE_ID:
                trade.wrapAndApplyHeader(buffer, offset, header);
                trades.add(new long[]{ trade.tradeId(), trade.price(), trade.quantity(), trade.buyOrderId(),
                    trade.sellOrderId(), trade.buyAccountId(), trade.sellAccountId() });
                break;
            default:
                break;
        }
    });

    private final FragmentHandler onReplay = (buffer, offset, length, h) ->
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case ReportReplayResponseDecoder.TEMPLATE_ID:
                response.wrapAndApplyHeader(buffer, offset, header);
                if (response.gatewayId() == GATEWAY)
                {
                    answers.computeIfAbsent(response.requestId(), (k) -> new ArrayList<>()).add(response.status() +
                        " first=" + response.firstAvailableSequence() + " last=" + response.lastSequence() +
                        " to=" + response.toSequence());
                    if (response.status() == ReportReplayStatus.ACCEPTED)
                    {
                        replaying = response.requestId();
                        replayed.put(replaying, new ArrayList<>());
                    }
                }
                break;
            case ReportReplayEndDecoder.TEMPLATE_ID:
                end.wrapAndApplyHeader(buffer, offset, header);
                if (end.gatewayId() == GATEWAY)
                {
                    answers.computeIfAbsent(end.requestId(), (k) -> new ArrayList<>()).add("END " + end.status() +
                        " last=" + end.lastSequence() + " count=" + end.reportCount());
                    replaying = -1;
                }
                break;
            case ExecutionReportDecoder.TEMPLATE_ID:
                report.wrapAndApplyHeader(buffer, offset, header);
                if (replaying >= 0)
                {
                    replayed.get(replaying).add(event(buffer, offset, length, report.commandSequence()));
                }
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                if (replaying >= 0)
                {
                    replayed.get(replaying).add(event(buffer, offset, length, buffer.getLong(offset + HEADER +
                        TradeBustedDecoder.commandSequenceEncodingOffset(), TradeBustedDecoder.BYTE_ORDER)));
                }
                break;
            default:
                break;
        }
    };

    private static Event event(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new Event(buffer.getShort(offset + 2, MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF, sequence,
            HexFormat.of().formatHex(bytes));
    }

    private void start()
    {
        ctx = NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .snapshotEveryCommands(150)
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
        node = env.closing(EngineNode.launch(ctx));
        trader = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        egress = aeron.addSubscription(IPC, ctx.egressStreamId());
        risk = aeron.addSubscription(IPC, ctx.riskStreamId());
        replay = aeron.addSubscription(IPC, ctx.replayStreamId());
        requests = aeron.addPublication(IPC, ctx.replayRequestStreamId());
        trader.awaitConnected();
        await(() -> egress.isConnected() && risk.isConnected() && replay.isConnected() && requests.isConnected(),
            () -> "the node's streams");
        trader.setUpMarket(1, 2, 3);
    }

    /** Orders that rest, trade, are replaced and cancelled, across several snapshots, and one trade busted. */
    private void trade(final int rounds, final long firstId)
    {
        long id = firstId;
        for (int i = 0; i < rounds; i++)
        {
            final long price = 9_950 + (i % 7) * 10;
            trader.limit(1, id++, Side.SELL, price, 5);
            trader.limit(2, id++, Side.BUY, price, 3);
            trader.limit(3, id++, Side.BUY, price + 10, 4);
            trader.limit(2, id, Side.BUY, price - 50, 2);
            trader.replace(2, id + 1, id, price - 40, 3);
            trader.cancel(2, id + 2, id + 1);
            id += 3;
        }
        awaitSettled();
    }

    private void awaitSettled()
    {
        final long commands = trader.sent.size();
        await(() -> node.processedSequence() >= commands, () -> "the node processing " + commands + " commands");
        // every report of the processed commands reached this subscriber: the egress keeps order, so wait for quiet
        long seen;
        do
        {
            seen = live.size();
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            while (System.nanoTime() < deadline)
            {
                pollLive();
            }
        }
        while (live.size() != seen);
    }

    private int pollLive()
    {
        return egress.poll(onLive, 256) + risk.poll(onLive, 256) + trader.poll();
    }

    private long request(final long from, final long to)
    {
        final long requestId = nextRequestId++;
        final int length = HEADER + new ReportReplayRequestEncoder().wrapAndApplyHeader(requestBuffer, 0,
            headerEncoder).gatewayId(GATEWAY).requestId(requestId).fromSequence(from).toSequence(to).encodedLength();
        offer(requestBuffer, length);
        return requestId;
    }

    private void offer(final DirectBuffer buffer, final int length)
    {
        await(() -> requests.offer(buffer, 0, length) > 0, () -> "the request sent");
    }

    private List<String> awaitEnd(final long requestId)
    {
        await(() -> answers.containsKey(requestId) && answers.get(requestId).stream().anyMatch((a) ->
            a.startsWith("END") || !a.startsWith("ACCEPTED")), () -> "the end of replay " + requestId + ": " +
            answers.get(requestId));
        return answers.get(requestId);
    }

    private void await(final BooleanSupplier condition, final Supplier<String> what)
    {
        Await.until(what, Duration.ofSeconds(60), condition, this::pollLiveAndReplay);
    }

    private void pollLiveAndReplay()
    {
        pollLive();
        replay.poll(onReplay, 256);
    }

    /**
     * The live events of the commands in (sequence, upTo], in command order: reports and busts arrive on two streams,
     * so they are merged by command sequence (a stable sort keeps each command's own order; no command makes both).
     */
    private List<Event> liveAfter(final long sequence, final long upTo)
    {
        return live.stream().filter((e) -> e.commandSequence() > sequence && e.commandSequence() <= upTo)
            .sorted(java.util.Comparator.comparingLong(Event::commandSequence)).toList();
    }

    @Test
    void replayedReportsAreByteForByteThoseTheEnginePublishedFromAnyCommand()
    {
        start();
        trade(40, 1_000);
        final long[] bust = trades.get(3);
        trader.commands.operator("ops");
        trader.send(trader.commands.bustTrade(9_001, bust[0], EngineTestClient.INSTRUMENT, bust[1], bust[2], bust[3],
            bust[4], bust[5], bust[6], "test bust"));
        trade(20, 5_000);
        final long last = node.processedSequence();
        assertTrue(live.stream().anyMatch((e) -> e.templateId() == TradeBustedDecoder.TEMPLATE_ID), "a bust was live");
        assertTrue(dir.resolve("snapshots").toFile().list().length > 0, "snapshots were taken");

        final long all = request(0, 0);
        assertEquals(List.of("ACCEPTED first=0 last=" + last + " to=" + last,
            "END COMPLETE last=" + last + " count=" + live.size()), awaitEnd(all));
        assertEquals(liveAfter(0, last), replayed.get(all), "the whole day, replayed");

        // from a command past a snapshot, before one, and up to a bound
        for (final long from : new long[]{ 1, 151, 230, last - 3, last })
        {
            final long id = request(from, 0);
            final List<Event> expected = liveAfter(from, last);
            assertEquals("END COMPLETE last=" + last + " count=" + expected.size(), awaitEnd(id).get(1));
            assertEquals(expected, replayed.get(id), "replayed after " + from);
        }
        final long bounded = request(100, 200);
        assertEquals("END COMPLETE last=200 count=" + liveAfter(100, 200).size(), awaitEnd(bounded).get(1));
        assertEquals(liveAfter(100, 200), replayed.get(bounded));
    }

    @Test
    void badRequestsAndAStormAreAnsweredWithAReasonWhileTheEngineTradesOn()
    {
        start();
        trade(10, 1_000);
        final long last = node.processedSequence();

        final long ahead = request(last + 1_000, 0);
        assertEquals(List.of("AHEAD_OF_JOURNAL first=0 last=" + last + " to=0"), awaitEnd(ahead));
        final long backwards = request(50, 20);
        assertEquals(List.of("MALFORMED first=0 last=0 to=0"), awaitEnd(backwards));
        final long negative = request(-5, 0);
        assertEquals(List.of("MALFORMED first=0 last=0 to=0"), awaitEnd(negative));
        // too short to be a request, and a wrong block length: echoed ids where readable
        offer(requestBuffer, 3);
        final int length = HEADER + new ReportReplayRequestEncoder().wrapAndApplyHeader(requestBuffer, 0,
            headerEncoder).gatewayId(GATEWAY).requestId(777).fromSequence(0).toSequence(0).encodedLength();
        requestBuffer.putShort(0, (short)8);
        offer(requestBuffer, length);
        await(() -> answers.containsKey(777L), () -> "a MALFORMED answer to a wrong block length");
        assertEquals(List.of("MALFORMED first=0 last=0 to=0"), answers.get(777L));
        assertEquals(last, node.processedSequence(), "no request reached the engine");

        // a storm: every request is served or refused BUSY, and trading goes on meanwhile
        final List<Long> storm = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            storm.add(request(0, 0));
        }
        trade(10, 5_000);
        await(() -> storm.stream().allMatch((id) -> answers.containsKey(id) && answers.get(id).stream().anyMatch(
            (a) -> a.startsWith("END") || a.startsWith("BUSY"))), () -> "every request of the storm answered");
        final long busy = storm.stream().filter((id) -> answers.get(id).get(0).startsWith("BUSY")).count();
        assertTrue(busy > 0, "some requests of the storm were refused BUSY");
        for (final long id : storm)
        {
            if (!answers.get(id).get(0).startsWith("BUSY"))
            {
                final List<String> answer = answers.get(id);
                final long to = Long.parseLong(answer.get(0).substring(answer.get(0).indexOf(" to=") + 4));
                assertEquals(liveAfter(0, to), replayed.get(id), "a replay of the storm: " + answer);
            }
        }
        assertTrue(node.processedSequence() >= trader.sent.size(), "the engine took every command meanwhile");
    }

    @Test
    void aJournalWhoseOldFilesWereRemovedServesFromItsOldestSnapshotAndTellsTheGap() throws Exception
    {
        start();
        trade(40, 1_000);
        final long last = node.processedSequence();
        final List<Event> published = liveAfter(0, last);
        node.close();

        // What an operator leaves after removing old journal files: the journal from 151 on, the snapshots.
        final Path journal = dir.resolve("trimmed/journal");
        final Path snapshots = dir.resolve("snapshots");
        try (Journal source = Journal.openReadOnly(dir.resolve("journal"));
            JournalReader reader = source.newReaderAt(151);
            Journal trimmed = Journal.open(journal, Journal.Durability.PROCESS);
            JournalWriter writer = trimmed.newWriter(150))
        {
            while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
                writer.append(sequence, timestampNs, sourceId, templateId, buffer, offset, length), 1024) > 0)
            {
                writer.endOfBatch();
            }
            writer.endOfBatch();
        }
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final ReportReplayService service = new ReportReplayService(journal, snapshots, false,
            aeron.addSubscription(IPC, 1051), aeron.addPublication(IPC, 1050),
            aeron.addCounter(9001, "served"), aeron.addCounter(9001, "refused"), aeron.addCounter(9001, "failed"));
        final AgentRunner runner = env.closing(new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace,
            null, service));
        AgentRunner.startOnThread(runner);
        replay = aeron.addSubscription(IPC, 1050);
        requests = aeron.addPublication(IPC, 1051);
        await(() -> replay.isConnected() && requests.isConnected(), () -> "the service's streams");

        final long old = request(100, 0);
        assertEquals(List.of("BEYOND_RETENTION first=150 last=" + last + " to=0"), awaitEnd(old));
        final long fromStart = request(0, 0);
        assertEquals(List.of("BEYOND_RETENTION first=150 last=" + last + " to=0"), awaitEnd(fromStart));
        final long kept = request(150, 0);
        assertEquals("END COMPLETE last=" + last + " count=" + published.stream()
            .filter((e) -> e.commandSequence() > 150).count(), awaitEnd(kept).get(1));
        assertEquals(published.stream().filter((e) -> e.commandSequence() > 150).toList(), replayed.get(kept),
            "from the oldest snapshot the journal goes on from");
        final long later = request(200, 0);
        awaitEnd(later);
        assertEquals(published.stream().filter((e) -> e.commandSequence() > 200).toList(), replayed.get(later));
    }
}
