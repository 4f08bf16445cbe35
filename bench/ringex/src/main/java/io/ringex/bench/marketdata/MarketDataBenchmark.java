package io.ringex.bench.marketdata;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.bench.engine.BenchAdmin;
import io.ringex.bench.engine.BenchArgs;
import io.ringex.bench.engine.EgressCounter;
import io.ringex.bench.engine.EncodedCommands;
import io.ringex.bench.engine.WorkloadEncoder;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.common.IdleStrategies;
import io.ringex.client.marketdata.MarketDataBook;
import io.ringex.client.marketdata.MarketDataClient;
import io.ringex.client.marketdata.MarketDataListener;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.journal.Journal;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The market-data feed from one engine node to N {@link MarketDataClient}s, in one JVM over Aeron IPC.
 * <ul>
 *   <li>{@code --mode throughput}: the engine node's rate (commands/s, as {@code NodeBenchmark} measures it: from the
 *   first timed offer until the last command is answered) with 0, 1, 4 and 16 subscribers, each keeping the L3 books of
 *   every instrument; the counts of subscribers are run in rotating order, round after round, so the machine's
 *   neighbours do not always land on the same count. All subscribers are polled by one thread (the machine has two
 *   cores); the harness's own reader ({@link EgressCounter}) reads every outbound stream in every configuration.</li>
 *   <li>{@code --mode latency}: one subscriber; the timed commands are offered at a fixed rate; for every book change,
 *   trade and BBO the subscriber's callback records the time from the event's engine timestamp (the ingress time of
 *   the command that caused it, on the same clock in this process) to the callback.</li>
 * </ul>
 * <pre>
 * java ${ringex.jvm.flags} -XX:+UseParallelGC -cp ... io.ringex.bench.marketdata.MarketDataBenchmark \
 *     --workload FILE --dir DIR [--mode throughput|latency] [--rounds 3] [--subscribers 0,1,4,16] \
 *     [--rates 10000,100000] [--idle backoff]
 * </pre>
 */
public final class MarketDataBenchmark
{
    private static final long TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    /** The subscribers' response streams (one each, on IPC), and the storm's. */
    private static final int RESPONSE_STREAM = 7000;
    private static final int STORM_RESPONSE_STREAM = 6999;

    private MarketDataBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final BenchArgs options = new BenchArgs(args);
        final Path workload = Path.of(options.required("--workload"));
        final Path dir = Path.of(options.required("--dir"));
        final String mode = options.string("--mode", "throughput");
        final int rounds = options.integer("--rounds", 3);
        final String idle = options.string("--idle", "backoff");
        // "1s": one subscriber, and a storm of snapshot requests through the timed phase
        final String[] configurations = options.string("--subscribers", "0,1,4,16").split(",");
        final int[] counts = Arrays.stream(configurations).mapToInt((c) -> Integer.parseInt(c.replace("s", "")))
            .toArray();
        final long[] rates = Arrays.stream(options.string("--rates", "10000,100000").split(","))
            .mapToLong(Long::parseLong).toArray();

