package io.ringex.gateway.marketdata;

import io.ringex.protocol.codecs.TradingStatus;

/**
 * What the gateway holds of one instrument from the engine's market data: its definition, its price-level book at an
 * instrument sequence, the recent trades (a ring subscribers read at their own pace) and statistics from them.
 * <p>
 * A sequence gap stops the book until the engine's next BookSnapshot; the gateway's market-data clients recover losses
 * before they reach here, so a gap here is a safety net ({@link #gaps()}). The statistics cover only the trades this
 * gateway has seen since it started (reset each UTC day).
 * <p>
 * Thread safety: single-threaded (the agent polling the market-data stream).
 */
public final class InstrumentFeed
{
    /** Trades kept for subscribers that lag; one that falls further behind gets a full refresh. */
    public static final int TRADE_RING_CAPACITY = 1024;
    /** No price (no trade yet). */
    public static final long NO_PRICE = Long.MIN_VALUE;

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final int TRADE_MASK = TRADE_RING_CAPACITY - 1;

    private final int instrumentId;
    private final LevelBook book = new LevelBook();
    private final long[] tradeIds = new long[TRADE_RING_CAPACITY];
    private final long[] tradeSequences = new long[TRADE_RING_CAPACITY];
    private final long[] tradePrices = new long[TRADE_RING_CAPACITY];
    private final long[] tradeQuantities = new long[TRADE_RING_CAPACITY];
    private final long[] tradeTimes = new long[TRADE_RING_CAPACITY];
    private final byte[] tradeAggressors = new byte[TRADE_RING_CAPACITY];

    private String symbol;
    private int priceScale = -1;
    private long tickSize;
    private long lotSize;
    private TradingStatus status = TradingStatus.NULL_VAL;
    private long statusVersion;
    private boolean synced;
    private boolean everSynced;
    private long gaps;
    private long appliedSequence;
    private long lastTradeSequence;
    private long tradesCompleteAfter = Long.MAX_VALUE;
    private long bookVersion;
    private long tradeCount;
    private long statisticsVersion;
    private long tradingDay = Long.MIN_VALUE;
    private long openPrice = NO_PRICE;
    private long highPrice = NO_PRICE;
    private long lowPrice = NO_PRICE;
    private long lastPrice = NO_PRICE;
    private long volume;
    private double notional;

    InstrumentFeed(final int instrumentId)
    {
        this.instrumentId = instrumentId;
    }

    void define(
        final String symbol, final int priceScale, final long tickSize, final long lotSize, final TradingStatus status)
    {
        this.symbol = symbol;
        this.priceScale = priceScale;
        this.tickSize = tickSize;
        this.lotSize = lotSize;
        if (status != this.status)
        {
            this.status = status;
            statusVersion++;
        }
    }

    /**
     * A level update; applied if it is the next in sequence.
     *
     * @return true if the book changed.
     */
    boolean onLevel(final long sequence, final int side, final long price, final long quantity, final int orderCount)
    {
        if (!accept(sequence))
        {
            return false;
        }
        book.set(side, price, quantity, orderCount);
        bookVersion++;
        return true;
    }

    /**
     * A sequenced event that does not change the book (BBO): it moves the sequence on.
     */
    void onOtherSequenced(final long sequence)
    {
        accept(sequence);
    }

