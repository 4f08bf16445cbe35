package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
import io.ringex.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market-data recovery service against bad, abundant and misdirected requests: requests arrive on a channel of
 * the service's own, each is answered on its requester's own response channel (nobody else's) or, when it names none
 * of its own, dropped and counted; a requester that asks too often is answered BUSY with the time to ask again; and the
 * engine and the other subscribers go on unaffected.
 */
class MarketDataRecoveryIT
{
    private static final String IPC = "aeron:ipc";
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int RESPONSE_STREAM = 7001;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private EngineNode node;
    private EngineContext ctx;
    private EngineTestClient trader;
    private Aeron aeron;
    private long nextRequestId = 1000;

    /** A requester: its request publication, its response subscription and what it was told. */
    private final class Requester
    {
        final Publication requests;
        final Subscription responses;
        final String channel;
        final int streamId;
        final Map<Long, List<String>> answers = new HashMap<>();
        final Map<Long, Long> retryAfterNs = new HashMap<>();
        final List<Long> channelSequences = new ArrayList<>();
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final SnapshotResponseDecoder snapshotResponse = new SnapshotResponseDecoder();
        private final RetransmitResponseDecoder retransmitResponse = new RetransmitResponseDecoder();
        private final BookOrdersDecoder bookOrders = new BookOrdersDecoder();
        private final FragmentAssembler onAnswer = new FragmentAssembler((b, offset, length, h) ->
        {
            header.wrap(b, offset);
            switch (header.templateId())
            {
                case SnapshotResponseDecoder.TEMPLATE_ID:
                    snapshotResponse.wrapAndApplyHeader(b, offset, header);
                    answer(snapshotResponse.requestId(), "snapshot " + snapshotResponse.status(),
                        snapshotResponse.retryAfterNs());
                    break;
                case RetransmitResponseDecoder.TEMPLATE_ID:
                    retransmitResponse.wrapAndApplyHeader(b, offset, header);
                    answer(retransmitResponse.requestId(), "retransmit " + retransmitResponse.status(),
                        retransmitResponse.retryAfterNs());
                    break;
                case BookOrdersDecoder.TEMPLATE_ID:
                    bookOrders.wrapAndApplyHeader(b, offset, header);
                    if (bookOrders.lastPart() == BooleanType.TRUE)
                    {
                        answer(bookOrders.requestId(), "last part", 0);
                    }
                    break;
                default:
                    channelSequences.add(h.reservedValue()); // a feed message retransmitted
                    break;
            }
        });

        Requester(final String requestChannel, final String responseChannel, final int streamId)
        {
            // An exclusive publication: a session of its own, so a requester of its own to the service.
            this.requests = env.closing(aeron.addExclusivePublication(requestChannel,
                ctx.marketDataRequestStreamId()));
            this.responses = env.closing(aeron.addSubscription(responseChannel, streamId));
            this.streamId = streamId;
            Await.until("the response subscription bound", () -> IPC.equals(responseChannel) ||
                null != responses.resolvedEndpoint());
            this.channel = IPC.equals(responseChannel) ? IPC : "aeron:udp?endpoint=" + responses.resolvedEndpoint();
            Await.until("the request channel connected", requests::isConnected);
        }

        private void answer(final long requestId, final String what, final long retryAfter)
        {
            answers.computeIfAbsent(requestId, (id) -> new ArrayList<>()).add(what);
            retryAfterNs.put(requestId, retryAfter);
        }

        int poll()
        {
            trader.poll();
            return responses.poll(onAnswer, 64);
        }

        long snapshot(final int instrumentId)
        {
            return snapshot(instrumentId, channel, streamId);
        }

        long snapshot(final int instrumentId, final String namedChannel, final int namedStream)
        {
            final long requestId = ++nextRequestId;
            final int length = HEADER + new SnapshotRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
                .requestId(requestId).instrumentId(instrumentId).responseStreamId(namedStream)
                .responseChannel(namedChannel).encodedLength();
            offer(buffer, length);
            return requestId;
        }

        long retransmit(final long from, final int count)
        {
            final long requestId = ++nextRequestId;
            final int length = HEADER + new RetransmitRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
                .requestId(requestId).fromChannelSequence(from).count(count).responseStreamId(streamId)
                .responseChannel(channel).encodedLength();
            offer(buffer, length);
            return requestId;
        }

        void offer(final UnsafeBuffer message, final int length)
        {
            Await.until("the request sent", () -> requests.offer(message, 0, length) > 0, this::poll);
        }

        void awaitAnswer(final long requestId, final String expected, final String what)
        {
            Await.until(expected + " for " + what, Duration.ofSeconds(30),
                () -> answers.getOrDefault(requestId, List.of()).contains(expected), this::poll,
                () -> answers.get(requestId));
        }

        /**
         * A first snapshot once the service has its books (from the processor's refresh): asked again while NOT_READY
         * or before the instrument's definition reached it.
         */
        void awaitFirstSnapshot()
        {
            final long[] id = { snapshot(1) };
            final long[] notBeforeNs = { 0 };
            Await.until("the first snapshot", Duration.ofSeconds(30), () ->
            {
                final List<String> got = answers.getOrDefault(id[0], List.of());
                if (notBeforeNs[0] == 0 && (got.contains("snapshot NOT_READY") || got.contains("snapshot BUSY") ||
                    got.contains("snapshot UNKNOWN_INSTRUMENT")))
                {
                    // ask again as a client would: after the time a BUSY says, or 50 ms
                    notBeforeNs[0] = System.nanoTime() + Math.max(50_000_000L, retryAfterNs.get(id[0]));
                }
                if (notBeforeNs[0] != 0 && System.nanoTime() - notBeforeNs[0] > 0)
                {
                    id[0] = snapshot(1);
                    notBeforeNs[0] = 0;
                }
                return got.contains("last part");
            }, this::poll, () -> answers);
        }

        /** A retransmission of messages the feed has sent, asked again while the service has not seen them all. */
        void awaitRetransmission(final long from, final int count)
        {
            final long[] id = { retransmit(from, count) };
            Await.until("a retransmission of " + count + " from " + from, Duration.ofSeconds(30), () ->
            {
                final List<String> got = answers.getOrDefault(id[0], List.of());
                if (got.contains("retransmit OUT_OF_WINDOW"))
                {
                    id[0] = retransmit(from, count); // the feed is ahead of the service's window: ask again
                }
                return got.contains("retransmit ACCEPTED");
            }, this::poll, () -> answers.get(id[0]));
        }
    }

    private void start(final EngineContext context)
    {
        ctx = context
            .aeronDirectoryName(env.aeronDirectoryName())
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
        node = env.closing(EngineNode.launch(ctx));
        trader = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx,
            ctx.outboundChannel().startsWith(IPC) ? IPC : subscriberChannel()));
        trader.awaitConnected();
        trader.setUpMarket(1, 2);
        aeron = env.closing(Aeron.connect(new Aeron.Context().aeronDirectoryName(env.aeronDirectoryName())));
    }

    private void startOnIpc()
    {
        start(NodeTestSupport.forTest(new EngineContext()).ingressChannel(IPC).outboundChannel(IPC)
            .marketDataRecoveryRequesterRate(1000));
    }

    private int outboundPort;

    private String subscriberChannel()
    {
        return "aeron:udp?endpoint=localhost:0|control=localhost:" + outboundPort + "|control-mode=dynamic";
    }

    private void startOnUdp(final int requesterRate)
    {
        outboundPort = NodeTestSupport.freeUdpPort();
        start(NodeTestSupport.forTest(new EngineContext())
            .ingressChannel("aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort())
            .outboundChannel("aeron:udp?control=localhost:" + outboundPort + "|control-mode=dynamic")
            .marketDataRequestChannel("aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort())
            .marketDataRecoveryRequesterRate(requesterRate));
    }

    @Test
    void badRequestsAreAnsweredWithAReasonOrDroppedAndHarmNothing()
    {
        startOnIpc();
        final Requester requester = new Requester(ctx.marketDataRequestChannel(), IPC, RESPONSE_STREAM);
        requester.awaitFirstSnapshot();
        final long stateBefore = node.processedSequence();
        final long droppedBefore = node.counter("marketdata-requests-dropped");

        // Nothing in these names a response channel of the requester's own: nothing can answer them.
        requester.offer(buffer, 3); // too short for a header
        final int orderLength = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder).sessionId(0)
            .encodedLength() + HEADER;
        requester.offer(buffer, orderLength); // a valid message that is no request
        new SnapshotRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder).requestId(555).instrumentId(1);
        buffer.putShort(0, (short)12);
        buffer.putShort(6, (short)2); // a version 2 request: a block of 12, no response channel
        requester.offer(buffer, HEADER + 12);
        requester.snapshot(1, "aeron:udp?endpoint=127.0.0.1:40999", RESPONSE_STREAM); // UDP, asked over IPC
        requester.snapshot(1, "aeron:ipc?term-length=64k", RESPONSE_STREAM); // a parameter
        requester.snapshot(1, "aeron-spy:aeron:ipc", RESPONSE_STREAM);
        requester.snapshot(1, "not a channel", RESPONSE_STREAM);
        requester.snapshot(1, IPC, 0);
        // a requester holds at most 4 response channels: two more streams are the 5th and 6th (its own is the 1st)
        for (int stream = 1; stream <= 5; stream++)
        {
            requester.snapshot(1, IPC, RESPONSE_STREAM + stream);
        }
        final long dropped = 3 + 5 + 2;
        Await.until("the unanswerable requests counted", Await.DEFAULT_TIMEOUT,
            () -> node.counter("marketdata-requests-dropped") ==
            droppedBefore + dropped, requester::poll, () -> node.counter("marketdata-requests-dropped"));

        // These name the requester's own channel: each is answered with its reason.
        requester.awaitAnswer(requester.snapshot(99), "snapshot UNKNOWN_INSTRUMENT", "an unknown instrument");
        requester.awaitAnswer(requester.retransmit(1, 0), "retransmit MALFORMED", "a count of 0");
        requester.awaitAnswer(requester.retransmit(-5, 3), "retransmit MALFORMED", "a negative sequence");
        requester.awaitAnswer(requester.retransmit(1, 100_000), "retransmit TOO_LARGE", "too long a range");
        requester.awaitAnswer(requester.retransmit(1_000_000_000L, 10), "retransmit OUT_OF_WINDOW",
            "a range not sent yet");
        requester.awaitAnswer(requester.retransmit(Long.MAX_VALUE - 5, 10), "retransmit OUT_OF_WINDOW",
            "a range whose end overflows");
        requester.awaitAnswer(requester.retransmit(1, 3), "retransmit ACCEPTED", "a range held");
        Await.until("the three messages retransmitted", Await.DEFAULT_TIMEOUT,
            () -> requester.channelSequences.equals(List.of(1L, 2L, 3L)),
            requester::poll, () -> requester.channelSequences);
        assertEquals(droppedBefore + dropped, node.counter("marketdata-requests-dropped"));

        // none of it reached the engine
        assertEquals(stateBefore, node.processedSequence());

        trader.delist();
        final long[] id = { requester.snapshot(1) };
        Await.until("a DELISTED answer", Duration.ofSeconds(30), () ->
        {
            final List<String> got = requester.answers.getOrDefault(id[0], List.of());
            final boolean whole = got.contains("last part") ||
                got.stream().anyMatch((a) -> a.startsWith("snapshot ") && !a.equals("snapshot ACCEPTED"));
            if (whole && !got.contains("snapshot DELISTED"))
            {
                id[0] = requester.snapshot(1); // the service has not seen the delisting yet: ask again
            }
            return got.contains("snapshot DELISTED");
        }, requester::poll, () -> requester.answers.get(id[0]));
    }

    @Test
    void answersReachTheirRequesterAloneNeverASharedStreamNorAnotherSubscriber()
    {
        startOnUdp(1000);
        final String requestChannel = ctx.marketDataRequestChannel();
        final Requester a = new Requester(requestChannel, "aeron:udp?endpoint=localhost:0", RESPONSE_STREAM);
        final Requester b = new Requester(requestChannel, "aeron:udp?endpoint=localhost:0", RESPONSE_STREAM);
        // What used to carry every requester's answers: the engine's outbound channel, recovery stream 1030. Joining
        // the multi-destination channel, a subscriber there would take the bandwidth of every answer.
        final Subscription shared = env.closing(aeron.addSubscription(subscriberChannel(), 1030));
        final int[] sharedSeen = { 0 };
        final Runnable pollAll = () ->
        {
            a.poll();
            b.poll();
            sharedSeen[0] += shared.poll((buf, offset, length, h) -> sharedSeen[0]++, 64);
        };
        a.awaitFirstSnapshot();
        for (int i = 0; i < 50; i++)
        {
            trader.limit(1, 100 + i, Side.BUY, 9_900 - i, 1); // feed messages to retransmit
        }
        Await.until("the orders on the feed", () -> node.processedSequence() >= trader.sent.size(), pollAll);

        final int bBefore = b.answers.size() + b.channelSequences.size();
        a.awaitRetransmission(2, 40);
        Await.until("a's 40 messages", Await.DEFAULT_TIMEOUT,
            () -> a.channelSequences.size() == 40, pollAll, () -> a.channelSequences);
        final long snapshot = a.snapshot(1);
        a.awaitAnswer(snapshot, "last part", "a's snapshot");
        Await.never("b or a subscriber of the shared stream given a's answers", Duration.ofSeconds(1),
            () -> b.answers.size() + b.channelSequences.size() != bBefore || sharedSeen[0] != 0, pollAll);

        // b's own requests reach b alone
        final int aBefore = a.answers.size() + a.channelSequences.size();
        b.awaitRetransmission(3, 5);
        Await.until("b's 5 messages", Await.DEFAULT_TIMEOUT,
            () -> b.channelSequences.size() == 5, pollAll, () -> b.channelSequences);
        assertEquals(aBefore, a.answers.size() + a.channelSequences.size(), "a given b's answer");
        assertEquals(0, sharedSeen[0]);

        // Not its own: another address (127.0.0.2, loopback too), a wildcard, a multicast group, a host name.
        final long droppedBefore = node.counter("marketdata-requests-dropped");
        final String port = a.channel.substring(a.channel.lastIndexOf(':') + 1);
        for (final String host : new String[]{ "127.0.0.2", "0.0.0.0", "224.0.1.1", "localhost", "127.1" })
        {
            a.snapshot(1, "aeron:udp?endpoint=" + host + ":" + port, RESPONSE_STREAM);
        }
        a.snapshot(1, "aeron:udp?endpoint=127.0.0.1:" + port + "|control=127.0.0.1:1|control-mode=dynamic",
            RESPONSE_STREAM);
        Await.until("the requests naming another's channel dropped", Await.DEFAULT_TIMEOUT, () ->
            node.counter("marketdata-requests-dropped") == droppedBefore + 6, pollAll,
            () -> node.counter("marketdata-requests-dropped"));
        // The same endpoint however spelled is one response channel: an IPv4-mapped IPv6 spelling answers a.
        final int aAnswers = a.answers.size();
        a.awaitAnswer(a.snapshot(1, "aeron:udp?endpoint=[::ffff:127.0.0.1]:" + port, RESPONSE_STREAM), "last part",
            "a request naming a's channel in IPv6");
        assertEquals(aAnswers + 1, a.answers.size());
    }

    @Test
    void requestsAreServedOnTheirOwnChannelNeverTheCommandIngress()
    {
        startOnUdp(1000);
        final Requester requester = new Requester(ctx.marketDataRequestChannel(), "aeron:udp?endpoint=localhost:0",
            RESPONSE_STREAM);
        requester.awaitFirstSnapshot();

        // Where docs once sent requests: the command ingress's endpoint, request stream. Nobody serves it.
        final Publication atIngress = env.closing(aeron.addPublication(ctx.ingressChannel(),
            ctx.marketDataRequestStreamId()));
        Await.never("a request stream served at the command ingress", Duration.ofSeconds(1), atIngress::isConnected,
            requester::poll);

        // On the command ingress stream itself, a request is refused as a message the ingress does not take.
        final Publication ingress = env.closing(aeron.addPublication(ctx.ingressChannel(), ctx.ingressStreamId()));
        Await.until("the ingress connected", ingress::isConnected);
        final long malformed = node.counter("ingress-malformed");
        final long processed = node.processedSequence();
        final long requestId = ++nextRequestId;
        final int length = HEADER + new SnapshotRequestEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .requestId(requestId).instrumentId(1).responseStreamId(RESPONSE_STREAM)
            .responseChannel(requester.channel).encodedLength();
        Await.until("the request offered to the ingress", () -> ingress.offer(buffer, 0, length) > 0);
        Await.until("the ingress refusing it", () -> node.counter("ingress-malformed") == malformed + 1,
            requester::poll);
        Await.never("an answer to a request sent to the command ingress", Duration.ofMillis(500),
            () -> requester.answers.containsKey(requestId), requester::poll);
        assertEquals(processed, node.processedSequence(), "nothing journaled");
    }

    @Test
    void aRequesterAskingTooOftenIsAnsweredBusyWithWhenToAskAgainWhileOthersAreServed()
    {
        start(NodeTestSupport.forTest(new EngineContext()).ingressChannel(IPC).outboundChannel(IPC)
            .marketDataRecoveryRequesterRate(5));
        final Requester eager = new Requester(ctx.marketDataRequestChannel(), IPC, RESPONSE_STREAM);
        final Requester other = new Requester(ctx.marketDataRequestChannel(), IPC, RESPONSE_STREAM + 1);
        eager.awaitFirstSnapshot();

        final List<Long> asked = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            asked.add(eager.snapshot(1));
        }
        Await.until("every request answered", Await.DEFAULT_TIMEOUT,
            () -> asked.stream().allMatch(eager.answers::containsKey),
            eager::poll, () -> eager.answers);
        final List<Long> busy = asked.stream().filter((r) -> eager.answers.get(r).contains("snapshot BUSY"))
            .toList();
        assertTrue(busy.size() >= 20 - 5, "at most 5 served of 20 asked at once: " + eager.answers);
        for (final long requestId : busy)
        {
            final long retryAfterNs = eager.retryAfterNs.get(requestId);
            assertTrue(retryAfterNs > 0 && retryAfterNs <= 1_000_000_000L, "retry after " + retryAfterNs);
        }

        // another requester is served meanwhile
        other.awaitAnswer(other.snapshot(1), "last part", "another requester");

        // and the eager one, once it waited as told
        final long[] again = { eager.snapshot(1) };
        Await.until("served after waiting as told", Duration.ofSeconds(10), () ->
        {
            final List<String> got = eager.answers.getOrDefault(again[0], List.of());
            if (got.contains("snapshot BUSY"))
            {
                again[0] = eager.snapshot(1); // Await's rounds are far shorter than the wait: this is the wait
            }
            return got.contains("last part");
        }, eager::poll, () -> eager.answers.get(again[0]));
    }

    @Test
    void aSnapshotRequestStormIsAnsweredOrRefusedBusyWhileTheEngineAndOtherSubscribersGoOn()
    {
        startOnIpc();
        final Requester storm = new Requester(ctx.marketDataRequestChannel(), IPC, RESPONSE_STREAM);
        storm.awaitFirstSnapshot();
        final MarketDataClient subscriber = env.closing(MarketDataClient.connect(new MarketDataClient.Context()
            .aeron(aeron)
            .feedChannel(IPC)
            .feedStreamId(ctx.marketDataStreamId())
            .responseChannel(IPC)
            .responseStreamId(RESPONSE_STREAM + 1)
            .requestChannel(ctx.marketDataRequestChannel())
            .requestStreamId(ctx.marketDataRequestStreamId())
            .listener(new MarketDataListener()
            {
            })));
        subscriber.subscribe(EngineTestClient.INSTRUMENT);
        // a deep book, so that each snapshot is several parts
        long id = 1;
        for (int i = 0; i < 2_000; i++)
        {
            trader.limit(1, id++, Side.BUY, 9_000 + (i % 900), 1);
        }
        final int requests = 2_000;
        final long refusalsDroppedBefore = node.counter("marketdata-refusals-dropped");
        final List<Long> stormIds = new ArrayList<>();
        for (int i = 0; i < requests; i++)
        {
            stormIds.add(storm.snapshot(1));
            if ((i & 63) == 0)
            {
                trader.limit(2, id++, Side.SELL, 11_000 - (i % 500), 1); // trading goes on meanwhile
            }
            subscriber.poll();
            storm.poll();
        }
        final long commands = trader.sent.size();
        final OrderBook book = node.processor().state().book(EngineTestClient.INSTRUMENT);
        final Runnable pollBoth = () ->
        {
            subscriber.poll();
            storm.poll();
        };
        Await.until("the subscriber's book the engine's", Duration.ofSeconds(60), () ->
            node.processedSequence() >= commands && subscriber.isLive(EngineTestClient.INSTRUMENT) &&
            subscriber.book(EngineTestClient.INSTRUMENT).mdSequence() == book.mdSequence(), pollBoth);
        MarketDataFeedIT.assertBooksEqual(book, subscriber.book(EngineTestClient.INSTRUMENT), "after the storm");

        // Each request is answered whole, or refused BUSY; a refusal its requester's queue has no room for is
        // dropped and counted (the requester, hearing nothing, would ask again).
        final java.util.function.LongSupplier settled = () -> stormIds.stream().filter((r) ->
            storm.answers.containsKey(r) && (storm.answers.get(r).contains("last part") ||
            storm.answers.get(r).contains("snapshot BUSY"))).count() +
            node.counter("marketdata-refusals-dropped") - refusalsDroppedBefore;
        Await.until("every request of the storm answered whole, refused BUSY or its refusal counted dropped",
            Duration.ofSeconds(60), () -> settled.getAsLong() == requests, pollBoth,
            () -> settled.getAsLong() + " of " + requests);
        int busy = 0;
        int unanswered = 0;
        for (final long requestId : stormIds)
        {
            final List<String> got = storm.answers.get(requestId);
            if (null == got)
            {
                unanswered++;
            }
            else if (got.contains("snapshot BUSY"))
            {
                busy++;
                assertEquals(List.of("snapshot BUSY"), got);
                assertTrue(storm.retryAfterNs.get(requestId) > 0);
            }
            else
            {
                assertEquals("snapshot ACCEPTED", got.get(0), got.toString());
            }
        }
        assertEquals(node.counter("marketdata-refusals-dropped") - refusalsDroppedBefore, unanswered);
        System.out.printf("storm of %d snapshot requests: %d refused BUSY, %d refusals dropped, the rest answered " +
            "whole%n", requests, busy, unanswered);
    }
}
