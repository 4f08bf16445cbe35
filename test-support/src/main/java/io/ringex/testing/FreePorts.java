package io.ringex.testing;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports free at the time of asking, for tests that start listeners of their own (a gateway's FIX acceptor, an Aeron
 * UDP endpoint). They are drawn at random from below the operating system's ephemeral range (Linux's
 * {@code ip_local_port_range}, 32768-60999 by default): a port the OS hands out itself (an Aeron endpoint on port 0,
 * a client's connection) comes from that range, so it can never take one of these between the asking and the
 * binding, which a port the OS picked could suffer (seen: a drill's standby could not bind its UDP endpoint). Tests
 * running side by side draw at random, and each port is checked free before it is given.
 */
public final class FreePorts
{
    private static final int ATTEMPTS = 1000;
    private static final int LOWEST = 20_000;
    private static final int HIGHEST = belowEphemeralRange();

    private FreePorts()
    {
    }

    /**
     * @return a TCP port nothing listens on.
     */
    public static int tcp()
    {
        return find(true, false);
    }

    /**
     * @return a UDP port nothing is bound to.
     */
    public static int udp()
    {
        return find(false, true);
    }

    /**
     * A port free for both TCP and UDP, for a process that takes one port number for both (e.g. the all-in-one's
     * {@code --sbe-port}, a UDP endpoint, beside TCP listeners).
     *
     * @return the port.
     */
    public static int tcpAndUdp()
    {
        return find(true, true);
    }

    /**
     * Consecutive UDP ports, all free at the time of asking (a cluster member takes five from its base port).
     *
     * @param count how many.
     * @return the first of them.
     */
    public static int udpRange(final int count)
    {
        for (int i = 0; i < ATTEMPTS; i++)
        {
            final int first = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST - count + 2);
            boolean free = true;
            for (int port = first; free && port < first + count; port++)
            {
                free = udpFree(port);
            }
            if (free)
            {
                return first;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free UDP ports in " + LOWEST + ".." + HIGHEST);
    }

    /**
     * @return {@code aeron:udp?endpoint=localhost:<a free UDP port>}.
     */
    public static String udpEndpointChannel()
    {
        return "aeron:udp?endpoint=localhost:" + udp();
    }

    /** @return the highest port the draw may give: just below the ephemeral range. */
    static int highest()
    {
        return HIGHEST;
    }

    private static int find(final boolean tcp, final boolean udp)
    {
        for (int i = 0; i < ATTEMPTS; i++)
        {
            final int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST + 1);
            if ((!tcp || tcpFree(port)) && (!udp || udpFree(port)))
            {
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + LOWEST + ".." + HIGHEST + " after " + ATTEMPTS +
            " attempts");
    }

    private static boolean tcpFree(final int port)
    {
        try (ServerSocket socket = new ServerSocket(port))
        {
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static boolean udpFree(final int port)
    {
        try (DatagramSocket socket = new DatagramSocket(port))
        {
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /** @return one below the first port of Linux's ephemeral range, or 32767 where it cannot be read. */
    private static int belowEphemeralRange()
    {
        try
        {
            final String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            final int first = Integer.parseInt(range.split("\\s+")[0]);
            return first - 1 > LOWEST + 1000 ? first - 1 : 32_767;
        }
        catch (final IOException | RuntimeException ex)
        {
            return 32_767;
        }
    }
}
