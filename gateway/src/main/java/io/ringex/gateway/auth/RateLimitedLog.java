package io.ringex.gateway.auth;

/**
 * A log line an attacker can trigger at will (a refused logon), written at most once per interval: the lines in
 * between are counted, and the next line written says how many were skipped, so a flood shows in the log as a few
 * lines with counts rather than as thousands of lines.
 * <p>
 * Thread safety: {@link #admit} is synchronized; it is called only on refusal paths.
 */
public final class RateLimitedLog
{
    /** Skip this line: it was counted. */
    public static final long SKIP = -1;

    private final long intervalMs;
    private long nextMs = Long.MIN_VALUE;
    private long skipped;

    /**
     * @param intervalMs at most one line per this many milliseconds.
     */
    public RateLimitedLog(final long intervalMs)
    {
        this.intervalMs = intervalMs;
    }

    /**
     * @param nowMs wall clock.
     * @return {@link #SKIP} if the line is not to be written (it is counted), else how many lines were skipped since
     *         the last one written.
     */
    public synchronized long admit(final long nowMs)
    {
        if (nowMs < nextMs)
        {
            skipped++;
            return SKIP;
        }
        nextMs = nowMs + intervalMs;
        final long admitted = skipped;
        skipped = 0;
        return admitted;
    }
}
