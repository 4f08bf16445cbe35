package io.ringex.engine.book;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One order of the venue, open or (briefly) done, as a pooled mutable record.
 * <p>
 * Instances come from an {@link OrderPool} and go back to it once the order is done and every event about it has
 * been written; nothing may keep a reference after release. The intrusive links place an open order in three lists
 * at once: its price level's queue (time priority), its account's open orders and the venue's open orders (both in
 * acceptance order, i.e. order id ascending), which is what gives mass cancels, kill switches and end of day a
 * deterministic order without iterating a hash map.
 * <p>
 * Threading: owned by the single business-logic thread.
 */
public final class Order
{
    /** Length of a client order id on the wire. */
    public static final int CLIENT_ORDER_ID_LENGTH = 20;

    /** Raw wire values of OrderType and TimeInForce, kept as bytes so the hot path does no enum lookups. */
    public static final byte TYPE_LIMIT = 1;
    /** Market order. */
    public static final byte TYPE_MARKET = 2;
    /** Stop: pending until a trade reaches its stop price, then a market order. */
    public static final byte TYPE_STOP = 3;
    /** Stop-limit: pending until a trade reaches its stop price, then a limit order. */
    public static final byte TYPE_STOP_LIMIT = 4;
    /** Good till cancel. */
    public static final byte TIF_GTC = 1;
    /** Immediate or cancel. */
    public static final byte TIF_IOC = 2;
    /** Fill or kill. */
    public static final byte TIF_FOK = 3;
    /** Expires at end of day. */
    public static final byte TIF_DAY = 4;
    /** Good till date: expires at its expire time on the ring's clock. */
    public static final byte TIF_GTD = 5;

    /** Where an accepted order waits: nowhere (incoming, being matched, or done). */
    public static final byte AT_NONE = 0;
    /** In its book's price levels. */
    public static final byte AT_BOOK = 1;
    /** A pending stop, in its book's {@link StopBook}. */
    public static final byte AT_STOPS = 2;
    /** A market order of a call phase, in its book's queue for the next uncrossing. */
    public static final byte AT_AUCTION_MARKET = 3;
    /** A triggered stop waiting its turn to enter (only within one command). */
    public static final byte AT_TRIGGERED = 4;

    /** Raw SelfTradePrevention values. */
    public static final byte STP_CANCEL_NEWEST = 1;
    /** Cancel the resting order. */
    public static final byte STP_CANCEL_OLDEST = 2;
    /** Cancel both. */
    public static final byte STP_CANCEL_BOTH = 3;
    /** Decrement both by the smaller, cancel what reaches zero. */
    public static final byte STP_DECREMENT_AND_CANCEL = 4;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    final byte[] clientOrderId = new byte[CLIENT_ORDER_ID_LENGTH];

    long orderId;
    long accountId;
    long sessionId;
    int instrumentId;
    boolean buy;
    byte orderType;
    byte timeInForce;
    boolean postOnly;
    byte selfTradePrevention;
    long price;
    long quantity;
    long filledQuantity;
    long cumulativeNotional;
    long priority;
    long stopPrice;
    long displayQuantity;
    long peakLeaves;
    long expireTimeNs;
    byte location;
    /** Position in the expiry heap of GTD orders, -1 if not there (derived, not part of the state). */
    int expiryIndex = -1;
    /** A quote's order: the quote set it was last set in (1..65535); 0 for an order. */
    int quoteSetId;
    /** A quote's order: its instrument's quote, which points back at it (derived); null for an order. */
    Quote quote;
    /** Set when market-maker protection cancelled this order while it was matching as the incoming order. */
    boolean matchingStopped;

    /** Exposure the risk state currently counts for this order (maintained by the processor). */
    long trackedLeaves;
    long trackedReserve;

    int levelIndex = -1;
    Order levelPrev;
    Order levelNext;

    /** Links for the owner's lists (account and venue open-order lists, client-order-id chains). */
    public Order accountPrev;
    /** Next in the account's open orders. */
    public Order accountNext;
    /** Previous in the venue's open orders. */
    public Order venuePrev;
    /** Next in the venue's open orders. */
    public Order venueNext;
    /** Next order in the same client-order-id bucket of the open-order index. */
    public Order clientOrderIdNext;
    /** Next order in the same order-id bucket of the open-order index. */
    public Order orderIdNext;
    /** 64-bit hash of (account, client order id), set by the open-order index while the order is in it. */
    public long clientOrderIdHash;
    /** The position its exposure is counted in, set when the order is accepted (derived, not part of the state). */
    public ExposureRecord exposure;

