package io.ringex.testing;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SystemPropertiesGuardTest
{
    private static final String RINGEX_KEY = "ringex.test-support.guarded";
    private static final String OTHER_KEY = "test-support.not-ringex";

    @Test
    void eachTestStartsWithoutRingexKeysAndLeavesThePropertiesAsFound()
    {
        final SystemPropertiesGuard guard = new SystemPropertiesGuard();
        System.setProperty(RINGEX_KEY, "set before");
        System.setProperty(OTHER_KEY, "kept");
        try
        {
            guard.beforeEach(null);
            assertNull(System.getProperty(RINGEX_KEY), "a ringex.* key is cleared for the test");
            assertEquals("kept", System.getProperty(OTHER_KEY), "other keys are left alone");

            System.setProperty(RINGEX_KEY, "set by the test");
            System.setProperty("ringex.test-support.added", "by the test");
            guard.afterEach(null);
            assertEquals("set before", System.getProperty(RINGEX_KEY), "restored");
            assertNull(System.getProperty("ringex.test-support.added"), "what the test added is gone");
        }
        finally
        {
            System.clearProperty(RINGEX_KEY);
            System.clearProperty(OTHER_KEY);
        }
    }
}
