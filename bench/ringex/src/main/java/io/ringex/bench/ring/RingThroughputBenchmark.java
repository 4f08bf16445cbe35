package io.ringex.bench.ring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The Disruptor paper's five throughput topologies with our ring, LMAX Disruptor 4.0.0 and ArrayBlockingQueue,
 * alternating implementations round by round in one JVM, then the three-step pipeline's latency at a paced rate. Prints
 * markdown tables and writes {@code throughput.dat} and {@code results.md}; its options are listed in
 * docs/benchmarks-ring.md ("Command").
 * <p>
 * Threading: a main method; each contender starts and stops its own threads per run.
 */
public final class RingThroughputBenchmark
{
    private RingThroughputBenchmark()
    {
    }

    /**
     * Run the benchmark.
     *
     * @param args options as above.
     * @throws Exception on failure of any run (a wrong result fails the whole benchmark).
     */
    public static void main(final String[] args) throws Exception
    {
        final Map<String, String> options = parse(args);
        final long events = Long.parseLong(options.getOrDefault("events", "8000000"));
        final int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
        final int capacity = Integer.parseInt(options.getOrDefault("capacity", "65536"));
        final long latencyRate = Long.parseLong(options.getOrDefault("latency-rate", "100000"));
        final long latencyEvents = Long.parseLong(options.getOrDefault("latency-events", "300000"));
        final Path out = Path.of(options.getOrDefault("out", "target/ring-bench"));
        final List<IdleStyle> styles = new ArrayList<>();
        for (final String style : options.getOrDefault("styles", "YIELDING,BACKOFF").split(","))
        {
            styles.add(IdleStyle.valueOf(style.trim().toUpperCase(Locale.ROOT)));
        }
        final int slotLength = Integer.parseInt(
            options.getOrDefault("slot-length", String.valueOf(RingContender.SLOT_LENGTH)));
        final int payloadOffset = Integer.parseInt(options.getOrDefault("payload-offset", "0"));
        final Contender ours = new RingContender(slotLength, payloadOffset, options.containsKey("checked-slots"));
        final Contender[] contenders = options.containsKey("without-abq") ?
            new Contender[]{ours, new DisruptorContender()} :
            new Contender[]{ours, new DisruptorContender(), new QueueContender()};

        final List<String[]> rows = new ArrayList<>();
        final List<Case> cases = new ArrayList<>();
        for (final IdleStyle style : styles)
        {
            for (final String name : options.getOrDefault("topologies", all()).split(","))
            {
                cases.add(new Case(Topology.valueOf(name.trim().toUpperCase(Locale.ROOT)), style));
            }
        }
        if (options.containsKey("busy-spin-unicast"))
        {
            cases.add(new Case(Topology.UNICAST_1P_1C, IdleStyle.BUSY_SPIN));
        }

        for (final Case c : cases)
        {
            final long perProducer = events / c.topology.producers;
            final long total = perProducer * c.topology.producers;
            final double[][] opsPerSecond = new double[3][rounds];
            Arrays.fill(opsPerSecond[2], Double.NaN);
            for (int round = -1; round < rounds; round++)
            {
                for (int k = 0; k < contenders.length; k++)
                {
                    final int index = Math.floorMod(round + k, contenders.length);
                    final long elapsedNs = contenders[index].runNs(c.topology, c.style, perProducer, capacity);
                    final double ops = total * 1e9 / elapsedNs;
                    System.out.printf(Locale.ROOT, "%-16s %-9s %-9s round %2d: %,15.0f ops/s%n",
                        c.topology.label, c.style, contenders[index].name(), round, ops);
                    if (round >= 0)
                    {
                        opsPerSecond[index][round] = ops;
                    }
                }
            }
            final double ring = median(opsPerSecond[0]);
            final double disruptor = median(opsPerSecond[1]);
            final double queue = median(opsPerSecond[2]);
            rows.add(new String[]{
                c.topology.label, c.style.name().toLowerCase(Locale.ROOT), millions(ring), millions(disruptor),
                millions(queue), ratio(ring / disruptor), ratio(ring / queue), spread(opsPerSecond[0]),
                spread(opsPerSecond[1]), spread(opsPerSecond[2])});
        }

        final StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "Throughput: %,d events per run, %d measured rounds after 1 warm-up "
            + "round, capacity %d, implementations alternating each round. Median Mops/s (min-max in brackets).%n%n",
            events, rounds, capacity));
        report.append("| topology | idle | ringex | disruptor | abq | ringex/disruptor | ringex/abq |\n");
        report.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (final String[] row : rows)
        {
            report.append(String.format(Locale.ROOT, "| %s | %s | %s (%s) | %s (%s) | %s (%s) | %s | %s |%n",
                row[0], row[1], row[2], row[7], row[3], row[8], row[4], row[9], row[5], row[6]));
        }

        final long intervalNs = TimeUnit.SECONDS.toNanos(1) / latencyRate;
        report.append(String.format(Locale.ROOT, "%nLatency, three-step pipeline 1P-3C, paced at %,d events/s, "
            + "%,d measured after %,d warm-up; from intended send time to the third stage, in microseconds.%n%n",
            latencyRate, latencyEvents, latencyEvents / 2));
        report.append("| idle | implementation | mean | p50 | p99 | p99.99 | max |\n");
        report.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (final IdleStyle style : latencyEvents > 0 ? styles : List.<IdleStyle>of())
        {
            for (int k = 0; k < contenders.length; k++)
            {
                final Histogram histogram = contenders[k].pipelineLatency(
                    style, latencyEvents / 2, latencyEvents, intervalNs, capacity);
                final String line = String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                    style.name().toLowerCase(Locale.ROOT), contenders[k].name(), histogram.getMean() / 1000.0,
                    histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
                    histogram.getValueAtPercentile(99.99) / 1000.0, histogram.getMaxValue() / 1000.0);
                System.out.print(line);
                report.append(line);
            }
        }

        System.out.println();
        System.out.print(report);
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.md"), report.toString(), StandardCharsets.UTF_8);
        writePlotData(out.resolve("throughput.dat"), rows);
    }

    private static String all()
    {
        final StringBuilder names = new StringBuilder();
        for (final Topology topology : Topology.values())
        {
            names.append(names.length() > 0 ? "," : "").append(topology.name());
        }
        return names.toString();
    }

    private static void writePlotData(final Path file, final List<String[]> rows) throws IOException
    {
        final StringBuilder data = new StringBuilder("# case ringex disruptor abq\n");
        for (final String[] row : rows)
        {
            data.append('"').append(row[0]).append("\\n").append(row[1]).append("\" ")
                .append(row[2]).append(' ').append(row[3]).append(' ').append(row[4]).append('\n');
        }
        Files.writeString(file, data.toString(), StandardCharsets.UTF_8);
    }

    private static final Set<String> OPTIONS = Set.of("events", "rounds", "styles", "topologies",
        "busy-spin-unicast", "capacity", "slot-length", "payload-offset", "without-abq", "checked-slots",
        "latency-rate", "latency-events", "out");

    private static Map<String, String> parse(final String[] args)
    {
        final Map<String, String> options = new LinkedHashMap<>();
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || !OPTIONS.contains(arg.substring(2, eq < 0 ? arg.length() : eq)))
            {
                throw new IllegalArgumentException("unknown argument: " + arg + " (options: " + OPTIONS + ")");
            }
            if (eq < 0)
            {
                options.put(arg.substring(2), "true");
            }
            else
            {
                options.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        return options;
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static String millions(final double ops)
    {
        return String.format(Locale.ROOT, "%.2f", ops / 1e6);
    }

    private static String ratio(final double ratio)
    {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String spread(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.1f-%.1f", sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    private static final class Case
    {
        final Topology topology;
        final IdleStyle style;

        Case(final Topology topology, final IdleStyle style)
        {
            this.topology = topology;
            this.style = style;
        }
    }
}
