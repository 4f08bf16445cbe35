package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.client.marketdata.MarketDataClient;
import io.ringex.client.marketdata.MarketDataListener;
import io.ringex.engine.book.OrderBook;
import io.ringex.protocol.codecs.BookOrdersDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.RetransmitRequestEncoder;
import io.ringex.protocol.codecs.RetransmitResponseDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.SnapshotRequestEncoder;
import io.ringex.protocol.codecs.SnapshotResponseDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market-data recovery service against bad and abundant requests: each is answered with a reason or contained,
 * and the engine and the other subscribers go on unaffected.
 */
class MarketDataRecoveryIT
{
    private static final String IPC = "aeron:ipc";
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final Map<Long, List<String>> answers = new HashMap<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final SnapshotResponseDecoder snapshotResponse = new SnapshotResponseDecoder();
    private final RetransmitResponseDecoder retransmitResponse = new RetransmitResponseDecoder();
    private final BookOrdersDecoder bookOrders = new BookOrdersDecoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private EngineNode node;
    private EngineContext ctx;
    private EngineTestClient trader;
    private Publication requests;
    private Subscription recovery;
    private FragmentAssembler onAnswer;

    private void start()
    {
        ctx = new EngineContext()
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
        node = env.closing(EngineNode.launch(ctx));
        trader = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        trader.awaitConnected();
        trader.setUpMarket(1, 2);
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        requests = aeron.addPublication(IPC, ctx.marketDataRequestStreamId());
        recovery = aeron.addSubscription(IPC, ctx.marketDataRecoveryStreamId());
        onAnswer = new FragmentAssembler((b, offset, length, h) ->
        {
            header.wrap(b, offset);
            switch (header.templateId())
            {
                case SnapshotResponseDecoder.TEMPLATE_ID:
                    snapshotResponse.wrapAndApplyHeader(b, offset, header);
                    answer(snapshotResponse.requestId(), "snapshot " + snapshotResponse.status());
                    break;
                case RetransmitResponseDecoder.TEMPLATE_ID:
                    retransmitResponse.wrapAndApplyHeader(b, offset, header);
                    answer(retransmitResponse.requestId(), "retransmit " + retransmitResponse.status());
                    break;
                case BookOrdersDecoder.TEMPLATE_ID:
                    bookOrders.wrapAndApplyHeader(b, offset, header);
                    if (bookOrders.lastPart() == BooleanType.TRUE)
                    {
                        answer(bookOrders.requestId(), "last part");
                    }
                    break;
                default:
                    break;
            }
        });
        await(() -> requests.isConnected() && recovery.imageCount() > 0, "the recovery service");
        // The service builds its books from the processor's refresh (every 5 status intervals here).
        awaitAnswer(snapshot(1), "snapshot ACCEPTED", "the first snapshot", true);
    }

    private void answer(final long requestId, final String what)
    {
        answers.computeIfAbsent(requestId, (id) -> new ArrayList<>()).add(what);
    }

    @Test
    void badRequestsAreAnsweredWithAReasonAndHarmNothing()
    {
        start();
        final long stateBefore = node.processedSequence();

        // unreadable: too short for a header; a valid message that is no request; a wrong block length
        offer(buffer, 3);
        awaitAnswer(0L, "snapshot MALFORMED", "a reason for 3 bytes", false);
        final int orderLength = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder).sessionId(0)
            .encodedLength() + HEADER;
        offer(buffer, orderLength);
        awaitAnswer(0L, "snapshot MALFORMED", "a reason for a NewOrder", false);
        final int badBlock = new SnapshotRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .requestId(555).instrumentId(1).encodedLength() + HEADER;
        buffer.putShort(0, (short)4); // blockLength 4: not what the schema says
        offer(buffer, badBlock);
        awaitAnswer(0L, "snapshot MALFORMED", "a reason for a wrong block length", false);

        awaitAnswer(snapshot(99), "snapshot UNKNOWN_INSTRUMENT", "an unknown instrument", true);
        awaitAnswer(retransmit(1, 0), "retransmit MALFORMED", "a count of 0", true);
        awaitAnswer(retransmit(1, 100_000), "retransmit TOO_LARGE", "too long a range", true);
        awaitAnswer(retransmit(1_000_000_000L, 10), "retransmit OUT_OF_WINDOW", "a range not sent yet", true);
        awaitAnswer(retransmit(Long.MAX_VALUE - 5, 10), "retransmit OUT_OF_WINDOW", "a range whose end overflows",
            true);
        final long good = retransmit(1, 3);
        awaitAnswer(good, "retransmit ACCEPTED", "a range held", true);

        // none of it reached the engine
        assertEquals(stateBefore, node.processedSequence());

