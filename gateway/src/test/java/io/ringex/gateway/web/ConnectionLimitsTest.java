package io.ringex.gateway.web;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionLimitsTest
{
    @Test
    void oneAddressCannotTakeEverySlot()
    {
        final ConnectionLimits limits = new ConnectionLimits(4, 2);
        assertTrue(limits.tryOpen("10.0.0.1"));
        assertTrue(limits.tryOpen("10.0.0.1"));
        assertFalse(limits.tryOpen("10.0.0.1"), "over the per-address cap");
        assertTrue(limits.tryOpen("10.0.0.2"));
        assertTrue(limits.tryOpen("10.0.0.3"));
        assertFalse(limits.tryOpen("10.0.0.4"), "over the global cap");
        limits.closed("10.0.0.1");
        assertTrue(limits.tryOpen("10.0.0.1"), "a closed connection frees its address's slot");
        assertFalse(limits.tryOpen("10.0.0.5"));
    }
}
