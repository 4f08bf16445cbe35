package io.ringex.engine.risk;

import io.ringex.protocol.FixedPoint;

/**
 * Integer arithmetic for prices and money: average prices rounded half-up and proportional cost, without floating
 * point. Quantities are assumed to stay below about 3 x 10^9 per position so intermediate products fit an int64.
 * <p>
 * Threading: stateless.
 */
public final class PnlMath
{
    private PnlMath()
    {
    }

    /**
     * Average price of {@code quantity} units that cost {@code notional} in money, at the price scale, half-up.
     *
     * @param notional   non-negative money.
     * @param quantity   positive quantity.
     * @param priceScale price scale 0..8.
     * @return average price.
     */
    public static long averagePrice(final long notional, final long quantity, final int priceScale)
    {
        if (quantity <= 0)
        {
            return 0;
        }
        final long factor = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE - priceScale);
        final long perUnit = notional / quantity;
        final long remainder = notional % quantity;
        // price = (perUnit + remainder / quantity) / factor, rounded half-up, computed without overflow
        final long whole = perUnit / factor;
        final long rest = perUnit % factor;
        // compare (rest + remainder / quantity) with factor / 2: (2 * rest * quantity + 2 * remainder) >= factor * q
        final long twiceRestScaled = mulSaturated(2 * rest, quantity) + 2 * remainder;
        return twiceRestScaled >= mulSaturated(factor, quantity) ? whole + 1 : whole;
    }

    /**
     * The part of {@code cost} that belongs to {@code part} of {@code whole} units, truncated toward zero.
     *
     * @param cost  signed money.
     * @param part  0..whole.
     * @param whole positive.
     * @return cost x part / whole.
     */
    public static long proportion(final long cost, final long part, final long whole)
    {
        if (part == whole)
        {
            return cost;
        }
        return cost / whole * part + cost % whole * part / whole;
    }

    private static long mulSaturated(final long a, final long b)
    {
        final long high = Math.multiplyHigh(a, b);
        final long low = a * b;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0))
        {
            return low;
        }
        return Long.MAX_VALUE / 2;
    }
}
