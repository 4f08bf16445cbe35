package io.ringex.app;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import org.agrona.CloseHelper;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load generator over the gateway's REST API, as any language's client would send: {@code POST /api/v1/orders}
 * signed with the user's API key (from the keys file named by {@code --api-keys}), over a pool of keep-alive HTTP/1.1
 * connections, each request written in one piece with TCP_NODELAY (as curl, Python's requests and browsers do; a
 * client that writes the headers and the body apart waits on the network's delayed acknowledgements instead). An
 * order's first report is its HTTP answer (the engine's report, or 422 with its refusal). Each connection has a
 * thread of its own that blocks on its socket; answers are stamped there and handed to the generator's thread
 * through a queue: this transport measures the venue, not itself, and is not zero-allocation.
 * <p>
 * With {@code streamReports} ({@code --transport rest-ws}) an order's first report is timed when it arrives on the
 * user stream ({@code /ws/v1/user}, one per key, opened before the run) instead of as the HTTP answer: what a client
 * that follows its orders over the WebSocket sees; the HTTP answers of the same orders are timed beside them
 * ({@code answerP50us}...). A refused request (no report on the stream) is counted from its HTTP answer.
 */
final class RestLoadTransport implements LoadGenerator.Transport
{
    /** Connections (and requests in flight) at most: more wait, as behind a client's connection pool. */
    private static final int CONNECTIONS = 16;
    private static final int QUEUE_CAPACITY = 4096;

    private final String host;
    private final int port;
    private final Path keysFile;
    private final LoadGenerator.Reports reports;
    private final Map<String, ApiKey> keys = new HashMap<>();
    private final ArrayBlockingQueue<Request> requests = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean firstRefusalSeen = new AtomicBoolean();
    private final List<Thread> connections = new ArrayList<>();
    /** Client order ids of this run start with it: a key's earlier runs used other ones. */
    private final String run = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    private final boolean streamReports;
    private final List<Socket> streams = new CopyOnWriteArrayList<>();
    private CountDownLatch streamsSubscribed;
    private volatile boolean running = true;

    private record Request(long id, byte[] bytes)
    {
    }

    RestLoadTransport(final String host, final int port, final Path keysFile, final LoadGenerator.Reports reports,
        final boolean streamReports)
    {
        this.host = host;
        this.port = port;
        this.keysFile = keysFile;
        this.reports = reports;
        this.streamReports = streamReports;
    }