        trader.delist();
        final long delisted = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long requestId;
        do
        {
            requestId = snapshot(1);
            awaitAny(requestId);
            assertTrue(System.nanoTime() < delisted, "no DELISTED answer: " + answers.get(requestId));
        }
        while (!answers.get(requestId).contains("snapshot DELISTED"));
    }

    @Test
    void aSnapshotRequestStormIsAnsweredOrRefusedBusyWhileTheEngineAndOtherSubscribersGoOn()
    {
        start();
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final MarketDataClient subscriber = env.closing(MarketDataClient.connect(aeron, IPC,
            ctx.marketDataStreamId(), IPC, ctx.marketDataRecoveryStreamId(), IPC, ctx.marketDataRequestStreamId(),
            new MarketDataListener()
            {
            }));
        subscriber.subscribe(EngineTestClient.INSTRUMENT);
        // a deep book, so that each snapshot is several parts
        long id = 1;
        for (int i = 0; i < 2_000; i++)
        {
            trader.limit(1, id++, Side.BUY, 9_000 + (i % 900), 1);
        }
        final int storm = 2_000;
        final List<Long> stormIds = new ArrayList<>();
        for (int i = 0; i < storm; i++)
        {
            stormIds.add(snapshot(1));
            if ((i & 63) == 0)
            {
                trader.limit(2, id++, Side.SELL, 11_000 - (i % 500), 1); // trading goes on meanwhile
            }
            poll(subscriber);
        }
        final long commands = trader.sent.size();
        final OrderBook book = node.processor().state().book(EngineTestClient.INSTRUMENT);
        await(() -> poll(subscriber) >= 0 && node.processedSequence() >= commands &&
            subscriber.isLive(EngineTestClient.INSTRUMENT) &&
            subscriber.book(EngineTestClient.INSTRUMENT).mdSequence() == book.mdSequence(), "the subscriber");
        MarketDataFeedIT.assertBooksEqual(book, subscriber.book(EngineTestClient.INSTRUMENT), "after the storm");

        final BooleanSupplier allAnswered = () -> stormIds.stream().allMatch((r) -> answers.containsKey(r) &&
            (answers.get(r).contains("last part") || answers.get(r).contains("snapshot BUSY")));
        await(() -> poll(subscriber) >= 0 && allAnswered.getAsBoolean(), () -> "every request of the storm " +
            "answered; unanswered or incomplete: " + stormIds.stream().filter((r) -> !answers.containsKey(r) ||
            !(answers.get(r).contains("last part") || answers.get(r).contains("snapshot BUSY")))
            .map((r) -> r + "=" + answers.get(r)).limit(20).toList());
        int busy = 0;
        for (final long requestId : stormIds)
        {
            final List<String> got = answers.get(requestId);
            if (got.contains("snapshot BUSY"))
            {
                busy++;
                assertEquals(List.of("snapshot BUSY"), got);
            }
            else
            {
                assertEquals("snapshot ACCEPTED", got.get(0), got.toString());
            }
        }
        System.out.printf("storm of %d snapshot requests: %d refused BUSY, the rest answered whole%n", storm, busy);
    }

    private int poll(final MarketDataClient subscriber)
    {
        trader.poll();
        return subscriber.poll() + recovery.poll(onAnswer, 64);
    }

    private long nextRequestId = 1000;

    private long snapshot(final int instrumentId)
    {
        final long requestId = ++nextRequestId;
        new SnapshotRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder).requestId(requestId)
            .instrumentId(instrumentId);
        offer(buffer, HEADER + SnapshotRequestEncoder.BLOCK_LENGTH);
        return requestId;
    }

    private long retransmit(final long from, final int count)
    {
        final long requestId = ++nextRequestId;
        new RetransmitRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder).requestId(requestId)
            .fromChannelSequence(from).count(count);
        offer(buffer, HEADER + RetransmitRequestEncoder.BLOCK_LENGTH);
        return requestId;
    }

    private void offer(final UnsafeBuffer message, final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (requests.offer(message, 0, length) < 0)
        {
            recovery.poll(onAnswer, 64);
            assertTrue(System.nanoTime() < deadline, "request not sent");
        }
    }

    private void awaitAny(final long requestId)
    {
        await(() -> recovery.poll(onAnswer, 64) >= 0 && answers.containsKey(requestId), "an answer");
    }

    private void awaitAnswer(final long requestId, final String expected, final String what, final boolean retry)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long id = requestId;
        while (true)
        {
            final List<String> got = answers.get(id);
            if (null != got && got.contains(expected))
            {
                if (0L == requestId)
                {
                    answers.remove(0L);
                }
                return;
            }
            if (retry && null != got && (got.contains("snapshot NOT_READY") ||
                (expected.equals("snapshot ACCEPTED") && got.contains("snapshot UNKNOWN_INSTRUMENT"))))
            {
                // the service has no book until the first refresh (nor an instrument until its definition has
                // reached it): ask again
                answers.remove(id);
                id = snapshot(1);
            }
            assertTrue(System.nanoTime() < deadline, "no " + expected + " for " + what + ": " + answers);
            if (recovery.poll(onAnswer, 64) == 0)
            {
                trader.poll();
                Thread.yield();
            }
        }
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        await(condition, () -> what);
    }

    private void await(final BooleanSupplier condition, final java.util.function.Supplier<String> what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what.get());
            }
            recovery.poll(onAnswer, 64);
            Thread.yield();
        }
    }
}
