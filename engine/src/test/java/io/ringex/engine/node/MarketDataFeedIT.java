package io.ringex.engine.node;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.aeron.protocol.DataHeaderFlyweight;
import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.client.marketdata.MarketDataClient;
import io.ringex.client.marketdata.MarketDataListener;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.book.PriceLevels;
import io.ringex.protocol.codecs.Side;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market-data feed end to end: a real node, random order flow, and {@link MarketDataClient}s whose L2 and L3 books
 * must equal the engine's book at every quiescent point, though the feed loses messages on the way (Aeron's
 * {@link DebugReceiveChannelEndpoint} with a loss generator in the subscriber's own media driver, on an unreliable
 * subscription, so what is dropped stays lost) or the subscriber stops reading for a while.
 */
class MarketDataFeedIT
{
    private static final int ROUNDS = 12;
    private static final int COMMANDS_PER_ROUND = 60;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    private final int ingressPort = NodeTestSupport.freeUdpPort();
    private final int outboundPort = NodeTestSupport.freeUdpPort();
    private final int requestPort = NodeTestSupport.freeUdpPort();

    private EngineContext context()
    {
        return NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel("aeron:udp?endpoint=localhost:" + ingressPort)
            .outboundChannel("aeron:udp?control=localhost:" + outboundPort + "|control-mode=dynamic")
            .marketDataRequestChannel("aeron:udp?endpoint=localhost:" + requestPort)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024)
            .statusIntervalNs(50_000_000L);
    }

    private String subscriberChannel(final String extra)
    {
        return "aeron:udp?endpoint=localhost:0|control=localhost:" + outboundPort + "|control-mode=dynamic" + extra;
    }

    private MarketDataClient marketDataClient(final Aeron aeron, final EngineContext ctx, final boolean lossy)
    {
        return MarketDataClient.connect(new MarketDataClient.Context()
            .aeron(aeron)
            .feedChannel(subscriberChannel(lossy ? "|reliable=false" : ""))
            .feedStreamId(ctx.marketDataStreamId())
            .responseChannel("aeron:udp?endpoint=localhost:0")
            .responseStreamId(1030)
            .requestChannel(ctx.marketDataRequestChannel())
            .requestStreamId(ctx.marketDataRequestStreamId())
            .listener(new MarketDataListener()
            {
            }));
    }

    @Test
    void clientBooksEqualTheEnginesBookAtEveryQuiescentPointThoughTheFeedLosesMessages() throws Exception
    {
        final long seed = Long.getLong("ringex.mdfeed.seed", System.nanoTime());
        final Random random = new Random(seed);
        final EngineContext ctx = context();
        final EngineNode node = env.closing(EngineNode.launch(ctx));
        final EngineTestClient trader = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx,
            subscriberChannel("")));
        trader.awaitConnected();
        trader.setUpMarket(1, 2, 3);

        // The subscriber's own media driver drops about 3% of the feed's data frames, in bursts now and then.
        final int feedStream = ctx.marketDataStreamId();
        final AtomicLong dropped = new AtomicLong();
        final AtomicBoolean armed = new AtomicBoolean();
        final Random lossRandom = new Random(seed ^ 0x5DEECE66DL);
        final LossGenerator loss = new LossGenerator()
        {
            private int burst;

            public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer,
                final int length)
            {
                return false;
            }

            public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer,
                final int streamId, final int sessionId, final int termId, final int termOffset, final int length)
            {
                // Only frames carrying messages once the subscriber is live: a lost heartbeat (a bare header), or a
                // frame lost before the subscriber joined, makes no gap to detect.
                if (!armed.get() || streamId != feedStream || length <= DataHeaderFlyweight.HEADER_LENGTH)
                {
                    return false;
                }
                if (burst == 0 && lossRandom.nextInt(1000) < 30)
                {
                    burst = lossRandom.nextInt(100) < 10 ? 20 + lossRandom.nextInt(200) : 1;
                }
                if (burst > 0)
                {
                    burst--;
                    dropped.incrementAndGet();
                    return true;
                }
                return false;
            }
        };
        final LossGenerator noLoss = (address, buffer, length) -> false;
        final MediaDriver lossyDriver = env.closing(MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .receiveChannelEndpointSupplier((udpChannel, dispatcher, statusIndicator, context) ->
                new DebugReceiveChannelEndpoint(udpChannel, dispatcher, statusIndicator, context, loss, noLoss))));
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(lossyDriver.aeronDirectoryName())));
        final MarketDataClient lossy = env.closing(marketDataClient(aeron, ctx, true));
        lossy.subscribe(EngineTestClient.INSTRUMENT);
        await(lossy, () -> lossy.isLive(EngineTestClient.INSTRUMENT), "the lossy subscriber to go live");
        armed.set(true);

        final List<long[]> resting = new ArrayList<>(); // {account, clientOrderId}
        long nextClientOrderId = 1;
        for (int round = 0; round < ROUNDS; round++)
        {
            for (int i = 0; i < COMMANDS_PER_ROUND; i++)
            {
                final int what = random.nextInt(10);
                if (what < 6 || resting.isEmpty())
                {
                    final long account = 1 + random.nextInt(3);
                    final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                    // around 100.00, crossing now and then
                    final long price = 9_990 + random.nextInt(21) + (side == Side.BUY ? -3 : 3);
                    final long id = nextClientOrderId++;
                    if (random.nextInt(4) == 0)
                    {
                        // an iceberg: its peaks refresh at the back of the queue, which the L3 book must follow
                        trader.iceberg(account, id, side, price, 10 + random.nextInt(30), 1 + random.nextInt(5));
                    }
                    else
                    {
                        trader.limit(account, id, side, price, 1 + random.nextInt(20));
                    }
                    resting.add(new long[]{ account, id });
                }
                else if (what < 8)
                {
                    final long[] order = resting.remove(random.nextInt(resting.size()));
                    trader.cancel(order[0], nextClientOrderId++, order[1]);
                }
                else
                {
                    // a replace: a smaller quantity keeps the order's place (MODIFY), a new price loses it
                    final int index = random.nextInt(resting.size());
                    final long[] order = resting.get(index);
                    final long id = nextClientOrderId++;
                    trader.replace(order[0], id, order[1], 9_990 + random.nextInt(21), 1 + random.nextInt(5));
                    resting.set(index, new long[]{ order[0], id });
                }
            }
            final long commands = trader.sent.size();
            await(lossy, () -> trader.poll() >= 0 && node.processedSequence() >= commands,
                "the engine to apply round " + round);
            final OrderBook engineBook = node.processor().state().book(EngineTestClient.INSTRUMENT);
            await(lossy, () -> lossy.isLive(EngineTestClient.INSTRUMENT) &&
                lossy.book(EngineTestClient.INSTRUMENT).mdSequence() == engineBook.mdSequence(),
                "the subscriber's book to reach the engine's sequence " + engineBook.mdSequence() + " (seed " +
                seed + ")");
            assertBooksEqual(engineBook, lossy.book(EngineTestClient.INSTRUMENT), "round " + round + ", seed " + seed);
        }
        assertTrue(dropped.get() > 0, "the loss generator dropped nothing");
        assertTrue(lossy.channelGaps() > 0, "no gap seen though " + dropped.get() + " frames were dropped");
        assertTrue(lossy.retransmissions() + lossy.recoveries() > 1,
            "no recovery counted: retransmissions " + lossy.retransmissions() + ", snapshots " + lossy.recoveries());
        System.out.printf("MarketDataFeedIT seed %d: %d frames dropped, %d channel gaps, %d retransmissions, " +
            "%d snapshot recoveries%n", seed, dropped.get(), lossy.channelGaps(), lossy.retransmissions(),
            lossy.recoveries());
    }

    @Test
    void aSubscriberThatStopsReadingFallsBehindWithoutSlowingTheEngineThenRecovers() throws Exception
    {
        final EngineContext ctx = context();
        final EngineNode node = env.closing(EngineNode.launch(ctx));
        final EngineTestClient trader = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx,
            subscriberChannel("")));
        trader.awaitConnected();
        trader.setUpMarket(1, 2);
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final MarketDataClient reader = env.closing(marketDataClient(aeron, ctx, false));
        final MarketDataClient sleeper = env.closing(marketDataClient(aeron, ctx, false));
        // never polled: it subscribes and then does nothing at all, holding its images
        final MarketDataClient neverReads = env.closing(marketDataClient(aeron, ctx, false));
        reader.subscribe(EngineTestClient.INSTRUMENT);
        sleeper.subscribe(EngineTestClient.INSTRUMENT);
        neverReads.subscribe(EngineTestClient.INSTRUMENT);
        final OrderBook engineBook = node.processor().state().book(EngineTestClient.INSTRUMENT);
        await(sleeper, () -> sleeper.isLive(EngineTestClient.INSTRUMENT), "the sleeper's first snapshot");

        // Far more than a term buffer (1 MiB in tests) of market data while the sleeper does not read.
        long id = 1;
        for (int i = 0; i < 12_000; i++)
        {
            trader.limit(1 + (i & 1), id++, (i & 1) == 0 ? Side.BUY : Side.SELL, 9_000 + (i % 500) * 2 +
                ((i & 1) == 0 ? 0 : 1_001), 1 + (i % 7));
            if ((i & 3) == 3)
            {
                trader.cancel(1 + (i & 1), id++, id - 3);
            }
            reader.poll();
            trader.poll(); // the trader reads its execution reports: a gateway that does not slows the engine
        }
        final long commands = trader.sent.size();
        await(reader, () -> trader.poll() >= 0 && node.processedSequence() >= commands,
            "the engine to apply every command");
        await(reader, () -> trader.poll() >= 0 && reader.isLive(EngineTestClient.INSTRUMENT) &&
            reader.book(EngineTestClient.INSTRUMENT).mdSequence() == engineBook.mdSequence(), "the reader");
        assertBooksEqual(engineBook, reader.book(EngineTestClient.INSTRUMENT), "the reader");

        final long snapshotsBefore = sleeper.recoveries();
        await(sleeper, () -> trader.poll() >= 0 && sleeper.isLive(EngineTestClient.INSTRUMENT) &&
            sleeper.book(EngineTestClient.INSTRUMENT).mdSequence() == engineBook.mdSequence(), "the sleeper");
        assertBooksEqual(engineBook, sleeper.book(EngineTestClient.INSTRUMENT), "the sleeper");
        assertTrue(sleeper.recoveries() > snapshotsBefore || sleeper.retransmissions() > 0,
            "the sleeper caught up without recovering: it was not behind");
        // The one that never read held its images throughout: the engine and the two readers above went on regardless.
        CloseHelper.quietClose(neverReads);
    }

    private static void await(final MarketDataClient client, final BooleanSupplier condition, final String what)
    {
        Await.until(what, Duration.ofSeconds(60), condition, client::poll, () -> "gaps " + client.channelGaps() +
            ", retransmissions " + client.retransmissions() + ", recoveries " + client.recoveries());
    }

    /** L3 (every order, its quantity and its place in the queue) and L2 (every level's total and count). */
    static void assertBooksEqual(final OrderBook engine, final MarketDataBook client, final String when)
    {
        assertEquals(l3(engine), l3(client), "L3 book, " + when);
        assertEquals(l2(engine), l2(client), "L2 book, " + when);
    }

    private static String l3(final OrderBook book)
    {
        final StringBuilder out = new StringBuilder();
        final PriceLevels levels = book.levels();
        for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
        {
            for (Order o = levels.head(i, true); null != o; o = PriceLevels.next(o))
            {
                out.append("B ").append(o.price()).append(' ').append(o.orderId()).append('x')
                    .append(o.visibleQuantity()).append('\n');
            }
        }
        for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
        {
            for (Order o = levels.head(i, false); null != o; o = PriceLevels.next(o))
            {
                out.append("S ").append(o.price()).append(' ').append(o.orderId()).append('x')
                    .append(o.visibleQuantity()).append('\n');
            }
        }
        return out.toString();
    }

    private static String l3(final MarketDataBook book)
    {
        final StringBuilder out = new StringBuilder();
        for (int side = 0; side < 2; side++)
        {
            final boolean buy = side == 0;
            for (int level = 0; level < book.levelCount(buy); level++)
            {
                book.forEachOrder(buy, level, (orderId, isBuy, price, quantity) -> out.append(isBuy ? "B " : "S ")
                    .append(price).append(' ').append(orderId).append('x').append(quantity).append('\n'));
            }
        }
        return out.toString();
    }

    private static String l2(final OrderBook book)
    {
        final StringBuilder out = new StringBuilder();
        final PriceLevels levels = book.levels();
        for (int i = levels.bestBid(); i != PriceLevels.NONE; i = levels.nextBidBelow(i))
        {
            out.append("B ").append(levels.price(i)).append(' ').append(levels.quantity(i, true)).append('/')
                .append(levels.orderCount(i, true)).append('\n');
        }
        for (int i = levels.bestAsk(); i != PriceLevels.NONE; i = levels.nextAskAbove(i))
        {
            out.append("S ").append(levels.price(i)).append(' ').append(levels.quantity(i, false)).append('/')
                .append(levels.orderCount(i, false)).append('\n');
        }
        return out.toString();
    }

    private static String l2(final MarketDataBook book)
    {
        final StringBuilder out = new StringBuilder();
        for (int side = 0; side < 2; side++)
        {
            final boolean buy = side == 0;
            for (int level = 0; level < book.levelCount(buy); level++)
            {
                out.append(buy ? "B " : "S ").append(book.levelPrice(buy, level)).append(' ')
                    .append(book.levelQuantity(buy, level)).append('/').append(book.levelOrderCount(buy, level))
                    .append('\n');
            }
        }
        return out.toString();
    }
}
