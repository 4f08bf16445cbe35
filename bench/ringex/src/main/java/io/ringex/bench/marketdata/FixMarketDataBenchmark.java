package io.ringex.bench.marketdata;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.bench.engine.BenchAdmin;
import io.ringex.bench.engine.BenchArgs;
import io.ringex.bench.engine.EgressCounter;
import io.ringex.bench.engine.WorkloadEncoder;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.bench.workload.WorkloadPreamble;
import io.ringex.common.IdleStrategies;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.User;
import io.ringex.journal.Journal;
import io.ringex.protocol.CredentialHash;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;

/**
 * What FIX market-data subscribers receive through the gateway while the engine runs at its maximum rate: one engine
 * node (journal on, Aeron IPC), the real gateway (Artio acceptor, its market data served from the engine's feed) and
 * N bare-socket FIX 4.4 subscribers, each logged on as its own user and subscribed (V, 10 levels a side, bids, offers
 * and trades) to every instrument of the workload. A subscriber is a thread that reads its socket and counts the W
 * and X messages and their MDEntries (each level change or trade the gateway sent it), parsing nothing else, so the
 * figure is the gateway's, not a FIX engine's on the client side.
 * <p>
 * Each pass: the workload's accounts and resting orders first (untimed), then the gateway starts and the subscribers
 * log on and get their W; then the timed commands are offered as fast as the engine takes them. A subscriber's rate is
 * the MDEntries (and X messages) it received from the first timed command to its last message, once nothing more
 * comes for a second. The gateway conflates per subscriber (one X per duty cycle with every level that changed), so
 * fewer entries reach a subscriber than the feed carries: that is the design, and the figure to compare with the
 * engine's own rate printed beside it.
 * <pre>
 * java ${ringex.jvm.flags} -cp ... io.ringex.bench.marketdata.FixMarketDataBenchmark \
 *     --workload FILE --dir DIR [--subscribers 1,4] [--rounds 2] [--depth 10] [--port 19951] [--idle backoff]
 * </pre>
 */
public final class FixMarketDataBenchmark
{
    private static final long TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    private static final String IPC = "aeron:ipc";
    private static final String COMP_ID = "RINGEX";
    private static final String PASSWORD = "md-bench-password";

    private FixMarketDataBenchmark()
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
        final int rounds = options.integer("--rounds", 2);
        final int port = options.integer("--port", 19951);
        final String idle = options.string("--idle", "backoff");
        final String[] counts = options.string("--subscribers", "1,4").split(",");
        // MarketDepth: 10 levels a side (a full-depth W of the workload's ~730-level books is more than Artio encodes)
        final int depth = options.integer("--depth", 10);

