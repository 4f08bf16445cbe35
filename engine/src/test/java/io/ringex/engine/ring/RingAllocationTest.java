package io.ringex.engine.ring;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.ringex.testing.Await;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Steady state allocates nothing: after a warm-up, the producer thread and every stage thread of a diamond over a
 * multi-producer ring allocate (almost) no bytes across a million events, measured by the JVM's per-thread allocation
 * counter.
 */
class RingAllocationTest
{
    private static final long WARM_UP = 300_000;
    private static final long MEASURED = 1_000_000;
    private static final long SLACK_BYTES = 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private volatile boolean measuredPhase;
    private volatile long producerBytesBefore = -1;
    private volatile long producerBytesAfter = -1;

    @Test
    void shouldAllocateNothingPerEventInSteadyState() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final Ring ring = Ring.builder().name("alloc").producerType(ProducerType.MULTI).capacity(4096).slotLength(64)
            .build();
        final long[] sums = new long[3];
        final Stage left = ring.stage("left", (buffer, offset, sequence, endOfBatch) ->
            sums[0] += buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET)).build();
        final Stage right = ring.stage("right", (buffer, offset, sequence, endOfBatch) ->
            sums[1] += buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET)).build();
        final Stage join = ring.stage("join", (buffer, offset, sequence, endOfBatch) ->
            sums[2] += buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET)).gatedOn(left, right).build();
        final AgentRunner[] runners = {
            new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, left),
            new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, right),
            new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, join),
        };
        final Thread[] stageThreads = new Thread[runners.length];
        for (int i = 0; i < runners.length; i++)
        {
            stageThreads[i] = AgentRunner.startOnThread(runners[i]);
        }
        final Thread producer = new Thread(() -> produce(ring), "alloc-producer");
        producer.start();

        try
        {
            Await.until("the warm-up through the ring and the producer's first allocation reading",
                TIMEOUT, () -> join.sequence() >= WARM_UP - 1 && producerBytesBefore >= 0, null);
            final long[] before = new long[stageThreads.length];
            for (int i = 0; i < stageThreads.length; i++)
            {
                before[i] = threads.getThreadAllocatedBytes(stageThreads[i].getId());
            }
            measuredPhase = true;
            Await.until("the measured events through the ring and the producer's last allocation reading",
                TIMEOUT, () -> join.sequence() >= WARM_UP + MEASURED - 1 && producerBytesAfter >= 0, null);
            for (int i = 0; i < stageThreads.length; i++)
            {
                final long allocated = threads.getThreadAllocatedBytes(stageThreads[i].getId()) - before[i];
                assertTrue(allocated < SLACK_BYTES, runners[i].agent().roleName() + " allocated " + allocated);
            }
            final long producerAllocated = producerBytesAfter - producerBytesBefore;
            assertTrue(producerAllocated < SLACK_BYTES, "producer allocated " + producerAllocated);
        }
        finally
        {
            for (final AgentRunner runner : runners)
            {
                runner.close();
            }
            producer.join(TIMEOUT.toMillis());
        }
        final long n = WARM_UP + MEASURED;
        assertEquals(n * (n - 1) / 2, sums[2]);
        ring.close();
    }

    private void produce(final Ring ring)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final IdleStrategy idle = Ring.defaultIdleStrategy();
        publishRange(ring, 0, WARM_UP, idle);
        producerBytesBefore = threads.getThreadAllocatedBytes(threadId);
        while (!measuredPhase)
        {
            Thread.onSpinWait();
        }
        publishRange(ring, WARM_UP, WARM_UP + MEASURED, idle);
        producerBytesAfter = threads.getThreadAllocatedBytes(threadId);
    }

    private static void publishRange(final Ring ring, final long from, final long to, final IdleStrategy idle)
    {
        final Sequencer sequencer = ring.sequencer();
        final AtomicBuffer buffer = ring.buffer();
        for (long value = from; value < to; value++)
        {
            final long sequence = (value & 1) == 0 ? sequencer.next(idle) : tryClaim(sequencer, idle);
            final int offset = ring.slotOffset(sequence);
            buffer.putLong(offset + SlotDescriptor.TIMESTAMP_OFFSET, value);
            buffer.putLong(offset + SlotDescriptor.PAYLOAD_OFFSET, value);
            sequencer.publish(sequence);
        }
    }

    private static long tryClaim(final Sequencer sequencer, final IdleStrategy idle)
    {
        long sequence;
        idle.reset();
        while ((sequence = sequencer.tryNext()) < 0)
        {
            idle.idle();
        }
        return sequence;
    }
}