    /**
     * A trade: into the ring and the statistics unless already seen (a duplicate from the other node).
     *
     * @return true if it was new.
     */
    boolean onTrade(
        final long sequence,
        final long tradeId,
        final long price,
        final long quantity,
        final byte aggressor,
        final long timestampNs)
    {
        accept(sequence);
        if (sequence <= lastTradeSequence)
        {
            return false;
        }
        lastTradeSequence = sequence;
        final int slot = (int)(tradeCount & TRADE_MASK);
        if (tradeCount >= TRADE_RING_CAPACITY)
        {
            tradesCompleteAfter = Math.max(tradesCompleteAfter, tradeSequences[slot]);
        }
        tradeIds[slot] = tradeId;
        tradeSequences[slot] = sequence;
        tradePrices[slot] = price;
        tradeQuantities[slot] = quantity;
        tradeTimes[slot] = timestampNs;
        tradeAggressors[slot] = aggressor;
        tradeCount++;

        final long day = Math.floorDiv(timestampNs, NANOS_PER_DAY);
        if (day != tradingDay)
        {
            tradingDay = day;
            openPrice = price;
            highPrice = price;
            lowPrice = price;
            volume = 0;
            notional = 0;
        }
        highPrice = Math.max(highPrice, price);
        lowPrice = Math.min(lowPrice, price);
        lastPrice = price;
        volume += quantity;
        notional += (double)price * (double)quantity;
        statisticsVersion++;
        return true;
    }

    /**
     * Start a snapshot: if it is news (the book is not synced, or the snapshot is ahead of it), the book is cleared
     * for the levels that follow.
     *
     * @return true if the levels should be applied ({@link #snapshotLevel}), then {@link #endSnapshot}.
     */
    boolean beginSnapshot(final long sequence, final long lastTradePrice)
    {
        if (!beginReseed(sequence))
        {
            return false;
        }
        if (lastPrice == NO_PRICE && lastTradePrice != NO_PRICE)
        {
            lastPrice = lastTradePrice;
            statisticsVersion++;
        }
        return true;
    }

    void snapshotLevel(final int side, final long price, final long quantity, final int orderCount)
    {
        book.set(side, price, quantity, orderCount);
    }

    void endSnapshot()
    {
        endReseed();
    }

    /**
     * The book as a snapshot gives it, at {@code sequence}, unless the feed already holds that sequence or a later one
     * (the other node's feed got there first).
     *
     * @param sequence the snapshot's instrument sequence.
     * @return true if the book is to be replaced: {@link #snapshotLevel} for each level, then {@link #endReseed}.
     */
    boolean beginReseed(final long sequence)
    {
        if (synced && sequence <= appliedSequence)
        {
            return false;
        }
        if (everSynced && sequence > appliedSequence)
        {
            gaps++; // what lay between was never seen here: trades among it are lost
        }
        if (!everSynced || sequence > appliedSequence)
        {
            tradesCompleteAfter = sequence;
        }
        book.clear();
        appliedSequence = sequence;
        lastTradeSequence = Math.max(lastTradeSequence, sequence);
        return true;
    }

    void endReseed()
    {
        markSynced();
        bookVersion++;
    }

    private void markSynced()
    {
        synced = true;
        everSynced = true;
    }

    private boolean accept(final long sequence)
    {
        if (sequence <= appliedSequence)
        {
            return false;
        }
        if (!synced)
        {
            if (appliedSequence == 0 && sequence == 1)
            {
                // A fresh engine: the book starts empty and this is its first event.
                markSynced();
                tradesCompleteAfter = 0;
            }
            else
            {
                return false;
            }
        }
        else if (sequence != appliedSequence + 1)
        {
            synced = false;
            return false;
        }
        appliedSequence = sequence;
        return true;
    }

    /**
     * @return the engine's id of the instrument.
     */
    public int instrumentId()
    {
        return instrumentId;
    }

    /**
     * @return the symbol, or null before the definition is seen.
     */
    public String symbol()
    {
        return symbol;
    }

    /**
     * @return decimal places of prices, -1 before the definition is seen.
     */
    public int priceScale()
    {
        return priceScale;
    }

    /**
     * @return the tick size (fixed point at the price scale).
     */
    public long tickSize()
    {
        return tickSize;
    }

    /**
     * @return the lot size.
     */
    public long lotSize()
    {
        return lotSize;
    }

    /**
     * @return the trading status from the last definition.
     */
    public TradingStatus status()
    {
        return status;
    }

