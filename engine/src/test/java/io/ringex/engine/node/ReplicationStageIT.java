package io.ringex.engine.node;

import java.nio.ByteBuffer;
import java.time.Duration;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.ringex.engine.ring.SlotDescriptor;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replication stage against a standby that is connected but reads nothing (a stopped process, a receiver that
 * refuses its primary): a real media driver, a small term so the stream fills after a few hundred commands.
 */
class ReplicationStageIT
{
    private static final long ACK_TIMEOUT_NS = 200_000_000L;
    private static final int COMMANDS = 5_000;
    private static final int PAYLOAD_LENGTH = 64;

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @Test
    void aStandbyThatReadsNothingDegradesTheStageOnceAndDoesNotStopIt()
    {
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(env.aeronDirectoryName())));
        final String channel = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort() + "|term-length=65536";
        final Subscription neverRead = aeron.addSubscription(channel, 10);
        final ExclusivePublication publication = aeron.addExclusivePublication(channel, 10);
        final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final AtomicCounter acked = new AtomicCounter(values, 0);
        final AtomicCounter degraded = new AtomicCounter(values, 1);
        final ReplicationStage stage = new ReplicationStage(publication, true, ACK_TIMEOUT_NS, new SequenceBase(1),
            new SystemEpochNanoClock(), new BusySpinIdleStrategy(), acked, degraded, PAYLOAD_LENGTH);
        // SYNC, started degraded (as after losing the standby's acks): only back-pressure could stall it.
        stage.activate(1, true);
        final UnsafeBuffer slot = new UnsafeBuffer(new byte[SlotDescriptor.PAYLOAD_OFFSET + PAYLOAD_LENGTH]);
        slot.putInt(SlotDescriptor.LENGTH_OFFSET, PAYLOAD_LENGTH);
        while (!publication.isConnected() || neverRead.imageCount() == 0)
        {
            Thread.yield();
        }

        final long startNs = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        {
            for (int i = 0; i < COMMANDS; i++)
            {
                stage.onSlot(slot, 0, i, true);
            }
        }, "the replication stage waited forever on a standby that reads nothing");
        final long tookNs = System.nanoTime() - startNs;

        // One wait of the timeout, counted once; every send after it that found the stream full was dropped at once.
        assertEquals(1, degraded.get());
        assertTrue(tookNs < 5 * ACK_TIMEOUT_NS, "took " + tookNs / 1_000_000 + " ms");
        assertTrue(stage.degraded());
    }
}
