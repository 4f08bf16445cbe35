package io.ringex.bench.workload;

/**
 * What a generated workload turned out to be: the mix of timed commands and the shape of the books, as the
 * generator's model saw them. Printed by {@link GenerateWorkload}; asserted by the tests.
 */
public final class WorkloadStats
{
    final long[] countsByType = new long[WorkloadCommandType.TYPE_COUNT];
    long prefill;
    long trades;
    long samples;
    double restingOrdersSum;
    double priceLevelsSum;
    long priceClamps;

    /**
     * Timed commands of one type.
     *
     * @param type a {@link WorkloadCommandType}.
     * @return how many.
     */
    public long count(final int type)
    {
        return countsByType[type];
    }

    /** @return timed commands. */
    public long commands()
    {
        long sum = 0;
        for (final long c : countsByType)
        {
            sum += c;
        }
        return sum;
    }

    /**
     * Share of a type among timed commands.
     *
     * @param type a {@link WorkloadCommandType}.
     * @return 0..1.
     */
    public double share(final int type)
    {
        final long commands = commands();
        return commands == 0 ? 0 : (double)countsByType[type] / commands;
    }

    /** @return untimed prefill places. */
    public long prefill()
    {
        return prefill;
    }

    /** @return fills (one per resting order touched) the timed commands produced in the model. */
    public long trades()
    {
        return trades;
    }

    /** @return mean resting orders per book over the timed commands. */
    public double meanRestingOrdersPerBook()
    {
        return samples == 0 ? 0 : restingOrdersSum / samples;
    }

    /** @return mean occupied price levels (both sides) per book over the timed commands. */
    public double meanPriceLevelsPerBook()
    {
        return samples == 0 ? 0 : priceLevelsSum / samples;
    }

    /** @return prices that had to be clamped into [MIN_PRICE, MAX_PRICE] (a drift indicator; expect ~0). */
    public long priceClamps()
    {
        return priceClamps;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        final String orderTypes = count(WorkloadCommandType.PLACE_STOP_LIMIT) +
            count(WorkloadCommandType.PLACE_ICEBERG) == 0 ? "" : String.format(" stopLimit=%.2f%% iceberg=%.2f%%",
            100 * share(WorkloadCommandType.PLACE_STOP_LIMIT), 100 * share(WorkloadCommandType.PLACE_ICEBERG));
        return String.format(
            "commands=%d prefill=%d GTC=%.2f%% IOC=%.2f%% cancel=%.2f%% move=%.2f%% reduce=%.2f%%%s trades=%d " +
            "restingPerBook=%.0f levelsPerBook=%.0f clamps=%d",
            commands(), prefill, 100 * share(WorkloadCommandType.PLACE_GTC),
            100 * share(WorkloadCommandType.PLACE_IOC), 100 * share(WorkloadCommandType.CANCEL),
            100 * share(WorkloadCommandType.MOVE), 100 * share(WorkloadCommandType.REDUCE), orderTypes, trades,
            meanRestingOrdersPerBook(), meanPriceLevelsPerBook(), priceClamps);
    }
}
