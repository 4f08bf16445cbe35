package io.ringex.gateway;

/**
 * A token bucket on a clock the caller reads: {@code ratePerSecond} tokens a second, at most {@code burst} saved.
 * Excess is refused at once, never queued.
 * <p>
 * Thread safety: single-threaded; owned by the session's agent.
 */
public final class Throttle
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long ratePerSecond;
    private final long burst;
    private long tokens;
    private long lastRefillNs;
    private long remainderNs;

    /**
     * @param ratePerSecond tokens added per second, > 0.
     * @param burst         bucket capacity, > 0.
     * @param nowNs         the clock now; the bucket starts full.
     */
    public Throttle(final long ratePerSecond, final long burst, final long nowNs)
    {
        if (ratePerSecond <= 0 || burst <= 0)
        {
            throw new IllegalArgumentException("rate and burst must be > 0");
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.tokens = burst;
        this.lastRefillNs = nowNs;
    }

    /**
     * Take one token if there is one.
     *
     * @param nowNs the clock now (monotonic).
     * @return true if allowed.
     */
    public boolean tryAcquire(final long nowNs)
    {
        refill(nowNs);
        if (tokens > 0)
        {
            tokens--;
            return true;
        }
        return false;
    }

    /**
     * @param nowNs the clock now.
     * @return tokens available now.
     */
    public long available(final long nowNs)
    {
        refill(nowNs);
        return tokens;
    }

    private void refill(final long nowNs)
    {
        final long elapsedNs = nowNs - lastRefillNs;
        if (elapsedNs <= 0)
        {
            return;
        }
        lastRefillNs = nowNs;
        if (tokens >= burst)
        {
            remainderNs = 0;
            return;
        }
        // tokens = elapsed * rate / 1e9, carrying the fraction so slow rates still refill exactly.
        final long scaled = Math.min(elapsedNs, NANOS_PER_SECOND * burst) * ratePerSecond + remainderNs;
        final long added = scaled / NANOS_PER_SECOND;
        remainderNs = scaled % NANOS_PER_SECOND;
        tokens = Math.min(burst, tokens + added);
        if (tokens == burst)
        {
            remainderNs = 0;
        }
    }
}
