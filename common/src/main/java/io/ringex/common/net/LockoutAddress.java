package io.ringex.common.net;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The key a remote address is counted and locked out under, so that one attacker cannot walk around a lockout by
 * spelling its address another way or by taking the next address of its own network: an IPv6 address is keyed by its
 * /64 (the smallest network a host is given), an IPv4-mapped IPv6 address ({@code ::ffff:10.0.0.5}) as the IPv4
 * address it is, and every address of this machine's loopback ({@code 127.0.0.0/8}, {@code ::1}) and a caller on this
 * machine's shared memory ({@code aeron:ipc}) as one key, {@value #LOOPBACK}. Anything that is not an address literal
 * (a name, "unknown") is its own key, trimmed and lower-cased: no name is ever looked up.
 * <p>
 * The price: every host of one IPv6 /64 shares a lock, as every host behind one IPv4 NAT does.
 * <p>
 * Thread safety: stateless; any thread.
 */
public final class LockoutAddress
{
    /** The one key of every loopback address and of IPC callers. */
    public static final String LOOPBACK = "loopback";
    /** How an Aeron IPC caller's address is reported. */
    private static final String IPC = "aeron:ipc";
    private static final int MAX_LENGTH = 128;

    private LockoutAddress()
    {
    }

    /**
     * @param address a host as a transport reports it, without a port ({@code 10.0.0.5}, {@code ::1},
     *                {@code [2001:db8::7]}, {@code fe80::1%eth0}, {@code aeron:ipc}); may be null.
     * @return its lockout key: {@code 10.0.0.5}, {@value #LOOPBACK}, {@code 2001:db8:0:0::/64}; "" for null.
     */
    public static String key(final String address)
    {
        if (null == address)
        {
            return "";
        }
        String text = address.trim();
        if (text.startsWith("[") && text.endsWith("]"))
        {
            text = text.substring(1, text.length() - 1);
        }
        if (IPC.equals(text) || LOOPBACK.equals(text))
        {
            return LOOPBACK;
        }
        final InetAddress literal = literal(text);
        if (null == literal)
        {
            final String lower = text.toLowerCase(Locale.ROOT);
            return lower.length() > MAX_LENGTH ? lower.substring(0, MAX_LENGTH) : lower;
        }
        if (literal.isLoopbackAddress())
        {
            return LOOPBACK;
        }
        if (literal instanceof Inet4Address)
        {
            return literal.getHostAddress();
        }
        final byte[] bytes = literal.getAddress();
        final StringBuilder key = new StringBuilder(24);
        for (int i = 0; i < 8; i += 2)
        {
            key.append(Integer.toHexString(((bytes[i] & 0xFF) << 8) | (bytes[i + 1] & 0xFF))).append(':');
        }
        return key.append(":/64").toString();
    }

    /**
     * An IPv4 dotted quad or an IPv6 literal (with or without a zone), parsed without any name lookup; null for
     * anything else. A dotted quad is parsed here; {@link InetAddress#getByName} is given only a string that starts
     * with a hex digit or a colon and contains a colon, which it parses as an IPv6 literal or refuses, never looks up.
     *
     * @param text an address as written or as a transport reports it (no brackets).
     * @return the address, or null if the text is not an address literal.
     */
    public static InetAddress literal(final String text)
    {
        final int zone = text.indexOf('%');
        final String bare = zone >= 0 ? text.substring(0, zone) : text;
        if (bare.isEmpty() || bare.length() > 45)
        {
            return null;
        }
        if (bare.indexOf(':') < 0)
        {
            return zone >= 0 ? null : dottedQuad(bare);
        }
        if (bare.charAt(0) == '.')
        {
            return null;
        }
        for (int i = 0; i < bare.length(); i++)
        {
            final char c = bare.charAt(i);
            final boolean allowed = (c >= '0' && c <= '9') || c == '.' || c == ':' ||
                (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!allowed)
            {
                return null;
            }
        }
        try
        {
            return InetAddress.getByName(bare);
        }
        catch (final UnknownHostException | SecurityException ex)
        {
            return null;
        }
    }

    private static InetAddress dottedQuad(final String text)
    {
        final byte[] bytes = new byte[4];
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i <= text.length(); i++)
        {
            final char c = i == text.length() ? '.' : text.charAt(i);
            if (c == '.')
            {
                if (digits == 0 || part == 4)
                {
                    return null;
                }
                bytes[part++] = (byte)value;
                value = 0;
                digits = 0;
            }
            else if (c >= '0' && c <= '9' && digits < 3)
            {
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255)
                {
                    return null;
                }
            }
            else
            {
                return null;
            }
        }
        if (part != 4)
        {
            return null;
        }
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            return null;
        }
    }
}