    /**
     * Reset every field to its initial state before reuse.
     */
    public void reset()
    {
        java.util.Arrays.fill(clientOrderId, (byte)0);
        orderId = 0;
        accountId = 0;
        sessionId = 0;
        instrumentId = 0;
        buy = false;
        orderType = 0;
        timeInForce = 0;
        postOnly = false;
        selfTradePrevention = 0;
        price = 0;
        quantity = 0;
        filledQuantity = 0;
        cumulativeNotional = 0;
        priority = 0;
        stopPrice = 0;
        displayQuantity = 0;
        peakLeaves = 0;
        expireTimeNs = 0;
        location = AT_NONE;
        expiryIndex = -1;
        quoteSetId = 0;
        quote = null;
        matchingStopped = false;
        trackedLeaves = 0;
        trackedReserve = 0;
        levelIndex = -1;
        levelPrev = null;
        levelNext = null;
        accountPrev = null;
        accountNext = null;
        venuePrev = null;
        venueNext = null;
        clientOrderIdNext = null;
        orderIdNext = null;
        clientOrderIdHash = 0;
        exposure = null;
    }

    /**
     * Set the fields that describe the order as entered.
     *
     * @param orderId             engine order id.
     * @param accountId           owning account.
     * @param sessionId           session its reports go to.
     * @param instrumentId        instrument.
     * @param buy                 true for a buy.
     * @param orderType           {@link #TYPE_LIMIT} or {@link #TYPE_MARKET}.
     * @param timeInForce         one of the TIF_ constants.
     * @param postOnly            post-only flag.
     * @param selfTradePrevention resolved STP mode (never ACCOUNT_DEFAULT).
     * @param price               limit price (protection price for a market order).
     * @param quantity            order quantity.
     * @return this.
     */
    public Order init(
        final long orderId,
        final long accountId,
        final long sessionId,
        final int instrumentId,
        final boolean buy,
        final byte orderType,
        final byte timeInForce,
        final boolean postOnly,
        final byte selfTradePrevention,
        final long price,
        final long quantity)
    {
        this.orderId = orderId;
        this.accountId = accountId;
        this.sessionId = sessionId;
        this.instrumentId = instrumentId;
        this.buy = buy;
        this.orderType = orderType;
        this.timeInForce = timeInForce;
        this.postOnly = postOnly;
        this.selfTradePrevention = selfTradePrevention;
        this.price = price;
        this.quantity = quantity;
        return this;
    }

    /** @return engine order id. */
    public long orderId()
    {
        return orderId;
    }

    /** @return owning account id. */
    public long accountId()
    {
        return accountId;
    }

    /** @return session the order's reports go to. */
    public long sessionId()
    {
        return sessionId;
    }

    /**
     * @param sessionId session the order's reports go to from now on.
     */
    public void sessionId(final long sessionId)
    {
        this.sessionId = sessionId;
    }

    /** @return instrument id. */
    public int instrumentId()
    {
        return instrumentId;
    }

    /** @return true for a buy. */
    public boolean isBuy()
    {
        return buy;
    }

    /** @return raw order type. */
    public byte orderType()
    {
        return orderType;
    }

    /** @return raw time in force. */
    public byte timeInForce()
    {
        return timeInForce;
    }

    /** @return post-only flag. */
    public boolean postOnly()
    {
        return postOnly;
    }

    /** @return resolved self-trade prevention mode. */
    public byte selfTradePrevention()
    {
        return selfTradePrevention;
    }

    /** @return limit price. */
    public long price()
    {
        return price;
    }

    /**
     * @param price new limit price (only while not in a book).
     */
    public void price(final long price)
    {
        this.price = price;
    }

    /** @return order quantity, filled part included. */
    public long quantity()
    {
        return quantity;
    }

    /**
     * @param quantity new order quantity (only while not in a book, or through {@link PriceLevels}).
     */
    public void quantity(final long quantity)
    {
        this.quantity = quantity;
    }

