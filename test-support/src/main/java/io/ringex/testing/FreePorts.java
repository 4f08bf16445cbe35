package io.ringex.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.ServerSocket;

/**
 * Ports free at the time of asking, for tests that start listeners of their own (a gateway's FIX acceptor, an Aeron
 * UDP endpoint). The operating system picks them, so tests running side by side do not collide; another process may
 * still take one before the test binds it, which on a test machine is rare enough to leave to a rerun.
 */
public final class FreePorts
{
    private static final int ATTEMPTS = 100;

    private FreePorts()
    {
    }

    /**
     * @return a TCP port nothing listens on.
     */
    public static int tcp()
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @return a UDP port nothing is bound to.
     */
    public static int udp()
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

    /**
     * A port free for both TCP and UDP, for a process that takes one port number for both (e.g. the all-in-one's
     * {@code --sbe-port}, a UDP endpoint, beside TCP listeners).
     *
     * @return the port.
     */
    public static int tcpAndUdp()
    {
        for (int i = 0; i < ATTEMPTS; i++)
        {
            try (ServerSocket tcp = new ServerSocket(0); DatagramSocket udp = new DatagramSocket(tcp.getLocalPort()))
            {
                return udp.getLocalPort();
            }
            catch (final IOException ignore)
            {
                // the UDP side of that port is taken: ask for another
            }
        }
        throw new IllegalStateException("no port free for both TCP and UDP after " + ATTEMPTS + " attempts");
    }

    /**
     * @return {@code aeron:udp?endpoint=localhost:<a free UDP port>}.
     */
    public static String udpEndpointChannel()
    {
        return "aeron:udp?endpoint=localhost:" + udp();
    }
}
