package io.ringex.bench.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.WakeableIdleStrategy;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Our ring: one stage per consumer, each on its own {@link AgentRunner}. Each slot holds the benchmark's 26-byte
 * payload (value, step-one result, step-two result, the fizz/buzz flags) at a payload offset: by default a
 * single-producer ring's slots are 32 bytes with the payload at 0 (the producer owns every byte, as the Disruptor's
 * event object holds only its fields), and a multi-producer ring's 64 bytes with the payload after the 8-byte
 * availability flag the ring keeps at 0.
 */
final class RingContender implements Contender
{
    static final int VALUE = 0;
    static final int STEP_ONE = 8;
    static final int STEP_TWO = 16;
    static final int FIZZ = 24;
    static final int BUZZ = 25;
    static final int PAYLOAD_LENGTH = 26;
    /** A single-producer slot: the payload, rounded up to a power of two. */
    static final int SLOT_LENGTH = 32;

    private static final int[][] PIPELINE = { {1}, {2}, {} };

    private final int slotLength;
    private final int payloadOffset;
    private final boolean checkedSlots;

    /**
     * @param slotLength    bytes per single-producer slot ({@link #SLOT_LENGTH} unless an experiment asks otherwise);
     *                      a multi-producer ring's slots are at least {@link SlotDescriptor#MIN_SLOT_LENGTH}.
     * @param payloadOffset where the payload starts in a slot: 0 unless an experiment asks otherwise (32 puts it
     *                      after a header as large as the engine's); after the flag in a multi-producer ring.
     * @param checkedSlots  keep Agrona's bounds check on every slot access (an experiment: the benchmark's slots hold
     *                      only what its own producers wrote, as in the engine's output ring, and are read unchecked).
     */
    RingContender(final int slotLength, final int payloadOffset, final boolean checkedSlots)
    {
        if (payloadOffset + PAYLOAD_LENGTH > slotLength)
        {
            throw new IllegalArgumentException("a " + slotLength + "-byte slot cannot hold the " + PAYLOAD_LENGTH
                + "-byte payload at " + payloadOffset);
        }
        this.slotLength = slotLength;
        this.payloadOffset = payloadOffset;
        this.checkedSlots = checkedSlots;
    }

    private Ring.Builder ring(final String name, final int capacity)
    {
        final Ring.Builder builder = Ring.builder().name(name).capacity(capacity);
        return checkedSlots ? builder : builder.uncheckedSlots();
    }

    public String name()
    {
        return "ringex";
    }

