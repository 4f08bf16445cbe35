package io.ringex.gateway.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.gateway.testing.RecordingListener;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's connection over a real media driver and UDP, as a caller who sends the moment the client says it is
 * connected sees it.
 */
class ExchangeClientIT
{
    private static final int ROUNDS = 100;

    /**
     * Before the client also asked for an open window, its first offer was refused as BACK_PRESSURED in about 2 of 3
     * rounds on a DEDICATED driver (the sender thread marks the publication connected, the conductor raises its limit
     * a duty cycle later), and a client that sent Logon once waited for an answer that never came.
     */
    @Test
    void aClientThatSaysItIsConnectedTakesItsLogonAtOnce()
    {
        final String gatewayChannel = "aeron:udp?endpoint=localhost:" + freeUdpPort();
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
                    ExchangeClient client = ExchangeClient.connect(aeron, gatewayChannel, streamId, "aeron:ipc",
                        streamId, new RecordingListener()))
                {
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!client.isConnected())
                    {
                        assertTrue(System.nanoTime() < deadline, "round " + round + ": never connected");
                        Thread.onSpinWait();
                    }
                    final long result = client.logon("alice", "secret", false, 1_000);
                    assertTrue(result > 0, "round " + round + ": Logon refused right after isConnected: " + result);
                }
            }
        }
    }

    private static int freeUdpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
