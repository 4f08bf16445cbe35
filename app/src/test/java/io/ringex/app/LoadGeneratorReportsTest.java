package io.ringex.app;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the load generator makes of the venue's answers: orders refused before the engine (THROTTLED above all) end
 * the wait for them, are counted apart and stay out of the latency, and a throttled run says so and how to raise
 * the throttle, where it used to wait ten seconds for answers that never came and print percentiles of the few
 * orders that got through.
 */
class LoadGeneratorReportsTest
{
    @Test
    void aRejectIsAnsweredCountedAndKeptOutOfTheLatency()
    {
        final LoadGenerator.Reports reports = new LoadGenerator.Reports(1, 3);
        for (int i = 0; i < 4; i++)
        {
            reports.dueNs[i] = 1_000;
        }
        reports.onReject(0, true);
        reports.onFirstReport(1, 51_000);
        reports.onReject(2, true);
        reports.onReject(3, false);
        reports.onReject(3, true);
        reports.onFirstReport(2, 99_000);

        assertEquals(4, reports.count);
        assertEquals(1, reports.measured);
        assertEquals(2, reports.rejects, "the warm-up's reject is not counted");
        assertEquals(1, reports.throttled);
        assertEquals(1, reports.latency.getTotalCount());
        assertEquals(50_000, reports.latency.getMaxValue(), 50);
        assertEquals(LoadGenerator.REJECTED, reports.latencyNs[2]);
    }

    @Test
    void aThrottledRunSaysWhyAndHowToRaiseTheThrottle()
    {
        assertNull(LoadGenerator.throttleWarning(1000, 0, 1000, 2));
        final String warning = LoadGenerator.throttleWarning(100_000, 94_000, 10_000, 2);
        assertTrue(warning.startsWith("THROTTLED: the venue refused 94,000 of the 100,000 orders sent (94%)"),
            warning);
        assertTrue(warning.contains("10,000 orders/s over 2 session(s), about 5,000/s per session"), warning);
        assertTrue(warning.contains("./ringex demo --ringex.gateway.throttle.messages.per.second=10000"), warning);
    }
}
