package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.ringex.gateway.EngineIngress;
import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.auth.UserDirectory;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

/**
 * The user streams ({@code /ws/v1/user}): a WebSocket of one key, receiving as JSON every engine event for its user's
 * keys' web sessions, account and trading-status changes, and heartbeats (docs/client.md, "The user stream"). A stream
 * whose client does not read is closed at once.
 * <p>
 * Cancel-on-disconnect belongs to the key's session, not the stream: when the key's last stream that asked for it
 * closes, the key's orders, those placed over REST included, are cancelled (after the user's grace, if it has one).
 * <p>
 * Threading: {@link #closed} from any thread (a connection's close); everything else on the gateway's agent thread.
 */
final class WebUserStreams
{
    private static final Logger LOG = LoggerFactory.getLogger(WebUserStreams.class);
    private static final String COD_OP = "cancelOnDisconnect";

    private final Map<String, List<Channel>> streamsByUser = new HashMap<>();
    private final Map<Channel, ApiKey> cancelOnDisconnect = new HashMap<>();
    private final ManyToOneConcurrentLinkedQueue<Channel> closedChannels = new ManyToOneConcurrentLinkedQueue<>();
    private final LongHashSet changedAccounts = new LongHashSet();
    private final Int2ObjectHashMap<TradingStatus> statusSent = new Int2ObjectHashMap<>();
    private final UserDirectory users;
    private final EngineIngress ingress;
    private final IntToLongFunction sessionOfKey;
    private final MarketDataCache market;
    private final AccountPictures accounts;
    private final InstrumentDirectory instruments;
    private final WriteBatch writes;
    private long statusChangesSeen = -1;

    /**
     * @param users        the gateway's user directory.
     * @param ingress      the engine's ingress (cancel-on-disconnect and session status go through it).
     * @param sessionOfKey a key number's web session id.
     * @param market       the gateway's copy of the market (trading status).
     * @param accounts     the accounts' pictures.
     * @param instruments  symbols and price scales.
     * @param writes       where this cycle's frames wait for their event loops (the agent flushes it).
     */
    WebUserStreams(
        final UserDirectory users,
        final EngineIngress ingress,
        final IntToLongFunction sessionOfKey,
        final MarketDataCache market,
        final AccountPictures accounts,
        final InstrumentDirectory instruments,
        final WriteBatch writes)
    {
        this.writes = writes;
        this.users = users;
        this.ingress = ingress;
        this.sessionOfKey = sessionOfKey;
        this.market = market;
        this.accounts = accounts;
        this.instruments = instruments;
    }

    /**
     * Register a new stream of a key (its key and user checked by the caller) and tell it the trading status of
     * every instrument and the picture of each of its user's accounts.
     *
     * @param channel the stream.
     * @param key     its key.
     */
    void open(final Channel channel, final ApiKey key)
    {
        final List<Channel> streams = streamsByUser.computeIfAbsent(key.username(), u -> new ArrayList<>());
        streams.add(channel);
        writes.add(channel, new TextWebSocketFrame(FlatJson.quote(
            new StringBuilder("{\"type\":\"subscribed\",\"user\":"), key.username()).append('}').toString()));
        for (final InstrumentFeed feed : market.instruments())
        {
            if (null != feed.symbol())
            {
                writes.add(channel, new TextWebSocketFrame(tradingStatus(feed)));
            }
        }
        final User user = users.user(key.username());
        for (int i = 0; null != user && i < user.accountCount(); i++)
        {
            writes.add(channel, new TextWebSocketFrame(account(user.account(i))));
        }
    }

