package io.ringex.testing;

import java.net.DatagramSocket;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FreePortsTest
{
    @Test
    void theGivenPortsCanBeBound() throws Exception
    {
        final int tcp = FreePorts.tcp();
        try (ServerSocket socket = new ServerSocket(tcp))
        {
            assertEquals(tcp, socket.getLocalPort());
        }
        final int udp = FreePorts.udp();
        try (DatagramSocket socket = new DatagramSocket(udp))
        {
            assertEquals(udp, socket.getLocalPort());
        }
        final int both = FreePorts.tcpAndUdp();
        try (ServerSocket tcpSocket = new ServerSocket(both); DatagramSocket udpSocket = new DatagramSocket(both))
        {
            assertEquals(both, udpSocket.getLocalPort());
        }
        assertTrue(FreePorts.udpEndpointChannel().matches("aeron:udp\\?endpoint=localhost:\\d+"));
    }

    @Test
    void thePortsAreBelowTheRangeTheSystemHandsOutItself()
    {
        for (int i = 0; i < 100; i++)
        {
            final int port = FreePorts.tcpAndUdp();
            assertTrue(port >= 20_000 && port <= FreePorts.highest(), "port " + port);
        }
    }
}