    public long runNs(final Topology topology, final IdleStyle style, final long eventsPerProducer, final int capacity)
        throws Exception
    {
        final boolean multi = topology.producers > 1;
        final int base = multi ? Math.max(payloadOffset, SlotDescriptor.SEQUENCE_OFFSET + Long.BYTES) : payloadOffset;
        final Ring ring = ring("bench", capacity)
            .slotLength(multi ? Math.max(slotLength, SlotDescriptor.MIN_SLOT_LENGTH) : slotLength)
            .producerType(multi ? ProducerType.MULTI : ProducerType.SINGLE).build();
        final int value = base + VALUE;
        final int stepOne = base + STEP_ONE;
        final int stepTwo = base + STEP_TWO;
        final long last = eventsPerProducer * topology.producers - 1;
        final CountDownLatch done = new CountDownLatch(topology.finalConsumers);
        final List<Final> finals = new ArrayList<>();
        final List<Stage> stages = new ArrayList<>();
        switch (topology)
        {
            case UNICAST_1P_1C:
            case SEQUENCER_3P_1C:
                stages.add(ring.stage("sum", add(finals, new Final(last, done, 0, base))).build());
                break;
            case MULTICAST_1P_3C:
                for (int i = 0; i < 3; i++)
                {
                    stages.add(ring.stage("sum" + i, add(finals, new Final(last, done, 0, base))).build());
                }
                break;
            case PIPELINE_1P_3C:
            {
                final Stage one = ring.stage("one", (buffer, offset, sequence, endOfBatch) ->
                    buffer.putLong(offset + stepOne, Topology.stepOne(buffer.getLong(offset + value)))).build();
                final Stage two = ring.stage("two", (buffer, offset, sequence, endOfBatch) ->
                    buffer.putLong(offset + stepTwo, Topology.stepTwo(buffer.getLong(offset + stepOne))))
                    .gatedOn(one).build();
                stages.add(one);
                stages.add(two);
                stages.add(ring.stage("three", add(finals, new Final(last, done, 1, base))).gatedOn(two).build());
                break;
            }
            default:
            {
                final Stage fizz = ring.stage("fizz", (buffer, offset, sequence, endOfBatch) ->
                    buffer.putByte(offset + base + FIZZ, (byte)(buffer.getLong(offset + value) % 3 == 0 ? 1 : 0)))
                    .build();
                final Stage buzz = ring.stage("buzz", (buffer, offset, sequence, endOfBatch) ->
                    buffer.putByte(offset + base + BUZZ, (byte)(buffer.getLong(offset + value) % 5 == 0 ? 1 : 0)))
                    .build();
                stages.add(fizz);
                stages.add(buzz);
                stages.add(ring.stage("fizzbuzz", add(finals, new Final(last, done, 2, base))).gatedOn(fizz, buzz)
                    .build());
                break;
            }
        }

        final List<IdleStrategy> idles = idles(stages.size(), style);
        final List<AgentRunner> runners = start(stages, idles, downstreamOf(topology), style);
        final WakeableIdleStrategy[] wakeOnPublish = wakeOnPublish(idles, topology);
        final Thread[] producers = new Thread[topology.producers];
        for (int p = 0; p < producers.length; p++)
        {
            producers[p] = new Thread(() -> produce(ring, base, eventsPerProducer, IdleStyle.producerWhenFull(),
                wakeOnPublish), "ring-producer-" + p);
        }
        final long startNs = System.nanoTime();
        for (final Thread producer : producers)
        {
            producer.start();
        }
        if (!done.await(5, TimeUnit.MINUTES))
        {
            throw new IllegalStateException("ring " + topology.label + " did not finish");
        }
        final long elapsedNs = System.nanoTime() - startNs;
        for (final Thread producer : producers)
        {
            producer.join();
        }
        runners.forEach(AgentRunner::close);
        ring.close();

        long result = 0;
        for (final Final f : finals)
        {
            result += f.result;
        }
        Contender.check(topology, eventsPerProducer, result);
        return elapsedNs;
    }

    public Histogram pipelineLatency(
        final IdleStyle style, final long warmUp, final long measured, final long intervalNs, final int capacity)
        throws Exception
    {
        final Ring ring = ring("latency", capacity).slotLength(slotLength).build();
        final int base = payloadOffset;
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long total = warmUp + measured;
        final CountDownLatch done = new CountDownLatch(1);
        final Stage one = ring.stage("one", (buffer, offset, sequence, endOfBatch) ->
            buffer.putLong(offset + base + STEP_ONE, buffer.getLong(offset + base + VALUE))).build();
        final Stage two = ring.stage("two", (buffer, offset, sequence, endOfBatch) ->
            buffer.putLong(offset + base + STEP_TWO, buffer.getLong(offset + base + STEP_ONE))).gatedOn(one).build();
        final Stage three = ring.stage("three", (buffer, offset, sequence, endOfBatch) ->
        {
            final long latencyNs = System.nanoTime() - buffer.getLong(offset + base + STEP_TWO);
            if (sequence >= warmUp)
            {
                histogram.recordValue(Math.min(latencyNs, histogram.getHighestTrackableValue()));
            }
            if (sequence == total - 1)
            {
                done.countDown();
            }
        }).gatedOn(two).build();
        final List<IdleStrategy> idles = idles(3, style);
        final List<AgentRunner> runners = start(List.of(one, two, three), idles, PIPELINE, style);
        final WakeableIdleStrategy[] wakeOnPublish = wakeOnPublish(idles, Topology.PIPELINE_1P_3C);

        final Sequencer sequencer = ring.sequencer();
        final AtomicBuffer buffer = ring.buffer();
        final IdleStrategy idle = IdleStyle.producerWhenFull();
        long intendedNs = System.nanoTime();
        for (long i = 0; i < total; i++)
        {
            intendedNs += intervalNs;
            Contender.paceUntil(intendedNs);
            final long sequence = sequencer.next(idle);
            buffer.putLong(ring.slotOffset(sequence) + base + VALUE, intendedNs);
            sequencer.publish(sequence);
            wake(wakeOnPublish);
        }
        done.await(1, TimeUnit.MINUTES);
        runners.forEach(AgentRunner::close);
        ring.close();
        return histogram;
    }

