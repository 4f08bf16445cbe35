package io.ringex.gateway.web;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.LevelBook;
import io.ringex.gateway.marketdata.MarketDataCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The market-data WebSocket streams ({@code /ws/v1/market}), served from the gateway's copy of the market ({@link
 * MarketDataCache}); docs/client.md, "The market stream".
 * <p>
 * Each book message carries {@code seq} and {@code prevSeq}, and an update holds every level changed since the last
 * message, so conflation needs no queue. A stream whose client does not read is closed with a reason, never waited for.
 * <p>
 * Threading: the gateway's agent thread only.
 */
final class WebMarketStreams
{
    /** Subscriptions one stream may hold. */
    static final int MAX_SUBSCRIPTIONS = 32;
    /** The deepest book a subscription may ask for. */
    static final int MAX_DEPTH = 100;
    /** The book depth when none is asked for. */
    static final int DEFAULT_DEPTH = 10;
    /** Trades in one message at most. */
    static final int TRADES_PER_MESSAGE = 100;

    private static final Logger LOG = LoggerFactory.getLogger(WebMarketStreams.class);
    private static final Set<String> CHANNELS = Set.of("book", "trades", "bbo", "statistics", "status");
    private static final Set<String> OP_MEMBERS = Set.of("op", "channel", "symbol", "depth", "fromSeq");

    /** A message built in this cycle that says nothing (a book changed beyond a subscriber's depth). */
    private static final ByteBuf NOTHING = Unpooled.EMPTY_BUFFER;

    private final MarketDataCache market;
    private final WriteBatch writes;
    private final Map<Channel, List<Subscription>> streams = new HashMap<>();
    private final StringBuilder json = new StringBuilder(1024);
    /**
     * The messages built in this cycle, by what they depend on: subscribers in the same place on the same channel of
     * the same instrument get the same bytes, encoded once.
     */
    private final Map<MessageKey, ByteBuf> built = new HashMap<>();

    /**
     * What a message of a cycle depends on: for a book, the depth and the sequence the subscriber holds (whose
     * levels are the book's top at that sequence), for trades the range, else the channel alone.
     */
    private record MessageKey(InstrumentFeed feed, String channel, int depth, long from, long to)
    {
    }

    private static final class Subscription
    {
        final String channel;
        final InstrumentFeed feed;
        final int depth;
        final LevelBook sent = new LevelBook();
        boolean snapshotDue = true;
        long seqSent;
        long bookVersionSent = -1;
        long gapsSent;
        long tradesSent;
        long statisticsVersionSent = -1;
        long statusVersionSent = -1;
        long bidSent = Long.MIN_VALUE;
        long bidQuantitySent = -1;
        long askSent = Long.MIN_VALUE;
        long askQuantitySent = -1;

        Subscription(final String channel, final InstrumentFeed feed, final int depth)
        {
            this.channel = channel;
            this.feed = feed;
            this.depth = depth;
            this.gapsSent = feed.gaps();
            this.tradesSent = feed.tradeCount();
        }
    }

    /**
     * @param market the gateway's copy of the market.
     * @param writes where this cycle's frames wait for their event loops (the agent flushes it).
     */
    WebMarketStreams(final MarketDataCache market, final WriteBatch writes)
    {
        this.market = market;
        this.writes = writes;
    }

    /**
     * A stream opened (its handshake was signed by a key that may read).
     *
     * @param channel the connection.
     */
    void open(final Channel channel)
    {
        streams.put(channel, new ArrayList<>());
        send(channel, "{\"type\":\"connected\"}");
    }

    /**
     * A client's request on its stream: subscribe or unsubscribe. A bad one is answered with an error naming the
     * reason; the stream stays open.
     *
     * @param channel the connection.
     * @param op      the request's JSON members.
     */
    void onOp(final Channel channel, final Map<String, Object> op)
    {
        final List<Subscription> subscriptions = streams.get(channel);
        if (null == subscriptions)
        {
            return;
        }
        final String refused = apply(channel, subscriptions, op);
        if (null != refused)
        {
            json.setLength(0);
            FlatJson.quote(json.append("{\"type\":\"error\",\"reason\":"), refused).append('}');
            send(channel, json);
        }
    }

