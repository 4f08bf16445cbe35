package io.ringex.bench.gateway;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.bench.engine.BenchArgs;
import io.ringex.engine.ring.Ring;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * What the gateway benchmark's SBE path could reach on this machine with no Ringex code in it: the same two processes
 * (a venue with its SHARED media driver, a generator whose driver runs on its own thread), the same Aeron UDP loopback
 * both ways and the same open-loop, coordinated-omission-corrected measurement, but the venue only echoes each
 * message, after passing it through {@code --hops} threads in series (Agrona one-to-one ring buffers between them,
 * each thread on the engine's default back-off idle strategy). The venue's own path crosses about four threads
 * (gateway, engine input, processor, output) besides the driver, so {@code --hops 4} is the machine's cost of the
 * hops and {@code --hops 0} that of the transport alone.
 * <pre>
 * java ... AeronEchoBaseline server --port 40600 --reply-port 40601 --hops 4 [--idle backoff|yield|spin]
 * java ... AeronEchoBaseline client --port 40600 --reply-port 40601 --rate 50000 --seconds 10 --warmup 2
 * </pre>
 * The client prints a {@code RESULT} line with its percentiles. The server runs until it is signalled.
 * <p>
 * Threading: the server's hop agents each on their own thread; the client on its main thread only.
 */
public final class AeronEchoBaseline
{
    private static final int REQUEST_STREAM = 1001;
    private static final int REPLY_STREAM = 1002;
    private static final int MESSAGE_LENGTH = 64;
    private static final int RING_BYTES = (1 << 20) + RingBufferDescriptor.TRAILER_LENGTH;

    private AeronEchoBaseline()
    {
    }

    /**
     * @param args {@code server|client} and its options (class comment).
     */
    public static void main(final String[] args)
    {
        final String[] options = java.util.Arrays.copyOfRange(args, 1, args.length);
        if (args.length > 0 && args[0].equals("server"))
        {
            server(new BenchArgs(options));
        }
        else if (args.length > 0 && args[0].equals("client"))
        {
            client(new BenchArgs(options));
        }
        else
        {
            throw new IllegalArgumentException("usage: AeronEchoBaseline server|client --name value ...");
        }
    }

    private static IdleStrategy idle(final String name)
    {
        switch (name)
        {
            case "backoff":
                return Ring.defaultIdleStrategy(); // the engine's
            case "aeron":
                // the media driver's default: few spins, park up to 1 ms
                return new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
                    TimeUnit.MILLISECONDS.toNanos(1));
            case "yield":
                return new YieldingIdleStrategy();
            case "spin":
                return new BusySpinIdleStrategy();
            default:
                throw new IllegalArgumentException("idle strategy backoff|aeron|yield|spin, not " + name);
        }
    }

    private static void server(final BenchArgs options)
    {
        final int port = options.integer("--port", 40600);
        final int replyPort = options.integer("--reply-port", port + 1);
        final int hops = options.integer("--hops", 4);
        final String idleName = options.string("--idle", "backoff");
        final String driverIdle = options.string("--driver-idle", "aeron");
        final MediaDriver.Context driverContext = new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true).publicationTermBufferLength(4 * 1024 * 1024);
        if (!driverIdle.equals("aeron"))
        {
            driverContext.sharedIdleStrategy(idle(driverIdle));
        }
        final List<AgentRunner> runners = new ArrayList<>();
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            MediaDriver driver = MediaDriver.launchEmbedded(driverContext);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final Subscription requests = aeron.addSubscription(
                "aeron:udp?endpoint=localhost:" + port, REQUEST_STREAM);
            final Publication replies = aeron.addExclusivePublication(
                "aeron:udp?endpoint=localhost:" + replyPort, REPLY_STREAM);
            final OneToOneRingBuffer[] rings = new OneToOneRingBuffer[hops];
            for (int i = 0; i < hops; i++)
            {
                rings[i] = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(RING_BYTES)));
            }
            final List<Agent> agents = new ArrayList<>();
            agents.add(new ReceiveHop(requests, hops == 0 ? null : rings[0], replies));
            for (int i = 1; i <= hops; i++)
            {
                agents.add(new RingHop(i, rings[i - 1], i == hops ? null : rings[i], replies));
            }
            for (final Agent agent : agents)
            {
                final AgentRunner runner = new AgentRunner(idle(idleName), Throwable::printStackTrace, null, agent);
                AgentRunner.startOnThread(runner);
                runners.add(runner);
            }
            System.out.printf("echo server: port %d, replies to %d, %d hops, %s idle, driver %s idle%n", port,
                replyPort, hops, idleName, driverIdle);
            barrier.await();
        }
        finally
        {
            CloseHelper.closeAll(runners);
        }
    }

    /**
     * Pass a message on: into the next hop's ring, or, from the last hop, back to the client on the reply
     * publication. Either way it retries while the other side is full: it never drops.
     */
    private static void forward(
        final OneToOneRingBuffer next,
        final Publication replies,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        if (next != null)
        {
            while (!next.write(1, buffer, offset, length))
            {
                Thread.onSpinWait();
            }
            return;
        }
        while (replies.offer(buffer, offset, length) < 0 && !replies.isClosed())
        {
            Thread.onSpinWait();
        }
    }

    /** The first hop: takes requests off the subscription, passing each to the next hop or echoing it. */
    private static final class ReceiveHop implements Agent
    {
        private final Subscription requests;
        private final FragmentHandler handler;

        ReceiveHop(final Subscription requests, final OneToOneRingBuffer next, final Publication replies)
        {
            this.requests = requests;
            this.handler = (buffer, offset, length, header) -> forward(next, replies, buffer, offset, length);
        }

        public int doWork()
        {
            return requests.poll(handler, 16);
        }

        public String roleName()
        {
            return "echo-receive";
        }
    }

    /** A middle or last hop: reads one ring and writes the next, or echoes from the last. */
    private static final class RingHop implements Agent
    {
        private final int index;
        private final OneToOneRingBuffer from;
        private final MessageHandler handler;

        RingHop(final int index, final OneToOneRingBuffer from, final OneToOneRingBuffer next,
            final Publication replies)
        {
            this.index = index;
            this.from = from;
            this.handler = (msgTypeId, buffer, offset, length) -> forward(next, replies, buffer, offset, length);
        }

        public int doWork()
        {
            return from.read(handler, 16);
        }

        public String roleName()
        {
            return "echo-hop-" + index;
        }
    }

    private static void client(final BenchArgs options)
    {
        final int port = options.integer("--port", 40600);
        final int replyPort = options.integer("--reply-port", port + 1);
        final int rate = options.integer("--rate", 50_000);
        final int seconds = options.integer("--seconds", 10);
        final int warmupSeconds = options.integer("--warmup", 2);
        final long intervalNs = TimeUnit.SECONDS.toNanos(1) / rate;
        final int warmup = warmupSeconds * rate;
        final int total = warmup + seconds * rate;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.INVOKER).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .publicationTermBufferLength(4 * 1024 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .useConductorAgentInvoker(true).driverAgentInvoker(driver.sharedAgentInvoker())))
        {
            final AgentInvoker driverInvoker = driver.sharedAgentInvoker();
            final AgentInvoker clientInvoker = aeron.conductorAgentInvoker();
            final Subscription replies = aeron.addSubscription(
                "aeron:udp?endpoint=localhost:" + replyPort, REPLY_STREAM);
            final Publication requests = aeron.addExclusivePublication(
                "aeron:udp?endpoint=localhost:" + port, REQUEST_STREAM);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
            final long connectDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!requests.isConnected() || !replies.isConnected())
            {
                if (requests.isConnected())
                {
                    // the server's reply publication connects once it has heard from us
                    message.putLong(0, -1L);
                    requests.offer(message, 0, MESSAGE_LENGTH);
                }
                if (System.nanoTime() > connectDeadline)
                {
                    throw new IllegalStateException("no echo server on port " + port);
                }
                driverInvoker.invoke();
                clientInvoker.invoke();
                Thread.yield();
            }
            final long[] counts = new long[1];
            final int[] answered = new int[1];
            final FragmentHandler onReply = (buffer, offset, length, header) ->
            {
                final long index = buffer.getLong(offset);
                if (index < 0)
                {
                    return;
                }
                final long dueNs = buffer.getLong(offset + 8);
                if (index >= warmup)
                {
                    latency.recordValue(Math.min(System.nanoTime() - dueNs, latency.getHighestTrackableValue()));
                    counts[0]++;
                }
                answered[0]++;
            };
            final long startNs = System.nanoTime();
            final long endNs = startNs + TimeUnit.SECONDS.toNanos(warmupSeconds + seconds + 10L);
            int sent = 0;
            while ((sent < total || answered[0] < total) && System.nanoTime() < endNs)
            {
                final long now = System.nanoTime();
                boolean due = false;
                if (sent < total && now >= startNs + sent * intervalNs)
                {
                    due = true;
                    message.putLong(0, sent);
                    message.putLong(8, startNs + sent * intervalNs);
                    if (requests.offer(message, 0, MESSAGE_LENGTH) > 0)
                    {
                        sent++;
                    }
                }
                final int work = driverInvoker.invoke() + clientInvoker.invoke() + replies.poll(onReply, 16);
                if (work == 0 && !due)
                {
                    Thread.yield();
                }
            }
            System.out.printf(Locale.ROOT, "RESULT rate=%d sent=%d answered=%d p50us=%.1f p90us=%.1f p99us=%.1f " +
                "p999us=%.1f p9999us=%.1f maxus=%.1f%n", rate, total - warmup, counts[0],
                latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(90) / 1e3,
                latency.getValueAtPercentile(99) / 1e3, latency.getValueAtPercentile(99.9) / 1e3,
                latency.getValueAtPercentile(99.99) / 1e3, latency.getMaxValue() / 1e3);
        }
    }
}
