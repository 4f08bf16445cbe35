package io.ringex.bench.ring;

import org.HdrHistogram.Histogram;

/**
 * One implementation under test: runs a topology end to end on fresh threads and returns the elapsed time.
 * Threading: called from the benchmark's main thread only.
 */
interface Contender
{
    /**
     * @return short name for tables.
     */
    String name();

    /**
     * Send {@code eventsPerProducer} values from each producer through the topology, wait for the final consumers,
     * check their result, tear down.
     *
     * @param topology          which graph.
     * @param style             how threads wait.
     * @param eventsPerProducer values per producer.
     * @param capacity          ring or queue capacity.
     * @return elapsed nanoseconds from the producers' start to the final consumers' last event.
     * @throws Exception if a thread fails or the result is wrong.
     */
    long runNs(Topology topology, IdleStyle style, long eventsPerProducer, int capacity) throws Exception;

    /**
     * Three-step pipeline at a paced rate: the producer stamps each event with its intended send time and the last
     * stage records the time since then (so a stalled producer shows up: no coordinated omission).
     *
     * @param style      how threads wait.
     * @param warmUp     events not recorded.
     * @param measured   events recorded.
     * @param intervalNs nanoseconds between intended sends.
     * @param capacity   ring or queue capacity.
     * @return latency histogram in nanoseconds.
     * @throws Exception if a thread fails.
     */
    Histogram pipelineLatency(IdleStyle style, long warmUp, long measured, long intervalNs, int capacity)
        throws Exception;

    static void check(final Topology topology, final long eventsPerProducer, final long actual)
    {
        final long expected = topology.expected(eventsPerProducer);
        if (expected != actual)
        {
            throw new IllegalStateException(topology.label + ": expected " + expected + " but got " + actual);
        }
    }

    static void paceUntil(final long timeNs)
    {
        // Yield rather than spin: on 2 cores a spinning producer would starve the stages it is measuring.
        while (System.nanoTime() < timeNs)
        {
            Thread.yield();
        }
    }
}