        final WorkloadEncoder.Encoded encoded;
        final int instruments;
        final int accounts;
        final List<String> symbols = new ArrayList<>();
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
            instruments = file.instruments();
            accounts = file.accounts();
            final WorkloadPreamble preamble = WorkloadPreamble.of(file);
            for (int id = 1; id <= instruments; id++)
            {
                symbols.add(preamble.symbol(id));
            }
        }
        for (int round = 0; round < rounds; round++)
        {
            for (int k = 0; k < counts.length; k++)
            {
                final int subscribers = Integer.parseInt(counts[(k + round) % counts.length].trim());
                if (subscribers > accounts)
                {
                    throw new IllegalArgumentException("one account per subscriber: the workload has " + accounts);
                }
                pass(dir.resolve("pass"), encoded, symbols, subscribers, depth, port, idle, round);
            }
        }
    }

    private static void pass(
        final Path dir,
        final WorkloadEncoder.Encoded encoded,
        final List<String> symbolList,
        final int subscribers,
        final int depth,
        final int port,
        final String idle,
        final int round) throws Exception
    {
        IoUtil.delete(dir.toFile(), true);
        final int instruments = symbolList.size();
        final String aeronDir = dir.resolve("aeron").toString();
        final GatewayContext gatewayCtx = new GatewayContext()
            .gatewayId(9)
            .aeronDirectoryName(aeronDir)
            .archiveDir(dir.resolve("archive").toString())
            .fixLogDir(dir.resolve("fix").toString())
            .fixHost("localhost")
            .fixPort(port)
            .clientChannel(IPC).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .marketDataRequestChannel(IPC).marketDataRecoveryChannel(IPC)
            .throttleMessagesPerSecond(1_000_000)
            .embeddedDriver(false);
        final String credential = CredentialHash.hash(PASSWORD.toCharArray(), 1000);
        for (int i = 1; i <= subscribers; i++)
        {
            gatewayCtx.addUser(new User("md" + i, credential, new long[]{ i }, "MD" + i, COMP_ID));
        }
        final ArchivingMediaDriver driver = ArchivingMediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true), Gateway.fixArchive(gatewayCtx));
        final EngineContext ctx = BenchAdmin.configure(new EngineContext())
            .aeronDirectoryName(aeronDir)
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .durability(Journal.Durability.PROCESS)
            .snapshotEveryCommands(Long.MAX_VALUE / 2)
            .idleStrategy(idle)
            .threading(EngineContext.Threading.DEDICATED);
        final long untimed = (long)encoded.preamble().count() + encoded.prefill().count();
        final long timed = encoded.timed().count();
        final EngineNode node = EngineNode.launch(ctx);
        Gateway gateway = null;
        final List<Subscriber> readers = new ArrayList<>();
        try (EgressCounter client = new EgressCounter(aeronDir, ctx, IdleStrategies.of(idle)))
        {
            client.awaitConnected(TimeUnit.SECONDS.toNanos(30));
            final IdleStrategy clientIdle = IdleStrategies.of(idle);
            client.send(encoded.preamble(), clientIdle);
            client.send(encoded.prefill(), clientIdle);
            client.awaitAnswered(untimed, clientIdle, TIMEOUT_NS);

            gateway = Gateway.launch(gatewayCtx, Throwable::printStackTrace);
            final Gateway started = gateway;
            await("the gateway knows the instruments", () -> started.fixAgent().isLibraryConnected() &&
                started.fixAgent().instrumentCount() >= instruments);
            final StringBuilder symbols = new StringBuilder();
            symbols.append("146=").append(instruments).append('|');
            for (final String symbol : symbolList)
            {
                symbols.append("55=").append(symbol).append('|');
            }
            for (int i = 1; i <= subscribers; i++)
            {
                final Subscriber reader = new Subscriber(port, "MD" + i, "md" + i);
                readers.add(reader);
                reader.start();
                reader.awaitLogon();
                reader.send("V", 2, "262=ALL|263=1|264=" + depth + "|267=3|269=0|269=1|269=2|" + symbols);
            }
            for (final Subscriber reader : readers)
            {
                try
                {
                    reader.awaitFullRefreshes(instruments);
                }
                catch (final IllegalStateException ex)
                {
                    throw new IllegalStateException(ex.getMessage() + "; gateway: subscriptions=" +
                        started.fixAgent().marketDataSubscriptions() + " books rebuilt=" +
                        started.agent().marketDataRecoveries() + " feed gaps=" +
                        started.agent().marketDataFeedGaps(), ex);
                }
            }
            System.gc();
            for (final Subscriber reader : readers)
            {
                reader.startCounting();
            }
            final long start = System.nanoTime();
            client.send(encoded.timed(), clientIdle);
            client.awaitAnswered(untimed + timed, clientIdle, TIMEOUT_NS);
            final long engineNs = System.nanoTime() - start;
            for (final Subscriber reader : readers)
            {
                reader.awaitQuiet(TimeUnit.SECONDS.toNanos(1));
            }
            long entries = 0;
            final StringBuilder each = new StringBuilder();
            for (final Subscriber reader : readers)
            {
                final double seconds = Math.max(1, reader.lastMessageNs - start) / 1e9;
                entries += reader.entries;
                each.append(String.format(Locale.ROOT, " [%s entries=%d x=%d w=%d seconds=%.2f entriesPerS=%.0f]",
                    reader.compId, reader.entries, reader.incrementals, reader.fullRefreshes, seconds,
                    reader.entries / seconds));
            }
            System.out.printf(Locale.ROOT, "RESULT round=%d subscribers=%d commands=%d engineMs=%.1f " +
                "engineCommandsPerS=%.0f meanEntriesPerSubscriberPerS=%.0f deferred=%d feedGaps=%d retransmitted=%d " +
                "rebuilt=%d load=%s%s%n", round, subscribers, timed, engineNs / 1e6, timed * 1e9 / engineNs,
                readers.stream().mapToDouble(r -> r.entries * 1e9 / Math.max(1, r.lastMessageNs - start)).average()
                    .orElse(0),
                gateway.fixAgent().marketDataDeferred(), gateway.agent().marketDataFeedGaps(),
                gateway.agent().marketDataRetransmissions(), gateway.agent().marketDataRecoveries(),
                load(), each);
        }
        finally
        {
            for (final Subscriber reader : readers)
            {
                reader.close();
            }
            CloseHelper.quietCloseAll(gateway, node, driver);
            IoUtil.delete(dir.toFile(), true);
        }
    }

    private static String load()
    {
        try
        {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        }
        catch (final IOException ex)
        {
            return "?";
        }
    }

    private static void await(final String what, final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.yield();
        }
    }

    /**
     * A bare-socket FIX subscriber on a thread of its own: logs on, then counts what it reads. Tags are parsed only as
     * far as MsgType (35) and MDEntryType (269, one per entry); no message is built.
     */
    private static final class Subscriber implements AutoCloseable
    {
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");

        final String compId;
        private final String username;
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile boolean loggedOn;
        private volatile boolean counting;
        volatile long entries;
        volatile long incrementals;
        volatile long fullRefreshes;
        volatile long lastMessageNs;
        /** MsgType and Text of the messages that are neither market data nor session level, for a failure. */
        private final StringBuffer others = new StringBuffer();
        private final StringBuilder text = new StringBuilder();
        private final StringBuffer raw = new StringBuffer();

        Subscriber(final int port, final String compId, final String username) throws IOException
        {
            this.compId = compId;
            this.username = username;
            socket = new Socket("localhost", port);
            socket.setSoTimeout(100);
            socket.setReceiveBufferSize(4 * 1024 * 1024);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            thread = new Thread(this::read, "bench-fix-md-" + compId);
            thread.setDaemon(true);
        }

        void start() throws IOException
        {
            thread.start();
            send("A", 1, "98=0|108=600|553=" + username + "|554=" + PASSWORD + "|");
        }

        void awaitLogon()
        {
            await(compId + " logged on", () -> loggedOn);
            // The acceptor hands the session to the gateway's library after the Logon answer: what arrives before
            // that is not the gateway's to answer.
            LockSupportSleep.millis(500);
        }

        void awaitFullRefreshes(final int count)
        {
            try
            {
                await(compId + "'s full refreshes", () -> fullRefreshes >= count);
            }
            catch (final IllegalStateException ex)
            {
                throw new IllegalStateException(ex.getMessage() + ": got " + fullRefreshes + " of " + count +
                    "; other messages: " + others + " raw: " + raw, ex);
            }
        }

        void startCounting()
        {
            entries = 0;
            incrementals = 0;
            counting = true;
        }

        void awaitQuiet(final long quietNs)
        {
            final long deadline = System.nanoTime() + TIMEOUT_NS;
            while (System.nanoTime() - lastMessageNs < quietNs)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException(compId + " never went quiet");
                }
                LockSupportSleep.millis(50);
            }
        }

        synchronized void send(final String msgType, final int seqNum, final String body) throws IOException
        {
            final String afterLength = ("35=" + msgType + "|49=" + compId + "|56=" + COMP_ID + "|34=" + seqNum +
                "|52=" + TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + "|" + body).replace('|', '\u0001');
            final String head = "8=FIX.4.4\u00019=" + afterLength.length() + "\u0001" + afterLength;
            int sum = 0;
            for (final byte b : head.getBytes(StandardCharsets.US_ASCII))
            {
                sum += b & 0xFF;
            }
            out.write((head + "10=" + String.format("%03d", sum % 256) + "\u0001")
                .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        private void read()
        {
            final byte[] chunk = new byte[64 * 1024];
            int tag = 0;
            boolean inTag = true;
            int valueStart = 0;
            char msgType = 0;
            int valueLength = 0;
            long messageEntries = 0;
            while (running)
            {
                final int read;
                try
                {
                    read = in.read(chunk);
                }
                catch (final SocketTimeoutException ex)
                {
                    continue;
                }
                catch (final IOException ex)
                {
                    break;
                }
                if (read < 0)
                {
                    break;
                }
                if (raw.length() < 3_000)
                {
                    raw.append(new String(chunk, 0, Math.min(read, 3_000), StandardCharsets.US_ASCII)
                        .replace('\u0001', '|'));
                }
                for (int i = 0; i < read; i++)
                {
                    final byte b = chunk[i];
                    if (inTag)
                    {
                        if (b == '=')
                        {
                            inTag = false;
                            valueLength = 0;
                        }
                        else
                        {
                            tag = tag * 10 + (b - '0');
                        }
                    }
                    else if (b == 1)
                    {
                        if (tag == 269)
                        {
                            messageEntries++;
                        }
                        else if (tag == 10)
                        {
                            if (msgType != 'W' && msgType != 'X' && msgType != 'A' && msgType != '0' &&
                                others.length() < 2_000)
                            {
                                others.append(msgType).append(':').append(text).append(' ');
                            }
                            text.setLength(0);
                            onMessage(msgType, messageEntries);
                            messageEntries = 0;
                            msgType = 0;
                        }
                        tag = 0;
                        inTag = true;
                    }
                    else
                    {
                        if (tag == 35 && valueLength == 0)
                        {
                            msgType = (char)b;
                        }
                        else if (tag == 35)
                        {
                            msgType = '?'; // a two-character MsgType: not market data
                        }
                        else if (tag == 58 && text.length() < 200)
                        {
                            text.append((char)b);
                        }
                        valueLength++;
                    }
                }
            }
        }

        private void onMessage(final char msgType, final long messageEntries)
        {
            switch (msgType)
            {
                case 'A' -> loggedOn = true;
                case 'W' ->
                {
                    fullRefreshes++;
                    count(messageEntries);
                }
                case 'X' ->
                {
                    incrementals++;
                    count(messageEntries);
                }
                default ->
                {
                    // heartbeats and the rest
                }
            }
        }

        private void count(final long messageEntries)
        {
            if (counting)
            {
                entries += messageEntries;
            }
            lastMessageNs = System.nanoTime();
        }

        public void close()
        {
            running = false;
            CloseHelper.quietClose(socket);
            try
            {
                thread.join(2_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sleeping without the checked exception. */
    private static final class LockSupportSleep
    {
        static void millis(final long millis)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }
    }
}