    /** @return quantity filled so far. */
    public long filledQuantity()
    {
        return filledQuantity;
    }

    /** @return quantity still open. */
    public long leavesQuantity()
    {
        return quantity - filledQuantity;
    }

    /** @return sum of price x quantity of fills at money scale. */
    public long cumulativeNotional()
    {
        return cumulativeNotional;
    }

    /** @return time-priority stamp, increasing as orders join a queue. */
    public long priority()
    {
        return priority;
    }

    /** @return true while the order rests in a book's price levels. */
    public boolean isResting()
    {
        return location == AT_BOOK;
    }

    /** @return where the order waits: one of the AT_ constants. */
    public byte location()
    {
        return location;
    }

    /**
     * @param location where the order waits from now on (set by the structure that takes or releases it).
     */
    public void location(final byte location)
    {
        this.location = location;
    }

    /** @return true for a market order and a stop (which trades as one once triggered). */
    public boolean isMarketLike()
    {
        return orderType == TYPE_MARKET || orderType == TYPE_STOP;
    }

    /** @return true for a stop or stop-limit order, pending or triggered. */
    public boolean isStop()
    {
        return orderType == TYPE_STOP || orderType == TYPE_STOP_LIMIT;
    }

    /** @return the stop price (STOP, STOP_LIMIT), else 0. */
    public long stopPrice()
    {
        return stopPrice;
    }

    /** @return the iceberg's display quantity, 0 for an order shown whole. */
    public long displayQuantity()
    {
        return displayQuantity;
    }

    /** @return what is left of an iceberg's current peak (0 for an order shown whole). */
    public long peakLeaves()
    {
        return peakLeaves;
    }

    /** @return what the book shows of the order: its leaves, or for an iceberg its current peak's leaves. */
    public long visibleQuantity()
    {
        return displayQuantity == 0 ? quantity - filledQuantity : peakLeaves;
    }

    /** @return a GTD order's expiry on the ring's clock, else 0. */
    public long expireTimeNs()
    {
        return expireTimeNs;
    }

    /**
     * Set the terms beyond price and quantity (after {@link #init}). A minimum quantity is not kept: it applies on
     * entry only.
     *
     * @param stopPrice       stop price or 0.
     * @param displayQuantity iceberg display quantity or 0.
     * @param expireTimeNs    GTD expiry or 0.
     * @return this.
     */
    public Order terms(final long stopPrice, final long displayQuantity, final long expireTimeNs)
    {
        this.stopPrice = stopPrice;
        this.displayQuantity = displayQuantity;
        this.expireTimeNs = expireTimeNs;
        return this;
    }

    /**
     * @param stopPrice new stop price of a pending stop (only while not in its stop book).
     */
    public void stopPrice(final long stopPrice)
    {
        this.stopPrice = stopPrice;
    }

    /**
     * Restore an iceberg's current peak from a snapshot.
     *
     * @param peakLeaves what is left of its peak.
     */
    public void restorePeak(final long peakLeaves)
    {
        this.peakLeaves = peakLeaves;
    }

    /** @return position in the GTD expiry heap, -1 if none. */
    public int expiryIndex()
    {
        return expiryIndex;
    }

    /**
     * @param index position in the GTD expiry heap, -1 when it leaves it.
     */
    public void expiryIndex(final int index)
    {
        expiryIndex = index;
    }

    /** @return true for one side of a market maker's quote (entered by a mass quote), false for an order. */
    public boolean isQuote()
    {
        return quoteSetId != 0;
    }

    /** @return the quote set a quote's order was last set in (1..65535), 0 for an order. */
    public int quoteSetId()
    {
        return quoteSetId;
    }

    /**
     * @param quoteSetId the quote set of a quote's order from now on (1..65535).
     */
    public void quoteSetId(final int quoteSetId)
    {
        this.quoteSetId = quoteSetId;
    }

    /** @return the quote this order is a side of, or null for an order (or a quote's order not yet attached). */
    public Quote quote()
    {
        return quote;
    }

    /**
     * @param quote the quote this order is a side of, or null when it leaves it.
     */
    public void quote(final Quote quote)
    {
        this.quote = quote;
    }