    /**
     * A request a stream's client sent: {@code {"op":"cancelOnDisconnect","enabled":true|false}}, answered on the
     * stream ({@code "type":"cancelOnDisconnect"} with the grace, or {@code "type":"error"} with the reason).
     *
     * @param channel the stream.
     * @param key     its key.
     * @param members the request's members.
     */
    void onRequest(final Channel channel, final ApiKey key, final Map<String, Object> members)
    {
        if (!COD_OP.equals(members.get("op")) || members.size() != 2 || !(members.get("enabled") instanceof Boolean))
        {
            error(channel, "a user stream takes {\"op\":\"cancelOnDisconnect\",\"enabled\":true|false} only");
            return;
        }
        if (!key.mayTrade())
        {
            error(channel, "this key may read, not trade: it has no orders to cancel on disconnect");
            return;
        }
        final boolean enabled = (Boolean)members.get("enabled");
        final User user = users.user(key.username());
        if (enabled)
        {
            final boolean first = !askedForCancelOnDisconnect(key.number());
            cancelOnDisconnect.put(channel, key);
            if (first)
            {
                // a grace the engine runs from the key's last disconnect ends here: the client is back in time
                ingress.sessionStatus(sessionOfKey.applyAsLong(key.number()), firstAccount(user), true);
            }
        }
        else
        {
            cancelOnDisconnect.remove(channel);
        }
        push(channel, "{\"type\":\"cancelOnDisconnect\",\"enabled\":" + enabled + ",\"graceMs\":" +
            (null == user ? 0 : user.cancelOnDisconnectGraceMs()) + "}");
    }

    /**
     * A stream's connection closed (any thread): its cancel-on-disconnect, if it asked, is carried out on the next
     * duty cycle.
     *
     * @param channel the stream.
     */
    void closed(final Channel channel)
    {
        closedChannels.offer(channel);
    }

    /**
     * An account's picture changed: its users' streams are sent it on the next duty cycle.
     *
     * @param accountId the account.
     */
    void accountChanged(final long accountId)
    {
        if (!streamsByUser.isEmpty())
        {
            changedAccounts.add(accountId);
        }
    }

    /**
     * Send an engine event of one of a user's keys to the user's streams.
     *
     * @param username the user.
     * @param event    the event as JSON.
     */
    void deliver(final String username, final String event)
    {
        final List<Channel> streams = streamsByUser.get(username);
        if (null != streams)
        {
            for (int i = streams.size() - 1; i >= 0; i--)
            {
                push(streams, i, event);
            }
        }
    }

    /**
     * @param heartbeat the heartbeat for every stream.
     */
    void heartbeat(final String heartbeat)
    {
        for (final String username : new ArrayList<>(streamsByUser.keySet()))
        {
            deliver(username, heartbeat);
        }
    }

    /**
     * One duty cycle: closed streams' cancel-on-disconnect, changed accounts, changed trading status.
     *
     * @return work done.
     */
    int doWork()
    {
        int work = 0;
        Channel closed;
        while (null != (closed = closedChannels.poll()))
        {
            work++;
            final ApiKey key = cancelOnDisconnect.remove(closed);
            if (null != key && !askedForCancelOnDisconnect(key.number()))
            {
                cancelOrdersOf(key);
            }
        }
        if (!changedAccounts.isEmpty())
        {
            work += publishAccounts();
        }
        if (market.statusChanges() != statusChangesSeen)
        {
            statusChangesSeen = market.statusChanges();
            work += publishTradingStatus();
        }
        return work;
    }

    /**
     * Stop sending to a stream (its key was revoked or its user changed; the caller closes it).
     *
     * @param channel  the stream.
     * @param username its user.
     */
    void remove(final Channel channel, final String username)
    {
        final List<Channel> streams = streamsByUser.get(username);
        if (null != streams)
        {
            streams.remove(channel);
        }
    }

    /**
     * Stop sending to a user's streams (the caller closes them).
     *
     * @param username the user.
     */
    void removeUser(final String username)
    {
        streamsByUser.remove(username);
    }

    /**
     * The gateway is stopping: every stream is closed, and the keys whose streams asked for cancel-on-disconnect
     * have their orders cancelled now (the agent does not run again to see the closes).
     */
    void closeAll()
    {
        final Int2ObjectHashMap<ApiKey> cancelling = new Int2ObjectHashMap<>();
        for (final ApiKey key : cancelOnDisconnect.values())
        {
            cancelling.put(key.number(), key);
        }
        cancelOnDisconnect.clear();
        cancelling.values().forEach(this::cancelOrdersOf);
        for (final Iterator<List<Channel>> it = streamsByUser.values().iterator(); it.hasNext(); )
        {
            for (final Channel channel : it.next())
            {
                channel.close();
            }
            it.remove();
        }
    }

