package io.ringex.gateway.testing;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.LogonEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * An attacker's process for the two-process Logon test: its own media driver, a publication to the gateway, and
 * Logons that name the victim's response channel and stream, with wrong credentials and with another user's right
 * ones. Prints {@code SENT n} when every Logon is on its way and exits.
 * <p>
 * Usage: {@code LogonAttacker gatewayChannel gatewayStream victimChannel victimStream user:password...}
 */
public final class LogonAttacker
{
    private LogonAttacker()
    {
    }

    /**
     * @param args see the class comment.
     * @throws InterruptedException if interrupted while lingering.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final String gatewayChannel = args[0];
        final int gatewayStream = Integer.parseInt(args[1]);
        final String victimChannel = args[2];
        final int victimStream = Integer.parseInt(args[3]);
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            ExclusivePublication publication = aeron.addExclusivePublication(gatewayChannel, gatewayStream))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!publication.isConnected() || publication.availableWindow() <= 0)
            {
                check(deadline, "connect");
                Thread.sleep(1);
            }
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
            int sent = 0;
            for (int i = 4; i < args.length; i++)
            {
                final String[] credentials = args[i].split(":", 2);
                final int length = MessageHeaderEncoder.ENCODED_LENGTH + new LogonEncoder()
                    .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
                    .heartbeatIntervalMs(1000).cancelOnDisconnect(BooleanType.FALSE).responseStreamId(victimStream)
                    .logonRequestId(1).username(credentials[0]).credential(credentials[1])
                    .responseChannel(victimChannel).encodedLength();
                while (publication.offer(buffer, 0, length) < 0)
                {
                    check(deadline, "send");
                    Thread.sleep(1);
                }
                sent++;
            }
            System.out.println("SENT " + sent);
            // Linger so the gateway reads the Logons before this publication goes away.
            Thread.sleep(500);
        }
    }

    private static void check(final long deadline, final String what)
    {
        if (System.nanoTime() > deadline)
        {
            System.out.println("TIMEOUT " + what);
            System.exit(2);
        }
    }
}
