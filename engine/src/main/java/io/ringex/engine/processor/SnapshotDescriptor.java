package io.ringex.engine.processor;

/**
 * Binary layout of a business-logic snapshot (all integers little-endian). Version {@link #VERSION}; a reader refuses
 * any other version or magic rather than guess.
 * <pre>
 *   Header (64 bytes)
 *   0   int   magic 'RXSN'
 *   4   int   version
 *   8   long  last command sequence applied
 *   16  long  epoch
 *   24  long  last order id assigned
 *   32  long  last trade id assigned
 *   40  int   venue kill switch (0/1)
 *   44  int   book count
 *   48  int   account count
 *   52  int   open order count
 *   56  int   body length (bytes after the header)
 *   60  int   reserved (0)
 *
 *   Book (creation order), 112 bytes:
 *     int instrumentId, byte[16] symbol, int priceScale, long tickSize, long lotSize, long referencePrice,
 *     int bandType, long band, int status, long mdSequence, long lastTradePrice, long nextPriority,
 *     long phaseEndNs (Long.MAX_VALUE: none), int dynamicBandBasisPoints, long volatilityAuctionNs
 *
 *   Account (creation order), 72 bytes + 64 per position:
 *     long accountId, int defaultStp, long balance, long reserved, long creditLimit, long maxOrderQuantity,
 *     long maxOrderNotional, long defaultPositionLimit, int maxOpenOrders, int allowShort, int killed,
 *     int status (1 active, 2 suspended, 3 closed), int openOrders, int positionCount
 *     Position (creation order): int instrumentId, int priceScale, long position, long cost, long realisedPnl,
 *     long openBuyQuantity, long openSellQuantity, long positionLimit
 *
 *   Order (venue acceptance order = order id ascending), 168 bytes:
 *     long orderId, long accountId, long sessionId, int instrumentId, byte[20] clientOrderId, byte buy,
 *     byte orderType, byte timeInForce, byte postOnly, byte selfTradePrevention, byte location, byte[2] padding,
 *     long price, long quantity, long filledQuantity, long cumulativeNotional, long priority, long trackedLeaves,
 *     long trackedReserve, long stopPrice, long displayQuantity, long peakLeaves, long expireTimeNs
 *     (the two bytes after location: short quoteSetId, 0 for an order, the quote set of a quote's order)
 *
 *   Statistics ({@link VenueStatistics}): long ordersAccepted, long trades, long rejects, int reasonCount, then per
 *     reason with a non-zero count (ascending value): int reason value, long count
 *
 *   Users ({@link Users}, creation order): int userCount, then per user: text username, int enabled,
 *     int fixCancelOnDisconnect, int throttle, int role ({@code UserRole} value), int accountCount,
 *     long[accountCount] accounts, text fixSenderCompId, text credentialHash (text: int length, then that many
 *     US-ASCII bytes)
 *
 *   Trading schedule ({@link TradingSchedule}): int tradingDays (0: none, and nothing follows), int preOpenMinute,
 *     int openMinute, int closeMinute, int endOfDayMinute, text timeZone, int holidayCount, int[holidayCount] epoch
 *     days (ascending), long the time it last acted at, int heldCount, int[heldCount] instruments it holds (ascending)
 *
 *   Market makers (only when any of it is set; a reader finds it by the bytes left): int 'RXMM',
 *     int graceCount, per user with a cancel-on-disconnect grace (creation order): text username, int graceMs;
 *     int timerCount, per armed session timer in firing order: long sessionId, int kind (1 cancel-all-after,
 *     2 disconnect grace), long deadlineNs, long timeoutMs;
 *     int groupCount, per market-maker protection group (accounts in the order first protected, groups by id):
 *     long accountId, int groupId, long intervalNs, long quantityLimit, long notionalLimit, int fillLimit,
 *     long freezeNs, int cancelOrders, int instrumentCount, int[instrumentCount] instruments (ascending), int frozen,
 *     long frozenUntilNs, long breach sessionId, int fillCount, per fill in the window (oldest first): long timeNs,
 *     long quantity, long notional
 * </pre>
 * An open order waits where its location says ({@code Order.AT_BOOK}: the price levels, {@code AT_STOPS}: the pending
 * stops, {@code AT_AUCTION_MARKET}: the market orders queued for an uncrossing; never {@code AT_TRIGGERED}, which
 * lasts only within a command). Each structure's queues are rebuilt from the orders' priority stamps (one counter
 * per book, ascending). The GTD expiry heap, the earliest phase end and the published auction indicatives are derived
 * again. Account open-order lists are rebuilt in venue order, which is each account's acceptance order.
 * <p>
 * Version 4 (order types and trading phases) added the book's phase end and dynamic band and the order's location,
 * stop price, display quantity, current peak and expire time (a minimum quantity applies on entry only and is not
 * kept) to version 3 (statistics, users, account standing). A version 3 snapshot is refused, not converted: its
 * state hash was computed over the version 3 layout and could not be checked after a conversion. A node passes such
 * a snapshot over (the snapshot store names its version) and recovers from the journal, which holds every command;
 * its next snapshot is version 4.
 * <p>
 * Version 6 added the user's role to version 5; an older snapshot is refused the same way. Schema version
 * 3's market makers added to version 6 without a new number: the quote set id in two bytes that were padding (0, as
 * before, for every order) and the market makers' section at the end, absent when unused; so a venue that uses none of
 * it writes the bytes, and has the state hash, it had, and version 6 snapshots of earlier builds load unchanged. An
 * earlier build refuses a snapshot with the section (its length does not match) and recovers from the journal.
 * <p>
 * Threading: constants only.
 */
public final class SnapshotDescriptor
{
    /** 'RXSN'. */
    public static final int MAGIC = 0x4E535852;
    /** Format version; bump on any layout change. */
    public static final int VERSION = 6;
    /** 'RXMM': starts the market makers' section, present only when the state has any of it. */
    public static final int MARKET_MAKERS_MAGIC = 0x4D4D5852;

    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the last sequence. */
    public static final int SEQUENCE_OFFSET = 8;
    /** Offset of the epoch. */
    public static final int EPOCH_OFFSET = 16;
    /** Offset of the last order id. */
    public static final int LAST_ORDER_ID_OFFSET = 24;
    /** Offset of the last trade id. */
    public static final int LAST_TRADE_ID_OFFSET = 32;
    /** Offset of the venue kill switch. */
    public static final int VENUE_KILLED_OFFSET = 40;
    /** Offset of the book count. */
    public static final int BOOK_COUNT_OFFSET = 44;
    /** Offset of the account count. */
    public static final int ACCOUNT_COUNT_OFFSET = 48;
    /** Offset of the order count. */
    public static final int ORDER_COUNT_OFFSET = 52;
    /** Offset of the body length. */
    public static final int BODY_LENGTH_OFFSET = 56;
    /** Length of the header. */
    public static final int HEADER_LENGTH = 64;

    private SnapshotDescriptor()
    {
    }
}
