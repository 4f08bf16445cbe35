package io.ringex.bench.workload;

import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;

/**
 * What an engine must be given before a workload is replayed, in Ringex admin terms ({@code AddInstrument}, {@code
 * AddAccount}, {@code SetLimits}, {@code AdjustBalance}), so that every generated price is in band and risk never
 * rejects. Derived from the file header alone, so every side sets up the same venue.
 * <p>
 * Odd account ids only buy and even ids only sell ({@link #isBuyer(long)}), so self-trade prevention never fires; the
 * cash and credit of all accounts together stay below half the int64 range, so no total can overflow.
 */
public final class WorkloadPreamble
{
    /** One money unit at {@link FixedPoint#MONEY_SCALE}. */
    public static final long MONEY_UNIT = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);

    private final int instruments;
    private final int accounts;
    private final int restingOrdersTarget;

    private WorkloadPreamble(final int instruments, final int accounts, final int restingOrdersTarget)
    {
        this.instruments = instruments;
        this.accounts = accounts;
        this.restingOrdersTarget = restingOrdersTarget;
    }

    /**
     * @param file an open workload file.
     * @return its preamble.
     */
    public static WorkloadPreamble of(final WorkloadFile file)
    {
        if (file.priceScale() != WorkloadSpec.PRICE_SCALE || file.tickSize() != WorkloadSpec.TICK_SIZE ||
            file.lotSize() != WorkloadSpec.LOT_SIZE || file.referencePrice() != WorkloadSpec.REFERENCE_PRICE ||
            file.priceBandTicks() != WorkloadSpec.PRICE_BAND_TICKS)
        {
            throw new IllegalArgumentException("the file's price grid is not this build's WorkloadSpec grid");
        }
        return new WorkloadPreamble(file.instruments(), file.accounts(), file.restingOrdersTarget());
    }

    /**
     * @param spec a workload spec.
     * @return its preamble.
     */
    public static WorkloadPreamble of(final WorkloadSpec spec)
    {
        return new WorkloadPreamble(spec.instruments(), spec.accounts(), spec.restingOrdersPerInstrument());
    }

    /** @return instruments; ids are 1..instruments. */
    public int instruments()
    {
        return instruments;
    }

    /**
     * @param instrumentId 1..instruments.
     * @return its symbol, e.g. "WL0001" (at most 16 ASCII characters).
     */
    public String symbol(final int instrumentId)
    {
        return String.format("WL%04d", instrumentId);
    }

    /** @return decimal places of prices. */
    public int priceScale()
    {
        return WorkloadSpec.PRICE_SCALE;
    }

    /** @return tick at the price scale. */
    public long tickSize()
    {
        return WorkloadSpec.TICK_SIZE;
    }

    /** @return lot in units. */
    public long lotSize()
    {
        return WorkloadSpec.LOT_SIZE;
    }

    /** @return reference price at the price scale. */
    public long referencePrice()
    {
        return WorkloadSpec.REFERENCE_PRICE;
    }

    /** @return the band's type. */
    public PriceBandType priceBandType()
    {
        return PriceBandType.TICKS;
    }

    /** @return the band, ticks either side of the reference. */
    public long priceBand()
    {
        return WorkloadSpec.PRICE_BAND_TICKS;
    }

    /** @return accounts; ids are 1..accounts. */
    public int accounts()
    {
        return accounts;
    }

    /**
     * @param accountId 1..accounts.
     * @return true if the workload only buys from it (odd ids), false if it only sells (even ids).
     */
    public boolean isBuyer(final long accountId)
    {
        return (accountId & 1) == 1;
    }

    /** @return every account's default policy; never triggered by this workload. */
    public SelfTradePrevention selfTradePrevention()
    {
        return SelfTradePrevention.CANCEL_NEWEST;
    }

    /** @return cash each account is given, at money scale. */
    public long cashDeposit()
    {
        return Long.MAX_VALUE / 4 / (accounts + 1) / MONEY_UNIT * MONEY_UNIT;
    }

    /** @return how far each account's cash may go below zero, at money scale. */
    public long creditLimit()
    {
        return cashDeposit();
    }

    /** @return max quantity of one order. */
    public long maxOrderQuantity()
    {
        return 1_000_000L;
    }

    /** @return max notional of one order, at money scale. */
    public long maxOrderNotional()
    {
        return 1_000_000_000L * MONEY_UNIT;
    }

    /** @return absolute position limit per instrument, open orders counted. */
    public long defaultPositionLimit()
    {
        return 1_000_000_000_000L;
    }

    /** @return max open orders per account. */
    public int maxOpenOrders()
    {
        return (int)Math.min(Integer.MAX_VALUE, 2L * instruments * restingOrdersTarget);
    }

    /** @return true: sellers sell without a position. */
    public boolean allowShort()
    {
        return true;
    }
}
