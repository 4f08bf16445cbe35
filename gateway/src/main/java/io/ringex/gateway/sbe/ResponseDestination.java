package io.ringex.gateway.sbe;

import io.aeron.ChannelUri;
import io.ringex.gateway.auth.RemoteAddresses;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Set;

/**
 * Where a Logon asks the gateway to answer: an Aeron channel and stream chosen by the client, checked before the
 * gateway publishes anything there ({@link #parse}, then {@link #resolve} on the logon worker; docs/security.md,
 * "Gateway, SBE over Aeron").
 * <p>
 * The gateway sends only to the address the Logon came from (never a wildcard, multicast or broadcast address), so
 * nobody can make it send to a third party, and one destination has one {@link #key()} however it is spelled and
 * belongs to one session at a time.
 * <p>
 * Thread safety: parsed on the agent thread, resolved on the worker, then read on the agent thread (the worker's
 * hand-over through a concurrent queue publishes it).
 */
final class ResponseDestination
{
    /** Parameters a client may add that the gateway ignores (it sets its own). */
    private static final Set<String> IGNORED = Set.of("term-length", "mtu", "sparse", "linger");
    /** The key's host for every address of this machine. */
    private static final String LOCAL = "this-machine";

    private final boolean ipc;
    private final String host;
    private final int port;
    private final int streamId;
    private InetAddress address;
    private String key;

    private ResponseDestination(final boolean ipc, final String host, final int port, final int streamId)
    {
        this.ipc = ipc;
        this.host = host;
        this.port = port;
        this.streamId = streamId;
    }

    /**
     * @param channel  the Logon's response channel.
     * @param streamId the Logon's response stream.
     * @return the destination, or null if the gateway will not answer there.
     */
    static ResponseDestination parse(final String channel, final int streamId)
    {
        if (null == channel || channel.length() > 256 || streamId == 0)
        {
            return null;
        }
        final ChannelUri uri;
        try
        {
            uri = ChannelUri.parse(channel);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
        if (null != uri.prefix() && !uri.prefix().isEmpty())
        {
            return null;
        }
        final boolean[] unexpected = new boolean[1];
        uri.forEachParameter((name, value) ->
        {
            if (!IGNORED.contains(name) && !(uri.isUdp() && "endpoint".equals(name)))
            {
                unexpected[0] = true;
            }
        });
        if (unexpected[0] || hasRepeatedParameter(channel))
        {
            return null;
        }
        if (uri.isIpc())
        {
            return new ResponseDestination(true, null, 0, streamId);
        }
        if (!uri.isUdp())
        {
            return null;
        }
        final String endpoint = uri.get("endpoint");
        if (null == endpoint)
        {
            return null;
        }
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1)
        {
            return null;
        }
        String hostPart = endpoint.substring(0, colon);
        final boolean bracketed = hostPart.startsWith("[") && hostPart.endsWith("]");
        if (bracketed)
        {
            hostPart = hostPart.substring(1, hostPart.length() - 1);
        }
        final int endpointPort = port(endpoint.substring(colon + 1));
        if (endpointPort < 1 || endpointPort > 65535 || !isHost(hostPart, bracketed))
        {
            return null;
        }
        return new ResponseDestination(false, hostPart, endpointPort, streamId);
    }

