package io.ringex.engine.marketdata;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetransmissionWindowTest
{
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[32]);

    private RetransmissionWindow windowOf(final int messages)
    {
        final RetransmissionWindow window = new RetransmissionWindow(64 * 1024, 1024);
        for (int sequence = 1; sequence <= messages; sequence++)
        {
            message.putInt(0, sequence);
            window.add(sequence, message, 0, message.capacity());
        }
        return window;
    }

    @Test
    void holdsExactlyTheRangesItHas()
    {
        final RetransmissionWindow window = windowOf(100);
        assertTrue(window.holds(1, 100));
        assertTrue(window.holds(100, 1));
        assertFalse(window.holds(100, 2), "one past the newest");
        assertFalse(window.holds(0, 1), "before the first");
        assertFalse(window.holds(101, 1), "not sent yet");
        assertFalse(window.holds(5, 0), "nothing asked");
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[32]);
        assertEquals(32, window.copy(42, copy, 0));
        assertEquals(42, copy.getInt(0));
    }

    @Test
    void aRangeWhoseEndOverflowsIsNotHeld()
    {
        final RetransmissionWindow window = windowOf(100);
        // from + count - 1 wraps negative: the old check took these for held ranges, and the answer sent nothing
        assertFalse(window.holds(Long.MAX_VALUE, 2));
        assertFalse(window.holds(Long.MAX_VALUE - 5, 4096));
        assertFalse(window.holds(Long.MAX_VALUE, Integer.MAX_VALUE));
        assertFalse(window.holds(50, Integer.MAX_VALUE), "from held, the end far beyond");
    }
}
