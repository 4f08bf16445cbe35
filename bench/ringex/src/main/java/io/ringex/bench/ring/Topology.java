package io.ringex.bench.ring;

/**
 * The five topologies of the Disruptor paper's throughput tests.
 */
public enum Topology
{
    UNICAST_1P_1C("unicast 1P-1C", 1, 1),
    PIPELINE_1P_3C("pipeline 1P-3C", 1, 1),
    SEQUENCER_3P_1C("sequencer 3P-1C", 3, 1),
    MULTICAST_1P_3C("multicast 1P-3C", 1, 3),
    DIAMOND_1P_3C("diamond 1P-3C", 1, 1);

    final String label;
    final int producers;
    final int finalConsumers;

    Topology(final String label, final int producers, final int finalConsumers)
    {
        this.label = label;
        this.producers = producers;
        this.finalConsumers = finalConsumers;
    }

    /**
     * What the final consumer(s) must have computed for values 0..n-1 per producer, so no run is dead code and
     * every run is checked.
     *
     * @param eventsPerProducer values each producer sends.
     * @return expected result.
     */
    long expected(final long eventsPerProducer)
    {
        final long n = eventsPerProducer;
        switch (this)
        {
            case UNICAST_1P_1C:
                return n * (n - 1) / 2;
            case SEQUENCER_3P_1C:
                return producers * (n * (n - 1) / 2);
            case MULTICAST_1P_3C:
                return 3 * (n * (n - 1) / 2);
            case PIPELINE_1P_3C:
            {
                long count = 0;
                for (long i = 0; i < n; i++)
                {
                    count += pipelineCounts(stepTwo(stepOne(i))) ? 1 : 0;
                }
                return count;
            }
            default:
            {
                long count = 0;
                for (long i = 0; i < n; i++)
                {
                    count += (i % 3 == 0 && i % 5 == 0) ? 1 : 0;
                }
                return count;
            }
        }
    }

    static long stepOne(final long value)
    {
        return value + 7;
    }

    static long stepTwo(final long stepOneResult)
    {
        return stepOneResult * 3;
    }

    static boolean pipelineCounts(final long stepTwoResult)
    {
        return (stepTwoResult & 4L) == 4L;
    }
}