    /**
     * Each stage on its own runner, in the order built; with {@link IdleStyle#WAKE} each stage wakes the threads of the
     * stages gated on it after every batch, as the engine's threads do.
     */
    private static List<AgentRunner> start(
        final List<Stage> stages, final List<IdleStrategy> idles, final int[][] downstream, final IdleStyle style)
    {
        final List<AgentRunner> runners = new ArrayList<>();
        for (int i = 0; i < stages.size(); i++)
        {
            Agent agent = stages.get(i);
            if (style == IdleStyle.WAKE && downstream[i].length > 0)
            {
                final List<WakeableIdleStrategy> fed = new ArrayList<>();
                for (final int d : downstream[i])
                {
                    fed.add((WakeableIdleStrategy)idles.get(d));
                }
                agent = new WakeableIdleStrategy.Waker(agent, fed);
            }
            final AgentRunner runner = new AgentRunner(idles.get(i), Throwable::printStackTrace, null, agent);
            AgentRunner.startOnThread(runner);
            runners.add(runner);
        }
        return runners;
    }

    /**
     * @return per stage (in the order {@link #runNs} builds them), the stages gated on it.
     */
    private static int[][] downstreamOf(final Topology topology)
    {
        switch (topology)
        {
            case PIPELINE_1P_3C:
                return PIPELINE;
            case DIAMOND_1P_3C:
                return new int[][]{ {2}, {2}, {} };
            case MULTICAST_1P_3C:
                return new int[][]{ {}, {}, {} };
            default:
                return new int[][]{ {} };
        }
    }

    /**
     * @return the strategies a producer wakes after each publish ({@link IdleStyle#WAKE}): those of the stages gated
     *     on the cursor; none otherwise.
     */
    private static WakeableIdleStrategy[] wakeOnPublish(final List<IdleStrategy> idles, final Topology topology)
    {
        final List<WakeableIdleStrategy> first = new ArrayList<>();
        final int gatedOnCursor = topology == Topology.PIPELINE_1P_3C ? 1 :
            topology == Topology.DIAMOND_1P_3C ? 2 : idles.size();
        for (int i = 0; i < gatedOnCursor; i++)
        {
            if (idles.get(i) instanceof WakeableIdleStrategy)
            {
                first.add((WakeableIdleStrategy)idles.get(i));
            }
        }
        return first.toArray(new WakeableIdleStrategy[0]);
    }

    private static List<IdleStrategy> idles(final int count, final IdleStyle style)
    {
        final List<IdleStrategy> idles = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            idles.add(style.agrona());
        }
        return idles;
    }

    private static void wake(final WakeableIdleStrategy[] strategies)
    {
        for (final WakeableIdleStrategy strategy : strategies)
        {
            strategy.wake();
        }
    }

    private static void produce(final Ring ring, final int base, final long events, final IdleStrategy idle,
        final WakeableIdleStrategy[] wakeOnPublish)
    {
        final Sequencer sequencer = ring.sequencer();
        final AtomicBuffer buffer = ring.buffer();
        for (long i = 0; i < events; i++)
        {
            final long sequence = sequencer.next(idle);
            buffer.putLong(ring.slotOffset(sequence) + base + VALUE, i);
            sequencer.publish(sequence);
            wake(wakeOnPublish);
        }
    }

    private static SlotHandler add(final List<Final> finals, final Final handler)
    {
        finals.add(handler);
        return handler;
    }

    /**
     * A final consumer: 0 sums values, 1 counts pipeline results, 2 counts fizz-and-buzz.
     */
    static final class Final implements SlotHandler
    {
        private final long last;
        private final CountDownLatch done;
        private final int kind;
        private final int base;
        private long acc;
        long result;

        Final(final long last, final CountDownLatch done, final int kind, final int base)
        {
            this.last = last;
            this.done = done;
            this.kind = kind;
            this.base = base;
        }

        public void onSlot(final AtomicBuffer buffer, final int offset, final long sequence, final boolean endOfBatch)
        {
            if (0 == kind)
            {
                acc += buffer.getLong(offset + base + VALUE);
            }
            else if (1 == kind)
            {
                acc += Topology.pipelineCounts(buffer.getLong(offset + base + STEP_TWO)) ? 1 : 0;
            }
            else
            {
                acc += (buffer.getByte(offset + base + FIZZ) & buffer.getByte(offset + base + BUZZ));
            }
            if (sequence == last)
            {
                result = acc;
                done.countDown();
            }
        }
    }
}