    /**
     * @return incremented whenever the trading status changes (the first definition included).
     */
    public long statusVersion()
    {
        return statusVersion;
    }

    /**
     * @return whether the definition has been seen.
     */
    public boolean isDefined()
    {
        return symbol != null;
    }

    /**
     * @return whether the book follows the feed (false before the first snapshot and after a gap until the next).
     */
    public boolean isSynced()
    {
        return synced;
    }

    /**
     * @return times the book jumped over messages it never saw (a snapshot after a loss that was not retransmitted).
     */
    public long gaps()
    {
        return gaps;
    }

    /**
     * @return the last sequence the book holds.
     */
    public long appliedSequence()
    {
        return appliedSequence;
    }

    /**
     * @return the book.
     */
    public LevelBook book()
    {
        return book;
    }

    /**
     * @return incremented on every change of the book.
     */
    public long bookVersion()
    {
        return bookVersion;
    }

    /**
     * @return trades seen since start; the ring holds the last {@link #TRADE_RING_CAPACITY}.
     */
    public long tradeCount()
    {
        return tradeCount;
    }

    /**
     * @param index a trade's index, from {@code tradeCount() - TRADE_RING_CAPACITY} to {@code tradeCount() - 1}.
     * @return its trade id.
     */
    public long tradeId(final long index)
    {
        return tradeIds[(int)(index & TRADE_MASK)];
    }

    /**
     * @param index a trade's index.
     * @return the instrument sequence its Trade message carried.
     */
    public long tradeSequence(final long index)
    {
        return tradeSequences[(int)(index & TRADE_MASK)];
    }

    /**
     * @return the sequence after which the ring holds every trade the engine published (those still in the ring):
     * {@link Long#MAX_VALUE} before the feed first synced, the snapshot's sequence after a gap or a late start, and
     * the sequence of the last trade the ring let go.
     */
    public long tradesCompleteAfter()
    {
        return tradesCompleteAfter;
    }

    /**
     * @param index a trade's index.
     * @return its price.
     */
    public long tradePrice(final long index)
    {
        return tradePrices[(int)(index & TRADE_MASK)];
    }

    /**
     * @param index a trade's index.
     * @return its quantity.
     */
    public long tradeQuantity(final long index)
    {
        return tradeQuantities[(int)(index & TRADE_MASK)];
    }

    /**
     * @param index a trade's index.
     * @return its engine time, nanoseconds since the epoch.
     */
    public long tradeTimeNs(final long index)
    {
        return tradeTimes[(int)(index & TRADE_MASK)];
    }

    /**
     * @param index a trade's index.
     * @return its aggressor side: 1 buy, 2 sell.
     */
    public byte tradeAggressor(final long index)
    {
        return tradeAggressors[(int)(index & TRADE_MASK)];
    }

    /**
     * @return incremented whenever a statistic changes.
     */
    public long statisticsVersion()
    {
        return statisticsVersion;
    }

    /**
     * @return first trade price of the UTC day, or {@link #NO_PRICE}.
     */
    public long openPrice()
    {
        return openPrice;
    }

    /**
     * @return highest trade price of the day, or {@link #NO_PRICE}.
     */
    public long highPrice()
    {
        return highPrice;
    }

    /**
     * @return lowest trade price of the day, or {@link #NO_PRICE}.
     */
    public long lowPrice()
    {
        return lowPrice;
    }

    /**
     * @return last trade price, or {@link #NO_PRICE}.
     */
    public long lastPrice()
    {
        return lastPrice;
    }

    /**
     * @return quantity traded in the day.
     */
    public long volume()
    {
        return volume;
    }

    /**
     * @return volume-weighted average price of the day, rounded to the price scale, or {@link #NO_PRICE}.
     */
    public long vwapPrice()
    {
        return volume == 0 ? NO_PRICE : Math.round(notional / volume);
    }
}
