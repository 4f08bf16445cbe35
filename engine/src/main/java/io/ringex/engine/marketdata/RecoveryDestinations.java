package io.ringex.engine.marketdata;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.exceptions.AeronException;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Where the recovery service's answers go: each requester's own response channel, one publication each, so an answer
 * reaches its requester alone. A request names its channel and stream; the service takes it only when it is the
 * requester's own: {@code aeron:ipc} for a request that came over IPC, or {@code aeron:udp?endpoint=ADDRESS:PORT} with
 * ADDRESS (a numeric address: no name is resolved) the one the request came from, never a wildcard or multicast
 * address, no other parameter. One destination, one key: the canonical address, port and stream, however the request
 * spelled them. So nobody can point the service at a third party.
 * <p>
 * Bounded: at most {@code maxDestinations} publications at once, {@link #MAX_PER_REQUESTER} per requester (an address,
 * or one IPC client), each closed after {@link #IDLE_MS} without a request; a requester may make {@code ratePerSecond}
 * requests a second, as many at once ({@link #takeToken}, a token bucket). Publications are added and removed
 * asynchronously: nothing here waits for the media driver.
 * <p>
 * Thread safety: the recovery agent's thread only.
 */
final class RecoveryDestinations implements AutoCloseable
{
    /** Response channels one requester may hold open. */
    static final int MAX_PER_REQUESTER = 4;
    /** A response channel unused this long is closed. */
    static final long IDLE_MS = 30_000;
    /** A response channel that has not connected this long after it was opened is given up (its requests dropped). */
    static final long CONNECT_TIMEOUT_MS = 2_000;
    /** Requesters tracked at once (their rate limits); beyond, a new requester's request is dropped. */
    static final int MAX_REQUESTERS = 4096;
    /** Longest response channel a request may name. */
    static final int MAX_CHANNEL_LENGTH = 128;
    /** Refusals one destination may have waiting; beyond, they are dropped (counted). */
    static final int REFUSALS_PER_DESTINATION = 64;
    /** Room for one refusal (a SnapshotResponse or RetransmitResponse). */
    static final int REFUSAL_SLOT = 64;

    private static final long HOUSEKEEPING_MS = 1_000;
    private static final long REQUESTER_IDLE_MS = 60_000;

    /** A response channel: its publication once added, and the refusals waiting for it. */
    static final class Destination
    {
        final String key;
        final Requester owner;
        final long openedMs;
        final UnsafeBuffer refusals = new UnsafeBuffer(new byte[REFUSALS_PER_DESTINATION * REFUSAL_SLOT]);
        long registrationId;
        ExclusivePublication publication;
        long lastUsedMs;
        int refusalHead;
        int refusalCount;
        /** Requests waiting for an answer to it. */
        int pending;
        boolean failed;

        Destination(final String key, final Requester owner, final long nowMs)
        {
            this.key = key;
            this.owner = owner;
            this.openedMs = nowMs;
            this.lastUsedMs = nowMs;
        }

        /** @return the publication, once added and connected; null otherwise. */
        ExclusivePublication connected()
        {
            return null != publication && publication.isConnected() ? publication : null;
        }

        /**
         * @param nowMs the clock.
         * @return true if it will never take an answer: failed, or not connected within the timeout.
         */
        boolean unreachable(final long nowMs)
        {
            return failed || (null == connected() && nowMs - openedMs > CONNECT_TIMEOUT_MS &&
                (null == publication || nowMs - lastUsedMs > CONNECT_TIMEOUT_MS));
        }
    }

    /** Who asks: an address (UDP) or one IPC client; its rate limit and destinations. */
    static final class Requester
    {
        final String name;
        long tokensMilli;
        long lastRefillMs;
        long lastUsedMs;
        int destinations;
        final byte[] lastChannel = new byte[MAX_CHANNEL_LENGTH];
        int lastChannelLength = -1;
        int lastStreamId;
        Destination lastDestination;

        Requester(final String name, final long tokensMilli, final long nowMs)
        {
            this.name = name;
            this.tokensMilli = tokensMilli;
            this.lastRefillMs = nowMs;
            this.lastUsedMs = nowMs;
        }
    }

    private final Aeron aeron;
    private final int maxDestinations;
    private final int ratePerSecond;
    private final int termLength;
    private final AtomicCounter channelsOpen;
    private final AtomicCounter dropped;
    private final Map<String, Destination> destinations = new HashMap<>();
    /** The same destinations, walked by index each duty cycle (no iterator to allocate). */
    private final List<Destination> open = new ArrayList<>();
    private final Map<String, Requester> udpRequesters = new HashMap<>();
    private final Int2ObjectHashMap<Requester> ipcRequesters = new Int2ObjectHashMap<>();
    private final List<Destination> waiting = new ArrayList<>();
    private final byte[] channelBytes = new byte[MAX_CHANNEL_LENGTH];
    private long lastHousekeepingMs;

    /**
     * @param aeron           adds the publications.
     * @param maxDestinations publications open at once.
     * @param ratePerSecond   requests a second per requester, and the burst.
     * @param termLength      each publication's term length.
     * @param open            shows how many are open.
     * @param dropped         counts requests that cannot be answered (no destination).
     */
    RecoveryDestinations(
        final Aeron aeron,
        final int maxDestinations,
        final int ratePerSecond,
        final int termLength,
        final AtomicCounter open,
        final AtomicCounter dropped)
    {
        this.aeron = aeron;
        this.maxDestinations = maxDestinations;
        this.ratePerSecond = ratePerSecond;
        this.termLength = termLength;
        this.channelsOpen = open;
        this.dropped = dropped;
    }

    /**
     * The destination a request names, opened if new, when it is the requester's own; otherwise the request is
     * counted as dropped and null returned (there is nowhere to answer it).
     *
     * @param image         the request's image (who sent it).
     * @param streamId      the response stream named.
     * @param buffer        holding the response channel named.
     * @param offset        where it starts.
     * @param length        its length (0: none named, a version 2 request).
     * @param nowMs         the clock.
     * @return the destination, or null.
     */
    Destination resolve(
        final Image image, final int streamId, final DirectBuffer buffer, final int offset, final int length,
        final long nowMs)
    {
        final Requester requester = null == image ? null : requester(image, nowMs);
        if (null == requester || length <= 0 || length > MAX_CHANNEL_LENGTH)
        {
            dropped.incrementRelease();
            return null;
        }
        requester.lastUsedMs = nowMs;
        final Destination last = requester.lastDestination;
        if (null != last && requester.lastChannelLength == length && requester.lastStreamId == streamId &&
            !last.failed && destinations.get(last.key) == last && sameBytes(requester.lastChannel, buffer, offset,
            length))
        {
            last.lastUsedMs = nowMs;
            return last;
        }
        buffer.getBytes(offset, channelBytes, 0, length);
        final String key = key(image, new String(channelBytes, 0, length, StandardCharsets.US_ASCII), streamId);
        if (null == key)
        {
            dropped.incrementRelease();
            return null;
        }
        Destination destination = destinations.get(key);
        if (null == destination)
        {
            if (destinations.size() >= maxDestinations || requester.destinations >= MAX_PER_REQUESTER)
            {
                dropped.incrementRelease();
                return null;
            }
            destination = new Destination(key, requester, nowMs);
            try
            {
                destination.registrationId = aeron.asyncAddExclusivePublication(publicationChannel(key), streamId);
            }
            catch (final AeronException ex)
            {
                dropped.incrementRelease();
                return null;
            }
            destinations.put(key, destination);
            open.add(destination);
            waiting.add(destination);
            requester.destinations++;
            channelsOpen.setRelease(destinations.size());
        }
        destination.lastUsedMs = nowMs;
        requester.lastDestination = destination;
        requester.lastStreamId = streamId;
        requester.lastChannelLength = length;
        buffer.getBytes(offset, requester.lastChannel, 0, length);
        return destination;
    }

    /**
     * Count a request that names nowhere to answer it (it could not be read, or is no request).
     */
    void unanswerable()
    {
        dropped.incrementRelease();
    }

    /**
     * Take one of the requester's tokens.
     *
     * @param requester who asks.
     * @param nowMs     the clock.
     * @return 0 if it may ask now; otherwise how long until it may (ns).
     */
    long takeToken(final Requester requester, final long nowMs)
    {
        final long capacityMilli = 1000L * ratePerSecond;
        final long elapsedMs = nowMs - requester.lastRefillMs;
        if (elapsedMs > 0)
        {
            requester.tokensMilli = Math.min(capacityMilli, requester.tokensMilli + elapsedMs * ratePerSecond);
            requester.lastRefillMs = nowMs;
        }
        if (requester.tokensMilli >= 1000)
        {
            requester.tokensMilli -= 1000;
            return 0;
        }
        final long missingMilli = 1000 - requester.tokensMilli;
        final long waitMs = (missingMilli + ratePerSecond - 1) / ratePerSecond;
        return Math.max(1, waitMs) * 1_000_000L;
    }

    /**
     * Queue a refusal (a whole message) for its destination; dropped (counted) when its queue is full.
     *
     * @param destination where it goes.
     * @param buffer      holding it.
     * @param offset      where it starts.
     * @param length      its length, at most {@link #REFUSAL_SLOT} - 4.
     * @param droppedRefusals counts a refusal that found its queue full.
     */
    void queueRefusal(
        final Destination destination,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final AtomicCounter droppedRefusals)
    {
        if (destination.refusalCount == REFUSALS_PER_DESTINATION)
        {
            droppedRefusals.incrementRelease();
            return;
        }
        final int at = ((destination.refusalHead + destination.refusalCount) % REFUSALS_PER_DESTINATION) *
            REFUSAL_SLOT;
        destination.refusals.putInt(at, length);
        destination.refusals.putBytes(at + 4, buffer, offset, length);
        destination.refusalCount++;
    }

    /**
     * Finish the publications being added, send the refusals waiting, close what is idle.
     *
     * @param nowMs the clock.
     * @return work done.
     */
    int poll(final long nowMs)
    {
        int work = 0;
        for (int i = waiting.size() - 1; i >= 0; i--)
        {
            final Destination destination = waiting.get(i);
            try
            {
                final ExclusivePublication publication = aeron.getExclusivePublication(destination.registrationId);
                if (null != publication)
                {
                    destination.publication = publication;
                    waiting.remove(i);
                    work++;
                }
            }
            catch (final AeronException ex)
            {
                destination.failed = true;
                waiting.remove(i);
                work++;
            }
        }
        for (int i = 0, n = open.size(); i < n; i++)
        {
            work += sendRefusals(open.get(i), nowMs);
        }
        if (nowMs - lastHousekeepingMs >= HOUSEKEEPING_MS)
        {
            lastHousekeepingMs = nowMs;
            work += closeIdle(nowMs);
        }
        return work;
    }

    private int sendRefusals(final Destination destination, final long nowMs)
    {
        int sent = 0;
        while (destination.refusalCount > 0)
        {
            final ExclusivePublication publication = destination.connected();
            if (null == publication)
            {
                if (destination.unreachable(nowMs))
                {
                    destination.refusalCount = 0; // nobody to tell: the requester asks again
                }
                break;
            }
            final int at = destination.refusalHead * REFUSAL_SLOT;
            final long result = publication.offer(destination.refusals, at + 4, destination.refusals.getInt(at));
            if (result < 0 && result != Publication.NOT_CONNECTED)
            {
                break; // back-pressured: next duty cycle
            }
            destination.refusalHead = (destination.refusalHead + 1) % REFUSALS_PER_DESTINATION;
            destination.refusalCount--;
            sent++;
        }
        return sent;
    }

    private int closeIdle(final long nowMs)
    {
        int closed = 0;
        for (int i = open.size() - 1; i >= 0; i--)
        {
            final Destination destination = open.get(i);
            final boolean idle = nowMs - destination.lastUsedMs > IDLE_MS;
            if (destination.pending == 0 && destination.refusalCount == 0 && (idle || destination.failed))
            {
                open.remove(i);
                destinations.remove(destination.key);
                remove(destination);
                closed++;
            }
        }
        final Iterator<Requester> requesters = udpRequesters.values().iterator();
        while (requesters.hasNext())
        {
            final Requester requester = requesters.next();
            if (requester.destinations == 0 && nowMs - requester.lastUsedMs > REQUESTER_IDLE_MS)
            {
                requesters.remove();
            }
        }
        final Int2ObjectHashMap<Requester>.ValueIterator ipc = ipcRequesters.values().iterator();
        while (ipc.hasNext())
        {
            final Requester requester = ipc.next();
            if (requester.destinations == 0 && nowMs - requester.lastUsedMs > REQUESTER_IDLE_MS)
            {
                ipc.remove();
            }
        }
        channelsOpen.setRelease(destinations.size());
        return closed;
    }

    private void remove(final Destination destination)
    {
        destination.owner.destinations--;
        waiting.remove(destination);
        if (null != destination.publication)
        {
            destination.publication.close(); // asynchronous: the client conductor tells the driver
            destination.publication = null;
        }
        else if (!destination.failed)
        {
            aeron.asyncRemovePublication(destination.registrationId);
        }
        destination.failed = true;
    }

    /** @return response channels open now. */
    int size()
    {
        return destinations.size();
    }

    public void close()
    {
        for (final Destination destination : destinations.values())
        {
            if (null != destination.publication)
            {
                destination.publication.close();
            }
        }
        destinations.clear();
        open.clear();
        waiting.clear();
        channelsOpen.setRelease(0);
    }

    private Requester requester(final Image image, final long nowMs)
    {
        final String source = image.sourceIdentity();
        if (CommonContext.IPC_MEDIA.equals(source) || CommonContext.IPC_CHANNEL.equals(source))
        {
            Requester requester = ipcRequesters.get(image.sessionId());
            if (null == requester && ipcRequesters.size() + udpRequesters.size() < MAX_REQUESTERS)
            {
                requester = new Requester("ipc session " + image.sessionId(), 1000L * ratePerSecond, nowMs);
                ipcRequesters.put(image.sessionId(), requester);
            }
            return requester;
        }
        final int colon = null == source ? -1 : source.lastIndexOf(':');
        if (colon <= 0)
        {
            return null;
        }
        final String address = source.substring(0, colon);
        Requester requester = udpRequesters.get(address);
        if (null == requester && ipcRequesters.size() + udpRequesters.size() < MAX_REQUESTERS)
        {
            requester = new Requester(address, 1000L * ratePerSecond, nowMs);
            udpRequesters.put(address, requester);
        }
        return requester;
    }

    /**
     * The canonical key of the destination a request names, if it is the requester's own.
     *
     * @param image    the request's image.
     * @param channel  the response channel named.
     * @param streamId the response stream named.
     * @return {@code ipc/STREAM} or {@code udp/ADDRESS:PORT/STREAM} (ADDRESS canonical), or null if refused.
     */
    static String key(final Image image, final String channel, final int streamId)
    {
        final ChannelUri uri;
        try
        {
            uri = ChannelUri.parse(channel);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
        if (null != uri.prefix() && !uri.prefix().isEmpty() || streamId == 0 ||
            streamId == io.aeron.protocol.StatusMessageFlyweight.END_OF_STREAM_FLAG)
        {
            return null;
        }
        final String source = image.sourceIdentity();
        final boolean fromIpc = CommonContext.IPC_MEDIA.equals(source) || CommonContext.IPC_CHANNEL.equals(source);
        final int[] parameters = new int[1];
        uri.forEachParameter((name, value) -> parameters[0]++);
        if (uri.isIpc())
        {
            return fromIpc && parameters[0] == 0 ? "ipc/" + streamId : null;
        }
        final String endpoint = uri.get(CommonContext.ENDPOINT_PARAM_NAME);
        if (fromIpc || !uri.isUdp() || null == endpoint || parameters[0] != 1)
        {
            return null;
        }
        final InetAddress named = numericAddress(endpoint);
        final InetAddress from = sourceAddress(source);
        if (null == named || null == from || !named.equals(from) || named.isAnyLocalAddress() ||
            named.isMulticastAddress())
        {
            return null;
        }
        final int port = port(endpoint);
        return port <= 0 ? null : "udp/" + hostText(named) + ":" + port + "/" + streamId;
    }

    /** The channel of a destination, with the service's term length. */
    private String publicationChannel(final String key)
    {
        final String[] parts = key.split("/");
        if ("ipc".equals(parts[0]))
        {
            return "aeron:ipc?term-length=" + termLength;
        }
        return "aeron:udp?endpoint=" + parts[1] + "|term-length=" + termLength;
    }

    private static String hostText(final InetAddress address)
    {
        return address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
    }

    private static int port(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        try
        {
            final int port = Integer.parseInt(endpoint.substring(colon + 1));
            return port >= 1 && port <= 65535 ? port : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * The address of {@code host:port} when host is a numeric IPv4 literal or a bracketed IPv6 one (no zone) and the
     * port is 1..65535: never a name, so never a lookup; null otherwise.
     */
    static InetAddress numericAddress(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || port(endpoint) <= 0)
        {
            return null;
        }
        final String host = endpoint.substring(0, colon);
        final boolean v6 = host.length() > 2 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']';
        return literal(v6 ? host.substring(1, host.length() - 1) : host, v6);
    }

    /**
     * The address a request came from: an image's source identity, {@code host:port} with the host as the media
     * driver wrote it (an IPv6 one unbracketed, perhaps with a zone).
     */
    static InetAddress sourceAddress(final String sourceIdentity)
    {
        final int colon = null == sourceIdentity ? -1 : sourceIdentity.lastIndexOf(':');
        if (colon <= 0)
        {
            return null;
        }
        String host = sourceIdentity.substring(0, colon);
        if (host.length() > 2 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']')
        {
            host = host.substring(1, host.length() - 1);
        }
        final int zone = host.indexOf('%');
        if (zone > 0)
        {
            host = host.substring(0, zone);
        }
        return literal(host, host.indexOf(':') >= 0);
    }

    private static InetAddress literal(final String literal, final boolean v6)
    {
        if (literal.isEmpty())
        {
            return null;
        }
        int dots = 0;
        for (int i = 0; i < literal.length(); i++)
        {
            final char c = literal.charAt(i);
            dots += c == '.' ? 1 : 0;
            final boolean ok = v6 ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') ||
                c == ':' || c == '.' : (c >= '0' && c <= '9') || c == '.';
            if (!ok)
            {
                return null;
            }
        }
        try
        {
            if (v6)
            {
                return InetAddress.getByName(literal); // with a ':' it can only be a literal: never looked up
            }
            final String[] octets = literal.split("\\.", -1);
            if (dots != 3 || octets.length != 4)
            {
                return null;
            }
            final byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++)
            {
                if (octets[i].isEmpty() || octets[i].length() > 3 || Integer.parseInt(octets[i]) > 255)
                {
                    return null;
                }
                bytes[i] = (byte)Integer.parseInt(octets[i]);
            }
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException | NumberFormatException ex)
        {
            return null;
        }
    }

    private static boolean sameBytes(final byte[] cached, final DirectBuffer buffer, final int offset,
        final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (cached[i] != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }
}