    private boolean askedForCancelOnDisconnect(final int keyNumber)
    {
        for (final ApiKey key : cancelOnDisconnect.values())
        {
            if (key.number() == keyNumber)
            {
                return true;
            }
        }
        return false;
    }

    private void cancelOrdersOf(final ApiKey key)
    {
        final User user = users.user(key.username());
        final int graceMs = null == user ? 0 : user.cancelOnDisconnectGraceMs();
        final long sessionId = sessionOfKey.applyAsLong(key.number());
        if (graceMs > 0)
        {
            LOG.info("web key {}: its last cancel-on-disconnect stream closed; its orders are cancelled in {} ms " +
                "unless a stream of it asks again", key.keyId(), graceMs);
            ingress.sessionStatus(sessionId, firstAccount(user), false, graceMs);
        }
        else
        {
            LOG.info("web key {}: its last cancel-on-disconnect stream closed; its orders are cancelled", key.keyId());
            ingress.cancelOnDisconnect(sessionId, firstAccount(user));
        }
    }

    private static long firstAccount(final User user)
    {
        return null == user || user.accountCount() == 0 ? 0 : user.account(0);
    }

    private int publishAccounts()
    {
        int work = 0;
        for (final Map.Entry<String, List<Channel>> entry : streamsByUser.entrySet())
        {
            final User user = users.user(entry.getKey());
            if (null == user)
            {
                continue;
            }
            for (int i = 0; i < user.accountCount(); i++)
            {
                if (changedAccounts.contains(user.account(i)))
                {
                    final String event = account(user.account(i));
                    final List<Channel> streams = entry.getValue();
                    for (int s = streams.size() - 1; s >= 0; s--)
                    {
                        push(streams, s, event);
                    }
                    work++;
                }
            }
        }
        changedAccounts.clear();
        return work;
    }

    private int publishTradingStatus()
    {
        int work = 0;
        for (final InstrumentFeed feed : market.instruments())
        {
            if (null == feed.symbol() || statusSent.get(feed.instrumentId()) == feed.status())
            {
                continue;
            }
            statusSent.put(feed.instrumentId(), feed.status());
            final String event = tradingStatus(feed);
            for (final String username : new ArrayList<>(streamsByUser.keySet()))
            {
                deliver(username, event);
            }
            work++;
        }
        return work;
    }

    private String account(final long accountId)
    {
        return accounts.append(new StringBuilder(512).append("{\"type\":\"account\",\"account\":"), accountId,
            instruments).append('}').toString();
    }

    private static String tradingStatus(final InstrumentFeed feed)
    {
        return FlatJson.quote(new StringBuilder("{\"type\":\"tradingStatus\",\"symbol\":"), feed.symbol())
            .append(",\"instrumentId\":").append(feed.instrumentId()).append(",\"status\":\"")
            .append(feed.status()).append("\"}").toString();
    }

    private void error(final Channel channel, final String reason)
    {
        push(channel, FlatJson.quote(new StringBuilder("{\"type\":\"error\",\"reason\":"), reason).append('}')
            .toString());
    }

    private void push(final Channel channel, final String message)
    {
        if (channel.isActive() && channel.isWritable())
        {
            writes.add(channel, new TextWebSocketFrame(message));
        }
    }

    /** Send one message to one stream; close a stream whose client does not read. */
    private void push(final List<Channel> streams, final int index, final String event)
    {
        final Channel channel = streams.get(index);
        if (!channel.isActive())
        {
            streams.remove(index);
            return;
        }
        if (!channel.isWritable())
        {
            streams.remove(index);
            LOG.warn("web user stream {} closed: not reading", channel.remoteAddress());
            // Closed at once: a close frame queued behind unread data would never be flushed.
            channel.close();
            return;
        }
        writes.add(channel, new TextWebSocketFrame(event));
    }
}
