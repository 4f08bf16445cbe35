package io.ringex.engine.ring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;

import io.ringex.testing.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several producers on a multi-producer ring feeding a diamond followed by a pipeline:
 * <pre>
 *            +--> left  --+
 *   cursor --+            +--> join --> tail1 --> tail2   (tail1 and tail2 composed on one thread)
 *            +--> right --+
 * </pre>
 * Random claim sizes (blocking and try), random pauses in producers and handlers, a small ring so it wraps
 * thousands of times. Every stage checks, as it handles each slot, that its gates have passed that sequence, that
 * sequences are contiguous, and that each producer's events arrive in that producer's order; at the end every stage
 * has seen every event exactly once. Events: system property {@code ringex.stress.events} (default 6,000,000).
 */
class RingStressTest
{
    private static final int PRODUCERS = 3;
    /** Below JUnit's own default (120 s), so that this test's message, saying what it waited for, is the one seen. */
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Test
    void shouldLoseNothingDuplicateNothingKeepProducerOrderAndRespectGates() throws Exception
    {
        final long perProducer = Long.getLong("ringex.stress.events", 6_000_000L) / PRODUCERS;
        final long total = perProducer * PRODUCERS;
        final Ring ring = Ring.builder().name("stress").producerType(ProducerType.MULTI).capacity(1024).slotLength(64)
            .build();

        final Checker leftChecker = new Checker("left");
        final Checker rightChecker = new Checker("right");
        final Checker joinChecker = new Checker("join");
        final Checker tail1Checker = new Checker("tail1");
        final Checker tail2Checker = new Checker("tail2");
        final Stage left = ring.stage("left", leftChecker).build();
        final Stage right = ring.stage("right", rightChecker).build();
        final Stage join = ring.stage("join", joinChecker).gatedOn(left, right).build();
        final Stage tail1 = ring.stage("tail1", tail1Checker).gatedOn(join).build();
        final Stage tail2 = ring.stage("tail2", tail2Checker).gatedOn(tail1).build();
        leftChecker.gates(ring.cursorCounter());
        rightChecker.gates(ring.cursorCounter());
        joinChecker.gates(left.sequenceCounter(), right.sequenceCounter());
        tail1Checker.gates(join.sequenceCounter());
        tail2Checker.gates(tail1.sequenceCounter());
        final Checker[] checkers = {leftChecker, rightChecker, joinChecker, tail1Checker, tail2Checker};

        final List<AgentRunner> runners = new ArrayList<>();
        runners.add(new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, left));
        runners.add(new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, right));
        runners.add(new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, join));
        runners.add(new AgentRunner(
            Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, new CompositeAgent(tail1, tail2)));
        runners.forEach(AgentRunner::startOnThread);

        final AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        final List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++)
        {
            final int producerId = p;
            final Thread thread = new Thread(() -> produce(ring, producerId, perProducer), "producer-" + p);
            thread.setUncaughtExceptionHandler((t, ex) -> producerFailure.set(ex));
            producers.add(thread);
        }
        producers.forEach(Thread::start);

        try
        {
            Await.until("the last stage to reach sequence " + (total - 1) + " or a stage to halt", TIMEOUT,
                () -> tail2.sequence() >= total - 1 || anyHalted(left, right, join, tail1, tail2),
                () -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)),
                () -> "the last stage at " + tail2.sequence());
            for (final Thread producer : producers)
            {
                producer.join(TIMEOUT.toMillis());
            }
            assertNull(producerFailure.get());
            assertTrue(ring.drain(TIMEOUT.toNanos(), Ring.defaultIdleStrategy()));
        }
        finally
        {
            runners.forEach(AgentRunner::close);
        }

        for (final Stage stage : List.of(left, right, join, tail1, tail2))
        {
            assertFalse(stage.isHalted(), stage.roleName());
            assertEquals(0, stage.errorCount(), stage.roleName());
            assertEquals(total - 1, stage.sequence(), stage.roleName());
        }
        for (final Checker checker : checkers)
        {
            assertNull(checker.failure, checker.name);
            assertEquals(total, checker.count, checker.name);
            for (int p = 0; p < PRODUCERS; p++)
            {
                assertEquals(perProducer - 1, checker.lastByProducer[p], checker.name + " producer " + p);
            }
        }
        assertEquals(total - 1, ring.sequencer().cursor());
        ring.close();
    }

    private static void produce(final Ring ring, final int producerId, final long count)
    {
        final Sequencer sequencer = ring.sequencer();
        final AtomicBuffer buffer = ring.buffer();
        final IdleStrategy idle = Ring.defaultIdleStrategy();
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        long produced = 0;
        while (produced < count)
        {
            final int n = (int)Math.min(count - produced, 1 + random.nextInt(4));
            long hi;
            if (random.nextBoolean())
            {
                hi = sequencer.next(n, idle);
            }
            else
            {
                idle.reset();
                while ((hi = sequencer.tryNext(n)) == Sequencer.INSUFFICIENT_CAPACITY)
                {
                    idle.idle();
                }
            }
            if (hi < 0)
            {
                throw new IllegalStateException("claim failed: " + hi);
            }
            for (long s = hi - n + 1; s <= hi; s++)
            {
                final int offset = ring.slotOffset(s);
                buffer.putLong(offset + SlotDescriptor.SOURCE_ID_OFFSET, producerId);
                buffer.putLong(offset + SlotDescriptor.TIMESTAMP_OFFSET, System.nanoTime());
                buffer.putInt(offset + SlotDescriptor.LENGTH_OFFSET, 8);
                buffer.putLong(offset + SlotDescriptor.PAYLOAD_OFFSET, produced++);
            }
            if (n > 1 && random.nextBoolean())
            {
                sequencer.publish(hi - n + 1, hi);
            }
            else
            {
                for (long s = hi - n + 1; s <= hi; s++)
                {
                    sequencer.publish(s);
                }
            }
            pauseSometimes(random);
        }
    }

    private static void pauseSometimes(final ThreadLocalRandom random)
    {
        final int dice = random.nextInt(10_000);
        if (dice == 0)
        {
            Thread.yield();
        }
        else if (dice < 20)
        {
            for (int i = random.nextInt(2_000); i > 0; i--)
            {
                Thread.onSpinWait();
            }
        }
    }

    private static boolean anyHalted(final Stage... stages)
    {
        for (final Stage stage : stages)
        {
            if (stage.isHalted())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks each slot on the stage's own thread; the first failure is kept and HALTs the stage (default policy).
     */
    static final class Checker implements SlotHandler
    {
        final String name;
        final long[] lastByProducer = new long[PRODUCERS];
        AtomicCounter[] gates;
        long lastSequence = -1;
        long count;
        volatile String failure;

        Checker(final String name)
        {
            this.name = name;
            java.util.Arrays.fill(lastByProducer, -1);
        }

        void gates(final AtomicCounter... gates)
        {
            this.gates = gates;
        }

        public void onSlot(final AtomicBuffer buffer, final int offset, final long sequence, final boolean endOfBatch)
        {
            for (final AtomicCounter gate : gates)
            {
                final long gateValue = gate.getAcquire();
                if (gateValue < sequence)
                {
                    fail("saw " + sequence + " but gate " + gate.label() + " is at " + gateValue);
                }
            }
            if (sequence != lastSequence + 1)
            {
                fail("gap or repeat: " + lastSequence + " then " + sequence);
            }
            if (buffer.getLongAcquire(offset + SlotDescriptor.SEQUENCE_OFFSET) != sequence)
            {
                fail("slot flag is not " + sequence);
            }
            final int producer = (int)buffer.getLong(offset + SlotDescriptor.SOURCE_ID_OFFSET);
            final long value = buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET);
            if (value != lastByProducer[producer] + 1)
            {
                fail("producer " + producer + " order: " + lastByProducer[producer] + " then " + value);
            }
            lastByProducer[producer] = value;
            lastSequence = sequence;
            count++;
            if ((sequence & 0xFFFF) == 0)
            {
                pauseSometimes(ThreadLocalRandom.current());
            }
            if (ThreadLocalRandom.current().nextInt(50_000) == 0)
            {
                for (int i = ThreadLocalRandom.current().nextInt(20_000); i > 0; i--)
                {
                    Thread.onSpinWait();
                }
            }
        }

        private void fail(final String message)
        {
            if (null == failure)
            {
                failure = name + ": " + message;
            }
            throw new IllegalStateException(failure);
        }
    }
}
