package io.ringex.common.apikey;

import io.ringex.common.net.LockoutAddress;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One API key: its number (the gateway's web session it names, never reused for another key), its public id,
 * the gateway user it acts as, whether it may trade (every key may read), its HMAC-SHA256 secret and, optionally, the
 * addresses it may be used from: addresses and networks ({@code 203.0.113.7}, {@code 10.0.0.0/8},
 * {@code 2001:db8::/32}, literals only, no names), none meaning any. An IPv4-mapped IPv6 caller
 * ({@code ::ffff:10.0.0.5}) is the IPv4 address it is.
 * <p>
 * Thread safety: immutable; {@link #secret()} returns a copy.
 */
public final class ApiKey
{
    private final int number;
    private final String keyId;
    private final String username;
    private final boolean mayTrade;
    private final byte[] secret;
    private final List<String> addresses;
    /** One Mac a thread, initialised per signature: looking the algorithm up per request cost more than the MAC. */
    private static final ThreadLocal<Mac> MAC = ThreadLocal.withInitial(() ->
    {
        try
        {
            return Mac.getInstance("HmacSHA256");
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 unavailable", ex);
        }
    });

    /** Each allowed network: its address's bytes and its prefix length (bits). */
    private final List<Network> allowed;

    private record Network(byte[] address, int prefix)
    {
        boolean contains(final byte[] other)
        {
            if (other.length != address.length)
            {
                return false;
            }
            final int whole = prefix / 8;
            for (int i = 0; i < whole; i++)
            {
                if (other[i] != address[i])
                {
                    return false;
                }
            }
            final int rest = prefix % 8;
            final int mask = (0xFF00 >> rest) & 0xFF;
            return rest == 0 || (other[whole] & mask) == (address[whole] & mask);
        }
    }

    /**
     * @param number   1..2^30-1, never reused for another key.
     * @param keyId    the public id clients send in {@code X-RINGEX-KEY}.
     * @param username the gateway user the key acts as.
     * @param mayTrade whether it may place and cancel orders (else read only).
     * @param secret   the signing secret.
     */
    public ApiKey(final int number, final String keyId, final String username, final boolean mayTrade,
        final byte[] secret)
    {
        this(number, keyId, username, mayTrade, secret, List.of());
    }

    /**
     * @param number    1..2^30-1, never reused for another key.
     * @param keyId     the public id clients send in {@code X-RINGEX-KEY}.
     * @param username  the gateway user the key acts as.
     * @param mayTrade  whether it may place and cancel orders (else read only).
     * @param secret    the signing secret.
     * @param addresses the addresses and networks it may be used from ({@code ADDRESS} or {@code ADDRESS/PREFIX}),
     *                  empty for any.
     * @throws IllegalArgumentException naming the entry if one is not an address literal or its prefix is out of
     *                                  range.
     */
    public ApiKey(final int number, final String keyId, final String username, final boolean mayTrade,
        final byte[] secret, final List<String> addresses)
    {
        this.number = number;
        this.keyId = keyId;
        this.username = username;
        this.mayTrade = mayTrade;
        this.secret = secret.clone();
        this.addresses = List.copyOf(addresses);
        final List<Network> rules = new ArrayList<>(addresses.size());
        for (final String entry : addresses)
        {
            rules.add(rule(entry));
        }
        this.allowed = List.copyOf(rules);
    }

    private static Network rule(final String entry)
    {
        final int slash = entry.indexOf('/');
        final String literal = slash < 0 ? entry : entry.substring(0, slash);
        final InetAddress address = LockoutAddress.literal(literal);
        if (null == address)
        {
            throw new IllegalArgumentException("address " + entry + " is not an IPv4 or IPv6 address literal");
        }
        final int bits = address instanceof Inet4Address ? 32 : 128;
        int prefix = bits;
        if (slash >= 0)
        {
            try
            {
                prefix = Integer.parseInt(entry.substring(slash + 1));
            }
            catch (final NumberFormatException ex)
            {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits)
            {
                throw new IllegalArgumentException("address " + entry + ": the prefix must be 0.." + bits);
            }
        }
        return new Network(address.getAddress(), prefix);
    }

    /**
     * @return the key's number.
     */
    public int number()
    {
        return number;
    }

    /**
     * @return the public key id.
     */
    public String keyId()
    {
        return keyId;
    }

    /**
     * @return the user the key acts as.
     */
    public String username()
    {
        return username;
    }

    /**
     * @return whether the key may place and cancel orders.
     */
    public boolean mayTrade()
    {
        return mayTrade;
    }

    /**
     * @return a copy of the signing secret.
     */
    public byte[] secret()
    {
        return secret.clone();
    }

    /**
     * @return the addresses and networks the key may be used from, as written; empty for any.
     */
    public List<String> addresses()
    {
        return addresses;
    }

    /**
     * @param address the caller's address literal, as its connection reports it.
     * @return whether the key may be used from it (always, if the key names no addresses; never from something that
     *         is not an address literal if it does).
     */
    public boolean allows(final String address)
    {
        if (allowed.isEmpty())
        {
            return true;
        }
        final InetAddress caller = null == address ? null : LockoutAddress.literal(address);
        if (null == caller)
        {
            return false;
        }
        // ::ffff:a.b.c.d is parsed as the IPv4 address it names (the JDK makes it an Inet4Address)
        final byte[] bytes = caller.getAddress();
        for (final Network network : allowed)
        {
            if (network.contains(bytes))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The signature a client sends with this key (docs/client.md, "Signing a request").
     *
     * @param timestamp    the timestamp header's value.
     * @param method       HTTP method, upper case.
     * @param pathAndQuery the request target as sent (path, and {@code ?query} if any).
     * @param body         the body (empty for none).
     * @return lower-case hex HMAC-SHA256 under the key's secret of timestamp, method, target and body.
     */
    public String sign(final String timestamp, final String method, final String pathAndQuery, final byte[] body)
    {
        return sign(secret, timestamp, method, pathAndQuery, body);
    }

    /**
     * The signature of a request under a secret.
     *
     * @param secret       the secret.
     * @param timestamp    the timestamp header's value.
     * @param method       HTTP method, upper case.
     * @param pathAndQuery the request target as sent.
     * @param body         the body (empty for none).
     * @return lower-case hex HMAC-SHA256 of timestamp, method, target and body.
     */
    public static String sign(
        final byte[] secret, final String timestamp, final String method, final String pathAndQuery, final byte[] body)
    {
        try
        {
            final Mac mac = MAC.get();
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(timestamp.getBytes(StandardCharsets.US_ASCII));
            mac.update(method.getBytes(StandardCharsets.US_ASCII));
            mac.update(pathAndQuery.getBytes(StandardCharsets.UTF_8));
            mac.update(body);
            return HexFormat.of().formatHex(mac.doFinal());
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 unavailable", ex);
        }
    }

    byte[] secretShared()
    {
        return secret;
    }

    /**
     * Never shows the secret.
     *
     * @return number, id, user and permissions.
     */
    public String toString()
    {
        return number + " " + keyId + " " + username + " " + (mayTrade ? "read,trade" : "read") +
            (addresses.isEmpty() ? "" : " " + String.join(",", addresses));
    }

    /**
     * @param other a key, or null.
     * @return whether it is this key still: the same number, id, user, permissions, addresses and secret.
     */
    public boolean sameAs(final ApiKey other)
    {
        return null != other && number == other.number && mayTrade == other.mayTrade && keyId.equals(other.keyId) &&
            username.equals(other.username) && addresses.equals(other.addresses) &&
            java.security.MessageDigest.isEqual(secret, other.secret);
    }
}
