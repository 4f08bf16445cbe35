package io.ringex.gateway;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Property(tries = 200)
    void neverAllowsMoreThanBurstPlusRateTimesElapsed(
        @ForAll @IntRange(min = 1, max = 10_000) final int rate,
        @ForAll @IntRange(min = 1, max = 1_000) final int burst,
        @ForAll @LongRange(min = 1, max = 5_000_000) final long stepNs)
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
}
