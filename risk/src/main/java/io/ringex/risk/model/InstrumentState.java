package io.ringex.risk.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;

/**
 * One instrument: static data, status, last trade, BBO, the L2 book and a tape of recent trades. Mutable; guarded by
 * the {@link RiskReadModel}'s lock.
 */
final class InstrumentState
{
    static final int LADDER_DEPTH = 10;
    static final int TAPE_KEPT = 50;
    /** One-minute candles kept: the last hour that had trades. */
    static final int CANDLES_KEPT = 60;
    private static final long MINUTE_NS = 60_000_000_000L;
    private static final int CANDLE_FIELDS = 6;
    private static final int MINUTE = 0;
    private static final int OPEN = 1;
    private static final int HIGH = 2;
    private static final int LOW = 3;
    private static final int CLOSE = 4;
    private static final int VOLUME = 5;

    final int instrumentId;
    String symbol;
    /** Its InstrumentDefinition has arrived: the scale and static data are known. */
    boolean defined;
    int priceScale;
    long tickSize;
    long lotSize;
    long referencePrice;
    PriceBandType priceBandType = PriceBandType.NULL_VAL;
    long priceBand;
    TradingStatus status = TradingStatus.NULL_VAL;
    long lastPrice = Money.NULL_PRICE;
    long bidPrice = Money.NULL_PRICE;
    long bidQuantity;
    long askPrice = Money.NULL_PRICE;
    long askQuantity;
    long volume;
    long tradeCount;
    long lastTradeId;
    /** price -> {quantity, orderCount}; bids best (highest) first, asks best (lowest) first. */
    final TreeMap<Long, long[]> bids = new TreeMap<>(Comparator.reverseOrder());
    final TreeMap<Long, long[]> asks = new TreeMap<>();
    private final TradeState[] tape = new TradeState[TAPE_KEPT];
    private final long[][] candles = new long[CANDLES_KEPT][CANDLE_FIELDS];
    private int candleCount;

    InstrumentState(final int instrumentId)
    {
        this.instrumentId = instrumentId;
        this.symbol = "#" + instrumentId;
        for (int i = 0; i < TAPE_KEPT; i++)
        {
            tape[i] = new TradeState();
        }
    }

    void level(final Side side, final long price, final long quantity, final int orderCount)
    {
        final TreeMap<Long, long[]> book = side == Side.BUY ? bids : asks;
        if (quantity <= 0)
        {
            book.remove(price);
        }
        else
        {
            final long[] level = book.computeIfAbsent(price, p -> new long[2]);
            level[0] = quantity;
            level[1] = orderCount;
        }
    }

    void clearBook()
    {
        bids.clear();
        asks.clear();
    }

    /**
     * Put a trade on the tape unless it is already there: the engine sends each trade on the market-data stream and
     * again, with accounts, on the risk stream.
     *
     * @return true if the trade was new.
     */
    boolean trade(final long tradeId, final long price, final long quantity, final Side aggressor, final long timeNs)
    {
        if (tradeId <= lastTradeId)
        {
            return false;
        }
        final TradeState t = tape[(int)(tradeCount % TAPE_KEPT)];
        t.tradeId = tradeId;
        t.price = price;
        t.quantity = quantity;
        t.aggressorBuy = aggressor == Side.BUY;
        t.timestampNs = timeNs;
        tradeCount++;
        lastTradeId = tradeId;
        lastPrice = price;
        volume += quantity;
        candle(price, quantity, timeNs);
        return true;
    }

    /**
     * Add a trade to its minute's candle (open, high, low, close, volume), on the engine's clock: a trade of a later
     * minute starts a new candle, one of an earlier minute (a late copy) joins the latest.
     */
    private void candle(final long price, final long quantity, final long timeNs)
    {
        final long minute = Math.floorDiv(timeNs, MINUTE_NS);
        long[] c = candleCount == 0 ? null : candles[(candleCount - 1) % CANDLES_KEPT];
        if (null == c || minute > c[MINUTE])
        {
            c = candles[candleCount++ % CANDLES_KEPT];
            c[MINUTE] = minute;
            c[OPEN] = price;
            c[HIGH] = price;
            c[LOW] = price;
            c[VOLUME] = 0;
        }
        c[HIGH] = Math.max(c[HIGH], price);
        c[LOW] = Math.min(c[LOW], price);
        c[CLOSE] = price;
        c[VOLUME] += quantity;
    }

    /**
     * @return the one-minute candles of the last {@value #CANDLES_KEPT} minutes that had trades, oldest first.
     */
    List<Views.CandleView> candles()
    {
        final int n = Math.min(candleCount, CANDLES_KEPT);
        final List<Views.CandleView> out = new ArrayList<>(n);
        for (int i = candleCount - n; i < candleCount; i++)
        {
            final long[] c = candles[i % CANDLES_KEPT];
            out.add(new Views.CandleView(c[MINUTE] * MINUTE_NS, Money.price(c[OPEN], priceScale),
                Money.price(c[HIGH], priceScale), Money.price(c[LOW], priceScale), Money.price(c[CLOSE], priceScale),
                c[VOLUME]));
        }
        return out;
    }

    List<Views.LevelView> ladder(final TreeMap<Long, long[]> book)
    {
        final List<Views.LevelView> out = new ArrayList<>(LADDER_DEPTH);
        for (final Map.Entry<Long, long[]> e : book.entrySet())
        {
            if (out.size() == LADDER_DEPTH)
            {
                break;
            }
            out.add(new Views.LevelView(Money.price(e.getKey(), priceScale), e.getValue()[0], (int)e.getValue()[1]));
        }
        return out;
    }

    List<Views.TradeView> tape()
    {
        final int n = (int)Math.min(tradeCount, TAPE_KEPT);
        final List<Views.TradeView> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++)
        {
            final TradeState t = tape[(int)((tradeCount - i) % TAPE_KEPT)];
            out.add(new Views.TradeView(t.tradeId, Money.price(t.price, priceScale), t.quantity,
                t.aggressorBuy ? "BUY" : "SELL", t.timestampNs));
        }
        return out;
    }

    Views.InstrumentSummary summary()
    {
        return new Views.InstrumentSummary(instrumentId, symbol, priceScale, Money.price(tickSize, priceScale), lotSize,
            Money.price(referencePrice, priceScale),
            priceBandType == PriceBandType.NULL_VAL ? "UNKNOWN" : priceBandType.name(), priceBand,
            status == TradingStatus.NULL_VAL ? "UNKNOWN" : status.name(), Money.price(lastPrice, priceScale),
            Money.price(bidPrice, priceScale), bidQuantity, Money.price(askPrice, priceScale), askQuantity, volume,
            tradeCount);
    }

    /** A tape entry. */
    static final class TradeState
    {
        long tradeId;
        long price;
        long quantity;
        boolean aggressorBuy;
        long timestampNs;
    }
}
