package io.ringex.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The load generator: {@code ./ringex loadgen [--transport sbe|fix] [--rate N] [--duration S] [--warmup S]
 * [--instruments K] [--accounts A] [--orders cross|ioc] [--host H] [--sbe-port P] [--fix-port P] [--timeline FILE]}
 * against a running venue (the all-in-one's demo users; traders first, then the market makers, up to five accounts,
 * one client session each).
 * <p>
 * Open loop: order i is due at {@code start + i / rate}, whether or not earlier ones were answered, and its latency
 * is measured from when it was DUE to its first report, so a stall counts against every order it delays
 * (coordinated omission corrected). Orders go round-robin over the accounts' sessions.
 * <ul>
 * <li>{@code cross} (the default, needs two or more accounts): orders come in pairs at the reference price. The
 * first of pair k is a GTC limit from account {@code k % A}; the second an IOC on the other side from account
 * {@code (k + 1) % A}, which trades with it. The resting side alternates every {@code A} pairs, so every account
 * buys and sells in turn, positions stay within a few lots and the book stays (nearly) empty: both sides trade.</li>
 * <li>{@code ioc}: IOC limits a little through the reference price, each account alternating sides: answered by a
 * fill or (on an empty book) a cancel.</li>
 * </ul>
 * Prints a progress line each second, the throughput and latency percentiles at the end, and one {@code RESULT}
 * line of key=value pairs for scripts. {@code --warmup S} sends at the same rate for S seconds first, over the same
 * sessions, and measures nothing from them (a freshly connected client's first moments, and its cold JIT, are not
 * the steady state). {@code --timeline FILE} also writes the measured latency per 10 ms of the run (CSV).
 */
public final class LoadGenerator
{
    /** One way of sending orders and hearing back. */
    interface Transport extends AutoCloseable
    {
        /** Log every user on; wait until they are. */
        void connect(List<DemoData.Account> accounts);

        /**
         * Send one order; its first report must be handed to {@link Reports#onFirstReport(long, long)}.
         *
         * @return false if it could not be sent now (back-pressure): the caller retries.
         */
        boolean send(long id, DemoData.Account account, DemoData.Instrument instrument, boolean buy, long price,
            long quantity, boolean ioc);

        /** Poll for reports. */
        int poll();

        @Override
        void close();
    }

    /** Collects first-report times; single-threaded with the generator. */
    static final class Reports
    {
        final long[] dueNs;
        /** Due -> first report per order; 0 while unanswered. */
        final long[] latencyNs;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        /** Orders below this id are the warm-up: answered, counted, not measured. */
        final int measuredFrom;
        long count;
        long measured;
        long rejects;

        Reports(final int warmup, final int measuredOrders)
        {
            measuredFrom = warmup;
            dueNs = new long[warmup + measuredOrders];
            latencyNs = new long[warmup + measuredOrders];
        }

        void onFirstReport(final long id, final long nowNs)
        {
            final int i = (int)id;
            // An id not sent by this run (a late report for an earlier run's session) has no due time: ignored.
            if (i >= 0 && i < latencyNs.length && latencyNs[i] == 0 && dueNs[i] != 0)
            {
                final long value = Math.min(latency.getHighestTrackableValue(), Math.max(1, nowNs - dueNs[i]));
                latencyNs[i] = value;
                count++;
                if (i >= measuredFrom)
                {
                    measured++;
                    latency.recordValue(value);
                }
            }
        }
    }

    private LoadGenerator()
    {
    }

    /**
     * @param args options as in the class comment.
     * @throws Exception on set-up failure.
     */
    public static void main(final String[] args) throws Exception
    {
        String transportName = "sbe";
        String orders = "cross";
        int rate = 2_000;
        int durationS = 10;
        int warmupS = 0;
        int instruments = 1;
        int accounts = 2;
        String host = "localhost";
        int sbePort = 40200;
        int fixPort = 9880;
        String timeline = null;
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--transport" -> transportName = args[i + 1];
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--duration" -> durationS = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmupS = Integer.parseInt(args[i + 1]);
                case "--instruments" -> instruments = Integer.parseInt(args[i + 1]);
                case "--accounts" -> accounts = Integer.parseInt(args[i + 1]);
                case "--orders" -> orders = args[i + 1];
                case "--host" -> host = args[i + 1];
                case "--sbe-port" -> sbePort = Integer.parseInt(args[i + 1]);
                case "--fix-port" -> fixPort = Integer.parseInt(args[i + 1]);
                case "--timeline" -> timeline = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        final List<DemoData.Account> users = new ArrayList<>();
        for (final DemoData.Account account : DemoData.ACCOUNTS)
        {
            if (!account.role().equals("market maker") && users.size() < accounts)
            {
                users.add(account);
            }
        }
        for (final DemoData.Account account : DemoData.ACCOUNTS)
        {
            if (account.role().equals("market maker") && users.size() < accounts)
            {
                users.add(account);
            }
        }
        final boolean cross = orders.equals("cross");
        if (cross && users.size() < 2)
        {
            throw new IllegalArgumentException("--orders cross needs --accounts 2 or more");
        }
        final List<DemoData.Instrument> markets = DemoData.INSTRUMENTS.subList(0,
            Math.min(instruments, DemoData.INSTRUMENTS.size()));
        final int warmup = (int)Math.min(Integer.MAX_VALUE / 2, (long)rate * warmupS);
        final int total = (int)Math.min(Integer.MAX_VALUE / 2, (long)rate * durationS);
        final Reports reports = new Reports(warmup, total);

        try (Transport transport = transportName.equals("fix") ?
            new FixLoadTransport(host, fixPort, reports) : new SbeLoadTransport(host, sbePort, reports))
        {
            transport.connect(users);
            System.out.printf("loadgen: %s, %,d orders/s for %d s (after %d s of warm-up) over %d instrument(s) " +
                "and %d account(s), %s%n", transportName, rate, durationS, warmupS, markets.size(), users.size(),
                orders);
            run(transport, reports, users, markets, rate, cross);
        }
        if (timeline != null)
        {
            writeTimeline(Path.of(timeline), reports, rate);
        }
    }

