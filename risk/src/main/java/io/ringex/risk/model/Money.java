package io.ringex.risk.model;

import io.ringex.protocol.FixedPoint;

/**
 * Formatting of wire values for the JSON views: exact decimal text, never floating point, except the ratios and
 * chart series that are for drawing only.
 */
final class Money
{
    /** The null value of the schema's optional prices. */
    static final long NULL_PRICE = Long.MIN_VALUE;

    private Money()
    {
    }

    static String money(final long value)
    {
        return FixedPoint.format(value, FixedPoint.MONEY_SCALE);
    }

    static String price(final long value, final int priceScale)
    {
        return value == NULL_PRICE ? null : FixedPoint.format(value, priceScale);
    }

    static double toDouble(final long value, final int scale)
    {
        return (double)value / FixedPoint.powerOfTen(scale);
    }

    static double ratio(final long used, final long limit)
    {
        if (limit <= 0)
        {
            return used > 0 ? 1.0 : 0.0;
        }
        return Math.max(0.0, (double)used / limit);
    }
}
