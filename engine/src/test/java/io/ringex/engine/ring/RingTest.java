package io.ringex.engine.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final List<Ring> rings = new ArrayList<>();
    private final List<AgentRunner> runners = new ArrayList<>();

    @AfterEach
    void after()
    {
        runners.forEach(AgentRunner::close);
        rings.forEach(Ring::close);
    }

    @Test
    void shouldLayOutHeaderAlignedWithPayloadAfterIt()
    {
        assertEquals(0, SlotDescriptor.SEQUENCE_OFFSET);
        assertEquals(8, SlotDescriptor.TIMESTAMP_OFFSET);
        assertEquals(16, SlotDescriptor.SOURCE_ID_OFFSET);
        assertEquals(24, SlotDescriptor.TEMPLATE_ID_OFFSET);
        assertEquals(28, SlotDescriptor.LENGTH_OFFSET);
        assertEquals(32, SlotDescriptor.PAYLOAD_OFFSET);
        assertEquals(0, SlotDescriptor.PAYLOAD_OFFSET % 8);
        final Ring ring = ring(ProducerType.SINGLE, 8, 128);
        assertEquals(0, ring.buffer().addressOffset() % SlotDescriptor.BUFFER_ALIGNMENT);
        assertEquals(96, ring.maxPayloadLength());
        assertEquals(ring.slotOffset(3), ring.slotOffset(3 + 8));
        assertEquals(3 * 128, ring.slotOffset(3));
    }

    @Test
    void shouldRejectInvalidConfiguration()
    {
        assertThrows(IllegalArgumentException.class, () -> Ring.builder().capacity(12).build());
        assertThrows(IllegalArgumentException.class, () -> Ring.builder().slotLength(48).build());
        assertThrows(IllegalArgumentException.class, () -> Ring.builder().slotLength(96).build());
        assertThrows(IllegalArgumentException.class, () -> Ring.builder().slotLength(4).build());
        assertThrows(IllegalArgumentException.class,
            () -> Ring.builder().producerType(ProducerType.MULTI).slotLength(32).build());
        final Ring ring = ring(ProducerType.SINGLE, 8, 64);
        assertThrows(IllegalArgumentException.class, () -> ring.sequencer().tryNext(9));
        assertThrows(IllegalArgumentException.class, () -> ring.sequencer().tryNext(0));
    }

    @Test
    void shouldClaimInOrderAndHandOnlyPublishedSlotsToStage()
    {
        final Ring ring = ring(ProducerType.SINGLE, 8, 64);
        final Recorder recorder = new Recorder();
        final Stage stage = ring.stage("s", recorder).build();
        final Sequencer sequencer = ring.sequencer();

        assertEquals(0, sequencer.tryNext());
        assertEquals(1, sequencer.tryNext());
        assertEquals(0, stage.doWork());

        write(ring, 0, 42);
        sequencer.publish(0);
        assertEquals(1, stage.doWork());
        assertEquals(List.of(0L), recorder.sequences);
        assertEquals(42, recorder.values.get(0));
        assertEquals(0, stage.sequence());

        write(ring, 1, 43);
        sequencer.publish(1);
        assertEquals(1, stage.doWork());
        assertEquals(List.of(0L, 1L), recorder.sequences);
        assertEquals(1001, ring.buffer().getLong(ring.slotOffset(1) + SlotDescriptor.SOURCE_ID_OFFSET));
    }

    @Test
    void shouldLeaveEverySlotByteToASingleProducer()
    {
        final Ring ring = ring(ProducerType.SINGLE, 4, 8);
        final List<Long> firstLongs = new ArrayList<>();
        final Stage stage = ring.stage("s", (buffer, offset, sequence, end) -> firstLongs.add(buffer.getLong(offset)))
            .build();
        final Sequencer sequencer = ring.sequencer();
        for (long s = 0; s < 6; s++)
        {
            final long sequence = sequencer.next(Ring.defaultIdleStrategy());
            ring.buffer().putLong(ring.slotOffset(sequence), 100 + sequence);
            sequencer.publish(sequence);
            stage.doWork();
        }
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L, 105L), firstLongs);
        assertEquals(105, ring.buffer().getLong(ring.slotOffset(5)));
        assertEquals(8, ring.slotLength());
        assertEquals(0, ring.maxPayloadLength());
    }

    @Test
    void shouldBatchClaimAndHandWholeBatchWithOneEndOfBatch()
    {
        final Ring ring = ring(ProducerType.SINGLE, 16, 64);
        final Recorder recorder = new Recorder();
        final Stage stage = ring.stage("s", recorder).build();
        final Sequencer sequencer = ring.sequencer();

        final long hi = sequencer.tryNext(5);
        assertEquals(4, hi);
        for (long s = hi - 4; s <= hi; s++)
        {
            write(ring, s, s * 10);
        }
        sequencer.publish(hi - 4, hi);

        assertEquals(5, stage.doWork());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), recorder.sequences);
        assertEquals(List.of(false, false, false, false, true), recorder.endOfBatch);
        assertEquals(9, sequencer.next(5, new BusySpinIdleStrategy()));
    }

    @Test
    void shouldFailTryClaimWhenFullUntilSlowestGatingStagePassesAndThenWrap()
    {
        final Ring ring = ring(ProducerType.SINGLE, 8, 64);
        final Stage first = ring.stage("first", new Recorder()).build();
        final Recorder lastRecorder = new Recorder();
        final Stage last = ring.stage("last", lastRecorder).gatedOn(first).build();
        final Sequencer sequencer = ring.sequencer();

        for (int i = 0; i < 8; i++)
        {
            final long s = sequencer.tryNext();
            assertEquals(i, s);
            write(ring, s, s);
            sequencer.publish(s);
        }
        assertEquals(0, sequencer.remainingCapacity());
        assertEquals(Sequencer.INSUFFICIENT_CAPACITY, sequencer.tryNext());

        assertEquals(8, first.doWork());
        assertEquals(Sequencer.INSUFFICIENT_CAPACITY, sequencer.tryNext(), "the slowest stage gates the producer");

        assertEquals(8, last.doWork());
        final long wrapped = sequencer.tryNext(8);
        assertEquals(15, wrapped);
        assertEquals(Sequencer.INSUFFICIENT_CAPACITY, sequencer.tryNext());
        for (long s = 8; s <= 15; s++)
        {
            write(ring, s, s);
        }
        sequencer.publish(8, 15);
        assertEquals(8, first.doWork());
        assertEquals(8, last.doWork());
        assertEquals(16, lastRecorder.sequences.size());
        for (int i = 0; i < 16; i++)
        {
            assertEquals(i, lastRecorder.sequences.get(i));
            assertEquals(i, lastRecorder.values.get(i));
        }
    }

    @Test
    void shouldFailMultiProducerTryClaimWithoutClaimingAnything()
    {
        final Ring ring = ring(ProducerType.MULTI, 4, 64);
        final Stage stage = ring.stage("s", new Recorder()).build();
        final Sequencer sequencer = ring.sequencer();

        assertEquals(2, sequencer.tryNext(3));
        assertEquals(Sequencer.INSUFFICIENT_CAPACITY, sequencer.tryNext(2));
        assertEquals(2, sequencer.cursor(), "a failed try claims nothing");
        assertEquals(3, sequencer.tryNext(1));
        sequencer.publish(0, 3);
        assertEquals(4, stage.doWork());
        assertEquals(7, sequencer.tryNext(4));
    }

    @Test
    void shouldNeverHandMultiProducerSlotClaimedButNotPublished()
    {
        final Ring ring = ring(ProducerType.MULTI, 8, 64);
        final Recorder recorder = new Recorder();
        final Stage stage = ring.stage("s", recorder).build();
        final Sequencer sequencer = ring.sequencer();

        final long a = sequencer.tryNext();
        final long b = sequencer.tryNext();
        final long c = sequencer.tryNext();
        write(ring, b, 2);
        sequencer.publish(b);
        assertEquals(0, stage.doWork(), "slot a is claimed but not published");

        write(ring, a, 1);
        sequencer.publish(a);
        assertEquals(2, stage.doWork());
        assertEquals(List.of(a, b), recorder.sequences);

        write(ring, c, 3);
        sequencer.publish(c);
        assertEquals(1, stage.doWork());
        assertEquals(List.of(1L, 2L, 3L), recorder.values);
        for (long s = a; s <= c; s++)
        {
            assertEquals(s, ring.buffer().getLong(ring.slotOffset(s) + SlotDescriptor.SEQUENCE_OFFSET),
                "a multi-producer slot carries its availability flag");
        }
    }

    @Test
    void shouldBlockClaimUntilRoomThenProceed() throws Exception
    {
        for (final ProducerType type : ProducerType.values())
        {
            final Ring ring = ring(type, 4, 64);
            final Stage stage = ring.stage("s", new Recorder()).build();
            final Sequencer sequencer = ring.sequencer();
            sequencer.publish(0, sequencer.tryNext(4));

            final AtomicLong claimed = new AtomicLong(Long.MIN_VALUE);
            final Thread producer = new Thread(() -> claimed.set(sequencer.next(new YieldingIdleStrategy())));
            producer.start();
            assertEquals(Long.MIN_VALUE, claimed.get());
            assertEquals(4, stage.doWork());
            producer.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS));
            assertEquals(4, claimed.get(), type.name());
        }
    }

    @Test
    void shouldGateStageOnAllItsUpstreamStagesInDiamond()
    {
        final Ring ring = ring(ProducerType.SINGLE, 16, 64);
        final Stage left = ring.stage("left", new Recorder()).build();
        final Stage right = ring.stage("right", new Recorder()).build();
        final Recorder joinRecorder = new Recorder();
        final Stage join = ring.stage("join", joinRecorder).gatedOn(left, right).build();
        final Sequencer sequencer = ring.sequencer();
        sequencer.publish(0, sequencer.tryNext(5));

        assertEquals(0, join.doWork());
        assertEquals(5, left.doWork());
        assertEquals(0, join.doWork(), "right has not passed anything");
        assertEquals(5, right.doWork());
        assertEquals(5, join.doWork());
        assertEquals(4, join.sequence());

        sequencer.publish(5, sequencer.tryNext(3));
        assertEquals(3, left.doWork());
        assertEquals(0, join.doWork());
        assertEquals(3, right.doWork());
        assertEquals(3, join.doWork());
    }

    @Test
    void shouldSkipFailingSlotCountErrorAndGoOn()
    {
        final Ring ring = ring(ProducerType.SINGLE, 16, 64);
        final List<Throwable> seen = new ArrayList<>();
        final Stage stage = ring.stage("skipper", failOn(2))
            .errorPolicy(StageErrorPolicy.SKIP).errorHandler(seen::add).build();
        final Stage downstream = ring.stage("down", new Recorder()).gatedOn(stage).build();
        final Sequencer sequencer = ring.sequencer();
        sequencer.publish(0, sequencer.tryNext(5));

        assertEquals(5, stage.doWork());
        assertEquals(4, stage.sequence());
        assertEquals(1, stage.errorCount());
        assertEquals(1, seen.size());
        assertFalse(stage.isHalted());
        assertEquals(5, downstream.doWork());
        assertEquals(1, counterValue(ring, "ring-stage-errors: test/skipper"));
    }

    @Test
    void shouldHaltAtFailingSlotSoDownstreamNeverPassesIt()
    {
        final Ring ring = ring(ProducerType.SINGLE, 8, 64);
        final List<Throwable> seen = new ArrayList<>();
        final Stage journal = ring.stage("journal", failOn(2))
            .errorPolicy(StageErrorPolicy.HALT).errorHandler(seen::add).build();
        final Recorder downRecorder = new Recorder();
        final Stage downstream = ring.stage("down", downRecorder).gatedOn(journal).build();
        final Sequencer sequencer = ring.sequencer();
        sequencer.publish(0, sequencer.tryNext(5));

        assertEquals(3, journal.doWork());
        assertTrue(journal.isHalted());
        assertEquals(1, journal.sequence());
        assertEquals(1, journal.errorCount());
        assertEquals(0, journal.doWork());
        assertEquals(2, downstream.doWork());
        assertEquals(0, downstream.doWork());
        assertEquals(List.of(0L, 1L), downRecorder.sequences);

        assertFalse(ring.drain(TimeUnit.MILLISECONDS.toNanos(20), new YieldingIdleStrategy()));
        assertEquals(Sequencer.CLOSED, sequencer.tryNext());
    }

    @Test
    void shouldDrainRunningStagesThenRefuseClaims()
    {
        final Ring ring = ring(ProducerType.MULTI, 64, 64);
        final Stage first = ring.stage("first", new Recorder()).build();
        final Stage second = ring.stage("second", (buffer, offset, sequence, endOfBatch) -> {}).gatedOn(first).build();
        start(first);
        start(second);

        final Sequencer sequencer = ring.sequencer();
        final YieldingIdleStrategy idle = new YieldingIdleStrategy();
        for (int i = 0; i < 10_000; i++)
        {
            final long s = sequencer.next(idle);
            write(ring, s, s);
            sequencer.publish(s);
        }

        assertTrue(ring.drain(TIMEOUT_NS, idle));
        assertTrue(ring.isDrained());
        assertEquals(9_999, second.sequence());
        assertEquals(Sequencer.CLOSED, sequencer.tryNext());
        assertEquals(Sequencer.CLOSED, sequencer.next(idle));
        assertEquals(9_999, counterValue(ring, "ring-stage: test/second"));
        assertEquals(9_999, counterValue(ring, "ring-cursor: test"));
    }

    private void start(final Stage stage)
    {
        final AgentRunner runner = new AgentRunner(Ring.defaultIdleStrategy(), Throwable::printStackTrace, null, stage);
        runners.add(runner);
        AgentRunner.startOnThread(runner);
    }

    private Ring ring(final ProducerType type, final int capacity, final int slotLength)
    {
        final Ring ring = Ring.builder().name("test").producerType(type).capacity(capacity).slotLength(slotLength)
            .build();
        rings.add(ring);
        return ring;
    }

    private static void write(final Ring ring, final long sequence, final long value)
    {
        final AtomicBuffer buffer = ring.buffer();
        final int offset = ring.slotOffset(sequence);
        buffer.putLong(offset + SlotDescriptor.TIMESTAMP_OFFSET, 7);
        buffer.putLong(offset + SlotDescriptor.SOURCE_ID_OFFSET, 1000 + sequence);
        buffer.putInt(offset + SlotDescriptor.TEMPLATE_ID_OFFSET, 3);
        buffer.putInt(offset + SlotDescriptor.LENGTH_OFFSET, 8);
        buffer.putLong(offset + SlotDescriptor.PAYLOAD_OFFSET, value);
    }

    private static long counterValue(final Ring ring, final String label)
    {
        final CountersReader counters = ring.counters();
        final long[] value = {Long.MIN_VALUE};
        counters.forEach((counterId, typeId, keyBuffer, counterLabel) ->
        {
            if (counterLabel.equals(label))
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    private static SlotHandler failOn(final long failing)
    {
        return (buffer, offset, sequence, endOfBatch) ->
        {
            if (sequence == failing)
            {
                throw new IllegalStateException("boom at " + sequence);
            }
        };
    }

    static final class Recorder implements SlotHandler
    {
        final List<Long> sequences = new ArrayList<>();
        final List<Long> values = new ArrayList<>();
        final List<Boolean> endOfBatch = new ArrayList<>();

        public void onSlot(final AtomicBuffer buffer, final int offset, final long sequence, final boolean end)
        {
            sequences.add(sequence);
            values.add(buffer.getLong(offset + SlotDescriptor.PAYLOAD_OFFSET));
            endOfBatch.add(end);
        }
    }
}
