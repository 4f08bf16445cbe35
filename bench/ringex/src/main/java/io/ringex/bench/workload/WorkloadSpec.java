package io.ringex.bench.workload;

/**
 * What to generate: the shape of exchange-core's throughput tests (one or many instruments, ~2K accounts, ~1K
 * resting orders per book over ~750 price levels) and the price grid every side uses.
 * <p>
 * The price grid is fixed and recorded in the file header: scale {@link #PRICE_SCALE}, tick {@link #TICK_SIZE},
 * every generated price within [{@link #MIN_PRICE}, {@link #MAX_PRICE}] around {@link #REFERENCE_PRICE} (100.00),
 * and a band of {@link #PRICE_BAND_TICKS} either side of any reference in that range, so no price is ever out of
 * band even if an engine moves its reference to the last trade.
 *
 * @param commands                   timed commands (after the untimed prefill).
 * @param instruments                instruments, ids 1..instruments.
 * @param accounts                   accounts, ids 1..accounts; at least 2 (odd ids buy, even ids sell).
 * @param seed                       random seed; the same spec gives the same file, byte for byte.
 * @param restingOrdersPerInstrument resting orders each book is filled to and held around.
 * @param stopPercent                percent of timed commands that are stop-limit places (0: the exchange-core
 *                                   shape; any other value makes a Ringex-only workload).
 * @param icebergPercent             percent of timed commands that are iceberg places.
 */
public record WorkloadSpec(
    long commands, int instruments, int accounts, long seed, int restingOrdersPerInstrument, int stopPercent,
    int icebergPercent)
{
    /** Decimal places of prices. */
    public static final int PRICE_SCALE = 2;

    /** One tick, at the price scale (0.01). */
    public static final long TICK_SIZE = 1;

    /** One lot, in units. */
    public static final long LOT_SIZE = 1;

    /** Every instrument's reference price (100.00). */
    public static final long REFERENCE_PRICE = 10_000;

    /** Lowest price any record carries (60.00), also the limit of selling IOCs. */
    public static final long MIN_PRICE = REFERENCE_PRICE - 4_000;

    /** Highest price any record carries (140.00), also the limit of buying IOCs. */
    public static final long MAX_PRICE = REFERENCE_PRICE + 4_000;

    /** Band either side of the reference, in ticks: covers [MIN_PRICE, MAX_PRICE] from any reference inside it. */
    public static final long PRICE_BAND_TICKS = 10_000;

    /** Default resting orders per book (exchange-core: "1K pending limit-orders"). */
    public static final int DEFAULT_RESTING_ORDERS = 1_000;

    /** Default accounts (exchange-core: "2K currency accounts"). */
    public static final int DEFAULT_ACCOUNTS = 2_000;

    /**
     * Validates the spec.
     */
    /**
     * The exchange-core-shaped workload: no stops or icebergs.
     *
     * @param commands                   timed commands.
     * @param instruments                instruments.
     * @param accounts                   accounts.
     * @param seed                       random seed.
     * @param restingOrdersPerInstrument book size target.
     */
    public WorkloadSpec(
        final long commands, final int instruments, final int accounts, final long seed,
        final int restingOrdersPerInstrument)
    {
        this(commands, instruments, accounts, seed, restingOrdersPerInstrument, 0, 0);
    }

    public WorkloadSpec
    {
        if (stopPercent < 0 || icebergPercent < 0 || stopPercent + icebergPercent > 50)
        {
            throw new IllegalArgumentException("stop and iceberg percentages from 0, at most 50 together: " +
                stopPercent + ", " + icebergPercent);
        }
        if (commands < 0 || instruments < 1 || accounts < 2 || restingOrdersPerInstrument < 2)
        {
            throw new IllegalArgumentException("need commands >= 0, instruments >= 1, accounts >= 2, " +
                "restingOrdersPerInstrument >= 2: " + commands + ", " + instruments + ", " + accounts + ", " +
                restingOrdersPerInstrument);
        }
        if (WorkloadFileDescriptor.recordOffset(commands + (long)instruments * restingOrdersPerInstrument) >
            Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("the file would exceed 2 GiB");
        }
    }
}
