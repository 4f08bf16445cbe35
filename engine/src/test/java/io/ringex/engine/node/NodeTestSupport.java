package io.ringex.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;

final class NodeTestSupport
{
    private NodeTestSupport()
    {
    }

    static int freeUdpPort()
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
