package io.ringex.protocol;

/**
 * Fixed-point conversions between the wire's int64 values and decimal text for people (FIX, dashboard, CLI),
 * without floating point.
 * <p>
 * A price is an int64 at its instrument's {@code priceScale}: the text {@code "101.25"} at scale 2 is {@code 10125}.
 * Money (balances, credit, notional, P&amp;L) is an int64 at {@link #MONEY_SCALE}. Parsing is exact: text with more
 * decimal places than the scale allows (other than trailing zeros) or beyond the int64 range is refused with
 * {@link #INVALID}, never rounded.
 * <p>
 * Thread safety: stateless; every method may be called from any thread.
 */
public final class FixedPoint
{
    /** Decimal places of money values. */
    public static final int MONEY_SCALE = 8;

    /** The largest scale a price may have; money must be able to hold price x quantity exactly. */
    public static final int MAX_PRICE_SCALE = MONEY_SCALE;

    /** Returned by the parse methods for text that is not an exact value at the scale. */
    public static final long INVALID = Long.MIN_VALUE;

    private static final long[] POWERS_OF_TEN = new long[19];

    static
    {
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    private FixedPoint()
    {
    }

    /**
     * 10 to the power of {@code exponent}.
     *
     * @param exponent 0..18.
     * @return 10^exponent.
     */
    public static long powerOfTen(final int exponent)
    {
        return POWERS_OF_TEN[exponent];
    }

    /**
     * Parse decimal text such as {@code "-12.50"} into a fixed-point value at {@code scale}.
     *
     * @param text  digits with an optional leading sign and at most one decimal point.
     * @param scale decimal places, 0..18.
     * @return the value, or {@link #INVALID} if the text is empty, malformed, has significant digits beyond the
     * scale, or does not fit an int64 (the int64 minimum itself is reserved for {@link #INVALID}).
     */
    public static long parse(final CharSequence text, final int scale)
    {
        return parse(text, 0, text == null ? 0 : text.length(), scale);
    }

    /**
     * Parse the characters {@code [start, end)} of {@code text}; see {@link #parse(CharSequence, int)}.
     *
     * @param text  the characters.
     * @param start first index.
     * @param end   one past the last index.
     * @param scale decimal places, 0..18.
     * @return the value or {@link #INVALID}.
     */
    public static long parse(final CharSequence text, final int start, final int end, final int scale)
    {
        if (text == null || start >= end || scale < 0 || scale > 18)
        {
            return INVALID;
        }

        int i = start;
        boolean negative = false;
        final char first = text.charAt(i);
        if (first == '-' || first == '+')
        {
            negative = first == '-';
            i++;
        }

        long magnitude = 0;
        int digits = 0;
        int fractionDigits = 0;
        boolean inFraction = false;
        for (; i < end; i++)
        {
            final char c = text.charAt(i);
            if (c == '.')
            {
                if (inFraction)
                {
                    return INVALID;
                }
                inFraction = true;
                continue;
            }
            if (c < '0' || c > '9')
            {
                return INVALID;
            }
            digits++;
            final int digit = c - '0';
            if (inFraction)
            {
                if (fractionDigits == scale)
                {
                    if (digit != 0)
                    {
                        return INVALID;
                    }
                    continue;
                }
                fractionDigits++;
            }
            if (magnitude > (Long.MAX_VALUE - digit) / 10)
            {
                return INVALID;
            }
            magnitude = magnitude * 10 + digit;
        }
        if (digits == 0)
        {
            return INVALID;
        }

        final long factor = POWERS_OF_TEN[scale - fractionDigits];
        if (magnitude > Long.MAX_VALUE / factor)
        {
            return INVALID;
        }
        final long scaled = magnitude * factor;
        return negative ? -scaled : scaled;
    }

    /**
     * Format a fixed-point value as decimal text with exactly {@code scale} decimal places.
     *
     * @param value the fixed-point value.
     * @param scale decimal places, 0..18.
     * @return text such as {@code "-12.50"}.
     */
    public static String format(final long value, final int scale)
    {
        return appendTo(new StringBuilder(24), value, scale).toString();
    }

    /**
     * Append a fixed-point value as decimal text with exactly {@code scale} decimal places.
     *
     * @param out   where to append.
     * @param value the fixed-point value.
     * @param scale decimal places, 0..18.
     * @return {@code out}.
     */
    public static StringBuilder appendTo(final StringBuilder out, final long value, final int scale)
    {
        if (scale == 0)
        {
            return out.append(value);
        }
        final long factor = POWERS_OF_TEN[scale];
        long whole = value / factor;
        long fraction = value % factor;
        if (value < 0)
        {
            out.append('-');
            whole = -whole;
            fraction = -fraction;
        }
        out.append(whole).append('.');
        for (int i = scale - 1; i >= 0; i--)
        {
            out.append((char)('0' + (fraction / POWERS_OF_TEN[i]) % 10));
        }
        return out;
    }

    /**
     * Rescale a value from one scale to another, exactly.
     *
     * @param value     the fixed-point value.
     * @param fromScale its scale.
     * @param toScale   the wanted scale.
     * @return the value at {@code toScale}, or {@link #INVALID} if it has digits the target scale cannot hold or it
     * overflows.
     */
    public static long rescale(final long value, final int fromScale, final int toScale)
    {
        if (fromScale == toScale)
        {
            return value;
        }
        if (toScale > fromScale)
        {
            final long factor = POWERS_OF_TEN[toScale - fromScale];
            final long high = Math.multiplyHigh(value, factor);
            final long low = value * factor;
            return (high == 0 && low >= 0) || (high == -1 && low < 0) ? low : INVALID;
        }
        final long factor = POWERS_OF_TEN[fromScale - toScale];
        return value % factor == 0 ? value / factor : INVALID;
    }

    /**
     * Notional of {@code quantity} at {@code price} in money units ({@link #MONEY_SCALE}).
     *
     * @param price      price at {@code priceScale}.
     * @param quantity   quantity in whole units.
     * @param priceScale the price's scale, 0..{@link #MAX_PRICE_SCALE}.
     * @return price x quantity at money scale, or {@link #INVALID} if it does not fit an int64.
     */
    public static long notional(final long price, final long quantity, final int priceScale)
    {
        final long factor = POWERS_OF_TEN[MONEY_SCALE - priceScale];
        final long priceMoney = price * factor;
        if (Math.multiplyHigh(price, factor) != (priceMoney >> 63))
        {
            return INVALID;
        }
        final long result = priceMoney * quantity;
        if (Math.multiplyHigh(priceMoney, quantity) != (result >> 63) || result == INVALID)
        {
            return INVALID;
        }
        return result;
    }
}
