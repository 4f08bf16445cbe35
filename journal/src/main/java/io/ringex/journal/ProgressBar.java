package io.ringex.journal;

import java.io.PrintStream;

/**
 * A one-line progress bar for long tool runs, redrawn at most a few times a second.
 */
final class ProgressBar
{
    private static final int WIDTH = 40;
    private static final long REDRAW_INTERVAL_NS = 250_000_000L;

    private final PrintStream out;
    private final long total;
    private final long startNs = System.nanoTime();
    private long lastDrawNs;

    ProgressBar(final PrintStream out, final long total)
    {
        this.out = out;
        this.total = total;
    }

    void update(final long done)
    {
        final long now = System.nanoTime();
        if (now - lastDrawNs >= REDRAW_INTERVAL_NS)
        {
            lastDrawNs = now;
            draw(done, now);
        }
    }

    void finish(final long done)
    {
        draw(done, System.nanoTime());
        out.println();
    }

    private void draw(final long done, final long now)
    {
        final int filled = total <= 0 ? WIDTH : (int)Math.min(WIDTH, done * WIDTH / total);
        final double seconds = Math.max(1e-9, (now - startNs) / 1e9);
        final StringBuilder bar = new StringBuilder(WIDTH + 64).append('\r').append('[');
        for (int i = 0; i < WIDTH; i++)
        {
            bar.append(i < filled ? '#' : '.');
        }
        bar.append("] ").append(done).append('/').append(total)
            .append(String.format("  %.0f/s", done / seconds));
        out.print(bar);
        out.flush();
    }
}