        final WorkloadEncoder.Encoded encoded;
        final int instruments;
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
            instruments = file.instruments();
        }
        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        try
        {
            if ("latency".equals(mode))
            {
                for (int round = 0; round < rounds; round++)
                {
                    for (final long rate : rates)
                    {
                        latency(driver, dir.resolve("latency"), encoded, instruments, rate, idle, round);
                    }
                }
            }
            else
            {
                final List<List<Double>> results = new ArrayList<>();
                for (int i = 0; i < counts.length; i++)
                {
                    results.add(new ArrayList<>());
                }
                for (int round = 0; round < rounds; round++)
                {
                    for (int k = 0; k < counts.length; k++)
                    {
                        final int i = (k + round) % counts.length;
                        results.get(i).add(throughput(driver, dir.resolve("throughput"), encoded, instruments,
                            counts[i], configurations[i].endsWith("s"), idle, round));
                    }
                }
                final double base = median(results.get(0));
                for (int i = 0; i < counts.length; i++)
                {
                    final double m = median(results.get(i));
                    System.out.printf(Locale.ROOT, "RESULT mode=throughput subscribers=%s medianMcps=%.3f " +
                        "vsFirst=%.3f perRound=%s%n", configurations[i], m, m / base, results.get(i));
                }
            }
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
    }

    private static double throughput(
        final MediaDriver driver,
        final Path dir,
        final WorkloadEncoder.Encoded encoded,
        final int instruments,
        final int subscribers,
        final boolean storm,
        final String idle,
        final int round)
    {
        IoUtil.delete(dir.toFile(), true);
        final EngineContext ctx = context(driver, dir, idle);
        final long untimed = (long)encoded.preamble().count() + encoded.prefill().count();
        final long timed = encoded.timed().count();
        final EngineNode node = EngineNode.launch(ctx);
        final Subscribers readers = new Subscribers(driver, ctx, subscribers, instruments, false);
        final Storm requests = storm ? new Storm(readers.aeron, ctx) : null;
        try (EgressCounter client = new EgressCounter(driver.aeronDirectoryName(), ctx, idle(idle)))
        {
            client.awaitConnected(TimeUnit.SECONDS.toNanos(30));
            readers.start();
            final IdleStrategy clientIdle = idle(idle);
            client.send(encoded.preamble(), clientIdle);
            client.send(encoded.prefill(), clientIdle);
            client.awaitAnswered(untimed, clientIdle, TIMEOUT_NS);
            readers.awaitLive(TimeUnit.SECONDS.toNanos(60));
            System.gc();
            if (null != requests)
            {
                requests.start();
            }
            final long start = System.nanoTime();
            client.send(encoded.timed(), clientIdle);
            client.awaitAnswered(untimed + timed, clientIdle, TIMEOUT_NS);
            final long ns = System.nanoTime() - start;
            final long sent = null == requests ? 0 : requests.stop();
            final double mcps = timed * 1_000.0 / ns;
            final boolean caughtUp = readers.awaitSequence(node, TimeUnit.SECONDS.toNanos(60));
            System.out.printf(Locale.ROOT, "round=%d subscribers=%d storm=%s snapshotRequests=%d commands=%d " +
                "ms=%.1f mcps=%.3f subscribersCaughtUp=%s %s%n", round, subscribers, storm, sent, timed, ns / 1e6,
                mcps, caughtUp, readers.summary());
            return mcps;
        }
        finally
        {
            if (null != requests)
            {
                requests.stop();
            }
            readers.close();
            CloseHelper.quietClose(node);
            IoUtil.delete(dir.toFile(), true);
        }
    }

    private static void latency(
        final MediaDriver driver,
        final Path dir,
        final WorkloadEncoder.Encoded encoded,
        final int instruments,
        final long rate,
        final String idle,
        final int round)
    {
        IoUtil.delete(dir.toFile(), true);
        final EngineContext ctx = context(driver, dir, idle);
        final long untimed = (long)encoded.preamble().count() + encoded.prefill().count();
        final long timed = encoded.timed().count();
        final EngineNode node = EngineNode.launch(ctx);
        final Subscribers readers = new Subscribers(driver, ctx, 1, instruments, true);
        try (EgressCounter client = new EgressCounter(driver.aeronDirectoryName(), ctx, idle(idle)))
        {
            client.awaitConnected(TimeUnit.SECONDS.toNanos(30));
            readers.start();
            final IdleStrategy clientIdle = idle(idle);
            client.send(encoded.preamble(), clientIdle);
            client.send(encoded.prefill(), clientIdle);
            client.awaitAnswered(untimed, clientIdle, TIMEOUT_NS);
            readers.awaitLive(TimeUnit.SECONDS.toNanos(60));
            readers.recording = true;
            final long start = System.nanoTime();
            paced(readers.aeron, ctx, encoded.timed(), rate);
            client.awaitAnswered(untimed + timed, clientIdle, TIMEOUT_NS);
            final long ns = System.nanoTime() - start;
            readers.awaitQuiet();
            readers.recording = false;
            final Histogram h = readers.histogram;
            System.out.printf(Locale.ROOT, "RESULT mode=latency round=%d commandRate=%d feedEventsPerSecond=%.0f " +
                "events=%d p50us=%.1f p90us=%.1f p99us=%.1f p999us=%.1f maxUs=%.1f %s%n", round, rate,
                h.getTotalCount() * 1e9 / ns, h.getTotalCount(), h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
                h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, readers.summary());
        }
        finally
        {
            readers.close();
            CloseHelper.quietClose(node);
            IoUtil.delete(dir.toFile(), true);
        }
    }

    /** Offer the commands at a fixed rate from a publication of our own (the harness's answers are still counted). */
    private static void paced(final Aeron aeron, final EngineContext ctx, final EncodedCommands commands,
        final long rate)
    {
        final Publication ingress = aeron.addPublication(ctx.ingressChannel(), ctx.ingressStreamId());
        final BenchAdmin admin = new BenchAdmin();
        final UnsafeBuffer buffer = commands.buffer();
        final long intervalNs = 1_000_000_000L / rate;
        long next = System.nanoTime();
        for (int frame = 0; frame < commands.limit(); frame = commands.next(frame))
        {
            while (System.nanoTime() < next)
            {
                Thread.onSpinWait();
            }
            next += intervalNs;
            final int signedLength = admin.signIfOperator(buffer, EncodedCommands.messageOffset(frame),
                commands.length(frame));
            while ((signedLength > 0 ? ingress.offer(admin.signed(), 0, signedLength) :
                ingress.offer(buffer, EncodedCommands.messageOffset(frame), commands.length(frame))) < 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    private static EngineContext context(final MediaDriver driver, final Path dir, final String idle)
    {
        return BenchAdmin.configure(new EngineContext())
            .aeronDirectoryName(driver.aeronDirectoryName())
            .ingressChannel("aeron:ipc")
            .outboundChannel("aeron:ipc")
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .durability(Journal.Durability.PROCESS)
            .snapshotEveryCommands(Long.MAX_VALUE / 2)
            .idleStrategy(idle)
            .threading(EngineContext.Threading.DEDICATED);
    }

    private static IdleStrategy idle(final String idle)
    {
        return IdleStrategies.of(idle);
    }

    private static double median(final List<Double> values)
    {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    /** Snapshot requests for instrument 1, as fast as the request stream takes them, from a thread of its own. */
    private static final class Storm
    {
        private final Publication publication;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long sent;

        Storm(final Aeron aeron, final EngineContext ctx)
        {
            publication = aeron.addPublication(ctx.marketDataRequestChannel(), ctx.marketDataRequestStreamId());
            thread = new Thread(() ->
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
                final io.ringex.protocol.codecs.SnapshotRequestEncoder request =
                    new io.ringex.protocol.codecs.SnapshotRequestEncoder();
                final io.ringex.protocol.codecs.MessageHeaderEncoder header =
                    new io.ringex.protocol.codecs.MessageHeaderEncoder();
                long count = 0;
                while (running)
                {
                    // naming a response channel of its own that it never reads, as a flood would
                    final int length = io.ringex.protocol.codecs.MessageHeaderEncoder.ENCODED_LENGTH + request
                        .wrapAndApplyHeader(buffer, 0, header).requestId(1_000_000 + count).instrumentId(1)
                        .responseStreamId(STORM_RESPONSE_STREAM).responseChannel("aeron:ipc").encodedLength();
                    if (publication.offer(buffer, 0, length) > 0)
                    {
                        sent = ++count;
                    }
                    else
                    {
                        Thread.yield();
                    }
                }
            }, "bench-md-storm");
            thread.setDaemon(true);
        }

        void start()
        {
            thread.start();
        }

        long stop()
        {
            running = false;
            try
            {
                thread.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            CloseHelper.quietClose(publication);
            return sent;
        }
    }

    /** N market-data clients polled by one thread. */
    private static final class Subscribers implements AutoCloseable
    {
        final Aeron aeron;
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        volatile boolean recording;
        volatile long recorded;
        private final MarketDataClient[] clients;
        private final int instruments;
        private final SystemEpochNanoClock clock = new SystemEpochNanoClock();
        private final Thread thread;
        private volatile boolean running = true;
        private volatile boolean subscribeRequested;
        private volatile boolean live;
        private volatile boolean sameSequences;

        Subscribers(final MediaDriver driver, final EngineContext ctx, final int count, final int instruments,
            final boolean timed)
        {
            this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            this.instruments = instruments;
            clients = new MarketDataClient[count];
            for (int i = 0; i < count; i++)
            {
                final MarketDataClient[] self = new MarketDataClient[1];
                final MarketDataListener listener = !timed ? new MarketDataListener()
                {
                } : new MarketDataListener()
                {
                    public void onBookChanged(final MarketDataBook book)
                    {
                        record(self[0]);
                    }

                    public void onTrade(final int instrumentId, final long tradeId, final long price,
                        final long quantity, final io.ringex.protocol.codecs.Side aggressorSide, final long ts)
                    {
                        record(self[0]);
                    }

                    public void onBestBidOffer(final int instrumentId, final long bidPrice, final long bidQuantity,
                        final long askPrice, final long askQuantity)
                    {
                        record(self[0]);
                    }
                };
                clients[i] = MarketDataClient.connect(new MarketDataClient.Context()
                    .aeron(aeron)
                    .feedChannel("aeron:ipc")
                    .feedStreamId(ctx.marketDataStreamId())
                    .responseChannel("aeron:ipc")
                    .responseStreamId(RESPONSE_STREAM + i)
                    .requestChannel(ctx.marketDataRequestChannel())
                    .requestStreamId(ctx.marketDataRequestStreamId())
                    .listener(listener));
                self[0] = clients[i];
            }
            thread = new Thread(() ->
            {
                // The clients are single-threaded by contract: this thread subscribes them, polls them, and
                // publishes what the main thread may read (volatile fields).
                final IdleStrategy idle = new BackoffIdleStrategy();
                long nextCheckNs = 0;
                boolean subscribed = false;
                while (running)
                {
                    if (subscribeRequested && !subscribed)
                    {
                        subscribed = true;
                        for (final MarketDataClient client : clients)
                        {
                            for (int instrument = 1; instrument <= instruments; instrument++)
                            {
                                client.subscribe(instrument);
                            }
                        }
                    }
                    int work = 0;
                    for (final MarketDataClient client : clients)
                    {
                        work += client.poll();
                    }
                    final long now = System.nanoTime();
                    if (subscribed && now >= nextCheckNs)
                    {
                        nextCheckNs = now + 1_000_000;
                        live = allLive();
                        sameSequences = live && allBooksNonStale();
                    }
                    idle.idle(work);
                }
            }, "bench-md-subscribers");
            thread.setDaemon(true);
        }

        private void record(final MarketDataClient client)
        {
            if (recording && null != client && client.lastEventTimestampNs() > 0)
            {
                histogram.recordValue(Math.min(histogram.getHighestTrackableValue(),
                    Math.max(0, clock.nanoTime() - client.lastEventTimestampNs())));
                recorded++;
            }
        }

        void start()
        {
            thread.start();
        }

        /** Subscribe every client to every instrument (once the instruments exist) and wait for their books. */
        void awaitLive(final long timeoutNs)
        {
            subscribeRequested = true;
            final long deadline = System.nanoTime() + timeoutNs;
            while (!live)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("subscribers not live: " + summary());
                }
                Thread.yield();
            }
        }

        private boolean allLive()
        {
            for (final MarketDataClient client : clients)
            {
                for (int instrument = 1; instrument <= instruments; instrument++)
                {
                    if (!client.isLive(instrument))
                    {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Wait until the subscriber thread has recorded nothing for 500 ms (the engine is idle by now). */
        void awaitQuiet()
        {
            long last = -1;
            while (true)
            {
                final long count = recorded;
                if (count == last)
                {
                    return;
                }
                last = count;
                try
                {
                    Thread.sleep(500);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** @return whether every subscriber's books reached the engine's last sequences in time. */
        boolean awaitSequence(final EngineNode node, final long timeoutNs)
        {
            final long deadline = System.nanoTime() + timeoutNs;
            while (System.nanoTime() < deadline)
            {
                if (sameSequences)
                {
                    return true;
                }
                try
                {
                    Thread.sleep(10);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }

        private boolean allBooksNonStale()
        {
            // every subscriber at the same sequence as the first one, per instrument (the engine is idle now)
            for (int instrument = 1; instrument <= instruments && clients.length > 1; instrument++)
            {
                final long sequence = clients[0].book(instrument).mdSequence();
                for (final MarketDataClient client : clients)
                {
                    if (client.book(instrument).mdSequence() != sequence)
                    {
                        return false;
                    }
                }
            }
            return true;
        }

        /** @return counts summed over the clients (racy while the poller runs: for the log line only). */
        String summary()
        {
            long gaps = 0;
            long retransmissions = 0;
            long snapshots = 0;
            for (final MarketDataClient client : clients)
            {
                gaps += client.channelGaps();
                retransmissions += client.retransmissions();
                snapshots += client.recoveries();
            }
            return "gaps=" + gaps + " retransmissions=" + retransmissions + " snapshots=" + snapshots;
        }

        public void close()
        {
            running = false;
            try
            {
                thread.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            for (final MarketDataClient client : clients)
            {
                CloseHelper.quietClose(client);
            }
            CloseHelper.quietClose(aeron);
        }
    }
}
