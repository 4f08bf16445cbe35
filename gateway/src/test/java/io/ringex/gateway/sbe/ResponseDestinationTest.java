package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.RemoteAddresses;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
