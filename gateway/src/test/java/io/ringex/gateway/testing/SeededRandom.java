package io.ringex.gateway.testing;

import java.util.SplittableRandom;

/**
 * A random source for property tests that says how to repeat a run: the seed is printed on creation, and
 * {@code -Dringex.test.seed=<seed>} replays it. Each draw of {@link #extremeLong()} favours the values where
 * fixed-point and FIX encodings break: 0, 1, -1, the 18/19-digit boundary (10^17..10^18), {@link Long#MAX_VALUE},
 * {@link Long#MIN_VALUE} (also SBE's null for optional int64 fields) and their neighbours.
 */
public final class SeededRandom
{
    /** System property that replays a seed. */
    public static final String SEED_PROP = "ringex.test.seed";

    /** Values every numeric field is tried with. */
    public static final long[] EDGE_LONGS = {
        0, 1, -1, 2, 9, 10, 99, 100, 101,
        99_999_999_999_999_999L, 100_000_000_000_000_000L, 100_000_000_000_000_001L,
        999_999_999_999_999_999L, 1_000_000_000_000_000_000L, 1_000_000_000_000_000_001L,
        5_000_000_000_000_000_000L, 9_223_372_036_854_775_800L, 9_223_372_036_854_775_806L,
        Long.MAX_VALUE,
        -999_999_999_999_999_999L, -1_000_000_000_000_000_000L, -5_000_000_000_000_000_000L,
        Long.MIN_VALUE + 1, Long.MIN_VALUE,
        Integer.MAX_VALUE, Integer.MIN_VALUE, 4_294_967_295L, 65_535, 65_536 };

    /** Values every int field is tried with. */
    public static final int[] EDGE_INTS = { 0, 1, -1, 2, 255, 256, 65_535, 65_536, Integer.MAX_VALUE,
        Integer.MIN_VALUE, Integer.MIN_VALUE + 1 };

    private final long seed;
    private final SplittableRandom random;

    private SeededRandom(final long seed)
    {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /**
     * @param test the test's name, printed with the seed.
     * @return a random source seeded from {@code -Dringex.test.seed} or afresh.
     */
    public static SeededRandom forTest(final String test)
    {
        final String property = System.getProperty(SEED_PROP);
        final long seed = property != null && !property.isBlank() ? Long.parseLong(property.trim()) :
            new SplittableRandom().nextLong();
        System.out.println(test + ": seed " + seed + " (replay with -D" + SEED_PROP + "=" + seed + ")");
        return new SeededRandom(seed);
    }

    /**
     * @return the seed, for failure messages.
     */
    public long seed()
    {
        return seed;
    }

    /**
     * @return an int64 drawn to hit edges often: an edge value, a neighbour of 10^k, a value of 17..19 digits, a
     * small value or any value.
     */
    public long extremeLong()
    {
        switch (random.nextInt(6))
        {
            case 0:
                return EDGE_LONGS[random.nextInt(EDGE_LONGS.length)];
            case 1:
            {
                long power = 1;
                for (int i = random.nextInt(19); i > 0; i--)
                {
                    power *= 10;
                }
                final long value = power + random.nextInt(3) - 1;
                return random.nextBoolean() ? value : -value;
            }
            case 2:
                return random.nextLong(100_000_000_000_000_000L, Long.MAX_VALUE) + random.nextInt(2);
            case 3:
                return random.nextLong(-1_000, 1_000_000);
            case 4:
                return -random.nextLong(100_000_000_000_000_000L, Long.MAX_VALUE) - random.nextInt(2);
            default:
                return random.nextLong();
        }
    }

    /**
     * @return an int drawn to hit edges often.
     */
    public int extremeInt()
    {
        return random.nextBoolean() ? EDGE_INTS[random.nextInt(EDGE_INTS.length)] : random.nextInt();
    }

    /**
     * @param bound exclusive.
     * @return 0..bound-1.
     */
    public int nextInt(final int bound)
    {
        return random.nextInt(bound);
    }

    /**
     * @return a fair coin.
     */
    public boolean nextBoolean()
    {
        return random.nextBoolean();
    }

    /**
     * @param lengthBound exclusive bound on the length.
     * @return random bytes, any value.
     */
    public byte[] bytes(final int lengthBound)
    {
        final byte[] bytes = new byte[random.nextInt(lengthBound)];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)random.nextInt(256);
        }
        return bytes;
    }

    /**
     * @param values to choose from.
     * @param <T>    their type.
     * @return one of them.
     */
    @SafeVarargs
    public final <T> T pick(final T... values)
    {
        return values[random.nextInt(values.length)];
    }
}
