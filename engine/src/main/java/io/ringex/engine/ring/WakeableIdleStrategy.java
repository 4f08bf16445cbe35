package io.ringex.engine.ring;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;

/**
 * A back-off for the thread that runs ring stages, which whoever feeds those stages wakes: it spins, then yields,
 * then parks for growing periods like Agrona's {@code BackoffIdleStrategy}, but the producer's publish or the
 * upstream stage's release that gives one of its stages work unparks it at once. A parked stage so costs no CPU and
 * no latency beyond the operating system's wake-up, where a plain back-off wakes up to its longest park late (plus the
 * timer slack, about 50 us on Linux) for every hop a command crosses.
 * <p>
 * Hand it to each stage the thread runs ({@link Stage.Builder#wokenBy(WakeableIdleStrategy)}) and to the thread's
 * agent runner. The longest park still bounds how late the thread sees work nobody wakes it for (an Aeron
 * subscription polled by the same duty cycle), so keep it short where the thread has such work and long where it
 * runs ring stages only.
 * <p>
 * No wake-up is lost: before parking the thread announces it (a volatile store) and then checks its stages' gates
 * again; a waker advances a gate, issues a full fence and then reads the announcement. One of the two sees the
 * other's store (Dekker's handshake), so either the thread finds the work or the waker unparks it. A waker pays the
 * fence and a load per strategy on its list once per publish or batch, and a syscall only when the thread parks.
 * <p>
 * Thread safety: {@link #idle()}, {@link #idle(int)} and {@link #reset()} from the one thread that runs the stages;
 * {@link #wake()} from any thread; the stages are registered while the ring is built, before its threads start.
 */
public final class WakeableIdleStrategy implements IdleStrategy
{
    /**
     * Name of this strategy in configuration.
     */
    public static final String ALIAS = "wakeable";

    private final long maxSpins;
    private final long maxYields;
    private final long minParkPeriodNs;
    private final long maxParkPeriodNs;
    private Stage[] stages = new Stage[0];
    private long spins;
    private long yields;
    private long parkPeriodNs;
    private Thread thread;
    private volatile boolean parked;

    /**
     * @param maxSpins        spins (with a spin-wait hint) before yielding.
     * @param maxYields       yields before parking.
     * @param minParkPeriodNs first park; each further park doubles it.
     * @param maxParkPeriodNs longest park: how late the thread sees work nobody wakes it for.
     */
    public WakeableIdleStrategy(
        final long maxSpins, final long maxYields, final long minParkPeriodNs, final long maxParkPeriodNs)
    {
        if (maxSpins < 0 || maxYields < 0 || minParkPeriodNs < 1 || maxParkPeriodNs < minParkPeriodNs)
        {
            throw new IllegalArgumentException("spins and yields >= 0, 1 <= min park <= max park: " + maxSpins +
                ", " + maxYields + ", " + minParkPeriodNs + ", " + maxParkPeriodNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkPeriodNs = minParkPeriodNs;
        this.maxParkPeriodNs = maxParkPeriodNs;
        this.parkPeriodNs = minParkPeriodNs;
    }

    /**
     * {@inheritDoc}
     */
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    /**
     * {@inheritDoc}
     */
    public void idle()
    {
        if (spins < maxSpins)
        {
            spins++;
            Thread.onSpinWait();
        }
        else if (yields < maxYields)
        {
            yields++;
            Thread.yield();
        }
        else
        {
            park();
        }
    }

    /**
     * {@inheritDoc}
     */
    public void reset()
    {
        spins = 0;
        yields = 0;
        parkPeriodNs = minParkPeriodNs;
    }

    /**
     * Unpark the thread if it is parked (or about to park); a no-op otherwise. Callers must have made the work they
     * announce visible and issued a full fence first ({@link Wakers#wakeAll()} does both in order).
     */
    public void wake()
    {
        if (parked)
        {
            LockSupport.unpark(thread);
        }
    }

    /**
     * @return true while the thread is parked or about to park: for tests and monitoring.
     */
    public boolean isParked()
    {
        return parked;
    }

    /**
     * {@inheritDoc}
     */
    public String alias()
    {
        return ALIAS;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "WakeableIdleStrategy{alias=" + ALIAS + ", maxSpins=" + maxSpins + ", maxYields=" + maxYields +
            ", minParkPeriodNs=" + minParkPeriodNs + ", maxParkPeriodNs=" + maxParkPeriodNs + '}';
    }

    void addStage(final Stage stage)
    {
        stages = Arrays.copyOf(stages, stages.length + 1);
        stages[stages.length - 1] = stage;
    }

    private void park()
    {
        if (null == thread)
        {
            thread = Thread.currentThread();
        }
        // Volatile store, a full fence on every platform Java runs on: the re-check below cannot be done before it.
        parked = true;
        if (!anyStageHasWork())
        {
            LockSupport.parkNanos(this, parkPeriodNs);
        }
        parked = false;
        parkPeriodNs = Math.min(parkPeriodNs << 1, maxParkPeriodNs);
    }

    private boolean anyStageHasWork()
    {
        for (final Stage stage : stages)
        {
            if (stage.hasWork())
            {
                return true;
            }
        }

        return false;
    }
}
