package io.ringex.gateway.fix;

import io.ringex.gateway.marketdata.InstrumentFeed;
import io.ringex.gateway.marketdata.LevelBook;

/**
 * One FIX market-data subscription: a session's MarketDataRequest for one symbol, with what it asked for (depth,
 * entry types) and what it has been told so far ({@link #sent}: the levels exactly as the subscriber's book holds them,
 * the trades up to {@link #tradesSent}, the statistics at {@link #statisticsVersionSent}). Each update it gets is the
 * difference between the gateway's book and {@link #sent}, so a subscriber that could not be sent to for a while
 * gets the latest state of each level in one message: conflation needs no queue.
 * <p>
 * Threading: the FIX agent thread only.
 */
final class MarketDataSubscription
{
    /** MDEntryType 4, Opening price. */
    static final int OPEN = 1;
    /** MDEntryType 7, Trading session high. */
    static final int HIGH = 2;
    /** MDEntryType 8, Trading session low. */
    static final int LOW = 4;
    /** MDEntryType 9, Trading session VWAP. */
    static final int VWAP = 8;
    /** MDEntryType B, Trade volume. */
    static final int VOLUME = 16;

    final FixSession session;
    final String mdReqId;
    final InstrumentFeed feed;
    final int depth;
    final boolean bids;
    final boolean offers;
    final boolean trades;
    final int statistics;
    final boolean snapshotOnly;
    final LevelBook sent = new LevelBook();
    boolean snapshotSent;
    boolean fullRefreshDue;
    boolean lagging;
    long tradesSent;
    long bookVersionSent = -1;
    long statisticsVersionSent = -1;
    /** The instrument's gap count when the last W was sent: a later gap is stated by a new W. */
    long gapsSent;
    /** The trading status the session was last told of for this instrument (SecurityStatus f). */
    long statusVersionSent;

    MarketDataSubscription(
        final FixSession session,
        final String mdReqId,
        final InstrumentFeed feed,
        final int depth,
        final boolean bids,
        final boolean offers,
        final boolean trades,
        final int statistics,
        final boolean snapshotOnly)
    {
        this.session = session;
        this.mdReqId = mdReqId;
        this.feed = feed;
        this.depth = depth;
        this.bids = bids;
        this.offers = offers;
        this.trades = trades;
        this.statistics = statistics;
        this.snapshotOnly = snapshotOnly;
        this.statusVersionSent = feed.statusVersion();
    }

    boolean wantsSide(final int side)
    {
        return side == LevelBook.BID ? bids : offers;
    }
}
