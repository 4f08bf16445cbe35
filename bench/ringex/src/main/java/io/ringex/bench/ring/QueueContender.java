package io.ringex.bench.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

/**
 * {@link ArrayBlockingQueue} between stages, as in the Disruptor paper: values boxed as {@code Long} (what
 * {@code put(i)} does), a {@code long[]} per event through the pipeline, one queue per edge of the graph. The queue
 * blocks on its lock and conditions whatever the idle style.
 */
final class QueueContender implements Contender
{
    /**
     * A body of a stage thread that may be interrupted.
     */
    @FunctionalInterface
    interface Body
    {
        void run() throws InterruptedException;
    }

    public String name()
    {
        return "abq";
    }

    public long runNs(final Topology topology, final IdleStyle style, final long eventsPerProducer, final int capacity)
        throws Exception
    {
        final long n = eventsPerProducer;
        final AtomicLong result = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(topology.finalConsumers);
        final List<Thread> consumers = new ArrayList<>();
        final List<Thread> producers = new ArrayList<>();
        switch (topology)
        {
            case UNICAST_1P_1C:
            case SEQUENCER_3P_1C:
            {
                final ArrayBlockingQueue<Long> queue = new ArrayBlockingQueue<>(capacity);
                consumers.add(thread(() ->
                {
                    long acc = 0;
                    for (long i = n * topology.producers; i > 0; i--)
                    {
                        acc += queue.take();
                    }
                    result.addAndGet(acc);
                    done.countDown();
                }));
                for (int p = 0; p < topology.producers; p++)
                {
                    producers.add(thread(() ->
                    {
                        for (long i = 0; i < n; i++)
                        {
                            queue.put(i);
                        }
                    }));
                }
                break;
            }
            case MULTICAST_1P_3C:
            {
                final List<ArrayBlockingQueue<Long>> queues = new ArrayList<>();
                for (int c = 0; c < 3; c++)
                {
                    final ArrayBlockingQueue<Long> queue = new ArrayBlockingQueue<>(capacity);
                    queues.add(queue);
                    consumers.add(thread(() ->
                    {
                        long acc = 0;
                        for (long i = 0; i < n; i++)
                        {
                            acc += queue.take();
                        }
                        result.addAndGet(acc);
                        done.countDown();
                    }));
                }
                producers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        final Long value = i;
                        queues.get(0).put(value);
                        queues.get(1).put(value);
                        queues.get(2).put(value);
                    }
                }));
                break;
            }
            case PIPELINE_1P_3C:
            {
                final ArrayBlockingQueue<long[]> one = new ArrayBlockingQueue<>(capacity);
                final ArrayBlockingQueue<long[]> two = new ArrayBlockingQueue<>(capacity);
                final ArrayBlockingQueue<long[]> three = new ArrayBlockingQueue<>(capacity);
                consumers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        final long[] event = one.take();
                        event[1] = Topology.stepOne(event[0]);
                        two.put(event);
                    }
                }));
                consumers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        final long[] event = two.take();
                        event[2] = Topology.stepTwo(event[1]);
                        three.put(event);
                    }
                }));
                consumers.add(thread(() ->
                {
                    long acc = 0;
                    for (long i = 0; i < n; i++)
                    {
                        acc += Topology.pipelineCounts(three.take()[2]) ? 1 : 0;
                    }
                    result.addAndGet(acc);
                    done.countDown();
                }));
                producers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        one.put(new long[]{i, 0, 0});
                    }
                }));
                break;
            }
            default:
            {
                final ArrayBlockingQueue<Long> fizzIn = new ArrayBlockingQueue<>(capacity);
                final ArrayBlockingQueue<Long> buzzIn = new ArrayBlockingQueue<>(capacity);
                final ArrayBlockingQueue<Boolean> fizzOut = new ArrayBlockingQueue<>(capacity);
                final ArrayBlockingQueue<Boolean> buzzOut = new ArrayBlockingQueue<>(capacity);
                consumers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        fizzOut.put(fizzIn.take() % 3 == 0);
                    }
                }));
                consumers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        buzzOut.put(buzzIn.take() % 5 == 0);
                    }
                }));
                consumers.add(thread(() ->
                {
                    long acc = 0;
                    for (long i = 0; i < n; i++)
                    {
                        final boolean fizz = fizzOut.take();
                        final boolean buzz = buzzOut.take();
                        acc += fizz && buzz ? 1 : 0;
                    }
                    result.addAndGet(acc);
                    done.countDown();
                }));
                producers.add(thread(() ->
                {
                    for (long i = 0; i < n; i++)
                    {
                        final Long value = i;
                        fizzIn.put(value);
                        buzzIn.put(value);
                    }
                }));
                break;
            }
        }

        consumers.forEach(Thread::start);
        final long startNs = System.nanoTime();
        producers.forEach(Thread::start);
        if (!done.await(5, TimeUnit.MINUTES))
        {
            throw new IllegalStateException("abq " + topology.label + " did not finish");
        }
        final long elapsedNs = System.nanoTime() - startNs;
        for (final Thread thread : producers)
        {
            thread.join();
        }
        for (final Thread thread : consumers)
        {
            thread.join();
        }
        Contender.check(topology, eventsPerProducer, result.get());
        return elapsedNs;
    }

    public Histogram pipelineLatency(
        final IdleStyle style, final long warmUp, final long measured, final long intervalNs, final int capacity)
        throws Exception
    {
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long total = warmUp + measured;
        final ArrayBlockingQueue<long[]> one = new ArrayBlockingQueue<>(capacity);
        final ArrayBlockingQueue<long[]> two = new ArrayBlockingQueue<>(capacity);
        final ArrayBlockingQueue<long[]> three = new ArrayBlockingQueue<>(capacity);
        final List<Thread> stages = List.of(
            thread(() ->
            {
                for (long i = 0; i < total; i++)
                {
                    final long[] event = one.take();
                    event[1] = event[0];
                    two.put(event);
                }
            }),
            thread(() ->
            {
                for (long i = 0; i < total; i++)
                {
                    final long[] event = two.take();
                    event[2] = event[1];
                    three.put(event);
                }
            }),
            thread(() ->
            {
                for (long i = 0; i < total; i++)
                {
                    final long sentNs = three.take()[2];
                    final long latencyNs = System.nanoTime() - sentNs;
                    if (i >= warmUp)
                    {
                        histogram.recordValue(Math.min(latencyNs, histogram.getHighestTrackableValue()));
                    }
                }
            }));
        stages.forEach(Thread::start);
        long intendedNs = System.nanoTime();
        for (long i = 0; i < total; i++)
        {
            intendedNs += intervalNs;
            Contender.paceUntil(intendedNs);
            one.put(new long[]{intendedNs, 0, 0});
        }
        for (final Thread stage : stages)
        {
            stage.join();
        }
        return histogram;
    }

    private static Thread thread(final Body body)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                body.run();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "abq-stage");
        thread.setDaemon(true);
        return thread;
    }
}