    private String apply(final Channel channel, final List<Subscription> subscriptions, final Map<String, Object> op)
    {
        for (final String name : op.keySet())
        {
            if (!OP_MEMBERS.contains(name))
            {
                return "unknown member \"" + name + "\"";
            }
        }
        final Object what = op.get("op");
        final Object name = op.get("channel");
        if (!(name instanceof String) || !CHANNELS.contains(name))
        {
            return "channel must be one of book, trades, bbo, statistics, status";
        }
        final Object symbol = op.get("symbol");
        final InstrumentFeed feed = symbol instanceof String ? market.bySymbol((String)symbol) : null;
        if (null == feed || !feed.isDefined())
        {
            return "symbol: a listed symbol is required";
        }
        final Subscription existing = find(subscriptions, (String)name, feed);
        if ("unsubscribe".equals(what))
        {
            if (null == existing)
            {
                return "not subscribed to " + name + " " + symbol;
            }
            subscriptions.remove(existing);
            answer(channel, "unsubscribed", existing);
            return null;
        }
        if (!"subscribe".equals(what))
        {
            return "op must be subscribe or unsubscribe";
        }
        if (null != existing)
        {
            return "already subscribed to " + name + " " + symbol;
        }
        if (subscriptions.size() >= MAX_SUBSCRIPTIONS)
        {
            return "at most " + MAX_SUBSCRIPTIONS + " subscriptions a stream";
        }
        int depth = 0;
        if ("book".equals(name))
        {
            depth = op.containsKey("depth") ? (int)Math.min(Integer.MAX_VALUE,
                WebGatewayAgent.decimal(op.get("depth"), 0)) : DEFAULT_DEPTH;
            if (depth < 1 || depth > MAX_DEPTH)
            {
                return "depth must be a whole number, 1.." + MAX_DEPTH;
            }
        }
        else if (op.containsKey("depth"))
        {
            return "depth is for the book channel";
        }
        long fromSeq = -1;
        if (op.containsKey("fromSeq"))
        {
            if (!"trades".equals(name))
            {
                return "fromSeq is for the trades channel";
            }
            fromSeq = WebGatewayAgent.decimal(op.get("fromSeq"), 0);
            if (fromSeq < 0)
            {
                return "fromSeq must be a whole number";
            }
        }
        final Subscription subscription = new Subscription((String)name, feed, depth);
        subscriptions.add(subscription);
        answer(channel, "subscribed", subscription);
        if (fromSeq >= 0)
        {
            resumeTrades(channel, subscription, fromSeq);
        }
        return null;
    }

    private static Subscription find(final List<Subscription> subscriptions, final String name,
        final InstrumentFeed feed)
    {
        for (final Subscription subscription : subscriptions)
        {
            if (subscription.feed == feed && subscription.channel.equals(name))
            {
                return subscription;
            }
        }
        return null;
    }

    private void answer(final Channel channel, final String type, final Subscription subscription)
    {
        json.setLength(0);
        json.append("{\"type\":\"").append(type).append("\",\"channel\":\"").append(subscription.channel)
            .append("\",\"symbol\":");
        FlatJson.quote(json, subscription.feed.symbol());
        if (subscription.depth > 0)
        {
            json.append(",\"depth\":").append(subscription.depth);
        }
        send(channel, json.append('}'));
    }

    /** Trades after {@code fromSeq} that the gateway still holds, after a gap notice if it may not hold them all. */
    private void resumeTrades(final Channel channel, final Subscription subscription, final long fromSeq)
    {
        final InstrumentFeed feed = subscription.feed;
        final long count = feed.tradeCount();
        long first = Math.max(0, count - InstrumentFeed.TRADE_RING_CAPACITY);
        while (first < count && feed.tradeSequence(first) <= fromSeq)
        {
            first++;
        }
        if (fromSeq < feed.tradesCompleteAfter())
        {
            gap(channel, subscription, "trades after seq " + fromSeq + " are not all held here; every trade after " +
                "seq " + feed.tradesCompleteAfter() + " is");
        }
        subscription.tradesSent = first;
    }

    private void gap(final Channel channel, final Subscription subscription, final String detail)
    {
        json.setLength(0);
        json.append("{\"type\":\"gap\",\"channel\":\"").append(subscription.channel).append("\",\"symbol\":");
        FlatJson.quote(json, subscription.feed.symbol()).append(",\"detail\":");
        FlatJson.quote(json, detail).append('}');
        send(channel, json);
    }

    /**
     * A stream closed by its client or the gateway.
     *
     * @param channel the connection.
     */
    void close(final Channel channel)
    {
        streams.remove(channel);
    }