    /**
     * Resolve the endpoint and check it against where the Logon came from. Worker thread.
     *
     * @param sourceHost  the Logon's source ({@link RemoteAddresses#host}).
     * @param checkSource whether a UDP endpoint must be the source address.
     * @return null if the gateway may answer there, else why not.
     */
    String resolve(final String sourceHost, final boolean checkSource)
    {
        final boolean localCaller = RemoteAddresses.IPC.equals(sourceHost) || isLocal(sourceHost);
        if (ipc)
        {
            key = "ipc|" + streamId;
            return localCaller || !checkSource ? null : "an IPC answer for a caller on another machine";
        }
        try
        {
            address = InetAddress.getByName(host);
        }
        catch (final UnknownHostException | SecurityException ex)
        {
            return "response endpoint host does not resolve";
        }
        if (address.isAnyLocalAddress())
        {
            return "response endpoint is the wildcard address";
        }
        if (address.isMulticastAddress())
        {
            return "response endpoint is a multicast address";
        }
        if (isBroadcast(address))
        {
            return "response endpoint is the broadcast address";
        }
        key = (isLocal(address) ? LOCAL : canonical(address)) + "|" + port + "|" + streamId;
        if (!checkSource)
        {
            return null;
        }
        if (RemoteAddresses.IPC.equals(sourceHost))
        {
            return isLocal(address) ? null : "response endpoint is not on this machine";
        }
        final InetAddress source;
        try
        {
            source = InetAddress.getByName(sourceHost);
        }
        catch (final UnknownHostException | SecurityException ex)
        {
            return "source address unknown";
        }
        final boolean same = source.equals(address) || (isLocal(source) && isLocal(address));
        return same ? null : "response endpoint is not the address the Logon came from";
    }

    /**
     * @return the resolved destination ({@link #resolve} first): one key however the endpoint was spelled.
     */
    String key()
    {
        return key;
    }

    /**
     * @param termLength the gateway's term length for this publication.
     * @return the channel to publish on ({@link #resolve} first).
     */
    String channel(final int termLength)
    {
        if (ipc)
        {
            return "aeron:ipc?term-length=" + termLength + "|sparse=true";
        }
        final String literal = address instanceof Inet6Address ?
            "[" + address.getHostAddress() + "]" : address.getHostAddress();
        return "aeron:udp?endpoint=" + literal + ":" + port + "|term-length=" + termLength + "|sparse=true";
    }

    /**
     * @return the stream.
     */
    int streamId()
    {
        return streamId;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return ipc ? "aeron:ipc stream " + streamId : host + ":" + port + " stream " + streamId;
    }

    private static boolean hasRepeatedParameter(final String channel)
    {
        final int query = channel.indexOf('?');
        if (query < 0)
        {
            return false;
        }
        final Set<String> names = new HashSet<>();
        for (final String parameter : channel.substring(query + 1).split("\\|"))
        {
            final int equals = parameter.indexOf('=');
            if (!names.add(equals < 0 ? parameter : parameter.substring(0, equals)))
            {
                return true;
            }
        }
        return false;
    }

    /** One to five decimal digits, else -1. */
    private static int port(final String text)
    {
        if (text.isEmpty() || text.length() > 5)
        {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * A host name or dotted quad (letters, digits, dots and hyphens), or inside brackets an IPv6 literal without a
     * zone: so that the name service is never asked for something else, and an IPv6 address is never read as a host
     * and a port.
     */
    private static boolean isHost(final String host, final boolean bracketed)
    {
        if (host.isEmpty())
        {
            return false;
        }
        for (int i = 0; i < host.length(); i++)
        {
            final char c = host.charAt(i);
            final boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            final boolean allowed = bracketed ? hex || c == ':' || c == '.' :
                hex || (c >= 'g' && c <= 'z') || (c >= 'G' && c <= 'Z') || c == '.' || c == '-';
            if (!allowed)
            {
                return false;
            }
        }
        return !bracketed || host.indexOf(':') >= 0;
    }

    private static boolean isBroadcast(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        return bytes.length == 4 && bytes[0] == (byte)0xFF && bytes[1] == (byte)0xFF && bytes[2] == (byte)0xFF &&
            bytes[3] == (byte)0xFF;
    }

    /** The address's text without an IPv6 zone: one text per address. */
    private static String canonical(final InetAddress address)
    {
        try
        {
            return InetAddress.getByAddress(address.getAddress()).getHostAddress();
        }
        catch (final UnknownHostException ex)
        {
            return address.getHostAddress();
        }
    }

    private static boolean isLocal(final String host)
    {
        try
        {
            return isLocal(InetAddress.getByName(host));
        }
        catch (final UnknownHostException | SecurityException ex)
        {
            return false;
        }
    }

    private static boolean isLocal(final InetAddress address)
    {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress())
        {
            return true;
        }
        try
        {
            return null != NetworkInterface.getByInetAddress(address);
        }
        catch (final SocketException ex)
        {
            return false;
        }
    }
}
