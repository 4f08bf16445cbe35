package io.ringex.client.dropcopy;

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
import io.ringex.client.LogonRefusedException;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
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
 * {@link DropCopyClient#connect(DropCopyClient.Context)} and {@link DropCopyClient#asyncConnect} against a real
 * embedded media driver: with nothing there, and with a scripted gateway on IPC that reads the Logon and answers it;
 * the round trip with the real gateway is the gateway module's DropCopySbeIT.
 */
class DropCopyClientConnectTest
{
    private static final String IPC = "aeron:ipc";
    private static final int GATEWAY_STREAM = 41;
    private static final int RESPONSE_STREAM = 42;
    private static final long SESSION_ID = 88;

    private MediaDriver driver;
    private Aeron aeron;
    private Subscription gateway;
    private ExclusivePublication answers;
    private DropCopyClient client;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final LogonDecoder logon = new LogonDecoder();
    private final List<String> logons = new ArrayList<>();
    private final List<Long> copies = new ArrayList<>();
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
        CloseHelper.closeAll(client, answers, gateway, aeron, driver);
    }

    private DropCopyClient.Context context()
    {
        return new DropCopyClient.Context()
            .aeron(aeron)
            .gatewayChannel(IPC)
            .gatewayStreamId(GATEWAY_STREAM)
            .responseChannel(IPC)
            .responseStreamId(RESPONSE_STREAM)
            .username("dc")
            .password("secret")
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(500))
            .listener((report) -> copies.add(report.commandSequence()));
    }

    @Test
    void connectAgainstNothingFailsAfterItsTimeoutNamingTheGateway()
    {
        final TimeoutException ex = assertThrows(TimeoutException.class,
            () -> DropCopyClient.connect(context().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))));
        assertTrue(ex.getMessage().contains("no gateway connected at aeron:ipc stream 41 within 300 ms"),
            ex::getMessage);
    }

    @Test
    void aRefusedLogonThrowsWithTheGatewaysReason()
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        final DropCopyClient.AsyncConnect connecting = DropCopyClient.asyncConnect(context());
        answerLogon(connecting, LogonStatus.REJECTED, RejectReason.NOT_AUTHORISED, "not a drop-copy user");
        final LogonRefusedException ex = assertThrows(LogonRefusedException.class, () ->
            Await.until("the refusal", () -> null != connecting.poll()));
        assertEquals(RejectReason.NOT_AUTHORISED, ex.reason());
        assertEquals(DropCopyClient.AsyncConnect.State.CLOSED, connecting.state());
    }

    @Test
    void connectReturnsALoggedOnSessionThatTakesOtherSessionsReportsAsCopies() throws InterruptedException
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        // The scripted gateway answers from another thread while connect() blocks this one.
        final Thread scriptedGateway = new Thread(() -> answerLogon(null, LogonStatus.ACCEPTED, RejectReason.NONE,
            ""));
        scriptedGateway.start();
        client = DropCopyClient.connect(context());
        scriptedGateway.join();
        assertTrue(client.isLoggedOn());
        assertEquals(List.of("Logon dc secret cancelOnDisconnect=FALSE heartbeat=500 aeron:ipc 42"), logons);

        // A report of another session on the drop-copy channel is a copy (an ordinary session ignores it).
        final ExecutionReportEncoder report = new ExecutionReportEncoder();
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + report
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder())
            .sessionId(SESSION_ID + 1)
            .accountId(1001)
            .orderId(5)
            .commandSequence(42)
            .encodedLength();
        Await.until("the report sent", () -> answers.offer(out, 0, length) > 0);
        Await.until("the copy delivered", () -> !copies.isEmpty(), client::poll);
        assertEquals(List.of(42L), copies);
        assertEquals(42, client.lastSequence());
    }

    @Test
    void asyncConnectStepsThroughTheLogonAndAContextServesOneClient()
    {
        gateway = aeron.addSubscription(IPC, GATEWAY_STREAM);
        final DropCopyClient.Context ctx = context();
        final DropCopyClient.AsyncConnect connecting = DropCopyClient.asyncConnect(ctx);
        assertEquals(DropCopyClient.AsyncConnect.State.AWAIT_PUBLICATION_CONNECTED, connecting.state());
        answerLogon(connecting, LogonStatus.ACCEPTED, RejectReason.NONE, "");
        final DropCopyClient[] connected = new DropCopyClient[1];
        Await.until("the logged-on client", () -> null != (connected[0] = connecting.poll()));
        client = connected[0];
        assertEquals(DropCopyClient.AsyncConnect.State.DONE, connecting.state());
        assertTrue(client.isLoggedOn());
        assertThrows(IllegalStateException.class, () -> DropCopyClient.asyncConnect(ctx),
            "a context serves one client");
    }

    /** Read the Logon (polling {@code connecting} meanwhile, when given) and answer it. */
    private void answerLogon(
        final DropCopyClient.AsyncConnect connecting, final LogonStatus status, final RejectReason reason,
        final String text)
    {
        Await.until("the Logon at the gateway", () -> !logons.isEmpty(), () ->
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
            .accountId(0)
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
                logons.add("Logon " + logon.username() + " " + logon.credential() + " cancelOnDisconnect=" +
                    logon.cancelOnDisconnect() + " heartbeat=" + logon.heartbeatIntervalMs() + " " +
                    logon.responseChannel() + " " + logon.responseStreamId());
            }
        }, 10);
    }
}
