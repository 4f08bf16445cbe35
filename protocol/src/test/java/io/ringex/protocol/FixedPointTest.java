package io.ringex.protocol;

import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import static io.ringex.protocol.FixedPoint.INVALID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * Parsing, formatting and notional arithmetic in fixed point: tables of exact cases, and properties over random
 * values (QuickTheories, 1,000 cases each). A failing property is shrunk and its report ends with
 * {@code Seed was N}; {@code -DQT_SEED=N} replays it, e.g.
 * {@code mvn -B -o test -pl protocol -Dtest=FixedPointTest -DQT_SEED=N}.
 */
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

    @Test
    void formatThenParseIsIdentity()
    {
        qt().withExamples(1000)
            .forAll(spread(Long.MIN_VALUE + 1, Long.MAX_VALUE), integers().between(0, 18))
            .checkAssert((value, scale) ->
                assertEquals(value, FixedPoint.parse(FixedPoint.format(value, scale), scale), "scale " + scale));
    }

    @Test
    void notionalIsExactOrRefused()
    {
        qt().withExamples(1000)
            .forAll(spread(1, 1_000_000_000_000L), spread(1, 1_000_000_000L),
                integers().between(0, FixedPoint.MAX_PRICE_SCALE))
            .checkAssert(FixedPointTest::notionalIsExactOrRefused);
    }

    private static void notionalIsExactOrRefused(final long price, final long quantity, final int scale)
    {
        final BigInteger exact = BigInteger.valueOf(price)
            .multiply(BigInteger.valueOf(quantity))
            .multiply(BigInteger.TEN.pow(FixedPoint.MONEY_SCALE - scale));
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

    /**
     * Values in {@code [min, max]}, a range that holds 1: uniform over the range, uniform up to a random power of ten
     * (a uniform draw over a wide range almost never lands on a small value, and the small ones take the exact paths),
     * or the range's ends and the values by 0.
     */
    private static Gen<Long> spread(final long min, final long max)
    {
        final Gen<Long> magnitude = integers().between(0, 18).flatMap((digits) ->
        {
            final long bound = BigInteger.TEN.pow(digits).longValueExact();
            return longs().between(Math.max(min, -bound), Math.min(max, bound));
        });
        final Gen<Long> edges = arbitrary().pick(min, max, Math.max(min, -1), 1L, Math.min(max, 2), Math.max(min, 0));
        return Generate.frequency(List.of(Pair.of(2, longs().between(min, max)), Pair.of(2, magnitude),
            Pair.of(1, edges)));
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
