package io.ringex.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.TimeoutException;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExchangeClient#connect(ExchangeClient.Context)} and {@link ExchangeClient#asyncConnect} against nothing and
 * against a scripted gateway on IPC (the test reads the client's Logon and answers it as it likes); the round trip
 * with the real gateway is the gateway module's ExchangeClientIT.
 */
class ExchangeClientConnectTest
{
    private static final String IPC = "aeron:ipc";
    private static final int GATEWAY_STREAM = 21;
    private static final int RESPONSE_STREAM = 22;
    private static final long SESSION_ID = 77;
    private static final long ACCOUNT = 1001;

    private MediaDriver driver;
    private Aeron aeron;
    private Subscription gateway;
    private ExclusivePublication answers;
    private final List<ExchangeClient> clients = new ArrayList<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final LogonDecoder logon = new LogonDecoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final List<String> received = new ArrayList<>();
    private long logonRequestId;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);

    @BeforeEach
    void setUp()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context().threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(clients);
        CloseHelper.closeAll(answers, gateway, aeron, driver);
    }

    private ExchangeClient.Context context()
    {
        return new ExchangeClient.Context()
            .aeron(aeron)
            .gatewayChannel(IPC)
            .gatewayStreamId(GATEWAY_STREAM)
            .responseChannel(IPC)
            .responseStreamId(RESPONSE_STREAM)
            .username("alice")
            .password("secret")
            .cancelOnDisconnect(true)
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(500))
            .listener(new ExchangeListener()
            {
                public void onLogonResponse(final LogonResponseDecoder response)
                {
                }

                public void onExecutionReport(final ExecutionReportDecoder report)
                {
                }

                public void onCancelReject(final CancelRejectDecoder reject)
                {
                }

                public void onBusinessReject(final BusinessRejectDecoder reject)
                {
                }
            });
    }

    @Test
    void connectAgainstNothingFailsAfterItsTimeoutSayingWhatDidNotCome()
    {
        final TimeoutException ex = assertThrows(TimeoutException.class,
            () -> ExchangeClient.connect(context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))));
        assertTrue(ex.getMessage().contains("no gateway connected at aeron:ipc stream 21 within 300 ms"),
            ex::getMessage);
    }

    @Test
    void aGatewayThatTakesTheLogonAndNeverAnswersTimesOutNamingTheUser()
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        final TimeoutException ex = assertThrows(TimeoutException.class,
            () -> ExchangeClient.connect(context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500))));
        assertTrue(ex.getMessage().contains("no LogonResponse to alice within 500 ms"), ex::getMessage);
        pollGateway();
        assertEquals(List.of("Logon alice secret cancelOnDisconnect=TRUE heartbeat=500 aeron:ipc 22"), received);
    }

    @Test
    void aRefusedLogonThrowsWithTheGatewaysReasonAndText()
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        final ExchangeClient.AsyncConnect connecting = ExchangeClient.asyncConnect(context());
        answerLogon(connecting, LogonStatus.REJECTED, RejectReason.INVALID_CREDENTIALS, "bad user or password");
        final LogonRefusedException ex = assertThrows(LogonRefusedException.class, () ->
            Await.until("the refusal", () -> null != connecting.poll()));
        assertEquals(RejectReason.INVALID_CREDENTIALS, ex.reason());
        assertEquals("logon of alice refused: INVALID_CREDENTIALS (bad user or password)", ex.getMessage());
        assertEquals(ExchangeClient.AsyncConnect.State.CLOSED, connecting.state());
        assertThrows(IllegalStateException.class, connecting::poll, "a failed connection is done with");
    }

    @Test
    void asyncConnectStepsToALoggedOnClientWhoseOrdersCarryItsSessionAndDefaultAccount()
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        final ExchangeClient.AsyncConnect connecting = ExchangeClient.asyncConnect(context());
        assertEquals(ExchangeClient.AsyncConnect.State.AWAIT_PUBLICATION_CONNECTED, connecting.state());
        answerLogon(connecting, LogonStatus.ACCEPTED, RejectReason.NONE, "");
        final ExchangeClient[] client = new ExchangeClient[1];
        Await.until("the logged-on client", () -> null != (client[0] = connecting.poll()));
        clients.add(client[0]);
        assertEquals(ExchangeClient.AsyncConnect.State.DONE, connecting.state());
        assertTrue(client[0].isLoggedOn());
        assertEquals(SESSION_ID, client[0].sessionId());
        assertEquals(ACCOUNT, client[0].accountId());

        Await.until("the order sent", () -> client[0].order().clientOrderId("ord-1").instrument(7).buy()
            .limit(10_125).quantity(10).send() > 0);
        Await.until("the order at the gateway", () -> received.size() == 2, this::pollGateway);
        assertEquals("NewOrder session=77 account=1001 ord-1 instrument=7 BUY LIMIT GTC price=10125 quantity=10 " +
            "stop=0 display=0 min=0 expire=0 postOnly=FALSE ACCOUNT_DEFAULT", received.get(1));
    }

    @Test
    void connectReturnsTheLoggedOnClientOnceTheGatewayAccepts() throws InterruptedException
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        // The scripted gateway answers from another thread while connect() blocks this one.
        final Thread scriptedGateway = new Thread(() -> answerLogon(null, LogonStatus.ACCEPTED, RejectReason.NONE,
            ""));
        scriptedGateway.start();
        final ExchangeClient client = ExchangeClient.connect(context());
        clients.add(client);
        scriptedGateway.join();
        assertTrue(client.isLoggedOn());
        assertEquals(SESSION_ID, client.sessionId());
        assertThrows(IllegalStateException.class, () -> ExchangeClient.connect(context().conclude()),
            "a context serves one client");
    }

    /** Read the Logon (polling {@code connecting} meanwhile, when given) and answer it. */
    private void answerLogon(
        final ExchangeClient.AsyncConnect connecting, final LogonStatus status, final RejectReason reason,
        final String text)
    {
        Await.until("the Logon at the gateway", () -> !received.isEmpty(), () ->
        {
            pollGateway();
            if (null != connecting)
            {
                assertNull(connecting.poll());
            }
        });
        answers = aeron.addExclusivePublication(IPC, RESPONSE_STREAM);
        final LogonResponseEncoder response = new LogonResponseEncoder();
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + response
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder())
            .sessionId(status == LogonStatus.ACCEPTED ? SESSION_ID : 0)
            .status(status)
            .rejectReason(reason)
            .heartbeatIntervalMs(500)
            .accountId(status == LogonStatus.ACCEPTED ? ACCOUNT : 0)
            .epoch(1)
            .logonRequestId(logonRequestId)
            .text(text)
            .encodedLength();
        Await.until("the LogonResponse sent", Duration.ofSeconds(10), () -> answers.offer(out, 0, length) > 0,
            null != connecting ? () -> assertNull(connecting.poll()) : null);
    }

    private void pollGateway()
    {
        gateway.poll((buffer, offset, length, h) ->
        {
            header.wrap(buffer, offset);
            if (header.templateId() == LogonDecoder.TEMPLATE_ID)
            {
                logon.wrapAndApplyHeader(buffer, offset, header);
                logonRequestId = logon.logonRequestId();
                final String line = "Logon " + logon.username() + " " + logon.credential() + " cancelOnDisconnect=" +
                    logon.cancelOnDisconnect() + " heartbeat=" + logon.heartbeatIntervalMs() + " " +
                    logon.responseChannel() + " " + logon.responseStreamId();
                received.add(line);
            }
            else if (header.templateId() == NewOrderDecoder.TEMPLATE_ID)
            {
                newOrder.wrapAndApplyHeader(buffer, offset, header);
                received.add(describe(newOrder));
            }
        }, 10);
    }

    static String describe(final NewOrderDecoder order)
    {
        return "NewOrder session=" + order.sessionId() + " account=" + order.accountId() + " " +
            order.clientOrderId() + " instrument=" + order.instrumentId() + " " + order.side() + " " +
            order.orderType() + " " + order.timeInForce() + " price=" + order.price() + " quantity=" +
            order.quantity() + " stop=" + order.stopPrice() + " display=" + order.displayQuantity() + " min=" +
            order.minQuantity() + " expire=" + order.expireTimeNs() + " postOnly=" + order.postOnly() + " " +
            order.selfTradePrevention();
    }
}
