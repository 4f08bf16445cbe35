package io.ringex.bench.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.EventHandlerGroup;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import org.HdrHistogram.Histogram;

/**
 * LMAX Disruptor 4.0.0 through its DSL: one batch event processor thread per handler, the same graph and work.
 */
final class DisruptorContender implements Contender
{
    /**
     * The event: the same fields our slot payload carries.
     */
    static final class ValueEvent
    {
        long value;
        long stepOne;
        long stepTwo;
        boolean fizz;
        boolean buzz;
    }

    public String name()
    {
        return "disruptor";
    }

    public long runNs(final Topology topology, final IdleStyle style, final long eventsPerProducer, final int capacity)
        throws Exception
    {
        final Disruptor<ValueEvent> disruptor = new Disruptor<>(ValueEvent::new, capacity,
            DaemonThreadFactory.INSTANCE, topology.producers > 1 ? ProducerType.MULTI : ProducerType.SINGLE,
            style.disruptor());
        final long last = eventsPerProducer * topology.producers - 1;
        final CountDownLatch done = new CountDownLatch(topology.finalConsumers);
        final List<Final> finals = new ArrayList<>();
        switch (topology)
        {
            case UNICAST_1P_1C:
            case SEQUENCER_3P_1C:
                disruptor.handleEventsWith(add(finals, new Final(last, done, 0)));
                break;
            case MULTICAST_1P_3C:
                disruptor.handleEventsWith(add(finals, new Final(last, done, 0)), add(finals, new Final(last, done, 0)),
                    add(finals, new Final(last, done, 0)));
                break;
            case PIPELINE_1P_3C:
                disruptor
                    .handleEventsWith((EventHandler<ValueEvent>)(event, sequence, endOfBatch) ->
                        event.stepOne = Topology.stepOne(event.value))
                    .then((EventHandler<ValueEvent>)(event, sequence, endOfBatch) ->
                        event.stepTwo = Topology.stepTwo(event.stepOne))
                    .then(add(finals, new Final(last, done, 1)));
                break;
            default:
            {
                final EventHandlerGroup<ValueEvent> group = disruptor.handleEventsWith(
                    (EventHandler<ValueEvent>)(event, sequence, endOfBatch) -> event.fizz = event.value % 3 == 0,
                    (EventHandler<ValueEvent>)(event, sequence, endOfBatch) -> event.buzz = event.value % 5 == 0);
                group.then(add(finals, new Final(last, done, 2)));
                break;
            }
        }
        final RingBuffer<ValueEvent> ringBuffer = disruptor.start();

        final Thread[] producers = new Thread[topology.producers];
        for (int p = 0; p < producers.length; p++)
        {
            producers[p] = new Thread(() -> produce(ringBuffer, eventsPerProducer), "disruptor-producer-" + p);
        }
        final long startNs = System.nanoTime();
        for (final Thread producer : producers)
        {
            producer.start();
        }
        if (!done.await(5, TimeUnit.MINUTES))
        {
            throw new IllegalStateException("disruptor " + topology.label + " did not finish");
        }
        final long elapsedNs = System.nanoTime() - startNs;
        for (final Thread producer : producers)
        {
            producer.join();
        }
        disruptor.halt();

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
        final Disruptor<ValueEvent> disruptor = new Disruptor<>(ValueEvent::new, capacity,
            DaemonThreadFactory.INSTANCE, ProducerType.SINGLE, style.disruptor());
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long total = warmUp + measured;
        final CountDownLatch done = new CountDownLatch(1);
        disruptor
            .handleEventsWith((EventHandler<ValueEvent>)(event, sequence, endOfBatch) -> event.stepOne = event.value)
            .then((EventHandler<ValueEvent>)(event, sequence, endOfBatch) -> event.stepTwo = event.stepOne)
            .then((EventHandler<ValueEvent>)(event, sequence, endOfBatch) ->
            {
                final long latencyNs = System.nanoTime() - event.stepTwo;
                if (sequence >= warmUp)
                {
                    histogram.recordValue(Math.min(latencyNs, histogram.getHighestTrackableValue()));
                }
                if (sequence == total - 1)
                {
                    done.countDown();
                }
            });
        final RingBuffer<ValueEvent> ringBuffer = disruptor.start();
        long intendedNs = System.nanoTime();
        for (long i = 0; i < total; i++)
        {
            intendedNs += intervalNs;
            Contender.paceUntil(intendedNs);
            final long sequence = ringBuffer.next();
            ringBuffer.get(sequence).value = intendedNs;
            ringBuffer.publish(sequence);
        }
        done.await(1, TimeUnit.MINUTES);
        disruptor.halt();
        return histogram;
    }

    private static void produce(final RingBuffer<ValueEvent> ringBuffer, final long events)
    {
        for (long i = 0; i < events; i++)
        {
            final long sequence = ringBuffer.next();
            ringBuffer.get(sequence).value = i;
            ringBuffer.publish(sequence);
        }
    }

    private static EventHandler<ValueEvent> add(final List<Final> finals, final Final handler)
    {
        finals.add(handler);
        return handler;
    }

    /**
     * A final consumer: 0 sums values, 1 counts pipeline results, 2 counts fizz-and-buzz.
     */
    static final class Final implements EventHandler<ValueEvent>
    {
        private final long last;
        private final CountDownLatch done;
        private final int kind;
        private long acc;
        long result;

        Final(final long last, final CountDownLatch done, final int kind)
        {
            this.last = last;
            this.done = done;
            this.kind = kind;
        }

        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch)
        {
            if (0 == kind)
            {
                acc += event.value;
            }
            else if (1 == kind)
            {
                acc += Topology.pipelineCounts(event.stepTwo) ? 1 : 0;
            }
            else
            {
                acc += event.fizz && event.buzz ? 1 : 0;
            }
            if (sequence == last)
            {
                result = acc;
                done.countDown();
            }
        }
    }
}
