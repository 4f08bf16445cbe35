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
        return true;
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
