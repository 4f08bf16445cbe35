package io.ringex.gateway.client;

import io.ringex.client.ExchangeClient;
import java.time.Duration;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client over a real media driver: as a caller who sends the moment the client says it is connected sees it, and
 * with a poller thread heartbeating beside the caller's sends.
 */
class ExchangeClientIT
{
    private static final int ROUNDS = 100;
    private static final long SESSION = SessionIds.sessionId(7, 1);

    /**
     * Before the client also asked for an open window, its first offer was refused as BACK_PRESSURED in about 2 of 3
     * rounds on a DEDICATED driver (the sender thread marks the publication connected, the conductor raises its limit
     * a duty cycle later), and a client that sent Logon once waited for an answer that never came.
     */
    @Test
    void aClientThatSaysItIsConnectedTakesItsLogonAtOnce()
    {
        final String gatewayChannel = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.DEDICATED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            for (int round = 0; round < ROUNDS; round++)
            {
                final int streamId = 1_000 + round;
                try (Subscription gateway = aeron.addSubscription(gatewayChannel, streamId);
                    ExchangeClient client = ExchangeClient.openChannels(aeron, gatewayChannel, streamId, "aeron:ipc",
                        streamId, new RecordingListener()))
                {
                    final int awaited = round;
                    Await.until(() -> "round " + awaited + " connected", Duration.ofSeconds(10), client::isConnected,
                        null);
                    final long result = client.logon("alice", "secret", false, 1_000);
                    assertTrue(result > 0, "round " + round + ": Logon refused right after isConnected: " + result);
                }
            }
        }
    }

    /**
     * A client whose poller thread heartbeats while the caller's thread sends, over the concurrent publication of
     * connectShared: every message reaches the gateway whole. (Two threads writing one exclusive publication at once
     * lost or tore frames: a failover drill's cancel was never answered. The client refuses a poller thread on an
     * exclusive publication: see the test below.)
     */
    @Test
    void heartbeatsFromThePollerThreadDoNotTearTheSendersMessages()
    {
        final int orders = 200_000;
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            Subscription gateway = aeron.addSubscription("aeron:ipc", 2001);
            Publication answers = aeron.addPublication("aeron:ipc", 3001);
            ExchangeClient client = ExchangeClient.openSharedChannels(aeron, "aeron:ipc", 2001, "aeron:ipc", 3001,
                new RecordingListener()))
        {
            Await.until("connected", () -> client.isConnected() && answers.isConnected(), null);
            // The smallest heartbeat interval, and a LogonResponse so that the client heartbeats.
            Await.until("logon sent", () -> client.logon("alice", "secret", false, 1) > 0, null);
            // The client takes only the answer to its own Logon: echo its request id.
            final long[] logonRequestId = new long[1];
            Await.until("logon read", () -> logonRequestId[0] != 0, () -> gateway.poll((buffer, offset, length, h) ->
                logonRequestId[0] = new LogonDecoder().wrap(buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH,
                LogonDecoder.BLOCK_LENGTH, LogonDecoder.SCHEMA_VERSION).logonRequestId(), 1));
            final UnsafeBuffer response = new UnsafeBuffer(new byte[128]);
            final int responseLength = MessageHeaderEncoder.ENCODED_LENGTH + new LogonResponseEncoder()
                .wrapAndApplyHeader(response, 0, new MessageHeaderEncoder()).sessionId(SESSION)
                .status(LogonStatus.ACCEPTED).rejectReason(RejectReason.NONE).heartbeatIntervalMs(1).accountId(100)
                .epoch(1).logonRequestId(logonRequestId[0]).text("").encodedLength();
            Await.until("logon answered", () -> answers.offer(response, 0, responseLength) > 0, null);
            Await.until("logged on", client::isLoggedOn, client::poll);
            client.startPolling(new BusySpinIdleStrategy());

            final MessageValidator validator = new MessageValidator(4096);
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            final int[] seen = new int[3];
            final FragmentHandler count = (buffer, offset, length, h) ->
            {
                if (validator.validate(buffer, offset, length) != RejectReason.NONE)
                {
                    seen[2]++;
                    return;
                }
                header.wrap(buffer, offset);
                seen[header.templateId() == NewOrderDecoder.TEMPLATE_ID ? 0 : 1]++;
            };
            for (int i = 1; i <= orders; i++)
            {
                final long id = i;
                Await.until("order sent", () -> client.order().account(100).clientOrderId(id).instrument(1)
                    .buy().limit(10_000).quantity(1)
                    .send() > 0, () -> gateway.poll(count, 64));
            }
            Await.until("every order read", () -> seen[0] + seen[2] >= orders, () -> gateway.poll(count, 64));
            assertEquals(0, seen[2], "torn or garbled messages");
            assertEquals(orders, seen[0], "orders read");
            assertTrue(seen[1] > 0, "the poller sent no heartbeats: the test proved nothing");
        }
    }

    @Test
    void aPollerThreadIsRefusedOnAnExclusivePublication()
    {
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            ExchangeClient client = ExchangeClient.openChannels(aeron, "aeron:ipc", 2001, "aeron:ipc", 3001,
                new RecordingListener()))
        {
            assertThrows(IllegalStateException.class, () -> client.startPolling(new BusySpinIdleStrategy()));
        }
    }
}
