package io.ringex.bench.engine;

import org.HdrHistogram.Histogram;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Formatting of HdrHistogram latencies for the RESULT lines and the plot files.
 * <p>
 * Threading: stateless.
 */
final class Percentiles
{
    private Percentiles()
    {
    }

    /**
     * @param histogram values in nanoseconds.
     * @return "p50=.. p90=.. p99=.. p99.9=.. p99.99=.. max=.." in ns.
     */
    static String summary(final Histogram histogram)
    {
        return String.format(Locale.ROOT, "p50=%d p90=%d p99=%d p99.9=%d p99.99=%d max=%d",
            histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
            histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9),
            histogram.getValueAtPercentile(99.99), histogram.getMaxValue());
    }

    /**
     * Write the percentile distribution (HdrHistogram's text format, values in microseconds) for plotting.
     *
     * @param histogram values in nanoseconds.
     * @param file      where, or null for nowhere.
     */
    static void write(final Histogram histogram, final String file)
    {
        if (file == null)
        {
            return;
        }
        try (PrintStream out = new PrintStream(file))
        {
            histogram.outputPercentileDistribution(out, 5, 1000.0);
        }
        catch (final FileNotFoundException ex)
        {
            throw new IllegalStateException("cannot write " + file, ex);
        }
    }
}