    /**
     * Close every stream with a reason (the key was revoked, the gateway stops).
     *
     * @param reason told to each client.
     */
    void closeAll(final String reason)
    {
        for (final Channel channel : streams.keySet())
        {
            channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE, reason))
                .addListener(ChannelFutureListener.CLOSE);
        }
        streams.clear();
    }

    /**
     * Send each subscription what changed since it was last sent to.
     *
     * @return messages sent.
     */
    int publish()
    {
        int work = 0;
        for (final Iterator<Map.Entry<Channel, List<Subscription>>> it = streams.entrySet().iterator(); it.hasNext(); )
        {
            final Map.Entry<Channel, List<Subscription>> stream = it.next();
            final Channel channel = stream.getKey();
            if (!channel.isActive())
            {
                it.remove();
                continue;
            }
            for (final Subscription subscription : stream.getValue())
            {
                work += publish(channel, subscription);
            }
            if (work > 0 && !channel.isWritable())
            {
                it.remove();
                LOG.warn("web market stream {} closed: not reading", channel.remoteAddress());
                // Closed at once: a close frame queued behind unread data would never be flushed.
                channel.close();
            }
        }
        for (final ByteBuf message : built.values())
        {
            message.release();
        }
        built.clear();
        return work;
    }

    /**
     * Send the message of the key built in this cycle, building it first if no subscriber needed it yet.
     *
     * @return 1 if sent, 0 if the message says nothing.
     */
    private int sendBuilt(final Channel channel, final MessageKey key, final Supplier<CharSequence> build)
    {
        ByteBuf message = built.get(key);
        if (null == message)
        {
            final CharSequence text = build.get();
            message = null == text ? NOTHING :
                Unpooled.wrappedBuffer(text.toString().getBytes(StandardCharsets.UTF_8));
            built.put(key, message);
        }
        if (message == NOTHING)
        {
            return 0;
        }
        writes.add(channel, new TextWebSocketFrame(message.retainedDuplicate()));
        return 1;
    }

    /**
     * A heartbeat to every stream.
     *
     * @param heartbeat the message.
     */
    void heartbeat(final String heartbeat)
    {
        for (final Iterator<Channel> it = streams.keySet().iterator(); it.hasNext(); )
        {
            final Channel channel = it.next();
            if (channel.isWritable())
            {
                send(channel, heartbeat);
            }
            else
            {
                it.remove();
                LOG.warn("web market stream {} closed: not reading", channel.remoteAddress());
                channel.close();
            }
        }
    }

    private int publish(final Channel channel, final Subscription subscription)
    {
        final InstrumentFeed feed = subscription.feed;
        switch (subscription.channel)
        {
            case "book":
                return publishBook(channel, subscription, feed);
            case "trades":
                return publishTrades(channel, subscription, feed);
            case "bbo":
                return publishBbo(channel, subscription, feed);
            case "statistics":
                if (feed.statisticsVersion() == subscription.statisticsVersionSent)
                {
                    return 0;
                }
                subscription.statisticsVersionSent = feed.statisticsVersion();
                return sendBuilt(channel, new MessageKey(feed, "statistics", 0, 0, 0), () ->
                {
                    start("statistics", feed).append(",\"open\":");
                    price(feed.openPrice(), feed).append(",\"high\":");
                    price(feed.highPrice(), feed).append(",\"low\":");
                    price(feed.lowPrice(), feed).append(",\"last\":");
                    price(feed.lastPrice(), feed).append(",\"volume\":\"").append(feed.volume())
                        .append("\",\"vwap\":");
                    return price(feed.vwapPrice(), feed).append('}');
                });
            default:
                if (feed.statusVersion() == subscription.statusVersionSent)
                {
                    return 0;
                }
                subscription.statusVersionSent = feed.statusVersion();
                return sendBuilt(channel, new MessageKey(feed, "status", 0, 0, 0),
                    () -> start("status", feed).append(",\"status\":\"").append(feed.status()).append("\"}"));
        }
    }

    private int publishBook(final Channel channel, final Subscription subscription, final InstrumentFeed feed)
    {
        if (!feed.isSynced())
        {
            return 0; // the gateway's book waits for the engine's snapshot; so do its subscribers
        }
        if (feed.gaps() != subscription.gapsSent)
        {
            subscription.gapsSent = feed.gaps();
            subscription.snapshotDue = true;
        }
        if (!subscription.snapshotDue && feed.bookVersion() == subscription.bookVersionSent)
        {
            return 0;
        }
        final boolean snapshot = subscription.snapshotDue;
        final int depth = subscription.depth;
        final long seq = feed.appliedSequence();
        subscription.bookVersionSent = feed.bookVersion();
        subscription.snapshotDue = false;
        final int sent = sendBuilt(channel, new MessageKey(feed, "book", depth, snapshot ? -1 : subscription.seqSent,
            seq), () -> bookMessage(subscription, feed, snapshot));
        if (sent > 0)
        {
            subscription.sent.copyTop(feed.book(), depth);
            subscription.seqSent = seq;
        }
        return sent; // none: the book changed beyond the subscriber's depth
    }

    /**
     * A snapshot, or the levels that changed since what the subscriber holds (the book's top at its {@code seqSent});
     * null if none did.
     */
    private StringBuilder bookMessage(
        final Subscription subscription, final InstrumentFeed feed, final boolean snapshot)
    {
        final LevelBook book = feed.book();
        final LevelBook sent = subscription.sent;
        start("book", feed).append(",\"snapshot\":").append(snapshot).append(",\"seq\":")
            .append(feed.appliedSequence());
        if (snapshot)
        {
            sent.clear();
        }
        else
        {
            json.append(",\"prevSeq\":").append(subscription.seqSent);
        }
        final int depth = subscription.depth;
        boolean changed = snapshot;
        for (int side = LevelBook.BID; side <= LevelBook.ASK; side++)
        {
            json.append(side == LevelBook.BID ? ",\"bids\":[" : ",\"asks\":[");
            final int mark = json.length();
            final int levels = Math.min(depth, book.levels(side));
            // Levels the subscriber holds that left its depth.
            for (int i = 0; i < sent.levels(side); i++)
            {
                final long price = sent.price(side, i);
                if (!holds(book, side, levels, price))
                {
                    level(mark, feed, price, 0);
                }
            }
            for (int i = 0; i < levels; i++)
            {
                final long price = book.price(side, i);
                final long quantity = book.quantity(side, i);
                if (sent.quantityAt(side, price) != quantity)
                {
                    level(mark, feed, price, quantity);
                }
            }
            changed |= json.length() > mark;
            json.append(']');
        }
        return changed ? json.append('}') : null;
    }

    private static boolean holds(final LevelBook book, final int side, final int levels, final long price)
    {
        for (int i = 0; i < levels; i++)
        {
            if (book.price(side, i) == price)
            {
                return true;
            }
        }
        return false;
    }

    private void level(final int mark, final InstrumentFeed feed, final long price, final long quantity)
    {
        if (json.length() > mark)
        {
            json.append(',');
        }
        json.append('[');
        price(price, feed).append(",\"").append(quantity).append("\"]");
    }

    private int publishTrades(final Channel channel, final Subscription subscription, final InstrumentFeed feed)
    {
        final long count = feed.tradeCount();
        if (subscription.tradesSent == count && feed.gaps() == subscription.gapsSent)
        {
            return 0;
        }
        if (feed.gaps() != subscription.gapsSent)
        {
            subscription.gapsSent = feed.gaps();
            gap(channel, subscription, "the gateway's feed lost messages; trades among them are missing");
        }
        if (subscription.tradesSent < count - InstrumentFeed.TRADE_RING_CAPACITY)
        {
            gap(channel, subscription, (count - InstrumentFeed.TRADE_RING_CAPACITY - subscription.tradesSent) +
                " trades passed while this stream was not read");
            subscription.tradesSent = count - InstrumentFeed.TRADE_RING_CAPACITY;
        }
        int sent = 0;
        while (subscription.tradesSent < count)
        {
            final long from = subscription.tradesSent;
            final long end = Math.min(count, from + TRADES_PER_MESSAGE);
            sent += sendBuilt(channel, new MessageKey(feed, "trades", 0, from, end), () ->
            {
                start("trades", feed).append(",\"trades\":[");
                appendTrades(feed, from, end);
                return json.append("]}");
            });
            subscription.tradesSent = end;
        }
        return sent;
    }

    private int publishBbo(final Channel channel, final Subscription subscription, final InstrumentFeed feed)
    {
        if (!feed.isSynced())
        {
            return 0;
        }
        final LevelBook book = feed.book();
        final boolean bids = book.levels(LevelBook.BID) > 0;
        final boolean asks = book.levels(LevelBook.ASK) > 0;
        final long bid = bids ? book.price(LevelBook.BID, 0) : InstrumentFeed.NO_PRICE;
        final long bidQuantity = bids ? book.quantity(LevelBook.BID, 0) : 0;
        final long ask = asks ? book.price(LevelBook.ASK, 0) : InstrumentFeed.NO_PRICE;
        final long askQuantity = asks ? book.quantity(LevelBook.ASK, 0) : 0;
        if (bid == subscription.bidSent && bidQuantity == subscription.bidQuantitySent &&
            ask == subscription.askSent && askQuantity == subscription.askQuantitySent)
        {
            return 0;
        }
        subscription.bidSent = bid;
        subscription.bidQuantitySent = bidQuantity;
        subscription.askSent = ask;
        subscription.askQuantitySent = askQuantity;
        return sendBuilt(channel, new MessageKey(feed, "bbo", 0, 0, 0), () ->
        {
            start("bbo", feed).append(",\"seq\":").append(feed.appliedSequence()).append(",\"bidPrice\":");
            price(bid, feed).append(",\"bidQuantity\":\"").append(bidQuantity).append("\",\"askPrice\":");
            return price(ask, feed).append(",\"askQuantity\":\"").append(askQuantity).append("\"}");
        });
    }

    /**
     * The book as {@code GET /api/v1/book} answers it: the levels to a depth, with the sequence it is at.
     *
     * @param feed  the instrument.
     * @param depth levels per side.
     * @return the answer, or null while the gateway's book waits for the engine's snapshot.
     */
    StringBuilder book(final InstrumentFeed feed, final int depth)
    {
        if (!feed.isSynced())
        {
            return null;
        }
        final LevelBook book = feed.book();
        start("book", feed).append(",\"snapshot\":true,\"seq\":").append(feed.appliedSequence());
        for (int side = LevelBook.BID; side <= LevelBook.ASK; side++)
        {
            json.append(side == LevelBook.BID ? ",\"bids\":[" : ",\"asks\":[");
            final int mark = json.length();
            for (int i = 0, levels = Math.min(depth, book.levels(side)); i < levels; i++)
            {
                level(mark, feed, book.price(side, i), book.quantity(side, i));
            }
            json.append(']');
        }
        return json.append('}');
    }

    /**
     * The recent trades as {@code GET /api/v1/trades} answers them, oldest first.
     *
     * @param feed  the instrument.
     * @param limit trades at most.
     * @return the answer.
     */
    StringBuilder trades(final InstrumentFeed feed, final int limit)
    {
        final long count = feed.tradeCount();
        start("trades", feed).append(",\"trades\":[");
        final long first = Math.max(Math.max(0, count - InstrumentFeed.TRADE_RING_CAPACITY), count - limit);
        appendTrades(feed, first, count);
        return json.append("]}");
    }

    private void appendTrades(final InstrumentFeed feed, final long first, final long end)
    {
        for (long i = first; i < end; i++)
        {
            if (i > first)
            {
                json.append(',');
            }
            json.append("{\"seq\":").append(feed.tradeSequence(i)).append(",\"tradeId\":").append(feed.tradeId(i))
                .append(",\"price\":");
            price(feed.tradePrice(i), feed).append(",\"quantity\":\"").append(feed.tradeQuantity(i))
                .append("\",\"aggressor\":\"").append(feed.tradeAggressor(i) == 1 ? "BUY" : "SELL")
                .append("\",\"timeNs\":").append(feed.tradeTimeNs(i)).append('}');
        }
    }

    private StringBuilder start(final String type, final InstrumentFeed feed)
    {
        json.setLength(0);
        json.append("{\"type\":\"").append(type).append("\",\"symbol\":");
        return FlatJson.quote(json, feed.symbol());
    }

    /** A price as a quoted decimal at the instrument's scale, or null for none. */
    private StringBuilder price(final long price, final InstrumentFeed feed)
    {
        if (price == InstrumentFeed.NO_PRICE)
        {
            return json.append("null");
        }
        return json.append('"').append(BigDecimal.valueOf(price, Math.max(0, feed.priceScale())).toPlainString())
            .append('"');
    }

    private static void send(final Channel channel, final CharSequence message)
    {
        channel.writeAndFlush(new TextWebSocketFrame(message.toString()));
    }
}
