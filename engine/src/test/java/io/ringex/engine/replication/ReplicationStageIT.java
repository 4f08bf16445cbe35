package io.ringex.engine.replication;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.ringex.engine.node.NodeTestResources;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replication stage against a real media driver and a standby that acknowledges nothing or reads nothing. Its
 * timeouts are measured by the test's clock, which moves only when the stage idles: what the stage waited is read off
 * the clock, whatever the machine's speed.
 */
class ReplicationStageIT
{
    private static final int PAYLOAD_LENGTH = 64;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    private final CachedNanoClock clock = new CachedNanoClock();
    private final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final AtomicCounter acked = new AtomicCounter(values, 0);
    private final AtomicCounter degraded = new AtomicCounter(values, 1);
    private final UnsafeBuffer slot = new UnsafeBuffer(new byte[SlotDescriptor.PAYLOAD_OFFSET + PAYLOAD_LENGTH]);
    private Aeron aeron;

    @BeforeEach
    void connect()
    {
        clock.update(1_000_000_000L);
        slot.putInt(SlotDescriptor.LENGTH_OFFSET, PAYLOAD_LENGTH);
        aeron = env.closing(Aeron.connect(new Aeron.Context().aeronDirectoryName(env.aeronDirectoryName())));
    }

    @Test
    void aSyncStageWithoutAnAcknowledgementDegradesOnceItsClockHasPassedTheAckTimeout()
    {
        // An hour: by the system's clock this test would wait it out; by its own the stage waits as long as it idles.
        final long ackTimeoutNs = TimeUnit.HOURS.toNanos(1);
        final ExclusivePublication publication = connectedPublication("aeron:ipc?term-length=65536", 10);
        final ReplicationStage stage = new ReplicationStage(publication, true, ackTimeoutNs, new SequenceBase(1),
            clock, new AdvancingIdle(TimeUnit.SECONDS.toNanos(1)), acked, degraded, PAYLOAD_LENGTH, null);
        stage.activate(1, false);

        final long startNs = clock.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> stage.onSlot(slot, 0, 0, true));
        final long waitedNs = clock.nanoTime() - startNs;
        assertTrue(stage.degraded(), "no acknowledgement of sequence 1 within the timeout: degraded to ASYNC");
        assertEquals(1, degraded.get());
        assertTrue(waitedNs >= ackTimeoutNs && waitedNs <= ackTimeoutNs + TimeUnit.SECONDS.toNanos(1),
            "waited " + waitedNs + " ns of its clock");

        // Degraded, a batch the standby has not acknowledged is not waited for.
        stage.onSlot(slot, 0, 1, true);
        assertEquals(startNs + waitedNs, clock.nanoTime(), "waited again while degraded");

        // The standby catches up: the next batch is acknowledged at once, and the stage is SYNC again.
        acked.setRelease(3);
        stage.onSlot(slot, 0, 2, true);
        assertFalse(stage.degraded());
        assertEquals(1, degraded.get());
    }

    @Test
    void aStandbyThatReadsNothingDegradesTheStageOnceAndDoesNotStopIt()
    {
        final long ackTimeoutNs = 200_000_000L;
        final String channel = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort() + "|term-length=65536";
        final ExclusivePublication publication = connectedPublication(channel, 10);
        fillUntilStalled(publication);
        final ReplicationStage stage = new ReplicationStage(publication, true, ackTimeoutNs, new SequenceBase(1),
            clock, new AdvancingIdle(TimeUnit.MILLISECONDS.toNanos(1)), acked, degraded, PAYLOAD_LENGTH, null);
        // SYNC, started degraded (as after losing the standby's acks): only back-pressure could stall it.
        stage.activate(1, true);

        final long startNs = clock.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        {
            for (int i = 0; i < 5_000; i++)
            {
                stage.onSlot(slot, 0, i, true);
            }
        }, "the replication stage waited forever on a standby that reads nothing");
        final long waitedNs = clock.nanoTime() - startNs;

        // One wait of the timeout, counted once; every send after it that found the stream full was dropped at once.
        assertEquals(1, degraded.get());
        assertTrue(waitedNs >= ackTimeoutNs && waitedNs < 2 * ackTimeoutNs, "waited " + waitedNs + " ns of its clock");
        assertTrue(stage.degraded());
    }

    /**
     * A publication whose subscriber is there and never reads.
     */
    private ExclusivePublication connectedPublication(final String channel, final int streamId)
    {
        final Subscription neverRead = aeron.addSubscription(channel, streamId);
        final ExclusivePublication publication = aeron.addExclusivePublication(channel, streamId);
        while (!publication.isConnected() || neverRead.imageCount() == 0)
        {
            Thread.yield();
        }
        return publication;
    }

    /**
     * Offers until the stream has taken nothing for half a second of real time: the subscriber's window is full and
     * the driver has caught up with it. Without this, a slow driver's conductor can still be moving the publication's
     * limit up to that window while the stage runs, and the stage would see room again after it began dropping.
     */
    private static void fillUntilStalled(final ExclusivePublication publication)
    {
        final UnsafeBuffer filler = new UnsafeBuffer(new byte[PAYLOAD_LENGTH]);
        long lastProgressNs = System.nanoTime();
        while (System.nanoTime() - lastProgressNs < TimeUnit.MILLISECONDS.toNanos(500))
        {
            if (publication.offer(filler, 0, PAYLOAD_LENGTH) > 0)
            {
                lastProgressNs = System.nanoTime();
            }
            else
            {
                Thread.yield();
            }
        }
    }

    /**
     * The stage's only way to let time pass: each idle moves the test's clock on by a step.
     */
    private final class AdvancingIdle implements IdleStrategy
    {
        private final long stepNs;

        AdvancingIdle(final long stepNs)
        {
            this.stepNs = stepNs;
        }

        public void idle(final int workCount)
        {
            if (workCount <= 0)
            {
                idle();
            }
        }

        public void idle()
        {
            clock.advance(stepNs);
            Thread.yield();
        }

        public void reset()
        {
        }
    }
}
