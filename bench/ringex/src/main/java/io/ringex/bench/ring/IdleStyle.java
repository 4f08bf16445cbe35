package io.ringex.bench.ring;

import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.LiteBlockingWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import io.ringex.engine.ring.WakeableIdleStrategy;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How consumers (and full producers) wait, matched as closely as the two libraries allow. The ArrayBlockingQueue
 * always blocks on its lock and conditions: it has no idle style.
 */
public enum IdleStyle
{
    /**
     * Spin 100 times, then yield: Agrona {@link BackoffIdleStrategy} with unbounded yields (Agrona's own
     * {@link YieldingIdleStrategy} yields at once) vs Disruptor {@link YieldingWaitStrategy}, which spins 100 times
     * then yields.
     */
    YIELDING,

    /**
     * Agrona {@link BackoffIdleStrategy} (100 spins, 10 yields, park 1-100 us, the longest park settable for an
     * experiment) vs Disruptor
     * {@link SleepingWaitStrategy} (spin, yield, then park 100 ns at a time).
     */
    BACKOFF,

    /**
     * Busy spin on both: only meaningful where every thread has a core (unicast on 2 cores).
     */
    BUSY_SPIN,

    /**
     * The back-off's spins, yields and parks, but whoever makes work for a parked thread wakes it: the engine's
     * {@link WakeableIdleStrategy} (a producer wakes after each publish, a stage after each batch) against the
     * Disruptor's {@code LiteBlockingWaitStrategy} (a publish signals waiting consumers).
     */
    WAKE;

    /** Our backoff's longest park, microseconds: 100 unless {@code -Dringex.bench.backoff.max.park.us} says. */
    private static final long BACKOFF_MAX_PARK_US = experiment("ringex.bench.backoff.max.park.us", 100);
    /** Our backoff's (and wake's) spins before yielding: 100 unless {@code -Dringex.bench.backoff.spins} says. */
    private static final long BACKOFF_SPINS = experiment("ringex.bench.backoff.spins", 100);
    /** Our backoff's (and wake's) yields before parking: 10 unless {@code -Dringex.bench.backoff.yields} says. */
    private static final long BACKOFF_YIELDS = experiment("ringex.bench.backoff.yields", 10);

    /**
     * An experiment's setting: a malformed value stops the benchmark naming the key, rather than running the default.
     */
    private static long experiment(final String key, final long defaultValue)
    {
        final String value = System.getProperty(key);
        try
        {
            return null == value ? defaultValue : Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(key + ": must be a whole number (was '" + value + "')", ex);
        }
    }

    IdleStrategy agrona()
    {
        switch (this)
        {
            case YIELDING:
                return new BackoffIdleStrategy(BACKOFF_SPINS, Long.MAX_VALUE, 1, 1);
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case WAKE:
                return new WakeableIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS,
                    TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(BACKOFF_MAX_PARK_US));
            default:
                return new BackoffIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS,
                    TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(BACKOFF_MAX_PARK_US));
        }
    }

    /**
     * How a ringex producer waits for room when the ring is full, in every style: park 1 ns at a time, which is what
     * the Disruptor's sequencers do ({@code LockSupport.parkNanos(1)}) whatever its wait strategy. A producer that
     * spun or yielded instead would take CPU from the very consumers it waits for when threads outnumber cores.
     *
     * @return a new idle strategy for one producer thread.
     */
    static IdleStrategy producerWhenFull()
    {
        return new SleepingIdleStrategy(1);
    }

    WaitStrategy disruptor()
    {
        switch (this)
        {
            case YIELDING:
                return new YieldingWaitStrategy();
            case BUSY_SPIN:
                return new BusySpinWaitStrategy();
            case WAKE:
                return new LiteBlockingWaitStrategy();
            default:
                return new SleepingWaitStrategy();
        }
    }
}
