package io.ringex.gateway.fix;

import io.aeron.CommonContext;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.aeron.driver.media.ReceiveChannelEndpoint;
import io.aeron.protocol.DataHeaderFlyweight;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineBookWatch;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixMarketDataBook;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RetransmitResponseDecoder;
import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Group;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MarketDepth;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.MarketDataRequest;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static io.ringex.gateway.testing.FixTestClient.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's FIX market data when the gateway loses part of the engine's feed: the engine publishes on a UDP
 * multi-destination-cast channel, and the gateway's market-data subscription (an unreliable one, so what is dropped
 * stays lost) goes through Aeron's {@link DebugReceiveChannelEndpoint} with a loss generator in the shared media
 * driver; the reference (the engine's own BookSnapshots) and every other stream lose nothing. The gateway must ask the
 * engine's recovery service for what it lost, so the FIX subscriber gets every trade and the engine's book; when the
 * retransmission does not come (its answers are dropped too), the gateway rebuilds the book from a snapshot and tells
 * the subscriber by a new full refresh (W).
 */
class FixMarketDataRecoveryIT
{
    private static final String IPC = "aeron:ipc";
    private static final int FEED_STREAM = 1003;
    private static final int RECOVERY_STREAM = 1030;
    private static final String LOSSY_ALIAS = "gateway-md";

    @TempDir
    Path tempDir;

    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean someLoss;
    private volatile boolean blackout;
    private volatile boolean dropRetransmitAnswers;
    private long lossyFrames;

    private ArchivingMediaDriver driver;
    private Gateway gateway;
    private EngineUnderTest engine;
    private FixTestClient client;
    private EngineBookWatch engineBook;
    private int orderIds;

    @BeforeEach
    void setUp() throws Exception
    {
        final int port = freePort();
        final int control = freeUdpPort();
        final String aeronDir = CommonContext.generateRandomDirName();
        final String publication = "aeron:udp?control=localhost:" + control + "|control-mode=dynamic";
        final String subscriber = "aeron:udp?endpoint=localhost:0|control=localhost:" + control +
            "|control-mode=dynamic";
        final String requests = "aeron:udp?endpoint=localhost:" + freeUdpPort();
        final GatewayContext ctx = TestGateways.fixOverIpc(3, aeronDir, tempDir, port)
            .embeddedDriver(false)
            .engineEgressChannel(subscriber)
            // Requests over UDP, so the gateway's answers come to a UDP endpoint of its own, as lossy as its feed;
            // unreliable too, so a dropped answer stays lost instead of holding back the answers after it.
            .marketDataRequestChannel(requests)
            .marketDataRecoveryChannel("aeron:udp?endpoint=localhost:0|reliable=false|alias=" + LOSSY_ALIAS +
                "-answers")
            // An endpoint of its own: a subscription on the shared one (port 0) would share its losses, and a
            // reliable subscriber's NAKs would bring the lost frames back to the gateway's unreliable image too.
            .marketDataChannel("aeron:udp?endpoint=localhost:" + freeUdpPort() + "|control=localhost:" + control +
                "|control-mode=dynamic|reliable=false|alias=" + LOSSY_ALIAS)
            .throttleMessagesPerSecond(1_000_000);
        final LossGenerator noLoss = (address, buffer, length) -> false;
        driver = ArchivingMediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .receiveChannelEndpointSupplier((udpChannel, dispatcher, statusIndicator, context) ->
                udpChannel.originalUriString().contains("alias=" + LOSSY_ALIAS) ?
                new DebugReceiveChannelEndpoint(udpChannel, dispatcher, statusIndicator, context, lossGenerator(),
                    noLoss) :
                new ReceiveChannelEndpoint(udpChannel, dispatcher, statusIndicator, context)),
            Gateway.fixArchive(ctx));
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = RealEngineNode.launch(new EngineStreams(aeronDir, IPC, 1001, publication, 1002, publication,
            FEED_STREAM, new EngineStreams.TestInstrument(1, "BTC-USD", 2)), subscriber, requests);
        Await.until("library connected and instruments learnt from market data",
            () -> gateway.fixAgent().isLibraryConnected() && gateway.fixAgent().instrumentCount() >= 1, null);
        engineBook = new EngineBookWatch(aeronDir, subscriber, FEED_STREAM, 1);
        client = new FixTestClient(port);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engineBook, engine, gateway, driver);
    }

    /**
     * Drops, on the gateway's market-data endpoint only: frames of the feed that carry messages (a lost heartbeat makes
     * no gap to detect), some of them on a fixed pattern or all of them in a blackout; and, on its response endpoint,
     * when asked, the recovery service's RetransmitResponse (with whatever shares its datagram).
     */
    private LossGenerator lossGenerator()
    {
        return new LossGenerator()
        {
            public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer,
                final int length)
            {
                return false;
            }

            public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer,
                final int streamId, final int sessionId, final int termId, final int termOffset, final int length)
            {
                if (length <= DataHeaderFlyweight.HEADER_LENGTH)
                {
                    return false;
                }
                if (streamId == RECOVERY_STREAM)
                {
                    return dropRetransmitAnswers && carriesRetransmitResponse(buffer, length);
                }
                if (streamId != FEED_STREAM)
                {
                    return false;
                }
                if (blackout)
                {
                    dropped.incrementAndGet();
                    return true;
                }
                if (!someLoss)
                {
                    return false;
                }
                // A datagram holds many messages (the sender batches up to the MTU): drop every 23rd, and 4 in a row
                // every 200, so the loss is certain however few datagrams the test's orders make.
                final long n = ++lossyFrames;
                if (n % 23 == 0 || n % 200 < 4)
                {
                    dropped.incrementAndGet();
                    return true;
                }
                return false;
            }
        };
    }

    private static boolean carriesRetransmitResponse(final UnsafeBuffer buffer, final int length)
    {
        for (int at = 0; at + DataHeaderFlyweight.HEADER_LENGTH + MessageHeaderDecoder.ENCODED_LENGTH <= length; )
        {
            final int frameLength = buffer.getInt(at + DataHeaderFlyweight.FRAME_LENGTH_FIELD_OFFSET);
            if (frameLength <= 0)
            {
                break;
            }
            final int templateId = buffer.getShort(at + DataHeaderFlyweight.HEADER_LENGTH + 2,
                MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
            if (templateId == RetransmitResponseDecoder.TEMPLATE_ID)
            {
                return true;
            }
            at += BitUtil.align(frameLength, 32);
        }
        return false;
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private static int freeUdpPort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    @Test
    void lostFeedMessagesAreRetransmittedSoTheSubscriberGetsEveryTrade() throws Exception
    {
        final SessionID carol = client.addSession("CAROL", "RINGEX", "carol", TestUsers.CAROL_FIX_PASSWORD);
        final SessionID alice = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        logon(carol, alice);
        client.send(carol, subscribe("FULL", "012B"));
        Await.until("full refresh", () -> book(carol).fullRefreshes() == 1, null);

        someLoss = true;
        final Random random = new Random(23);
        for (int i = 0; i < 4; i++)
        {
            awaitAnswered(alice, trade(alice, random, 150));
        }
        someLoss = false;
        // One more order after the loss: a gap at the very end shows when the next message arrives.
        awaitAnswered(alice, trade(alice, random, 1));
        final long traded = tradedQuantity(alice);
        assertTrue(traded > 0, "the orders crossed");
        assertTrue(dropped.get() > 0, "the gateway's feed lost messages");

        awaitBooksEqual(carol);
        until("every trade reached the subscriber, or a new full refresh said some were lost", () ->
        {
            final FixMarketDataBook book = book(carol);
            return book.fullRefreshes() > 1 || sum(book.tradeSizes()) == traded;
        }, () -> "trades " + sum(book(carol).tradeSizes()) + " of " + traded);
        assertTrue(gateway.agent().marketDataFeedGaps() > 0, "the gateway saw the gaps");
        assertTrue(gateway.agent().marketDataRetransmissions() > 0, "and had them retransmitted");
        final FixMarketDataBook book = book(carol);
        if (book.fullRefreshes() == 1)
        {
            assertEquals(traded, sum(book.tradeSizes()), "every trade, once");
            assertEquals(BigDecimal.valueOf(traded), book.statistics().get('B'), "volume statistic");
        }
    }

    @Test
    void aGapNotRetransmittedIsRebuiltFromASnapshotAndStatedByANewFullRefresh() throws Exception
    {
        final SessionID carol = client.addSession("CAROL", "RINGEX", "carol", TestUsers.CAROL_FIX_PASSWORD);
        final SessionID alice = client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
        logon(carol, alice);
        client.send(carol, subscribe("FULL", "012"));
        Await.until("full refresh", () -> book(carol).fullRefreshes() == 1, null);
        final Random random = new Random(24);
        awaitAnswered(alice, trade(alice, random, 50));
        awaitBooksEqual(carol);
        final long recoveriesBefore = gateway.agent().marketDataRecoveries();

        // The gateway misses a burst of the feed and never hears the answer to its retransmission request: it gives
        // up after the client's request timeout and rebuilds the book from a snapshot.
        dropRetransmitAnswers = true;
        blackout = true;
        awaitAnswered(alice, trade(alice, random, 100));
        blackout = false;
        awaitAnswered(alice, trade(alice, random, 1));
        Await.until("the gateway rebuilt the book from a snapshot",
            () -> gateway.agent().marketDataRecoveries() > recoveriesBefore, null);
        dropRetransmitAnswers = false;

        until("a new full refresh states the gap", () -> book(carol).fullRefreshes() == 2,
            () -> "full refreshes " + book(carol).fullRefreshes());
        awaitAnswered(alice, trade(alice, random, 30));
        awaitBooksEqual(carol);
        assertEquals(0, gateway.agent().marketDataRetransmissions(), "no retransmission was heard");
        assertTrue(client.isLoggedOn(carol));
    }

    private void logon(final SessionID... ids) throws Exception
    {
        client.start();
        for (final SessionID id : ids)
        {
            Await.until(id + " logged on", () -> client.isLoggedOn(id), null);
        }
    }

    private static long sum(final List<Long> sizes)
    {
        return sizes.stream().mapToLong(Long::longValue).sum();
    }

    private FixMarketDataBook book(final SessionID id)
    {
        final FixMarketDataBook book = new FixMarketDataBook();
        try
        {
            for (final Message m : client.find(id, m -> "FULL".equals(field(m, 262))))
            {
                book.apply(m);
            }
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
        return book;
    }

    private void awaitBooksEqual(final SessionID id)
    {
        until("the subscriber's book equals the engine's", () ->
        {
            engineBook.poll(2);
            final FixMarketDataBook book = book(id);
            return book.bids().equals(engineBook.bids()) && book.asks().equals(engineBook.asks());
        }, () -> "subscriber " + book(id) + " engine " + engineBook);
    }

    private static void until(final String what, final BooleanSupplier condition, final Supplier<String> detail)
    {
        try
        {
            Await.until(what, condition, null);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + ": " + detail.get(), ex);
        }
    }

    private static MarketDataRequest subscribe(final String mdReqId, final String entryTypes)
    {
        final MarketDataRequest m = new MarketDataRequest(new MDReqID(mdReqId),
            new SubscriptionRequestType(SubscriptionRequestType.SNAPSHOT_UPDATES), new MarketDepth(0));
        for (final char entryType : entryTypes.toCharArray())
        {
            final Group group = new MarketDataRequest.NoMDEntryTypes();
            group.setField(new MDEntryType(entryType));
            m.addGroup(group);
        }
        final Group symbol = new MarketDataRequest.NoRelatedSym();
        symbol.setField(new Symbol("BTC-USD"));
        m.addGroup(symbol);
        return m;
    }

    /** Alice buys and sells (her two accounts), so they trade, within 20 ticks (the engine's snapshot holds all). */
    private List<String> trade(final SessionID alice, final Random random, final int orders)
    {
        final List<String> ids = new ArrayList<>();
        for (int i = 0; i < orders; i++)
        {
            final boolean buy = random.nextBoolean();
            final String id = "T" + (++orderIds);
            final int cents = buy ? 9980 + random.nextInt(20) : 9990 + random.nextInt(20);
            final NewOrderSingle order = new NewOrderSingle(new ClOrdID(id), new Side(buy ? Side.BUY : Side.SELL),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
            order.set(new Symbol("BTC-USD"));
            order.setString(OrderQty.FIELD, Integer.toString(1 + random.nextInt(9)));
            order.setString(Price.FIELD, BigDecimal.valueOf(cents, 2).toPlainString());
            order.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
            order.setString(1, buy ? Long.toString(TestUsers.ALICE_ACCOUNT) :
                Long.toString(TestUsers.ALICE_SECOND_ACCOUNT));
            client.send(alice, order);
            ids.add(id);
        }
        return ids;
    }

    private void awaitAnswered(final SessionID alice, final List<String> ids)
    {
        final Set<String> wanted = new HashSet<>(ids);
        Await.until("every order answered", () ->
        {
            final Set<String> seen = new HashSet<>();
            for (final Message m : client.received(alice))
            {
                seen.add(field(m, 11));
            }
            return seen.containsAll(wanted);
        }, null);
    }

    private long tradedQuantity(final SessionID alice)
    {
        return client.find(alice, m -> "8".equals(FixTestClient.header(m, 35)) && "1".equals(field(m, 54)) &&
            "F".equals(field(m, 150))).stream().mapToLong(m -> Long.parseLong(field(m, 32))).sum();
    }
}
