package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.UserDirectoryEndEncoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After warm-up, the gateway's SBE path (client order in: validate, check, throttle, stamp, route to the primary;
 * engine report out: epoch and duplicate filters, forward to the session) allocates nothing on the gateway's thread,
 * measured with {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes} over 100,000 orders and their reports.
 * The agent's duty cycle runs on the test thread; the client and a minimal engine (one NEW report per order) run on
 * threads of their own, over IPC on an embedded media driver.
 */
final class SbeGatewayAllocationTest
{
    private static final String IPC = "aeron:ipc";
    private static final int ORDERS = 100_000;
    private static final int MAX_IN_FLIGHT = 256;
    private static final int MAX_WARM_UP_ROUNDS = 8;
    private static final int MAX_ATTEMPTS = 4;
    private static final long SLACK_BYTES = 1024;

    private MediaDriver driver;
    private Aeron aeron;
    private GatewayAgent agent;
    private AgentRunner engine;
    private AgentRunner client;

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engine);
        if (agent != null)
        {
            agent.onClose();
        }
        CloseHelper.closeAll(aeron, driver);
    }

    @Test
    void steadyStateAllocatesNothingOnTheGatewayThread()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(1024 * 1024));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(4)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .clientChannel(IPC).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .throttleMessagesPerSecond(100_000_000)
            .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(60))
            .backPressureTimeoutNs(TimeUnit.SECONDS.toNanos(10))
            .fixEnabled(false)
            .addUser(TestUsers.ALICE)
            .conclude();
        engine = start(new OneReportPerOrder(aeron));
        agent = new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE);
        agent.onStart();

        final Counting counting = new Counting();
        final OrderPump pump =
            new OrderPump(ExchangeClient.openChannels(aeron, IPC, 2001, IPC, 3001, counting), counting);
        client = start(pump);
        final long threadId = Thread.currentThread().getId();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

        // Warm up until a whole round allocates nothing (the JIT settling charges deoptimisations to the thread).
        for (int round = 0; round < MAX_WARM_UP_ROUNDS; round++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            runRound(pump);
            if (threads.getThreadAllocatedBytes(threadId) - before == 0 && round > 0)
            {
                break;
            }
        }

        // As in the engine's AllocationTest: the best of a few runs must be within the slack; a real allocation on
        // the per-message path (>= 16 bytes each time, 100,000 times) exceeds it in every run.
        final StringBuilder runs = new StringBuilder();
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < MAX_ATTEMPTS && best >= SLACK_BYTES; attempt++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            runRound(pump);
            final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            runs.append(allocated).append(' ');
            best = Math.min(best, allocated);
        }
        System.out.println("SBE gateway thread, bytes allocated per " + ORDERS + " orders: " + runs);
        assertEquals(0, pump.rejects.get(), "orders refused");
        assertTrue(best < SLACK_BYTES, "bytes allocated on the gateway thread per run of " + ORDERS + " orders: " +
            runs);
    }

    /** Run the gateway's duty cycle until the client has sent ORDERS more orders and had all their reports. */
    private void runRound(final OrderPump pump)
    {
        final long target = pump.reports.get() + ORDERS;
        pump.send.addAndGet(ORDERS);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pump.reports.get() < target)
        {
            if (agent.doWork() == 0)
            {
                Thread.onSpinWait();
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("round did not finish: " + pump.reports.get() + " of " + target +
                    " reports");
            }
        }
    }

    private static AgentRunner start(final Agent agent)
    {
        final AgentRunner runner = new AgentRunner(new YieldingIdleStrategy(), Throwable::printStackTrace, null,
            agent);
        AgentRunner.startOnThread(runner);
        return runner;
    }

    /** The client: logs on, then keeps up to MAX_IN_FLIGHT orders outstanding while there are orders to send. */
    private static final class OrderPump implements Agent
    {
        final AtomicLong send = new AtomicLong();
        final AtomicLong reports;
        final AtomicLong rejects;
        private final Counting counting;
        private final ExchangeClient exchange;
        private long sent;
        private boolean logonSent;

        OrderPump(final ExchangeClient exchange, final Counting counting)
        {
            this.exchange = exchange;
            this.counting = counting;
            this.reports = counting.reports;
            this.rejects = counting.rejects;
        }

        public int doWork()
        {
            int work = exchange.poll(64);
            if (logonSent && counting.logonRefused.getAndSet(false))
            {
                // Refused as busy: the logon came before the gateway had the engine's user directory. Again.
                logonSent = false;
            }
            if (!logonSent)
            {
                logonSent = exchange.isConnected() && exchange.logon("alice", TestUsers.ALICE_PASSWORD, false,
                    60_000) > 0;
                return work;
            }
            if (!exchange.isLoggedOn())
            {
                return work;
            }
            while (sent < send.get() && sent - reports.get() - rejects.get() < MAX_IN_FLIGHT)
            {
                final Side side = (sent & 1) == 0 ? Side.BUY : Side.SELL;
                if (exchange.order().account(TestUsers.ALICE_ACCOUNT).clientOrderId(sent).instrument(1).side(side)
                    .limit(10_000).quantity(1).send() < 0)
                {
                    break;
                }
                sent++;
                work++;
            }
            return work;
        }

        public void onClose()
        {
            exchange.close();
        }

        public String roleName()
        {
            return "order-pump";
        }
    }

    /** Counts what the client receives. */
    private static final class Counting implements ExchangeListener
    {
        final AtomicLong reports = new AtomicLong();
        final AtomicLong rejects = new AtomicLong();
        final AtomicBoolean logonRefused = new AtomicBoolean();

        public void onLogonResponse(final LogonResponseDecoder response)
        {
            if (response.status() != LogonStatus.ACCEPTED)
            {
                logonRefused.set(true);
            }
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            reports.incrementAndGet();
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
            rejects.incrementAndGet();
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            rejects.incrementAndGet();
        }
    }

    /** The engine, reduced to what the gateway's path needs: one NEW report per order, in command order. */
    private static final class OneReportPerOrder implements Agent
    {
        private final Subscription ingress;
        private final Publication egress;
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final NewOrderDecoder order = new NewOrderDecoder();
        private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
        private final ExecutionReportEncoder report = new ExecutionReportEncoder();
        private final UserDirectoryRequestDecoder directoryRequest = new UserDirectoryRequestDecoder();
        private final UserDirectoryEndEncoder directoryEnd = new UserDirectoryEndEncoder();
        private final FragmentHandler handler = this::onCommand;
        private final byte[] clientOrderId = new byte[NewOrderDecoder.clientOrderIdLength()];
        private long sequence;

        OneReportPerOrder(final Aeron aeron)
        {
            ingress = aeron.addSubscription(IPC, 1001);
            egress = aeron.addPublication(IPC, 1002);
        }

        public int doWork()
        {
            return ingress.poll(handler, 64);
        }

        private void onCommand(
            final DirectBuffer buffer, final int offset, final int length, final Header frame)
        {
            ++sequence;
            header.wrap(buffer, offset);
            if (header.templateId() == UserDirectoryRequestDecoder.TEMPLATE_ID)
            {
                // No users of its own: the gateway's configured alice serves once the directory has arrived.
                directoryRequest.wrapAndApplyHeader(buffer, offset, header);
                directoryEnd.wrapAndApplyHeader(out, 0, headerEncoder)
                    .gatewayId(directoryRequest.gatewayId())
                    .requestId(directoryRequest.requestId())
                    .userCount(0)
                    .commandSequence(sequence);
                send(MessageHeaderEncoder.ENCODED_LENGTH + directoryEnd.encodedLength());
                return;
            }
            if (header.templateId() != NewOrderDecoder.TEMPLATE_ID)
            {
                return;
            }
            order.wrapAndApplyHeader(buffer, offset, header);
            report.wrapAndApplyHeader(out, 0, headerEncoder)
                .epoch(1)
                .sessionId(order.sessionId())
                .accountId(order.accountId())
                .instrumentId(order.instrumentId())
                .orderId(sequence);
            order.getClientOrderId(clientOrderId, 0);
            report.putClientOrderId(clientOrderId, 0);
            report.origClientOrderId("")
                .execType(ExecType.NEW)
                .orderStatus(OrderStatus.NEW)
                .side(order.side())
                .orderType(order.orderType())
                .timeInForce(order.timeInForce())
                .price(order.price())
                .quantity(order.quantity())
                .leavesQuantity(order.quantity())
                .cumulativeQuantity(0)
                .lastPrice(0)
                .lastQuantity(0)
                .averagePrice(0)
                .tradeId(0)
                .rejectReason(RejectReason.NONE)
                .cancelReason(CancelReason.NONE)
                .transactTimeNs(0)
                .commandSequence(sequence);
            send(MessageHeaderEncoder.ENCODED_LENGTH + report.encodedLength());
        }

        private void send(final int length)
        {
            while (egress.offer(out, 0, length) < 0)
            {
                Thread.onSpinWait();
            }
        }

        public void onClose()
        {
            CloseHelper.closeAll(ingress, egress);
        }

        public String roleName()
        {
            return "one-report-per-order";
        }
    }
}
