package io.ringex.gateway.web;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One API key: its number (the web session it names, {@link io.ringex.gateway.SessionNumbers#web}), its public id,
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
    private final List<IpSubnetFilterRule> allowed;

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
        final List<IpSubnetFilterRule> rules = new ArrayList<>(addresses.size());
        for (final String entry : addresses)
        {
            rules.add(rule(entry));
        }
        this.allowed = List.copyOf(rules);
    }

    private static IpSubnetFilterRule rule(final String entry)
    {
        final int slash = entry.indexOf('/');
        final String literal = slash < 0 ? entry : entry.substring(0, slash);
        final InetAddress address = NetUtil.createInetAddressFromIpAddressString(literal);
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
        return new IpSubnetFilterRule(address, prefix, IpFilterRuleType.ACCEPT);
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
        final InetAddress caller = null == address ? null : NetUtil.createInetAddressFromIpAddressString(address);
        if (null == caller)
        {
            return false;
        }
        // ::ffff:a.b.c.d is read as the IPv4 address it names (InetAddress.getByAddress makes it an Inet4Address)
        final InetSocketAddress remote = new InetSocketAddress(caller, 0);
        for (final IpSubnetFilterRule rule : allowed)
        {
            if (rule.matches(remote))
            {
                return true;
            }
        }
        return false;
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
