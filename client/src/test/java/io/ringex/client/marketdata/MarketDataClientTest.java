package io.ringex.client.marketdata;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.ConfigurationException;
import io.ringex.protocol.codecs.BestBidOfferEncoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.BookOrdersEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MarketDataRequestStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderAction;
import io.ringex.protocol.codecs.RetransmitRequestDecoder;
import io.ringex.protocol.codecs.RetransmitResponseEncoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.SnapshotRequestDecoder;
import io.ringex.protocol.codecs.SnapshotResponseEncoder;
import io.ringex.protocol.codecs.TradeEncoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link MarketDataClient} against a scripted engine on IPC: the test plays the feed (with channel sequences in the
 * frames' reserved values) and the recovery service, so it can lose exactly the messages it wants to.
 */
class MarketDataClientTest
{
    private static final String IPC = "aeron:ipc";
    private static final int FEED = 11;
    private static final int RECOVERY = 12;
    private static final int REQUESTS = 13;
    private static final int INSTRUMENT = 7;
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private MediaDriver driver;
    private Aeron aeron;
    private ExclusivePublication feed;
    private ExclusivePublication recovery;
    private Subscription requests;
    private MarketDataClient client;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final BookLevelUpdateEncoder levelUpdate = new BookLevelUpdateEncoder();
    private final TradeEncoder trade = new TradeEncoder();
    private final BestBidOfferEncoder bbo = new BestBidOfferEncoder();
    private long channelSequence;
    private long mdSequence;
    private long lastRequestId;
    private int lastRequestTemplate;
    private long lastRetransmitFrom;
    private int lastRetransmitCount;
    private int trades;
    private long reserved;
    private int retransmitRequests;
    private final java.util.List<String> responseChannels = new java.util.ArrayList<>();
    private final io.aeron.logbuffer.FragmentHandler onRequest = (b, offset, length, h) ->
    {
        headerDecoder.wrap(b, offset);
        lastRequestTemplate = headerDecoder.templateId();
        lastRequestId = b.getLong(offset + HEADER);
        if (lastRequestTemplate == RetransmitRequestDecoder.TEMPLATE_ID)
        {
            final RetransmitRequestDecoder request = new RetransmitRequestDecoder()
                .wrapAndApplyHeader(b, offset, headerDecoder);
            lastRetransmitFrom = request.fromChannelSequence();
            lastRetransmitCount = request.count();
            responseChannels.add(request.responseStreamId() + " " + request.responseChannel());
            retransmitRequests++;
        }
        else
        {
            final SnapshotRequestDecoder request = new SnapshotRequestDecoder()
                .wrapAndApplyHeader(b, offset, headerDecoder);
            request.instrumentId();
            responseChannels.add(request.responseStreamId() + " " + request.responseChannel());
        }
    };
    private final io.aeron.ReservedValueSupplier reservedValueSupplier = (termBuffer, termOffset, frameLength) ->
        reserved;

    @BeforeEach
    void setUp()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        feed = aeron.addExclusivePublication(IPC, FEED);
        recovery = aeron.addExclusivePublication(IPC, RECOVERY);
        requests = aeron.addSubscription(IPC, REQUESTS);
        client = MarketDataClient.connect(context().listener(new MarketDataListener()
        {
            public void onTrade(final int instrumentId, final long tradeId, final long price, final long quantity,
                final Side aggressorSide, final long timestampNs)
            {
                trades++;
            }
        }));
        await(() -> feed.isConnected() && recovery.isConnected() && requests.imageCount() > 0, "connections");
    }

    private MarketDataClient.Context context()
    {
        return new MarketDataClient.Context().aeron(aeron).feedChannel(IPC).feedStreamId(FEED).responseChannel(IPC)
            .responseStreamId(RECOVERY).requestChannel(IPC).requestStreamId(REQUESTS);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, aeron, driver);
    }

    @Test
    void subscribingTakesASnapshotThenFollowsTheFeedOrderByOrder()
    {
        subscribeWithSnapshot(0);
        send(add(1, true, 100, 5, 5, 1));
        send(add(2, true, 100, 7, 12, 2));
        send(add(3, false, 105, 4, 4, 1));
        send(execute(1, true, 100, 2, 9, 2));
        send(modify(2, true, 100, 3, 5, 2));
        send(delete(3, false, 105, 0, 0));
        await(() -> client.book(INSTRUMENT).mdSequence() == mdSequence, "the feed");
        final MarketDataBook book = client.book(INSTRUMENT);
        assertEquals(1, book.levelCount(true));
        assertEquals(0, book.levelCount(false));
        assertEquals(5, book.levelQuantity(true, 0));
        assertEquals(2, book.orderQuantity(1));
        assertEquals(3, book.orderQuantity(2));
        final StringBuilder queue = new StringBuilder();
        book.forEachOrder(true, 0, (orderId, buy, price, quantity) -> queue.append(orderId).append(' '));
        assertEquals("1 2 ", queue.toString(), "a reduction keeps the order's place");
        assertEquals(1, client.recoveries());
    }

    @Test
    void aShortChannelGapIsRetransmittedWhileTheLiveFeedWaits()
    {
        subscribeWithSnapshot(0);
        send(add(1, true, 100, 5, 5, 1));
        final long lostFrom = channelSequence + 1;
        final UnsafeBuffer lost = new UnsafeBuffer(new byte[512]);
        final int lostLength = add(2, true, 100, 7, 12, 2);
        lost.putBytes(0, buffer, 0, lostLength);
        channelSequence++; // lost on the way
        send(add(3, true, 100, 1, 13, 3));
        await(() -> lastRequestTemplate == RetransmitRequestDecoder.TEMPLATE_ID, "a retransmission request");
        assertEquals(lostFrom, lastRetransmitFrom);
        assertEquals(1, lastRetransmitCount);
        assertTrue(!client.isLive(INSTRUMENT), "a book that waits for a retransmission is not live");

        final RetransmitResponseEncoder response = new RetransmitResponseEncoder();
        response.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId).status(MarketDataRequestStatus.ACCEPTED)
            .fromChannelSequence(lostFrom).count(1);
        offer(recovery, buffer, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH, 0);
        offer(recovery, lost, lostLength, lostFrom);
        await(() -> client.isLive(INSTRUMENT) && client.book(INSTRUMENT).orderCount() == 3, "the retransmission");
        assertEquals(13, client.book(INSTRUMENT).levelQuantity(true, 0));
        assertEquals(1, client.retransmissions());
        assertEquals(1, client.recoveries(), "no snapshot needed");
    }

    @Test
    void everyRequestNamesTheClientsOwnResponseChannelAndABusyRetransmissionIsAskedAgain()
    {
        subscribeWithSnapshot(0);
        send(add(1, true, 100, 5, 5, 1));
        final long lostFrom = channelSequence + 1;
        final UnsafeBuffer lost = new UnsafeBuffer(new byte[512]);
        final int lostLength = add(2, true, 100, 7, 12, 2);
        lost.putBytes(0, buffer, 0, lostLength);
        channelSequence++; // lost on the way
        send(add(3, true, 100, 1, 13, 3));
        await(() -> retransmitRequests == 1, "a retransmission request");
        final long busyRequestId = lastRequestId;

        // BUSY (asked too often): the same range is asked again, under a new request id, after the time it says
        final RetransmitResponseEncoder response = new RetransmitResponseEncoder();
        response.wrapAndApplyHeader(buffer, 0, header).requestId(busyRequestId).status(MarketDataRequestStatus.BUSY)
            .fromChannelSequence(lostFrom).count(1).retryAfterNs(100_000_000L);
        offer(recovery, buffer, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH, 0);
        await(() -> retransmitRequests == 2, "the retransmission asked again");
        assertEquals(lostFrom, lastRetransmitFrom);
        assertEquals(1, lastRetransmitCount);
        assertTrue(lastRequestId != busyRequestId);
        assertEquals(1, client.snapshots(), "no snapshot for a BUSY: only the first one");

        response.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId).status(MarketDataRequestStatus.ACCEPTED)
            .fromChannelSequence(lostFrom).count(1).retryAfterNs(0);
        offer(recovery, buffer, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH, 0);
        offer(recovery, lost, lostLength, lostFrom);
        await(() -> client.isLive(INSTRUMENT) && client.book(INSTRUMENT).orderCount() == 3, "the retransmission");
        assertEquals(1, client.retransmissions());
        // the snapshot request and both retransmission requests named where the client reads its answers
        assertEquals(java.util.List.of(RECOVERY + " aeron:ipc", RECOVERY + " aeron:ipc", RECOVERY + " aeron:ipc"),
            responseChannels);
    }

    @Test
    void aResponseChannelThatIsNotTheClientsOwnIsRefusedWhenTheClientIsMade()
    {
        for (final String channel : new String[]{ "aeron:udp?control=localhost:40101|control-mode=dynamic",
            "aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic",
            "aeron:udp?endpoint=localhost:0|tags=1,2", "aeron:udp?endpoint=localhost:0|session-id=5",
            "aeron-spy:aeron:ipc", "aeron:udp?control-mode=manual", "not a channel" })
        {
            final MarketDataListener listener = new MarketDataListener()
            {
            };
            final ConfigurationException ex = assertThrows(ConfigurationException.class,
                () -> MarketDataClient.connect(context().responseChannel(channel).listener(listener)), channel);
            assertTrue(ex.getMessage().contains("MarketDataClient.Context.responseChannel: "), ex.getMessage());
        }
    }

    @Test
    void aRefusedRetransmissionFallsBackToASnapshotAndTheBufferedIncrementals()
    {
        subscribeWithSnapshot(0);
        send(add(1, true, 100, 5, 5, 1));
        channelSequence++;
        mdSequence++; // order 2 added, lost
        send(add(3, true, 100, 1, 13, 3));
        await(() -> lastRequestTemplate == RetransmitRequestDecoder.TEMPLATE_ID, "a retransmission request");
        final RetransmitResponseEncoder response = new RetransmitResponseEncoder();
        response.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId)
            .status(MarketDataRequestStatus.OUT_OF_WINDOW).fromChannelSequence(lastRetransmitFrom).count(1);
        offer(recovery, buffer, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH, 0);
        await(() -> lastRequestTemplate == SnapshotRequestDecoder.TEMPLATE_ID, "a snapshot request");
        send(add(4, false, 110, 2, 2, 1)); // arrives while recovering: buffered, applied after the snapshot
        // the snapshot is at the sequence of order 3's add: orders 1, 2, 3
        answerSnapshot(mdSequence - 1, new long[][]{ { 1, 100, 5 }, { 2, 100, 7 }, { 3, 100, 1 } });
        await(() -> client.isLive(INSTRUMENT) && client.book(INSTRUMENT).mdSequence() == mdSequence, "recovery");
        assertEquals(4, client.book(INSTRUMENT).orderCount());
        assertEquals(13, client.book(INSTRUMENT).levelQuantity(true, 0));
        assertEquals(2, client.recoveries());
    }

    @Test
    void followingEveryInstrumentHandsOnEachMessageOnceInSequenceAfterTheFirstSnapshot()
    {
        client.close();
        final List<Long> handedOn = new ArrayList<>();
        final List<Long> recovered = new ArrayList<>();
        final int[] arrivals = new int[1];
        client = MarketDataClient.connect(context().followAllInstruments(true).listener(new MarketDataListener()
        {
            public void onFeedMessage(final int instrumentId, final int templateId, final DirectBuffer buffer,
                final int offset, final int length)
            {
                assertEquals(BookLevelUpdateDecoder.TEMPLATE_ID, templateId);
                handedOn.add(buffer.getLong(offset + HEADER + BookLevelUpdateDecoder.mdSequenceEncodingOffset(),
                    MessageHeaderDecoder.BYTE_ORDER));
            }

            public void onArrival(final DirectBuffer buffer, final int offset, final int length)
            {
                arrivals[0]++;
            }

            public void onRecovered(final int instrumentId, final long mdSequence)
            {
                recovered.add(mdSequence);
            }
        }));
        await(() -> feed.isConnected() && recovery.isConnected(), "connections");

        // Never subscribed: the instrument's first message starts its recovery, and waits for the snapshot.
        send(add(1, true, 100, 5, 5, 1));
        await(() -> lastRequestTemplate == SnapshotRequestDecoder.TEMPLATE_ID, "a snapshot request");
        answerSnapshot(0, new long[0][]);
        await(() -> client.isLive(INSTRUMENT), "the snapshot");

        // A lost message is retransmitted and handed on in its place.
        final long lostFrom = channelSequence + 1;
        final UnsafeBuffer lost = new UnsafeBuffer(new byte[512]);
        final int lostLength = add(2, true, 100, 7, 12, 2);
        lost.putBytes(0, buffer, 0, lostLength);
        channelSequence++;
        send(add(3, true, 100, 1, 13, 3));
        await(() -> lastRequestTemplate == RetransmitRequestDecoder.TEMPLATE_ID, "a retransmission request");
        final RetransmitResponseEncoder response = new RetransmitResponseEncoder();
        response.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId).status(MarketDataRequestStatus.ACCEPTED)
            .fromChannelSequence(lostFrom).count(1);
        offer(recovery, buffer, HEADER + RetransmitResponseEncoder.BLOCK_LENGTH, 0);
        offer(recovery, lost, lostLength, lostFrom);
        send(add(4, false, 105, 2, 2, 1));
        await(() -> handedOn.size() == 4, "every message handed on");
        assertEquals(List.of(1L, 2L, 3L, 4L), handedOn, "each once, in sequence");
        assertEquals(List.of(0L), recovered);
        assertEquals(3, arrivals[0], "the live arrivals, the retransmitted one not among them");
        assertEquals(13, client.book(INSTRUMENT).levelQuantity(true, 0));
    }

    @Test
    void steadyStateAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        subscribeWithSnapshot(0);
        run(20_000); // warm up: JIT, pools, the order map's size
        final long before = threads.getCurrentThreadAllocatedBytes();
        run(100_000); // 500,000 feed messages
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // Not per message: one 16-byte object per hundred messages would be 80,000 bytes. (A few KB show up on this
        // thread over long runs, from Aeron's and the JVM's own bookkeeping, not from the client's message path.)
        assertTrue(allocated < 32 * 1024, "allocated " + allocated + " bytes over 500,000 messages");
        assertTrue(trades > 0);
    }

    private void run(final int rounds)
    {
        final long base = mdSequence * 10;
        for (int i = 0; i < rounds; i++)
        {
            final long orderId = base + i;
            send(add(orderId, true, 100 + (i % 8), 10, 10, 1));
            send(modify(orderId, true, 100 + (i % 8), 6, 6, 1));
            sendTrade();
            send(execute(orderId, true, 100 + (i % 8), 0, 0, 0));
            sendBbo();
            while (client.poll() > 0)
            {
                // drain
            }
        }
        await(() -> client.book(INSTRUMENT).mdSequence() == mdSequence, "the feed");
    }

    private void subscribeWithSnapshot(final long sequence)
    {
        client.subscribe(INSTRUMENT);
        await(() -> lastRequestTemplate == SnapshotRequestDecoder.TEMPLATE_ID, "the snapshot request");
        answerSnapshot(sequence, new long[0][]);
        await(() -> client.isLive(INSTRUMENT), "the snapshot");
    }

    private void answerSnapshot(final long sequence, final long[][] bids)
    {
        final SnapshotResponseEncoder response = new SnapshotResponseEncoder();
        response.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId).instrumentId(INSTRUMENT)
            .status(MarketDataRequestStatus.ACCEPTED).mdSequence(sequence).channelSequence(channelSequence)
            .orderCount(bids.length);
        offer(recovery, buffer, HEADER + SnapshotResponseEncoder.BLOCK_LENGTH, 0);
        final BookOrdersEncoder orders = new BookOrdersEncoder();
        orders.wrapAndApplyHeader(buffer, 0, header).requestId(lastRequestId).instrumentId(INSTRUMENT)
            .mdSequence(sequence).status(TradingStatus.OPEN).lastPart(BooleanType.TRUE);
        final BookOrdersEncoder.OrdersEncoder entries = orders.ordersCount(bids.length);
        for (final long[] bid : bids)
        {
            entries.next().orderId(bid[0]).side(Side.BUY).price(bid[1]).quantity(bid[2]);
        }
        offer(recovery, buffer, HEADER + orders.encodedLength(), 0);
        lastRequestTemplate = 0;
    }

    private int add(final long orderId, final boolean buy, final long price, final long quantity,
        final long levelQuantity, final int levelOrders)
    {
        return levelUpdate(orderId, buy, price, OrderAction.ADD, quantity, levelQuantity, levelOrders);
    }

    private int modify(final long orderId, final boolean buy, final long price, final long quantity,
        final long levelQuantity, final int levelOrders)
    {
        return levelUpdate(orderId, buy, price, OrderAction.MODIFY, quantity, levelQuantity, levelOrders);
    }

    private int execute(final long orderId, final boolean buy, final long price, final long quantity,
        final long levelQuantity, final int levelOrders)
    {
        return levelUpdate(orderId, buy, price, OrderAction.EXECUTE, quantity, levelQuantity, levelOrders);
    }

    private int delete(final long orderId, final boolean buy, final long price, final long levelQuantity,
        final int levelOrders)
    {
        return levelUpdate(orderId, buy, price, OrderAction.DELETE, 0, levelQuantity, levelOrders);
    }

    private int levelUpdate(final long orderId, final boolean buy, final long price, final OrderAction action,
        final long orderQuantity, final long levelQuantity, final int levelOrders)
    {
        levelUpdate.wrapAndApplyHeader(buffer, 0, header).instrumentId(INSTRUMENT).mdSequence(++mdSequence)
            .side(buy ? Side.BUY : Side.SELL).price(price).quantity(levelQuantity).orderCount(levelOrders)
            .timestampNs(1).orderId(orderId).orderAction(action).orderQuantity(orderQuantity);
        return HEADER + BookLevelUpdateEncoder.BLOCK_LENGTH;
    }

    private void sendTrade()
    {
        trade.wrapAndApplyHeader(buffer, 0, header).instrumentId(INSTRUMENT).mdSequence(++mdSequence).tradeId(1)
            .price(100).quantity(1).aggressorSide(Side.SELL).buyOrderId(1).sellOrderId(2).buyAccountId(0)
            .sellAccountId(0).timestampNs(1);
        send(HEADER + TradeEncoder.BLOCK_LENGTH);
    }

    private void sendBbo()
    {
        bbo.wrapAndApplyHeader(buffer, 0, header).instrumentId(INSTRUMENT).mdSequence(++mdSequence).bidPrice(100)
            .bidQuantity(1).askPrice(BestBidOfferEncoder.askPriceNullValue()).askQuantity(0).timestampNs(1);
        send(HEADER + BestBidOfferEncoder.BLOCK_LENGTH);
    }

    private void send(final int length)
    {
        offer(feed, buffer, length, ++channelSequence);
    }

    private void offer(final ExclusivePublication publication, final UnsafeBuffer message, final int length,
        final long reservedValue)
    {
        // A plain loop, not Await: the allocation test measures this thread, and it sends through here.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        reserved = reservedValue;
        while (publication.offer(message, 0, length, reservedValueSupplier) < 0)
        {
            client.poll();
            assertTrue(System.nanoTime() < deadline, "offer timed out");
        }
    }

    private void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, condition, this::pollClientAndRequests);
    }

    private void pollClientAndRequests()
    {
        if (null != client)
        {
            client.poll();
        }
        requests.poll(onRequest, 10);
    }
}
