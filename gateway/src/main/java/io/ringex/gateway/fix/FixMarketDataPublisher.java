package io.ringex.gateway.fix;

import io.ringex.gateway.fix.codecs.builder.MarketDataIncrementalRefreshEncoder;
import io.ringex.gateway.fix.codecs.builder.MarketDataSnapshotFullRefreshEncoder;
import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.LevelBook;
import org.agrona.concurrent.status.AtomicCounter;
import uk.co.real_logic.artio.builder.Encoder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sends FIX market data to the subscriptions: a MarketDataSnapshotFullRefresh (W), then MarketDataIncrementalRefresh
 * (X) messages, each the difference between the gateway's book and what the subscriber was last told.
 * <p>
 * Nothing is queued per subscriber: a slow one is skipped and later gets one X with the latest state, or a new W when
 * it fell more than {@link #MAX_INCREMENT_ENTRIES} level changes behind; so a subscriber that never reads never delays
 * the others.
 * <p>
 * Threading: the FIX agent thread only.
 */
final class FixMarketDataPublisher
{
    /** Level changes in one X beyond which a full refresh is sent instead. */
    static final int MAX_INCREMENT_ENTRIES = 100;
    /** Trades carried by one X; the rest follow in the next. */
    static final int MAX_TRADES_PER_MESSAGE = 64;

    private static final char NEW = '0';
    private static final char CHANGE = '1';
    private static final char DELETE = '2';
    private static final int MAX_ENTRIES = 2 * MAX_INCREMENT_ENTRIES + MAX_TRADES_PER_MESSAGE + 8;
    private static final long NONE = Long.MIN_VALUE;
    private static final long ENCODING_FAILED = Long.MIN_VALUE;

    private final List<MarketDataSubscription> subscriptions = new ArrayList<>();
    private final MarketDataSnapshotFullRefreshEncoder fullRefresh = new MarketDataSnapshotFullRefreshEncoder();
    private final MarketDataIncrementalRefreshEncoder incremental = new MarketDataIncrementalRefreshEncoder();
    private final StringBuilder entryId = new StringBuilder(20);
    private char[] actions = new char[MAX_ENTRIES];
    private char[] types = new char[MAX_ENTRIES];
    private long[] prices = new long[MAX_ENTRIES];
    private long[] sizes = new long[MAX_ENTRIES];
    private int[] orderCounts = new int[MAX_ENTRIES];
    private long[] tradeIds = new long[MAX_ENTRIES];
    private final AtomicCounter fullRefreshes;
    private final AtomicCounter incrementals;
    private final AtomicCounter deferred;
    private final AtomicCounter errors;
    private int entryCount;
    private RuntimeException lastFailure;
    private Consumer<MarketDataSubscription> onEncodingFailed;

    /**
     * @param fullRefreshes counts W sent.
     * @param incrementals  counts X sent.
     * @param deferred      counts the times a subscriber could not be sent to and was left to catch up later,
     *                      conflated.
     * @param errors        counts messages Artio could not encode (a bug; the subscription is dropped).
     */
    FixMarketDataPublisher(
        final AtomicCounter fullRefreshes,
        final AtomicCounter incrementals,
        final AtomicCounter deferred,
        final AtomicCounter errors)
    {
        this.fullRefreshes = fullRefreshes;
        this.incrementals = incrementals;
        this.deferred = deferred;
        this.errors = errors;
    }

    List<MarketDataSubscription> subscriptions()
    {
        return subscriptions;
    }

    /**
     * @param handler told of a subscription dropped because its message could not be encoded (a full refresh of a
     *                book deeper than Artio's encoding buffer holds), so the subscriber can be told why.
     */
    void onEncodingFailed(final Consumer<MarketDataSubscription> handler)
    {
        this.onEncodingFailed = handler;
    }

    /**
     * @return the last encoding failure, for the log.
     */
    RuntimeException lastFailure()
    {
        return lastFailure;
    }

    /**
     * Bring every subscription up to date as far as its connection allows.
     *
     * @return messages sent.
     */
    int flush()
    {
        int sent = 0;
        for (int i = subscriptions.size() - 1; i >= 0; i--)
        {
            final MarketDataSubscription subscription = subscriptions.get(i);
            final int result = flush(subscription);
            if (result < 0 || (subscription.snapshotOnly && subscription.snapshotSent))
            {
                subscriptions.remove(i);
                if (result < 0 && null != onEncodingFailed)
                {
                    onEncodingFailed.accept(subscription);
                }
            }
            else
            {
                sent += result;
            }
        }
        return sent;
    }

    /**
     * @return 1 if a message was sent, 0 if none (nothing new, or deferred), -1 if the subscription must go.
     */
    private int flush(final MarketDataSubscription subscription)
    {
        final InstrumentFeed feed = subscription.feed;
        if (!feed.isSynced())
        {
            return 0; // nothing trustworthy to say until the next BookSnapshot
        }
        // A book rebuilt over a gap (what lay in it, trades included, never reached the gateway): a new W says so.
        final boolean full = !subscription.snapshotSent || subscription.fullRefreshDue ||
            feed.gaps() != subscription.gapsSent;
        if (!full && !hasNews(subscription, feed))
        {
            return 0;
        }
        if (subscription.session.session.isSlowConsumer())
        {
            markLagging(subscription);
            return 0;
        }
        if (full)
        {
            return sendFullRefresh(subscription, feed);
        }

        entryCount = 0;
        if (feed.bookVersion() != subscription.bookVersionSent)
        {
            for (int side = LevelBook.BID; side <= LevelBook.ASK; side++)
            {
                if (subscription.wantsSide(side))
                {
                    diff(subscription, feed.book(), side);
                }
            }
            if (entryCount > MAX_INCREMENT_ENTRIES)
            {
                return sendFullRefresh(subscription, feed);
            }
        }
        long tradesTo = subscription.tradesSent;
        if (subscription.trades)
        {
            if (feed.tradeCount() - subscription.tradesSent > InstrumentFeed.TRADE_RING_CAPACITY)
            {
                return sendFullRefresh(subscription, feed);
            }
            tradesTo = Math.min(feed.tradeCount(), subscription.tradesSent + MAX_TRADES_PER_MESSAGE);
            for (long t = subscription.tradesSent; t < tradesTo; t++)
            {
                add(NEW, '2', feed.tradePrice(t), feed.tradeQuantity(t), -1, feed.tradeId(t));
            }
        }
        if (subscription.statistics != 0 && feed.statisticsVersion() != subscription.statisticsVersionSent)
        {
            addStatistics(subscription.statistics, feed);
        }
        if (entryCount == 0)
        {
            // The book changed beyond the subscriber's depth or on a side it did not ask for.
            subscription.bookVersionSent = feed.bookVersion();
            subscription.statisticsVersionSent = feed.statisticsVersion();
            return 0;
        }

        final long result = trySend(subscription, encodeIncremental(subscription, feed));
        if (result == ENCODING_FAILED)
        {
            return -1;
        }
        if (result < 0)
        {
            markLagging(subscription);
            return 0;
        }
        subscription.sent.copyTop(feed.book(), subscription.depth);
        subscription.bookVersionSent = feed.bookVersion();
        subscription.tradesSent = tradesTo;
        subscription.statisticsVersionSent = feed.statisticsVersion();
        incrementals.increment();
        subscription.lagging = false;
        return 1;
    }

    private void markLagging(final MarketDataSubscription subscription)
    {
        if (!subscription.lagging)
        {
            subscription.lagging = true;
            deferred.increment();
        }
    }

    private static boolean hasNews(final MarketDataSubscription subscription, final InstrumentFeed feed)
    {
        return feed.bookVersion() != subscription.bookVersionSent ||
            (subscription.trades && feed.tradeCount() != subscription.tradesSent) ||
            (subscription.statistics != 0 && feed.statisticsVersion() != subscription.statisticsVersionSent);
    }

    /**
     * The changes from what the subscriber holds to the book's top levels, best first: a merge of two sorted lists.
     */
    private void diff(final MarketDataSubscription subscription, final LevelBook book, final int side)
    {
        final LevelBook sent = subscription.sent;
        final char type = side == LevelBook.BID ? '0' : '1';
        final int now = Math.min(subscription.depth, book.levels(side));
        final int before = sent.levels(side);
        int i = 0;
        int j = 0;
        while ((i < now || j < before) && entryCount <= MAX_INCREMENT_ENTRIES)
        {
            if (j == before || (i < now && LevelBook.isBetter(side, book.price(side, i), sent.price(side, j))))
            {
                add(NEW, type, book.price(side, i), book.quantity(side, i), book.orderCount(side, i), 0);
                i++;
            }
            else if (i == now || LevelBook.isBetter(side, sent.price(side, j), book.price(side, i)))
            {
                add(DELETE, type, sent.price(side, j), NONE, -1, 0);
                j++;
            }
            else
            {
                if (book.quantity(side, i) != sent.quantity(side, j) ||
                    book.orderCount(side, i) != sent.orderCount(side, j))
                {
                    add(CHANGE, type, book.price(side, i), book.quantity(side, i), book.orderCount(side, i), 0);
                }
                i++;
                j++;
            }
        }
    }

    private void addStatistics(final int statistics, final InstrumentFeed feed)
    {
        if ((statistics & MarketDataSubscription.OPEN) != 0 && feed.openPrice() != InstrumentFeed.NO_PRICE)
        {
            add(NEW, '4', feed.openPrice(), NONE, -1, 0);
        }
        if ((statistics & MarketDataSubscription.HIGH) != 0 && feed.highPrice() != InstrumentFeed.NO_PRICE)
        {
            add(NEW, '7', feed.highPrice(), NONE, -1, 0);
        }
        if ((statistics & MarketDataSubscription.LOW) != 0 && feed.lowPrice() != InstrumentFeed.NO_PRICE)
        {
            add(NEW, '8', feed.lowPrice(), NONE, -1, 0);
        }
        if ((statistics & MarketDataSubscription.VWAP) != 0 && feed.vwapPrice() != InstrumentFeed.NO_PRICE)
        {
            add(NEW, '9', feed.vwapPrice(), NONE, -1, 0);
        }
        if ((statistics & MarketDataSubscription.VOLUME) != 0)
        {
            add(NEW, 'B', NONE, feed.volume(), -1, 0);
        }
    }

    private void add(
        final char action, final char type, final long price, final long size, final int orders, final long tradeId)
    {
        final int at = entryCount++;
        actions[at] = action;
        types[at] = type;
        prices[at] = price;
        sizes[at] = size;
        orderCounts[at] = orders;
        tradeIds[at] = tradeId;
    }

    private int sendFullRefresh(final MarketDataSubscription subscription, final InstrumentFeed feed)
    {
        final LevelBook book = feed.book();
        entryCount = 0;
        for (int side = LevelBook.BID; side <= LevelBook.ASK; side++)
        {
            if (!subscription.wantsSide(side))
            {
                continue;
            }
            final char type = side == LevelBook.BID ? '0' : '1';
            for (int i = 0, n = Math.min(subscription.depth, book.levels(side)); i < n; i++)
            {
                addGrowing(type, book.price(side, i), book.quantity(side, i), book.orderCount(side, i), 0);
            }
        }
        final long tradeCount = feed.tradeCount();
        if (subscription.trades && feed.lastPrice() != InstrumentFeed.NO_PRICE)
        {
            final boolean inRing = tradeCount > 0;
            addGrowing('2', feed.lastPrice(), inRing ? feed.tradeQuantity(tradeCount - 1) : NONE, -1,
                inRing ? feed.tradeId(tradeCount - 1) : 0);
        }
        if (subscription.statistics != 0)
        {
            ensureCapacity(entryCount + 5);
            addStatistics(subscription.statistics, feed);
        }

        final long result = trySend(subscription, encodeFullRefresh(subscription, feed));
        if (result == ENCODING_FAILED)
        {
            return -1;
        }
        if (result < 0)
        {
            markLagging(subscription);
            return 0;
        }
        subscription.sent.copyTop(book, subscription.depth);
        subscription.bookVersionSent = feed.bookVersion();
        subscription.tradesSent = tradeCount;
        subscription.statisticsVersionSent = feed.statisticsVersion();
        subscription.snapshotSent = true;
        subscription.fullRefreshDue = false;
        subscription.gapsSent = feed.gaps();
        subscription.lagging = false;
        fullRefreshes.increment();
        return 1;
    }

    private void addGrowing(final char type, final long price, final long size, final int orders, final long id)
    {
        ensureCapacity(entryCount + 1);
        add(NEW, type, price, size, orders, id);
    }

    private void ensureCapacity(final int capacity)
    {
        if (capacity > actions.length)
        {
            // Only a full refresh of a deep book gets here; the arrays then stay at that size.
            final int length = Math.max(capacity, actions.length * 2);
            actions = Arrays.copyOf(actions, length);
            types = Arrays.copyOf(types, length);
            prices = Arrays.copyOf(prices, length);
            sizes = Arrays.copyOf(sizes, length);
            orderCounts = Arrays.copyOf(orderCounts, length);
            tradeIds = Arrays.copyOf(tradeIds, length);
        }
    }

    private long trySend(final MarketDataSubscription subscription, final Encoder encoder)
    {
        try
        {
            return subscription.session.session.trySend(encoder);
        }
        catch (final RuntimeException ex)
        {
            lastFailure = ex;
            errors.increment();
            return ENCODING_FAILED;
        }
    }

    private Encoder encodeFullRefresh(final MarketDataSubscription subscription, final InstrumentFeed feed)
    {
        final MarketDataSnapshotFullRefreshEncoder e = fullRefresh;
        e.reset();
        e.mDReqID(subscription.mdReqId);
        e.instrument().symbol(feed.symbol());
        MarketDataSnapshotFullRefreshEncoder.MDEntriesGroupEncoder group = e.mDEntriesGroup(entryCount);
        final int scale = feed.priceScale();
        for (int i = 0; i < entryCount; i++)
        {
            group.mDEntryType(types[i]);
            if (prices[i] != NONE)
            {
                group.mDEntryPx(prices[i], scale);
            }
            if (sizes[i] != NONE)
            {
                group.mDEntrySize(sizes[i], 0);
            }
            if (orderCounts[i] >= 0)
            {
                group.numberOfOrders(orderCounts[i]);
            }
            if (i + 1 < entryCount)
            {
                group = group.next();
            }
        }
        return e;
    }

    private Encoder encodeIncremental(final MarketDataSubscription subscription, final InstrumentFeed feed)
    {
        final MarketDataIncrementalRefreshEncoder e = incremental;
        e.reset();
        e.mDReqID(subscription.mdReqId);
        MarketDataIncrementalRefreshEncoder.MDEntriesGroupEncoder group = e.mDEntriesGroup(entryCount);
        final int scale = feed.priceScale();
        for (int i = 0; i < entryCount; i++)
        {
            group.mDUpdateAction(actions[i]).mDEntryType(types[i]);
            group.instrument().symbol(feed.symbol());
            if (prices[i] != NONE)
            {
                group.mDEntryPx(prices[i], scale);
            }
            if (sizes[i] != NONE)
            {
                group.mDEntrySize(sizes[i], 0);
            }
            if (orderCounts[i] >= 0)
            {
                group.numberOfOrders(orderCounts[i]);
            }
            if (tradeIds[i] != 0)
            {
                entryId.setLength(0);
                entryId.append(tradeIds[i]);
                group.mDEntryID(entryId);
            }
            if (i + 1 < entryCount)
            {
                group = group.next();
            }
        }
        return e;
    }
}