    /** @return whether market-maker protection stopped this incoming order's matching. */
    public boolean matchingStopped()
    {
        return matchingStopped;
    }

    /**
     * Stop this order's matching after the current trade: the {@link Matcher} returns {@link Matcher#STOPPED} and
     * the caller cancels what is left.
     */
    public void stopMatching()
    {
        matchingStopped = true;
    }

    /** @return the 20 bytes of the current client order id (do not keep). */
    public byte[] clientOrderId()
    {
        return clientOrderId;
    }

    /** @return leaves quantity the risk state counts for this order. */
    public long trackedLeaves()
    {
        return trackedLeaves;
    }

    /**
     * @param leaves leaves quantity the risk state now counts.
     */
    public void trackedLeaves(final long leaves)
    {
        trackedLeaves = leaves;
    }

    /** @return money the risk state reserves for this order. */
    public long trackedReserve()
    {
        return trackedReserve;
    }

    /**
     * @param reserve money the risk state now reserves.
     */
    public void trackedReserve(final long reserve)
    {
        trackedReserve = reserve;
    }

    /**
     * Record a fill.
     *
     * @param quantity filled quantity.
     * @param notional its notional at money scale.
     */
    public void fill(final long quantity, final long notional)
    {
        filledQuantity += quantity;
        cumulativeNotional += notional;
    }

    /**
     * Record a fill of a resting order that the book may show only in part: an iceberg's peak goes down first.
     *
     * @param quantity filled quantity (at most the leaves).
     * @param notional its notional at money scale.
     * @return by how much the visible quantity went down.
     */
    long fillResting(final long quantity, final long notional)
    {
        fill(quantity, notional);
        if (displayQuantity == 0)
        {
            return quantity;
        }
        final long fromPeak = Math.min(quantity, peakLeaves);
        peakLeaves -= fromPeak;
        return fromPeak;
    }

    /**
     * Restore the mutable part of an order from a snapshot.
     *
     * @param filledQuantity     filled quantity.
     * @param cumulativeNotional cumulative notional.
     * @param priority           time-priority stamp.
     */
    public void restoreProgress(final long filledQuantity, final long cumulativeNotional, final long priority)
    {
        this.filledQuantity = filledQuantity;
        this.cumulativeNotional = cumulativeNotional;
        this.priority = priority;
    }

    /**
     * @param priority new time-priority stamp.
     */
    void priority(final long priority)
    {
        this.priority = priority;
    }

    /**
     * Whether the stored client order id equals the 20 bytes at {@code offset} of {@code buffer}.
     *
     * @param buffer holding a client order id.
     * @param offset where it starts.
     * @return true if equal.
     */
    public boolean clientOrderIdEquals(final org.agrona.DirectBuffer buffer, final int offset)
    {
        // 20 bytes as two longs and an int: three bounds checks instead of twenty
        return (long)LONGS.get(clientOrderId, 0) == buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN) &&
            (long)LONGS.get(clientOrderId, 8) == buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN) &&
            (int)INTS.get(clientOrderId, 16) == buffer.getInt(offset + 16, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index 0 or 8.
     * @return 8 bytes of the client order id from {@code index}, little-endian.
     */
    public long clientOrderIdLong(final int index)
    {
        return (long)LONGS.get(clientOrderId, index);
    }

    /** @return the last 4 bytes of the client order id (from 16), little-endian. */
    public int clientOrderIdTail()
    {
        return (int)INTS.get(clientOrderId, 16);
    }

    /**
     * Copy a client order id from a buffer.
     *
     * @param buffer holding a client order id.
     * @param offset where it starts.
     */
    public void clientOrderId(final org.agrona.DirectBuffer buffer, final int offset)
    {
        buffer.getBytes(offset, clientOrderId, 0, CLIENT_ORDER_ID_LENGTH);
    }

    /**
     * Set the client order id from its words.
     *
     * @param w0 bytes 0-7, little-endian.
     * @param w1 bytes 8-15, little-endian.
     * @param w2 bytes 16-19, little-endian.
     */
    public void clientOrderId(final long w0, final long w1, final int w2)
    {
        LONGS.set(clientOrderId, 0, w0);
        LONGS.set(clientOrderId, 8, w1);
        INTS.set(clientOrderId, 16, w2);
    }
}
