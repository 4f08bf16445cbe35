package io.ringex.gateway.auth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class RateLimitedLogTest
{
    @Test
    void oneLineAnIntervalAndTheNextSaysHowManyWereSkipped()
    {
        final RateLimitedLog log = new RateLimitedLog(1_000);
        assertEquals(0, log.admit(5_000), "the first line is written");
        for (int i = 0; i < 1_582; i++)
        {
            assertEquals(RateLimitedLog.SKIP, log.admit(5_000 + i % 1_000));
        }
        assertEquals(1_582, log.admit(6_000), "the next line counts the ones skipped");
        assertEquals(RateLimitedLog.SKIP, log.admit(6_999));
        assertEquals(1, log.admit(60_000));
        assertEquals(0, log.admit(61_000));
    }
}
