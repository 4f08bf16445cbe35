package io.ringex.engine.node;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An error handler that logs each error with its stack trace, at most {@code maxPerWindow} of them in each window of
 * {@code windowNs}, and only counts the rest: a stream of poison commands, each failing in the processor, cannot flood
 * the log (the processor and the stages count every error anyway, for the status and the counters file). The first
 * error left out says so in one line; the next error after the window closes says how many were left out before it is
 * logged.
 * <p>
 * Thread safety: one thread: each instance belongs to the thread whose errors it is told of.
 */
final class ThrottledErrorLog implements ErrorHandler
{
    /** Errors logged with their stack trace per window, unless configured. */
    static final int MAX_PER_WINDOW = 10;
    /** The window, unless configured. */
    static final long WINDOW_NS = 60_000_000_000L;

    private final Logger logger;
    private final String source;
    private final int maxPerWindow;
    private final long windowNs;
    private final NanoClock clock;
    private boolean started;
    private long windowStartNs;
    private int logged;
    private long leftOut;

    /**
     * @param logger       the logger errors go to.
     * @param source       what failed, at the start of each line ("processor", "input/journal").
     * @param maxPerWindow errors logged with their stack trace per window.
     * @param windowNs     the window.
     * @param clock        the node's clock.
     */
    ThrottledErrorLog(
        final Logger logger,
        final String source,
        final int maxPerWindow,
        final long windowNs,
        final NanoClock clock)
    {
        this.logger = logger;
        this.source = source;
        this.maxPerWindow = maxPerWindow;
        this.windowNs = windowNs;
        this.clock = clock;
    }

    /**
     * @param loggerName the logger errors go to.
     * @param source     what failed.
     * @param clock      the node's clock.
     * @return a log of at most {@link #MAX_PER_WINDOW} errors with their stack per {@link #WINDOW_NS}.
     */
    static ThrottledErrorLog of(final String loggerName, final String source, final NanoClock clock)
    {
        return new ThrottledErrorLog(LoggerFactory.getLogger(loggerName), source, MAX_PER_WINDOW, WINDOW_NS, clock);
    }

    public void onError(final Throwable throwable)
    {
        final long nowNs = clock.nanoTime();
        if (!started || nowNs - windowStartNs >= windowNs)
        {
            if (leftOut > 0)
            {
                logger.warn("{}: {} more errors in the last {} s were counted, not logged", source, leftOut,
                    windowNs / 1_000_000_000L);
            }
            started = true;
            windowStartNs = nowNs;
            logged = 0;
            leftOut = 0;
        }
        if (logged < maxPerWindow)
        {
            logged++;
            logger.error(source + " failed", throwable);
        }
        else if (leftOut++ == 0)
        {
            logger.warn("{}: {} errors in {} s: further ones are counted, not logged, until the window " +
                "closes ({})", source, maxPerWindow, windowNs / 1_000_000_000L, throwable.toString());
        }
    }
}