    /**
     * Latency over the run, for telling a few long stalls from steady queueing: per 10 ms of due time, the orders
     * due, how many were answered, and their median and maximum latency.
     */
    static void writeTimeline(final Path file, final Reports reports, final int rate) throws IOException
    {
        final int perBucket = Math.max(1, rate / 100);
        final StringBuilder out = new StringBuilder("due_ms,orders,answered,p50_us,max_us\n");
        final long[] bucket = new long[perBucket];
        for (int start = reports.measuredFrom; start < reports.latencyNs.length; start += perBucket)
        {
            final int end = Math.min(reports.latencyNs.length, start + perBucket);
            int answered = 0;
            for (int i = start; i < end; i++)
            {
                if (reports.latencyNs[i] != 0)
                {
                    bucket[answered++] = reports.latencyNs[i];
                }
            }
            Arrays.sort(bucket, 0, answered);
            out.append((start - reports.measuredFrom) / perBucket * 10).append(',').append(end - start).append(',')
                .append(answered)
                .append(',').append(answered == 0 ? 0 : bucket[answered / 2] / 1000)
                .append(',').append(answered == 0 ? 0 : bucket[answered - 1] / 1000).append('\n');
        }
        Files.writeString(file, out);
    }

    static void run(
        final Transport transport,
        final Reports reports,
        final List<DemoData.Account> users,
        final List<DemoData.Instrument> markets,
        final int rate,
        final boolean cross)
    {
        final int accounts = users.size();
        final int total = reports.dueNs.length;
        final long intervalNs = TimeUnit.SECONDS.toNanos(1) / rate;
        final long startNs = System.nanoTime();
        long nextProgressNs = startNs + TimeUnit.SECONDS.toNanos(1);
        int sent = 0;
        while (sent < total || (reports.count < total && System.nanoTime() - startNs <
            TimeUnit.SECONDS.toNanos(total / rate + 10L)))
        {
            final long now = System.nanoTime();
            boolean due = false;
            if (sent < total && now >= startNs + sent * intervalNs)
            {
                due = true;
                final DemoData.Instrument instrument = markets.get((sent >> 1) % markets.size());
                final DemoData.Account account;
                final boolean buy;
                final long price;
                final boolean ioc;
                if (cross)
                {
                    final int pair = sent >> 1;
                    final boolean taker = (sent & 1) == 1;
                    final boolean makerBuys = ((pair / accounts) & 1) == 0;
                    account = users.get((pair + (taker ? 1 : 0)) % accounts);
                    buy = taker != makerBuys;
                    price = instrument.referencePrice();
                    ioc = taker;
                }
                else
                {
                    account = users.get(sent % accounts);
                    buy = ((sent / accounts) & 1) == 0;
                    final long through = instrument.tick() * 20;
                    price = buy ? instrument.referencePrice() + through : instrument.referencePrice() - through;
                    ioc = true;
                }
                reports.dueNs[sent] = startNs + sent * intervalNs;
                if (transport.send(sent, account, instrument, buy, price, instrument.lot(), ioc))
                {
                    sent++;
                }
            }
            if (transport.poll() == 0 && !due)
            {
                // Nothing due and nothing heard: give the core back to the venue (2-core machines) without
                // sleeping past the next due time.
                Thread.yield();
            }
            if (now >= nextProgressNs)
            {
                nextProgressNs += TimeUnit.SECONDS.toNanos(1);
                System.out.printf("\r  sent %,d  answered %,d  p50 %s  p99 %s   ", sent, reports.count,
                    micros(reports.latency.getValueAtPercentile(50)),
                    micros(reports.latency.getValueAtPercentile(99)));
                System.out.flush();
            }
        }
        // The measured window starts when the first measured order was due.
        final double seconds = (System.nanoTime() - startNs - reports.measuredFrom * intervalNs) / 1e9;
        final long measuredSent = sent - reports.measuredFrom;
        final Histogram h = reports.latency;
        System.out.printf("%nsent %,d, answered %,d in %.2f s: %,.0f orders/s answered (warm-up of %,d orders not " +
            "counted)%n", measuredSent, reports.measured, seconds, reports.measured / seconds, reports.measuredFrom);
        System.out.printf("latency (due -> first report, coordinated-omission corrected): mean %s  p50 %s  p90 %s  " +
            "p99 %s  p99.9 %s  p99.99 %s  max %s%n", micros((long)h.getMean()),
            micros(h.getValueAtPercentile(50)), micros(h.getValueAtPercentile(90)),
            micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)),
            micros(h.getValueAtPercentile(99.99)), micros(h.getMaxValue()));
        System.out.printf("RESULT rate=%d sent=%d answered=%d rejects=%d seconds=%.2f answeredPerSec=%.0f " +
            "p50us=%.1f p90us=%.1f p99us=%.1f p999us=%.1f p9999us=%.1f maxus=%.1f%n", rate, measuredSent,
            reports.measured, reports.rejects, seconds, reports.measured / seconds, h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
            h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3);
    }

    private static String micros(final long nanos)
    {
        return String.format("%,.0fus", nanos / 1000.0);
    }
}
