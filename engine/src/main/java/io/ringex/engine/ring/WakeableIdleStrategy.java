package io.ringex.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * A back-off (spins, then yields, then parks growing from the shortest to the longest park) that the agents feeding
 * its thread wake when they made work for it: the Disruptor's lite-blocking wait, on an Agrona agent runner. A command
 * crossing from one thread to the next (a ring's producer or stage to the stages it gates) then waits for the next
 * thread's wake-up (a few microseconds), not for the rest of its park (up to the longest park plus the operating
 * system's timer slack, ~50 us on Linux, per thread crossed).
 * <p>
 * How: before its first park of an idle spell the thread raises a flag and runs its agents once more instead of
 * parking; only if that duty cycle finds nothing does it park. An upstream agent that did work ({@link Waker}) then
 * fences and reads the flag: raised, it unparks the thread. Each side writes (the flag; the upstream sequence) before
 * it reads the other's, with a full fence between, so either the thread's last duty cycle saw the work or its producer
 * sees the flag: no wake-up is lost. The first producer to see the flag lowers it and pays the unpark (a futex wake):
 * once per park, and only while the thread is parked, i.e. when the node is idle; under load the threads do not park
 * and the cost is the fence and a read per duty cycle with work. The longest park stays the bound of a missed wake and
 * the period of an idle thread's timed work (status, heartbeats), and it is still what a thread woken by nothing but
 * the network waits (the ingress: nothing in the process signals a fragment arriving in an Aeron image).
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
