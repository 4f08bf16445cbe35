package io.ringex.engine.ring;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.ringex.testing.Await;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Stages whose threads park for an hour between slots: each slot is handled only because whoever fed the stage woke
 * it, so a lost wake-up shows as a step that never completes (the await fails long before the park would end). The
 * strategies park at once (no spins, no yields), so every slot races the thread's announcement of its park.
 */
class WakeableIdleStrategyTest
{
    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);
    private static final int STEPS = 5_000;

    @Test
    void aSingleProducersPublishWakesTheParkedStageEveryTime()
    {
        final Ring ring = Ring.builder().name("wake-sp").capacity(64).slotLength(64).build();
        pingPong(ring, ring.sequencer());
    }

    @Test
    void aMultiProducersPublishWakesTheParkedStageEveryTime()
    {
        final Ring ring = Ring.builder().name("wake-mp").capacity(64).slotLength(64)
            .producerType(ProducerType.MULTI).build();
        pingPong(ring, ring.sequencer());
    }

    @Test
    void anUpstreamStagesReleaseWakesTheParkedDownstreamStage()
    {
        final Ring ring = Ring.builder().name("wake-pipeline").capacity(64).slotLength(64).build();
        final WakeableIdleStrategy firstIdle = parkAtOnce();
        final WakeableIdleStrategy secondIdle = parkAtOnce();
        final AtomicLong first = new AtomicLong(-1);
        final AtomicLong second = new AtomicLong(-1);
        final Stage one = ring.stage("one", (buffer, offset, sequence, endOfBatch) -> first.set(sequence))
            .wokenBy(firstIdle).build();
        final Stage two = ring.stage("two", (buffer, offset, sequence, endOfBatch) -> second.set(sequence))
            .gatedOn(one).wokenBy(secondIdle).build();
        try (Running a = start(firstIdle, one); Running b = start(secondIdle, two))
        {
            for (long s = 0; s < STEPS; s++)
            {
                final long expected = publishOne(ring.sequencer());
                Await.until("the second stage handled " + expected, () -> second.get() == expected);
            }
            assertEquals(STEPS - 1, first.get());
        }
        finally
        {
            ring.close();
        }
    }

    @Test
    void oneStrategyServesEveryStageOfAThread()
    {
        final Ring ring = Ring.builder().name("wake-composite").capacity(64).slotLength(64).build();
        final WakeableIdleStrategy idle = parkAtOnce();
        final AtomicLong second = new AtomicLong(-1);
        final Stage one = ring.stage("one", (buffer, offset, sequence, endOfBatch) -> { }).wokenBy(idle).build();
        final Stage two = ring.stage("two", (buffer, offset, sequence, endOfBatch) -> second.set(sequence))
            .gatedOn(one).wokenBy(idle).build();
        try (Running runner = start(idle, new CompositeAgent(one, two)))
        {
            for (long s = 0; s < STEPS; s++)
            {
                final long expected = publishOne(ring.sequencer());
                Await.until("the composed stages handled " + expected, () -> second.get() == expected);
            }
        }
        finally
        {
            ring.close();
        }
    }

    @Test
    void aThreadWithWorkDoesNotPark()
    {
        final Ring ring = Ring.builder().name("no-park").capacity(64).slotLength(64).build();
        final WakeableIdleStrategy idle = parkAtOnce();
        ring.stage("one", (buffer, offset, sequence, endOfBatch) -> { }).wokenBy(idle).build();
        publishOne(ring.sequencer());

        // The stage has a slot it has not handled: the park is announced, the work seen, and the call returns.
        idle.idle(0);
        assertFalse(idle.isParked());
        ring.close();
    }

    @Test
    void refusesABackOffThatCannotPark()
    {
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, 0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, 0, 10, 5));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(-1, 0, 1, 5));
    }

    private static void pingPong(final Ring ring, final Sequencer sequencer)
    {
        final WakeableIdleStrategy idle = parkAtOnce();
        final AtomicLong handled = new AtomicLong(-1);
        final Stage stage = ring.stage("consumer", (buffer, offset, sequence, endOfBatch) -> handled.set(sequence))
            .wokenBy(idle).build();
        try (Running runner = start(idle, stage))
        {
            for (long s = 0; s < STEPS; s++)
            {
                final long expected = publishOne(sequencer);
                Await.until("the stage handled " + expected, () -> handled.get() == expected);
            }
        }
        finally
        {
            ring.close();
        }
    }

    private static long publishOne(final Sequencer sequencer)
    {
        final IdleStrategy whenFull = new SleepingIdleStrategy(1000);
        final long sequence = sequencer.next(whenFull);
        sequencer.publish(sequence);
        return sequence;
    }

    private static WakeableIdleStrategy parkAtOnce()
    {
        return new WakeableIdleStrategy(0, 0, HOUR_NS, HOUR_NS);
    }

    private static Running start(final WakeableIdleStrategy idle, final Agent agent)
    {
        final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(runner);
        // Its thread parks for an hour: wake it while the runner waits for it to stop.
        return () -> runner.close(10, (thread) -> idle.wake());
    }

    private interface Running extends AutoCloseable
    {
        void close();
    }
}
