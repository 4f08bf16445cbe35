package io.ringex.common.aeron;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Logs an error the first time it is seen and then, while it repeats, once a minute with how often it came: Aeron
 * reports some errors on every attempt (a peer's address unreachable: each datagram sent to it), and a log line with
 * its stack per attempt would cost the process more than the fault. Errors are told apart by their class and message;
 * at most {@link #MAX_KINDS} kinds are remembered, beyond which an error is logged as it comes.
 * <p>
 * Thread safety: synchronized; errors come from the Aeron client's and the driver's threads.
 */
final class RepeatedErrorLog
{
    static final long INTERVAL_NS = 60_000_000_000L;
    static final int MAX_KINDS = 256;

    private final BiConsumer<String, Throwable> log;
    private final Map<String, long[]> kinds = new HashMap<>();

    /**
     * @param log where a line and its error go.
     */
    RepeatedErrorLog(final BiConsumer<String, Throwable> log)
    {
        this.log = log;
    }

    /**
     * @param nowNs     the time, by a monotonic clock.
     * @param what      the line's text.
     * @param throwable the error.
     */
    synchronized void error(final long nowNs, final String what, final Throwable throwable)
    {
        final String key = throwable.getClass().getName() + ": " + throwable.getMessage();
        final long[] seen = kinds.get(key);
        if (null == seen)
        {
            if (kinds.size() < MAX_KINDS)
            {
                kinds.put(key, new long[]{ nowNs, 0 });
            }
            log.accept(what, throwable);
            return;
        }
        seen[1]++;
        if (nowNs - seen[0] >= INTERVAL_NS)
        {
            log.accept(what + " (the same error " + seen[1] + " more times in the last " +
                (nowNs - seen[0]) / 1_000_000_000L + " s)", throwable);
            seen[0] = nowNs;
            seen[1] = 0;
        }
    }
}
