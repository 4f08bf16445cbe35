package io.ringex.gateway.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting on conditions with deadlines, never bare sleeps: the condition is polled while {@code work} runs (e.g. a
 * client's poll) with a short park between rounds.
 */
public final class Await
{
    /** Default deadline: generous for a shared 2-core machine. */
    public static final Duration DEFAULT = Duration.ofSeconds(20);

    private Await()
    {
    }

    /**
     * @param what      description for the failure message.
     * @param condition what to wait for.
     * @param work      run each round (may be null).
     */
    public static void until(final String what, final BooleanSupplier condition, final Runnable work)
    {
        until(what, DEFAULT, condition, work);
    }

    /**
     * @param what      description for the failure message.
     * @param timeout   deadline.
     * @param condition what to wait for.
     * @param work      run each round (may be null).
     */
    public static void until(
        final String what, final Duration timeout, final BooleanSupplier condition, final Runnable work)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            if (work != null)
            {
                work.run();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
    }

    /**
     * Keep doing work for a while, asserting a condition stays false (e.g. no unexpected message arrives).
     *
     * @param what      description.
     * @param period    how long to watch.
     * @param condition must stay false.
     * @param work      run each round.
     */
    public static void never(
        final String what, final Duration period, final BooleanSupplier condition, final Runnable work)
    {
        final long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - end < 0)
        {
            if (condition.getAsBoolean())
            {
                throw new AssertionError("unexpected: " + what);
            }
            if (work != null)
            {
                work.run();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
    }
}
