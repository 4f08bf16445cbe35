package io.ringex.protocol;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.ringex.protocol.FixedPoint.INVALID;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FixedPointTest
{
    @ParameterizedTest(name = "\"{0}\" at scale {1} -> {2}")
    @CsvSource({
        "101.25, 2, 10125",
        "101.250, 2, 10125",
        "101.2, 2, 10120",
        "101, 2, 10100",
        "-0.5, 1, -5",
        "+7, 0, 7",
        ".5, 1, 5",
        "5., 1, 50",
        "0.00000001, 8, 1",
        "92233720368.54775807, 8, 9223372036854775807",
    })
    void parsesExactValues(final String text, final int scale, final long expected)
    {
        assertEquals(expected, FixedPoint.parse(text, scale));
    }

    @ParameterizedTest(name = "\"{0}\" at scale {1} is refused")
    @CsvSource({
        "101.255, 2",
        "1.5, 0",
        "'', 2",
        "-, 2",
        ".,2",
        "1.2.3, 2",
        "1e5, 2",
        "' 1', 2",
        "92233720368.54775808, 8",
        "99999999999999999999, 0",
        "-92233720368.54775808, 8",
    })
    void refusesWhatIsNotExactlyRepresentable(final String text, final int scale)
    {
        assertEquals(INVALID, FixedPoint.parse(text, scale));
    }

    @ParameterizedTest(name = "{0} at scale {1} -> \"{2}\"")
    @CsvSource({
        "10125, 2, 101.25",
        "-5, 1, -0.5",
        "-105, 2, -1.05",
        "7, 0, 7",
        "1, 8, 0.00000001",
        "0, 3, 0.000",
    })
    void formatsWithExactlyTheScaleDecimals(final long value, final int scale, final String expected)
    {
        assertEquals(expected, FixedPoint.format(value, scale));
    }

    @Property
    void formatThenParseIsIdentity(
        @ForAll @LongRange(min = Long.MIN_VALUE + 1) final long value, @ForAll @IntRange(max = 18) final int scale)
    {
        assertEquals(value, FixedPoint.parse(FixedPoint.format(value, scale), scale));
    }

    @Property
    void notionalIsExactOrRefused(
        @ForAll @LongRange(min = 1, max = 1_000_000_000_000L) final long price,
        @ForAll @LongRange(min = 1, max = 1_000_000_000L) final long quantity,
        @ForAll @IntRange(max = FixedPoint.MAX_PRICE_SCALE) final int scale)
    {
        final java.math.BigInteger exact = java.math.BigInteger.valueOf(price)
            .multiply(java.math.BigInteger.valueOf(quantity))
            .multiply(java.math.BigInteger.TEN.pow(FixedPoint.MONEY_SCALE - scale));
        final long notional = FixedPoint.notional(price, quantity, scale);
        if (exact.bitLength() < 64)
        {
            assertEquals(exact.longValueExact(), notional);
        }
        else
        {
            assertEquals(INVALID, notional);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "150, 2, 4, 15000",
        "15000, 4, 2, 150",
        "15001, 4, 2, " + Long.MIN_VALUE,
        "9223372036854775807, 0, 1, " + Long.MIN_VALUE,
    })
    void rescalesExactly(final long value, final int from, final int to, final long expected)
    {
        assertEquals(expected, FixedPoint.rescale(value, from, to));
    }
}
