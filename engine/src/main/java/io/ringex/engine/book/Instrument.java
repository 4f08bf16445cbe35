package io.ringex.engine.book;

/**
 * Static data and trading status of one instrument, and the price band derived from them.
 * <p>
 * The band is fixed when the instrument is added: prices from {@link #minPrice()} to {@link #maxPrice()} inclusive
 * are accepted; they are also the protection prices of market orders (a market buy fills up to {@code maxPrice}, a
 * market sell down to {@code minPrice}).
 * <p>
 * Threading: single business-logic thread.
 */
public final class Instrument
{
    /** Raw PriceBandType.BASIS_POINTS. */
    public static final byte BAND_BASIS_POINTS = 1;
    /** Raw PriceBandType.TICKS. */
    public static final byte BAND_TICKS = 2;
    /** Raw TradingStatus values. */
    public static final byte STATUS_OPEN = 1;
    /** Halted: no new orders or replaces, cancels allowed, resting orders kept. */
    public static final byte STATUS_HALTED = 2;
    /** Closed: no new orders; resting orders canceled when closing. */
    public static final byte STATUS_CLOSED = 3;
    /** Call phase before the open, with no end of its own. */
    public static final byte STATUS_PRE_OPEN = 4;
    /** Opening call auction: uncrosses into OPEN at its end. */
    public static final byte STATUS_OPENING_AUCTION = 5;
    /** Closing call auction: uncrosses into CLOSED at its end. */
    public static final byte STATUS_CLOSING_AUCTION = 6;
    /** Volatility auction after the dynamic band interrupted continuous trading: uncrosses into OPEN. */
    public static final byte STATUS_VOLATILITY_AUCTION = 7;
    /** Trading status: delisted (TradingStatus.DELISTED): no longer trades, its history kept. */
    public static final byte STATUS_DELISTED = 20;

    /** Largest basis-point band accepted (100 times the reference price). */
    public static final long MAX_BAND_BASIS_POINTS = 1_000_000L;

    /** Symbol length on the wire. */
    public static final int SYMBOL_LENGTH = 16;

    private final int instrumentId;
    private final byte[] symbol = new byte[SYMBOL_LENGTH];
    private final int priceScale;
    private final long tickSize;
    private final long lotSize;
    private final long referencePrice;
    private final byte bandType;
    private final long band;
    private final long minPrice;
    private final long maxPrice;
    private byte status = STATUS_OPEN;

    /**
     * @param instrumentId   id.
     * @param symbol         16 bytes of symbol (copied).
     * @param priceScale     0..8.
     * @param tickSize       positive.
     * @param lotSize        positive.
     * @param referencePrice positive multiple of the tick.
     * @param bandType       {@link #BAND_BASIS_POINTS} or {@link #BAND_TICKS}.
     * @param band           band value; {@link #bandTicks} must be non-negative for these arguments.
     */
    public Instrument(
        final int instrumentId,
        final byte[] symbol,
        final int priceScale,
        final long tickSize,
        final long lotSize,
        final long referencePrice,
        final byte bandType,
        final long band)
    {
        this.instrumentId = instrumentId;
        System.arraycopy(symbol, 0, this.symbol, 0, SYMBOL_LENGTH);
        this.priceScale = priceScale;
        this.tickSize = tickSize;
        this.lotSize = lotSize;
        this.referencePrice = referencePrice;
        this.bandType = bandType;
        this.band = band;
        final long ticks = bandTicks(referencePrice, tickSize, bandType, band);
        final long low = referencePrice - ticks * tickSize;
        minPrice = low >= tickSize ? low : tickSize;
        maxPrice = referencePrice + ticks * tickSize;
    }

    /**
     * The band's half-width in ticks, or -1 when the arguments do not describe a usable band: band type unknown,
     * band not positive or too wide, or more than {@link PriceLevels#MAX_LEVELS} prices in the band.
     *
     * @param referencePrice positive multiple of the tick.
     * @param tickSize       positive.
     * @param bandType       raw band type.
     * @param band           band value.
     * @return ticks either side of the reference price, or -1.
     */
    public static long bandTicks(final long referencePrice, final long tickSize, final byte bandType, final long band)
    {
        if (band <= 0 || tickSize <= 0 || referencePrice <= 0)
        {
            return -1;
        }
        final long ticks;
        if (bandType == BAND_TICKS)
        {
            ticks = band;
        }
        else if (bandType == BAND_BASIS_POINTS)
        {
            if (band > MAX_BAND_BASIS_POINTS)
            {
                return -1;
            }
            final long bandPrice = referencePrice / 10_000 * band + (referencePrice % 10_000) * band / 10_000;
            ticks = bandPrice / tickSize;
        }
        else
        {
            return -1;
        }
        if (ticks > PriceLevels.MAX_LEVELS / 2 - 1 ||
            referencePrice > Long.MAX_VALUE - (ticks + 1) * tickSize)
        {
            return -1;
        }
        return ticks;
    }

    /** @return id. */
    public int instrumentId()
    {
        return instrumentId;
    }

    /**
     * Rename the instrument (an amend that changes nothing else keeps its book and orders).
     *
     * @param symbol 16 bytes of symbol (copied).
     */
    public void rename(final byte[] symbol)
    {
        System.arraycopy(symbol, 0, this.symbol, 0, SYMBOL_LENGTH);
    }

    /** @return the 16 symbol bytes (do not modify). */
    public byte[] symbol()
    {
        return symbol;
    }

    /** @return decimal places of prices. */
    public int priceScale()
    {
        return priceScale;
    }

    /** @return tick size. */
    public long tickSize()
    {
        return tickSize;
    }

    /** @return lot size. */
    public long lotSize()
    {
        return lotSize;
    }

    /** @return reference price. */
    public long referencePrice()
    {
        return referencePrice;
    }

    /** @return raw band type. */
    public byte bandType()
    {
        return bandType;
    }

    /** @return band value as given. */
    public long band()
    {
        return band;
    }

    /** @return lowest accepted price, the protection price of market sells. */
    public long minPrice()
    {
        return minPrice;
    }

    /** @return highest accepted price, the protection price of market buys. */
    public long maxPrice()
    {
        return maxPrice;
    }

    /** @return number of prices in the band. */
    public int levelCount()
    {
        return (int)((maxPrice - minPrice) / tickSize) + 1;
    }

    /** @return raw trading status. */
    public byte status()
    {
        return status;
    }

    /**
     * @param status raw trading status.
     */
    public void status(final byte status)
    {
        this.status = status;
    }

    /** @return true in a call phase: orders are accepted and rest, nothing matches until the uncrossing. */
    public boolean inCallPhase()
    {
        return isCallPhase(status);
    }

    /**
     * @param status a raw trading status.
     * @return true for PRE_OPEN and the three auctions.
     */
    public static boolean isCallPhase(final byte status)
    {
        return status >= STATUS_PRE_OPEN && status <= STATUS_VOLATILITY_AUCTION;
    }
}
