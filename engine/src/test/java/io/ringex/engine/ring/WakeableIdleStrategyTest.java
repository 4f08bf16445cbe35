package io.ringex.engine.ring;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.ringex.testing.Await;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread parked on a {@link WakeableIdleStrategy} is woken by the agent that made work for it, however long its
 * park: here an hour, so without the wake-up the work would not be seen before the test's timeout.
 */
class WakeableIdleStrategyTest
{
    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void aProducerThatDidWorkWakesTheParkedConsumerEveryTime() throws Exception
    {
        final AtomicLong produced = new AtomicLong();
        final AtomicLong consumed = new AtomicLong();
        final Agent consumer = new NamedAgent("consumer", () ->
        {
            final long available = produced.get();
            final long done = consumed.get();
            consumed.set(available);
            return (int)(available - done);
        });
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(10, 1, HOUR_NS, HOUR_NS);
        final long[] next = { 0 };
        final Agent producer = new WakeableIdleStrategy.Waker(new NamedAgent("producer", () ->
        {
            if (next[0] > produced.get())
            {
                produced.set(next[0]);
                return 1;
            }
            return 0;
        }), List.of(idle));

        final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null, consumer);
        try
        {
            AgentRunner.startOnThread(runner);
            for (int round = 1; round <= 50; round++)
            {
                // Sometimes while it is about to park, sometimes long parked: no wake-up may be lost either way.
                if (round % 2 == 0)
                {
                    Thread.sleep(2);
                }
                next[0] = round;
                assertEquals(1, producer.doWork());
                final int awaited = round;
                Await.until(() -> "the consumer woken in round " + awaited, TIMEOUT, () -> consumed.get() >= awaited,
                    null);
                assertEquals(round, consumed.get(), "the consumer took one event in round " + round);
            }
        }
        finally
        {
            closeParked(runner);
        }
    }

    @Test
    void aProducerThatDidNothingWakesNoOne() throws Exception
    {
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(0, 0, HOUR_NS, HOUR_NS);
        final AtomicLong cycles = new AtomicLong();
        final Agent producer = new WakeableIdleStrategy.Waker(new NamedAgent("producer", () -> 0), List.of(idle));
        final AgentRunner runner = new AgentRunner(idle, Throwable::printStackTrace, null,
            new NamedAgent("consumer", () ->
            {
                cycles.incrementAndGet();
                return 0;
            }));
        try
        {
            AgentRunner.startOnThread(runner);
            // Spin, yield, raise the flag, one more duty cycle, then the hour's park.
            Await.until(() -> "the consumer parked after 3 duty cycles (" + cycles.get() + ", " +
                runner.thread().getState() + ")", TIMEOUT,
                () -> cycles.get() >= 3 && runner.thread().getState() == Thread.State.TIMED_WAITING, null);
            final long parkedAt = cycles.get();
            assertEquals(0, producer.doWork());
            // That nothing happens cannot be awaited: give a wrongly woken consumer time to run a duty cycle.
            Thread.sleep(50);
            assertEquals(parkedAt, cycles.get(), "not woken: the producer made no work");
            assertTrue(parkedAt >= 3, "parked after " + parkedAt + " duty cycles");
        }
        finally
        {
            closeParked(runner);
        }
    }

    /** The runner's thread parks for an hour: interrupt it at once rather than after the default close wait. */
    private static void closeParked(final AgentRunner runner)
    {
        runner.close(1, null);
    }

    /** A duty cycle with a name. */
    private static final class NamedAgent implements Agent
    {
        private final String name;
        private final java.util.function.IntSupplier work;

        NamedAgent(final String name, final java.util.function.IntSupplier work)
        {
            this.name = name;
            this.work = work;
        }

        public int doWork()
        {
            return work.getAsInt();
        }

        public String roleName()
        {
            return name;
        }
    }
}