    public void connect(final List<DemoData.Account> accounts)
    {
        final ApiKeys all = ApiKeys.load(keysFile);
        for (final DemoData.Account account : accounts)
        {
            final ApiKey key = all.keys().stream().filter(k -> k.username().equals(account.user()) && k.mayTrade())
                .findFirst().orElseThrow(() -> new IllegalStateException("no API key that may trade for user " +
                account.user() + " in " + keysFile + " (./ringex admin apikey create --file " + keysFile +
                " --key-id ID --username " + account.user() + " --trade)"));
            keys.put(account.user(), key);
        }
        if (streamReports)
        {
            final Set<ApiKey> streamKeys = new HashSet<>(keys.values());
            streamsSubscribed = new CountDownLatch(streamKeys.size());
            for (final ApiKey key : streamKeys)
            {
                final Thread thread = new Thread(() -> followUserStream(key), "loadgen-rest-stream-" + key.keyId());
                thread.setDaemon(true);
                thread.start();
                connections.add(thread);
            }
            try
            {
                if (!streamsSubscribed.await(10, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("the user streams did not subscribe within 10 s");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
        for (int i = 0; i < CONNECTIONS; i++)
        {
            final Thread thread = new Thread(this::serve, "loadgen-rest-" + i);
            thread.setDaemon(true);
            thread.start();
            connections.add(thread);
        }
    }

    public boolean send(
        final long id,
        final DemoData.Account account,
        final DemoData.Instrument instrument,
        final boolean buy,
        final long price,
        final long quantity,
        final boolean ioc)
    {
        final ApiKey key = keys.get(account.user());
        final String body = "{\"symbol\":\"" + instrument.symbol() + "\",\"side\":\"" + (buy ? "BUY" : "SELL") +
            "\",\"type\":\"LIMIT\",\"timeInForce\":\"" + (ioc ? "IOC" : "GTC") + "\",\"price\":\"" +
            BigDecimal.valueOf(price, instrument.priceScale()).toPlainString() + "\",\"quantity\":\"" + quantity +
            "\",\"clientOrderId\":\"L" + run + "-" + Long.toString(id, 36) + "\",\"account\":" + account.id() + "}";
        final String timestamp = Long.toString(System.currentTimeMillis());
        final byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        final String head = "POST /api/v1/orders HTTP/1.1\r\nHost: " + host + ":" + port +
            "\r\nContent-Type: application/json\r\nContent-Length: " + bodyBytes.length +
            "\r\nX-RINGEX-KEY: " + key.keyId() + "\r\nX-RINGEX-TIMESTAMP: " + timestamp +
            "\r\nX-RINGEX-SIGNATURE: " + key.sign(timestamp, "POST", "/api/v1/orders", bodyBytes) + "\r\n\r\n";
        final byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        final byte[] bytes = Arrays.copyOf(headBytes, headBytes.length + bodyBytes.length);
        System.arraycopy(bodyBytes, 0, bytes, headBytes.length, bodyBytes.length);
        return requests.offer(new Request(id, bytes));
    }

    /** One connection's thread: take a request, write it whole, read its answer; reconnect after a failure. */
    private void serve()
    {
        while (running)
        {
            try (Socket socket = new Socket(host, port))
            {
                socket.setTcpNoDelay(true);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = new BufferedInputStream(socket.getInputStream());
                while (running)
                {
                    final Request request = requests.poll(100, TimeUnit.MILLISECONDS);
                    if (null == request)
                    {
                        continue;
                    }
                    out.write(request.bytes());
                    out.flush();
                    final String answer = readAnswer(in);
                    final long nowNs = System.nanoTime();
                    final long outcome = outcome(answer);
                    if (outcome != 1 && firstRefusalSeen.compareAndSet(false, true))
                    {
                        System.err.println("loadgen: the first order not answered by the engine: " + answer);
                    }
                    // with the stream's reports first, an answer from the engine is timed beside them (outcome 3)
                    answers.add(new long[]{ request.id(), nowNs, outcome == 1 && streamReports ? 3 : outcome });
                    if (answer.contains("\r\nconnection: close") || answer.contains("\r\nConnection: close"))
                    {
                        break;
                    }
                }
            }
            catch (final IOException ex)
            {
                if (running && firstRefusalSeen.compareAndSet(false, true))
                {
                    System.err.println("loadgen: a REST connection failed: " + ex);
                }
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    /**
     * A key's user stream, on a thread of its own that blocks on the socket as the request connections do: each
     * executionReport of this run's orders is stamped as its frame is read and handed over as the order's first report
     * (the generator keeps the first of each order's reports).
     */
    private void followUserStream(final ApiKey key)
    {
        final String path = "/ws/v1/user";
        final String timestamp = Long.toString(System.currentTimeMillis());
        final String prefix = "\"clientOrderId\":\"L" + run + "-";
        final byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        try (Socket socket = new Socket(host, port))
        {
            streams.add(socket);
            socket.setTcpNoDelay(true);
            final InputStream in = new BufferedInputStream(socket.getInputStream());
            socket.getOutputStream().write(("GET " + path + "?key=" + key.keyId() + "&timestamp=" + timestamp +
                "&signature=" + key.sign(timestamp, "GET", path, new byte[0]) + " HTTP/1.1\r\nHost: " + host + ":" +
                port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
                "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) +
                "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            final String answer = readAnswer(in);
            if (!answer.startsWith("HTTP/1.1 101"))
            {
                throw new IOException("the user stream was refused: " + answer);
            }
            while (running)
            {
                final String event = readFrame(in);
                final long nowNs = System.nanoTime();
                final int at = event.indexOf(prefix);
                if (at > 0 && event.startsWith("{\"type\":\"executionReport\""))
                {
                    final int from = at + prefix.length();
                    answers.add(new long[]{ Long.parseLong(event.substring(from, event.indexOf('"', from)), 36),
                        nowNs, 1 });
                }
                else if (event.startsWith("{\"type\":\"subscribed\""))
                {
                    streamsSubscribed.countDown();
                }
            }
        }
        catch (final IOException ex)
        {
            if (running)
            {
                System.err.println("loadgen: the user stream of " + key.keyId() + " failed: " + ex);
            }
        }
    }

    /** One unmasked, unfragmented server frame's payload as text (control frames read as text too, and ignored). */
    private static String readFrame(final InputStream in) throws IOException
    {
        final int first = in.read();
        final int second = in.read();
        if (first < 0 || second < 0)
        {
            throw new IOException("the gateway closed the user stream");
        }
        long length = second & 0x7F;
        if (length == 126)
        {
            length = ((in.read() & 0xFF) << 8) | (in.read() & 0xFF);
        }
        else if (length == 127)
        {
            length = ByteBuffer.wrap(in.readNBytes(8)).getLong();
        }
        if (length > 1 << 20)
        {
            throw new IOException("a user stream frame of " + length + " bytes");
        }
        return new String(in.readNBytes((int)length), StandardCharsets.UTF_8);
    }

    /** The status line, the headers and the body of one answer (Content-Length framed). */
    private static String readAnswer(final InputStream in) throws IOException
    {
        final StringBuilder head = new StringBuilder(256);
        int b;
        while (-1 != (b = in.read()))
        {
            head.append((char)b);
            final int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n' &&
                head.charAt(n - 4) == '\r')
            {
                break;
            }
        }
        if (-1 == b)
        {
            throw new IOException("the gateway closed the connection");
        }
        final String headers = head.toString();
        final int at = headers.toLowerCase().indexOf("content-length:");
        final int length = at < 0 ? 0 : Integer.parseInt(
            headers.substring(at + "content-length:".length(), headers.indexOf('\r', at)).trim());
        return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** 1: the engine's report; 2: refused THROTTLED; 0: refused otherwise. */
    private static long outcome(final String answer)
    {
        if (answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.1 422") &&
            answer.contains("\"executionReport\""))
        {
            return 1;
        }
        return answer.startsWith("HTTP/1.1 429") && answer.contains("THROTTLED") ? 2 : 0;
    }

    public int poll()
    {
        int work = 0;
        long[] answer;
        while (null != (answer = answers.poll()))
        {
            work++;
            if (answer[2] == 1)
            {
                reports.onFirstReport(answer[0], answer[1]);
            }
            else if (answer[2] == 3)
            {
                reports.onAnswer(answer[0], answer[1]);
            }
            else
            {
                reports.onReject(answer[0], answer[2] == 2);
            }
        }
        return work;
    }

    public void close()
    {
        running = false;
        streams.forEach(CloseHelper::quietClose);
        for (final Thread thread : connections)
        {
            thread.interrupt();
        }
    }
}
