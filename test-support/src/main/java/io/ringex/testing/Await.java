package io.ringex.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting on a condition with a deadline, never a bare sleep: the condition is polled while {@code work} runs (a
 * client's poll, a subscription's poll) with a short park between rounds, so a slow machine only makes a test slower,
 * and a condition that never comes fails with what was awaited and, when given, what was seen instead. Keep
 * deadlines below the build's per-test timeout ({@code ringex.test.timeout}, {@code ringex.it.timeout}), or JUnit
 * fires first and the message saying what was awaited is lost.
 * <p>
 * The wait ends early, failing, when the thread is interrupted: that is how JUnit's per-test timeout (the build sets
 * {@code junit.jupiter.execution.timeout.default}) stops a test waiting in here.
 * <p>
 * Called from the test's thread; {@code condition}, {@code work} and {@code context} run on it.
 */
public final class Await
{
    /** Deadline when none is given: generous for a shared 2-core machine running several builds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    private static final long PARK_NS = 200_000;

    private Await()
    {
    }

    /**
     * Wait up to {@link #DEFAULT_TIMEOUT} for {@code condition}.
     *
     * @param what      what is awaited, for the failure message.
     * @param condition true when done.
     */
    public static void until(final String what, final BooleanSupplier condition)
    {
        until(what, DEFAULT_TIMEOUT, condition, null, null);
    }

    /**
     * Wait up to {@link #DEFAULT_TIMEOUT} for {@code condition}, running {@code work} each round.
     *
     * @param what      what is awaited, for the failure message.
     * @param condition true when done.
     * @param work      run each round before the condition is asked again (may be null).
     */
    public static void until(final String what, final BooleanSupplier condition, final Runnable work)
    {
        until(what, DEFAULT_TIMEOUT, condition, work, null);
    }

    /**
     * Wait up to {@code timeout} for {@code condition}, running {@code work} each round.
     *
     * @param what      what is awaited, for the failure message.
     * @param timeout   the deadline.
     * @param condition true when done.
     * @param work      run each round before the condition is asked again (may be null).
     */
    public static void until(
        final String what, final Duration timeout, final BooleanSupplier condition, final Runnable work)
    {
        until(what, timeout, condition, work, null);
    }

    /**
     * Wait up to {@code timeout} for {@code condition}, running {@code work} each round; on failure the message
     * carries {@code context}'s answer (e.g. the messages received so far).
     *
     * @param what      what is awaited, for the failure message.
     * @param timeout   the deadline.
     * @param condition true when done.
     * @param work      run each round before the condition is asked again (may be null).
     * @param context   what was seen instead, asked once on failure (may be null).
     */
    public static void until(
        final String what,
        final Duration timeout,
        final BooleanSupplier condition,
        final Runnable work,
        final Supplier<?> context)
    {
        until(() -> what, timeout, condition, work, context);
    }

    /**
     * Wait up to {@link #DEFAULT_TIMEOUT} for {@code condition}; {@code what} is built only if the wait fails.
     *
     * @param what      what is awaited, for the failure message, asked once on failure.
     * @param condition true when done.
     */
    public static void until(final Supplier<String> what, final BooleanSupplier condition)
    {
        until(what, DEFAULT_TIMEOUT, condition, null, null);
    }

    /**
     * Wait up to {@code timeout} for {@code condition}, running {@code work} each round; {@code what} is built only
     * if the wait fails.
     *
     * @param what      what is awaited, for the failure message, asked once on failure.
     * @param timeout   the deadline.
     * @param condition true when done.
     * @param work      run each round before the condition is asked again (may be null).
     */
    public static void until(
        final Supplier<String> what, final Duration timeout, final BooleanSupplier condition, final Runnable work)
    {
        until(what, timeout, condition, work, null);
    }

    /**
     * Wait up to {@code timeout} for {@code condition}, running {@code work} each round; on failure the message
     * carries {@code what} (built then, so it may describe the state at the time of failure) and {@code context}'s
     * answer.
     *
     * @param what      what is awaited, for the failure message, asked once on failure.
     * @param timeout   the deadline.
     * @param condition true when done.
     * @param work      run each round before the condition is asked again (may be null).
     * @param context   what was seen instead, asked once on failure (may be null).
     */
    public static void until(
        final Supplier<String> what,
        final Duration timeout,
        final BooleanSupplier condition,
        final Runnable work,
        final Supplier<?> context)
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what.get() + seen(context));
            }
            if (Thread.currentThread().isInterrupted())
            {
                throw new AssertionError(
                    "interrupted (the per-test timeout?) waiting for: " + what.get() + seen(context));
            }
            if (null != work)
            {
                work.run();
            }
            LockSupport.parkNanos(PARK_NS);
        }
    }

    /**
     * Keep running {@code work} for {@code period}, failing as soon as {@code condition} turns true (e.g. a message
     * that must not arrive).
     *
     * @param what      what must not happen, for the failure message.
     * @param period    how long to watch.
     * @param condition must stay false.
     * @param work      run each round (may be null).
     */
    public static void never(
        final String what, final Duration period, final BooleanSupplier condition, final Runnable work)
    {
        final long endNs = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - endNs < 0)
        {
            if (condition.getAsBoolean())
            {
                throw new AssertionError("unexpected: " + what);
            }
            if (Thread.currentThread().isInterrupted())
            {
                throw new AssertionError("interrupted (the per-test timeout?) watching that this never happens: " +
                    what);
            }
            if (null != work)
            {
                work.run();
            }
            LockSupport.parkNanos(PARK_NS);
        }
    }

    private static String seen(final Supplier<?> context)
    {
        if (null == context)
        {
            return "";
        }
        try
        {
            return "; seen: " + context.get();
        }
        catch (final RuntimeException ex)
        {
            return "; seen: (asking failed: " + ex + ")";
        }
    }
}
