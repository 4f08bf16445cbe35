package io.ringex.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;

/**
 * Small helpers the node tests (and the gateway's failover drills) share.
 */
public final class NodeTestSupport
{
    private NodeTestSupport()
    {
    }

    /**
     * @return a UDP port free at the time of asking.
     */
    public static int freeUdpPort()
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
