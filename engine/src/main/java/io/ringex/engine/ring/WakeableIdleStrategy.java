package io.ringex.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * A back-off (spin, yield, then park from the shortest to the longest park) that the agents feeding its thread wake
 * when they made work for it: the Disruptor's lite-blocking wait, on an Agrona agent runner (docs/operations.md,
 * "Threading profiles and how their threads wait"). No wake-up is lost: the thread raises a flag and runs its agents
 * once more before it parks, and a producer that did work fences and then reads the flag; each side writes before it
 * reads the other's, with a full fence between.
 * <p>
 * Thread safety: {@link #idle}, {@link #reset} on the runner's thread; {@link #wake()} from any thread.
 */
public final class WakeableIdleStrategy extends WakeableIdleStrategyRhsPadding implements IdleStrategy
{
    private static final int NOT_IDLE = 0;
    private static final int SPINNING = 1;
    private static final int YIELDING = 2;
    private static final int PARKING = 3;
    private static final VarHandle PARKED;

    static
    {
        try
        {
            PARKED = MethodHandles.lookup().findVarHandle(WakeableIdleStrategyFlag.class, "parked", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private int state = NOT_IDLE;
    private long spins;
    private long yields;
    private long parkNs;

    /**
     * @param maxSpins  spins before yielding.
     * @param maxYields yields before parking.
     * @param minParkNs the first park.
     * @param maxParkNs the longest park.
     */
    public WakeableIdleStrategy(final long maxSpins, final long maxYields, final long minParkNs, final long maxParkNs)
    {
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = Math.max(minParkNs, maxParkNs);
    }

    /**
     * Wake the thread if it is parked (or about to park): called by an agent that made work for it.
     */
    public void wake()
    {
        // Orders the caller's release of its sequence before the read of the flag (a release store alone does not).
        VarHandle.fullFence();
        // Lower the flag as we wake: one unpark (a syscall) per park, not one per duty cycle of every producer until
        // the woken thread gets a core and resets; the thread raises it again before it parks again.
        if ((boolean)PARKED.getVolatile(this) && PARKED.compareAndSet(this, true, false))
        {
            final Thread parkedThread = thread;
            if (null != parkedThread)
            {
                LockSupport.unpark(parkedThread);
            }
        }
    }

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

    public void idle()
    {
        switch (state)
        {
            case NOT_IDLE:
                state = SPINNING;
                spins = 0;
                // fall through
            case SPINNING:
                Thread.onSpinWait();
                if (++spins > maxSpins)
                {
                    state = YIELDING;
                    yields = 0;
                }
                break;
            case YIELDING:
                if (++yields > maxYields)
                {
                    if (null == thread)
                    {
                        thread = Thread.currentThread();
                    }
                    state = PARKING;
                    parkNs = minParkNs;
                    // Volatile: a full fence before the next duty cycle's reads of the upstream sequences.
                    PARKED.setVolatile(this, true);
                }
                else
                {
                    Thread.yield();
                }
                break;
            default:
                if (!(boolean)PARKED.getVolatile(this))
                {
                    // Woken: raise the flag again and run one more duty cycle before parking (the handshake above).
                    PARKED.setVolatile(this, true);
                    break;
                }
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(parkNs << 1, maxParkNs);
                break;
        }
    }

    public void reset()
    {
        if (state == PARKING)
        {
            PARKED.setOpaque(this, false);
        }
        state = NOT_IDLE;
    }

    public String alias()
    {
        return "wakeable-backoff";
    }

    /**
     * An agent that wakes the threads it feeds whenever a duty cycle of it did work.
     */
    public static final class Waker implements Agent
    {
        private final Agent agent;
        private final WakeableIdleStrategy[] downstream;

        /**
         * @param agent      the producing agent (a ring's producer or stage, or a thread's whole composite).
         * @param downstream the idle strategies of the threads its work feeds.
         */
        public Waker(final Agent agent, final List<WakeableIdleStrategy> downstream)
        {
            this.agent = agent;
            this.downstream = downstream.toArray(new WakeableIdleStrategy[0]);
        }

        public void onStart()
        {
            agent.onStart();
        }

        public int doWork() throws Exception
        {
            final int work = agent.doWork();
            if (work > 0)
            {
                for (final WakeableIdleStrategy strategy : downstream)
                {
                    strategy.wake();
                }
            }
            return work;
        }

        public void onClose()
        {
            agent.onClose();
        }

        public String roleName()
        {
            return agent.roleName();
        }
    }
}

/**
 * Cache-line padding before the flag every feeding thread reads: the fields of the object before it in memory are
 * written by whoever owns that object.
 */
@SuppressWarnings("unused")
abstract class WakeableIdleStrategyLhsPadding
{
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
}

/**
 * The fields the feeding threads read and write ({@link WakeableIdleStrategy#wake()}), on a cache line of their own:
 * the parked thread's own back-off state, written on every idle call, must not share it, or each feeding thread's read
 * of the flag would miss the cache once per call.
 */
abstract class WakeableIdleStrategyFlag extends WakeableIdleStrategyLhsPadding
{
    volatile Thread thread;
    @SuppressWarnings("unused") // through the VarHandle
    volatile boolean parked;
}

/**
 * Cache-line padding after the flag, before the parked thread's own state.
 */
@SuppressWarnings("unused")
abstract class WakeableIdleStrategyRhsPadding extends WakeableIdleStrategyFlag
{
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
    long p16;
    long p17;
    long p18;
}
