package io.ringex.common;

import io.aeron.exceptions.ConfigurationException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * Every Ringex process's idle strategies, by Agrona's alias names: {@value BackoffIdleStrategy#ALIAS},
 * {@value BusySpinIdleStrategy#ALIAS}, {@value YieldingIdleStrategy#ALIAS}, {@value SleepingMillisIdleStrategy#ALIAS},
 * {@value SleepingIdleStrategy#ALIAS} and {@value NoOpIdleStrategy#ALIAS}.
 * <p>
 * {@code backoff} is Agrona's back-off with the venue's bounds: 100 spins, 10 yields, then parks growing from 1 us to
 * at most 100 us. Agrona's default parks up to 1 ms, which a message arriving at a parked agent waits out; on two cores
 * the spins and yields must stay few, or idle agents take the core a busy one needs. Busy-spinning agents beyond the
 * machine's cores collapse throughput: {@code spin} is for machines with cores to spare.
 * <p>
 * Thread safety: stateless; each call returns a new strategy (an agent runner needs its own).
 */
public final class IdleStrategies
{
    /** Spins before yielding. */
    public static final long BACKOFF_SPINS = 100;
    /** Yields before parking. */
    public static final long BACKOFF_YIELDS = 10;
    /** First park. */
    public static final long BACKOFF_MIN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(1);
    /** Longest park. */
    public static final long BACKOFF_MAX_PARK_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** A background agent's park ({@link #background()}). */
    public static final long BACKGROUND_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The names {@link #of(String)} takes. */
    public static final String NAMES = BackoffIdleStrategy.ALIAS + ", " + BusySpinIdleStrategy.ALIAS + ", " +
        YieldingIdleStrategy.ALIAS + ", " + SleepingMillisIdleStrategy.ALIAS + ", " + SleepingIdleStrategy.ALIAS +
        " or " + NoOpIdleStrategy.ALIAS;

    private IdleStrategies()
    {
    }

    /**
     * @return the venue's back-off.
     */
    public static IdleStrategy backoff()
    {
        return backoff(BACKOFF_MAX_PARK_NS);
    }

    /**
     * The venue's back-off with another longest park: a command arriving at a parked agent waits up to that (plus
     * the operating system's timer slack, about 50 us on Linux), and an idle agent wakes about that often.
     *
     * @param maxParkNs the longest park, at least {@link #BACKOFF_MIN_PARK_NS}.
     * @return the back-off.
     */
    public static IdleStrategy backoff(final long maxParkNs)
    {
        return new BackoffIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS, BACKOFF_MIN_PARK_NS,
            Math.max(BACKOFF_MIN_PARK_NS, maxParkNs));
    }

    /**
     * How a background agent waits (one whose work may wait a millisecond: archiving, indexing, recovery, replay):
     * park 1 ms whenever a duty cycle found nothing, without the spins, yields and growing parks of {@link #backoff()}.
     * Those cost a few microseconds of CPU at each step, and an agent woken by every message of a busy venue runs
     * through them after each one; this one wakes a thousand times a second at most and takes a batch each time.
     *
     * @return a new strategy.
     */
    public static IdleStrategy background()
    {
        return new SleepingIdleStrategy(BACKGROUND_PARK_NS);
    }

    /**
     * @param name an alias.
     * @return a new strategy.
     * @throws IllegalArgumentException for a name that is not one of {@link #NAMES}.
     */
    public static IdleStrategy of(final String name)
    {
        switch (name)
        {
            case BackoffIdleStrategy.ALIAS:
                return backoff();
            case BusySpinIdleStrategy.ALIAS:
                return new BusySpinIdleStrategy();
            case YieldingIdleStrategy.ALIAS:
                return new YieldingIdleStrategy();
            case SleepingMillisIdleStrategy.ALIAS:
                return new SleepingMillisIdleStrategy(1);
            case SleepingIdleStrategy.ALIAS:
                return new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(50));
            case NoOpIdleStrategy.ALIAS:
                return NoOpIdleStrategy.INSTANCE;
            default:
                throw new IllegalArgumentException("idle strategy must be " + NAMES + ", not '" + name + "'");
        }
    }

    /**
     * Check a configured name, naming the key if it is not one.
     *
     * @param key  the configuration key.
     * @param name its value.
     * @return the name.
     * @throws ConfigurationException if it is not one of {@link #NAMES}.
     */
    public static String check(final String key, final String name)
    {
        try
        {
            of(name);
            return name;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ConfigurationException(key + ": must be " + NAMES + " (was '" + name + "')");
        }
    }
}
