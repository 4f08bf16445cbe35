package io.ringex.common.aeron;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RepeatedErrorLogTest
{
    @Test
    void anErrorThatRepeatsIsLoggedOnceAMinuteWithItsCount()
    {
        final List<String> lines = new ArrayList<>();
        final RepeatedErrorLog log = new RepeatedErrorLog((line, error) -> lines.add(line));
        final IllegalStateException unreachable = new IllegalStateException("failed to send datagram to /10.0.0.3");
        for (int i = 0; i < 1000; i++)
        {
            log.error(i * 1_000_000L, "driver: Aeron error", unreachable);
        }
        log.error(RepeatedErrorLog.INTERVAL_NS + 5, "driver: Aeron error", unreachable);
        log.error(RepeatedErrorLog.INTERVAL_NS + 6, "driver: Aeron error", new IllegalStateException("another"));

        assertEquals(3, lines.size(), lines.toString());
        assertEquals("driver: Aeron error", lines.get(0));
        assertTrue(lines.get(1).contains("the same error 1000 more times"), lines.get(1));
        assertEquals("driver: Aeron error", lines.get(2), "a different error is logged at once");
    }
}
