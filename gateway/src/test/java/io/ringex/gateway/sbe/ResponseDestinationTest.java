package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.RemoteAddresses;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

final class ResponseDestinationTest
{
    @Test
    void onlyPlainUdpEndpointsAndIpcAreAccepted()
    {
        assertNotNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:40300", 3001));
        assertNotNull(ResponseDestination.parse("aeron:udp?endpoint=[::1]:40300|term-length=1g|mtu=8k", 3001));
        assertNotNull(ResponseDestination.parse("aeron:ipc", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:40300|control-mode=dynamic", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?control=localhost:40300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:40300|tags=1,2", 3001));
        assertNull(ResponseDestination.parse("aeron-spy:aeron:udp?endpoint=localhost:40300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:0", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:99999", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost", 3001));
        assertNull(ResponseDestination.parse("aeron:ipc?session-id=7", 3001));
        assertNull(ResponseDestination.parse("tcp://localhost:1", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:40300", 0));
        assertNull(ResponseDestination.parse(null, 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=" + "x".repeat(300) + ":1", 3001));
    }

    @Test
    void theEndpointMustBeTheCallersAndOneDestinationHasOneKeyHoweverSpelled()
    {
        final ResponseDestination byName = ResponseDestination.parse("aeron:udp?endpoint=localhost:40300", 3001);
        assertNull(byName.resolve("127.0.0.1", true));
        final ResponseDestination byAddress = ResponseDestination.parse("aeron:udp?endpoint=127.0.0.1:40300", 3001);
        assertNull(byAddress.resolve("127.0.0.1", true));
        assertEquals(byName.key(), byAddress.key());
        assertEquals("aeron:udp?endpoint=127.0.0.1:40300|term-length=65536|sparse=true", byName.channel(65536));

        final ResponseDestination elsewhere = ResponseDestination.parse("aeron:udp?endpoint=192.0.2.1:40300", 3001);
        assertNotNull(elsewhere.resolve("127.0.0.1", true));
        assertNull(elsewhere.resolve("127.0.0.1", false), "with the check off, anywhere");
        assertNotNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:40300", 3001)
            .resolve("192.0.2.7", true), "a remote caller cannot send answers to this machine");
        assertNotNull(ResponseDestination.parse("aeron:ipc", 3001).resolve("192.0.2.7", true),
            "IPC only for callers on this machine");
        assertNull(ResponseDestination.parse("aeron:ipc", 3001).resolve(RemoteAddresses.IPC, true));
        assertNotNull(ResponseDestination.parse("aeron:udp?endpoint=no-such-host.invalid:40300", 3001)
            .resolve("127.0.0.1", true));
    }

    /**
     * Every spelling of an endpoint on this machine reaches the same socket when the client binds the wildcard (and
     * Linux delivers a datagram sent to 0.0.0.0 to 127.0.0.1): they are one destination. The wildcard and multicast
     * are refused outright, and a port or a parameter given twice, or a port in another notation, is not parsed at
     * all.
     */
    @Test
    void aDestinationOnThisMachineHasOneKeyHoweverSpelledAndWildcardsAndMulticastAreRefused()
    {
        final ResponseDestination canonical = resolved("aeron:udp?endpoint=localhost:41300", "127.0.0.1");
        assertNull(canonical.resolve("127.0.0.1", true));
        for (final String spelling : new String[]{ "127.0.0.1:41300", "127.0.0.2:41300",
            "[::1]:41300", "[::ffff:127.0.0.1]:41300", "[0:0:0:0:0:0:0:1]:41300", "LOCALHOST:41300" })
        {
            final ResponseDestination other = resolved("aeron:udp?endpoint=" + spelling, "127.0.0.1");
            assertEquals(canonical.key(), other.key(), spelling);
        }
        final InetAddress thisMachine = otherAddressOfThisMachine();
        if (null != thisMachine)
        {
            final String literal = thisMachine.getHostAddress();
            assertEquals(canonical.key(), resolved("aeron:udp?endpoint=" + literal + ":41300", "127.0.0.1").key(),
                "an address of this machine's interfaces: " + literal);
        }
        assertNotEquals(canonical.key(), resolved("aeron:udp?endpoint=localhost:41301", "127.0.0.1").key());
        final ResponseDestination otherStream = ResponseDestination.parse("aeron:udp?endpoint=localhost:41300", 3002);
        assertNull(otherStream.resolve("127.0.0.1", true));
        assertNotEquals(canonical.key(), otherStream.key(), "another stream is another destination");

        for (final String wildcard : new String[]{ "0.0.0.0:41300", "0:41300", "[::]:41300", "[::0]:41300",
            "[::ffff:0.0.0.0]:41300", "224.0.1.1:41300", "239.255.0.1:41300", "[ff02::1]:41300",
            "255.255.255.255:41300" })
        {
            final ResponseDestination destination = ResponseDestination.parse("aeron:udp?endpoint=" + wildcard, 3001);
            assertNotNull(null == destination ? "refused" : destination.resolve("127.0.0.1", true), wildcard);
            if (null != destination)
            {
                assertNotNull(destination.resolve("127.0.0.1", false), wildcard + ", even with the source check off");
            }
        }
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:41300|endpoint=0.0.0.0:41300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:41300:41300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:+41300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:041300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=::1:41300", 3001), "IPv6 in brackets only");
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=[fe80::1%eth0]:41300", 3001));
        assertNull(ResponseDestination.parse("aeron:udp?endpoint=localhost:41300|mtu=8k|mtu=1k", 3001));
        assertNull(ResponseDestination.parse("aeron:ipc?term-length=64k|term-length=1m", 3001));
    }

    /** An IPv4 address of one of this machine's interfaces other than loopback, or null. */
    private static InetAddress otherAddressOfThisMachine()
    {
        try
        {
            for (final NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces()))
            {
                for (final InetAddress address : Collections.list(network.getInetAddresses()))
                {
                    if (network.isUp() && address instanceof Inet4Address && !address.isLoopbackAddress())
                    {
                        return address;
                    }
                }
            }
        }
        catch (final SocketException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return null;
    }

    private static ResponseDestination resolved(final String channel, final String source)
    {
        final ResponseDestination destination = ResponseDestination.parse(channel, 3001);
        assertNotNull(destination, channel);
        assertNull(destination.resolve(source, true), channel);
        return destination;
    }

    @Test
    void remoteAddressesAreReducedToTheirHost()
    {
        assertEquals("10.0.0.5", RemoteAddresses.host("/10.0.0.5:51234"));
        assertEquals("10.0.0.5", RemoteAddresses.host("10.0.0.5:51234"));
        assertEquals("::1", RemoteAddresses.host("[::1]:51234"));
        assertEquals(RemoteAddresses.IPC, RemoteAddresses.host("aeron:ipc"));
        assertEquals("unknown", RemoteAddresses.host(null));
    }
}
