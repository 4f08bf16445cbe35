package io.ringex.common.net;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class LockoutAddressTest
{
    @Test
    void everyLoopbackSpellingAndIpcIsOneKey()
    {
        for (final String loopback : new String[]{ "127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]",
            "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "aeron:ipc", LockoutAddress.LOOPBACK })
        {
            assertEquals(LockoutAddress.LOOPBACK, LockoutAddress.key(loopback), loopback);
        }
    }

    @Test
    void anIpv6AddressIsKeyedByItsSlash64()
    {
        final String key = LockoutAddress.key("2001:db8:1:2::7");
        assertEquals("2001:db8:1:2::/64", key);
        assertEquals(key, LockoutAddress.key("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"));
        assertEquals(key, LockoutAddress.key("[2001:db8:1:2:0:0:0:8]"));
        assertEquals(key, LockoutAddress.key("2001:DB8:1:2::9%eth0"));
        assertNotEquals(key, LockoutAddress.key("2001:db8:1:3::7"), "another /64 is another key");
    }

    @Test
    void anIpv4MappedAddressIsTheIpv4Address()
    {
        assertEquals("10.0.0.5", LockoutAddress.key("::ffff:10.0.0.5"));
        assertEquals("10.0.0.5", LockoutAddress.key("::ffff:a00:5"));
        assertEquals("10.0.0.5", LockoutAddress.key("10.0.0.5"));
        assertNotEquals(LockoutAddress.key("10.0.0.5"), LockoutAddress.key("10.0.0.6"));
    }

    @Test
    void whatIsNotALiteralIsItsOwnKeyAndIsNeverLookedUp()
    {
        assertEquals("unknown", LockoutAddress.key("unknown"));
        assertEquals("", LockoutAddress.key(null));
        assertEquals("host.example", LockoutAddress.key(" Host.Example "));
        assertEquals("999.1.1.1", LockoutAddress.key("999.1.1.1"), "not an address: not looked up either");
        assertNull(LockoutAddress.literal("localhost"));
        assertNull(LockoutAddress.literal("1.2.3"));
        assertNull(LockoutAddress.literal("1.2.3.4.5"));
        assertNull(LockoutAddress.literal(".::1"));
        assertNull(LockoutAddress.literal("10.0.0.1%eth0"));
        assertEquals(128, LockoutAddress.key("x".repeat(500)).length());
    }
}
