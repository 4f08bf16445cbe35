package io.ringex.gateway.web;

import java.util.HashMap;
import java.util.Map;

/**
 * How many web connections are open, in all and per address (its lockout key: an IPv6 /64, every loopback address
 * as one), so one address cannot take every connection slot.
 * <p>
 * Thread safety: synchronized; the web event loop opens and closes connections.
 */
final class ConnectionLimits
{
    private final int max;
    private final int maxPerAddress;
    private final Map<String, Integer> byAddress = new HashMap<>();
    private int open;

    ConnectionLimits(final int max, final int maxPerAddress)
    {
        this.max = max;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * @param address the connection's address key.
     * @return true if the connection may stay open (then {@link #closed(String)} once it closes).
     */
    synchronized boolean tryOpen(final String address)
    {
        final int fromAddress = byAddress.getOrDefault(address, 0);
        if (open >= max || fromAddress >= maxPerAddress)
        {
            return false;
        }
        open++;
        byAddress.put(address, fromAddress + 1);
        return true;
    }

    /**
     * @param address the key a connection was opened under.
     */
    synchronized void closed(final String address)
    {
        open--;
        final int left = byAddress.getOrDefault(address, 1) - 1;
        if (left <= 0)
        {
            byAddress.remove(address);
        }
        else
        {
            byAddress.put(address, left);
        }
    }
}
