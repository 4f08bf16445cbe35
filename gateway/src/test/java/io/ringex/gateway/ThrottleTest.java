package io.ringex.gateway;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * The token bucket: a burst, the refill rate, fractions of a token at slow rates, and a property over random
 * rates, bursts and steps (QuickTheories, 200 cases). A failing case is shrunk and its report ends with
 * {@code Seed was N}; {@code -DQT_SEED=N} replays it, e.g.
 * {@code mvn -B -o test -pl gateway -am -Dtest=ThrottleTest -Dsurefire.failIfNoSpecifiedTests=false -DQT_SEED=N}.
 */
class ThrottleTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void allowsABurstThenRefuses()
    {
        final Throttle throttle = new Throttle(10, 3, 0);
        assertTrue(throttle.tryAcquire(0));
        assertTrue(throttle.tryAcquire(0));
        assertTrue(throttle.tryAcquire(0));
        assertFalse(throttle.tryAcquire(0));
    }

    @Test
    void refillsAtTheRate()
    {
        final Throttle throttle = new Throttle(10, 10, 0);
        for (int i = 0; i < 10; i++)
        {
            assertTrue(throttle.tryAcquire(0));
        }
        assertFalse(throttle.tryAcquire(SECOND / 10 - 1));
        assertTrue(throttle.tryAcquire(SECOND / 10));
        assertFalse(throttle.tryAcquire(SECOND / 10));
        assertEquals(10, throttle.available(100 * SECOND));
    }

    @Test
    void slowRatesCarryFractions()
    {
        final Throttle throttle = new Throttle(1, 1, 0);
        assertTrue(throttle.tryAcquire(0));
        assertFalse(throttle.tryAcquire(SECOND / 2));
        assertTrue(throttle.tryAcquire(SECOND));
    }

    @Test
    void neverAllowsMoreThanBurstPlusRateTimesElapsed()
    {
        qt().withExamples(200)
            .forAll(spread(1, 10_000).map(Long::intValue), spread(1, 1_000).map(Long::intValue), spread(1, 5_000_000))
            .checkAssert(ThrottleTest::neverAllowsMoreThanBurstPlusRateTimesElapsed);
    }

    private static void neverAllowsMoreThanBurstPlusRateTimesElapsed(final int rate, final int burst, final long stepNs)
    {
        final Throttle throttle = new Throttle(rate, burst, 0);
        long allowed = 0;
        long now = 0;
        for (int i = 0; i < 2_000; i++)
        {
            if (throttle.tryAcquire(now))
            {
                allowed++;
            }
            now += stepNs;
        }
        final long bound = burst + (long)((double)rate * now / SECOND) + 1;
        assertTrue(allowed <= bound, allowed + " > " + bound);
    }

    /**
     * Values in {@code [min, max]}, a range that holds 1: uniform over the range, uniform up to a random power of ten
     * (small rates, bursts and steps are where fractions of a token and rounding matter), or the range's ends.
     */
    private static Gen<Long> spread(final long min, final long max)
    {
        final Gen<Long> magnitude = integers().between(0, 18).flatMap((digits) ->
            longs().between(min, Math.min(max, Math.max(min, (long)Math.pow(10, digits)))));
        final Gen<Long> edges = Generate.pick(List.of(min, max, Math.min(max, min + 1)));
        return Generate.frequency(List.of(Pair.of(2, longs().between(min, max)), Pair.of(2, magnitude),
            Pair.of(1, edges)));
    }
}
