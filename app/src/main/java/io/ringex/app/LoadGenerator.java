package io.ringex.app;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The load generator: {@code ./ringex loadgen [--transport sbe|fix] [--rate N] [--duration S] [--instruments K]
 * [--accounts A] [--host H] [--sbe-port P] [--fix-port P]} against a running venue (the all-in-one's demo users).
 * <p>
 * Open loop: order i is due at {@code start + i / rate}, whether or not earlier ones were answered, and its latency
 * is measured from when it was DUE to its first report, so a stall counts against every order it delays
 * (coordinated omission corrected). Orders are IOC limits a little through the reference price, alternating sides,
 * so each is answered by a fill or a cancel and the books do not grow. Prints a progress line each second and the
 * throughput and latency percentiles at the end.
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
            long quantity);

        /** Poll for reports. */
        int poll();

        @Override
        void close();
    }

    /** Collects first-report times; single-threaded with the generator. */
    static final class Reports
    {
        final long[] dueNs;
        final boolean[] answered;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long count;
        long rejects;

        Reports(final int capacity)
        {
            dueNs = new long[capacity];
            answered = new boolean[capacity];
        }

        void onFirstReport(final long id, final long nowNs)
        {
            final int i = (int)id;
            if (i >= 0 && i < answered.length && !answered[i])
            {
                answered[i] = true;
                count++;
                latency.recordValue(Math.max(1, nowNs - dueNs[i]));
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
        int rate = 2_000;
        int durationS = 10;
        int instruments = 1;
        int accounts = 2;
        String host = "localhost";
        int sbePort = 40200;
        int fixPort = 9880;
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--transport" -> transportName = args[i + 1];
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--duration" -> durationS = Integer.parseInt(args[i + 1]);
                case "--instruments" -> instruments = Integer.parseInt(args[i + 1]);
                case "--accounts" -> accounts = Integer.parseInt(args[i + 1]);
                case "--host" -> host = args[i + 1];
                case "--sbe-port" -> sbePort = Integer.parseInt(args[i + 1]);
                case "--fix-port" -> fixPort = Integer.parseInt(args[i + 1]);
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
        final List<DemoData.Instrument> markets = DemoData.INSTRUMENTS.subList(0,
            Math.min(instruments, DemoData.INSTRUMENTS.size()));
        final int total = (int)Math.min(Integer.MAX_VALUE - 8, (long)rate * durationS);
        final Reports reports = new Reports(total);

        try (Transport transport = transportName.equals("fix") ?
            new FixLoadTransport(host, fixPort, reports) : new SbeLoadTransport(host, sbePort, reports))
        {
            transport.connect(users);
            System.out.printf("loadgen: %s, %,d orders/s for %d s over %d instrument(s) and %d account(s)%n",
                transportName, rate, durationS, markets.size(), users.size());
            run(transport, reports, users, markets, rate, total);
        }
    }

    static void run(
        final Transport transport,
        final Reports reports,
        final List<DemoData.Account> users,
        final List<DemoData.Instrument> markets,
        final int rate,
        final int total)
    {
        final long intervalNs = TimeUnit.SECONDS.toNanos(1) / rate;
        final long startNs = System.nanoTime();
        long nextProgressNs = startNs + TimeUnit.SECONDS.toNanos(1);
        int sent = 0;
        while (sent < total || (reports.count < total && System.nanoTime() - startNs <
            TimeUnit.SECONDS.toNanos(total / rate + 10L)))
        {
            final long now = System.nanoTime();
            if (sent < total && now >= startNs + sent * intervalNs)
            {
                final DemoData.Account account = users.get(sent % users.size());
                final DemoData.Instrument instrument = markets.get(sent % markets.size());
                final boolean buy = (sent & 1) == 0;
                final long through = instrument.tick() * 20;
                final long price = buy ? instrument.referencePrice() + through : instrument.referencePrice() - through;
                reports.dueNs[sent] = startNs + sent * intervalNs;
                if (transport.send(sent, account, instrument, buy, price, instrument.lot()))
                {
                    sent++;
                }
            }
            if (transport.poll() == 0 && sent >= total)
            {
                Thread.onSpinWait();
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
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        final Histogram h = reports.latency;
        System.out.printf("%nsent %,d, answered %,d in %.2f s: %,.0f orders/s answered%n", sent, reports.count,
            seconds, reports.count / seconds);
        System.out.printf("latency (due -> first report, coordinated-omission corrected): mean %s  p50 %s  p90 %s  " +
            "p99 %s  p99.9 %s  p99.99 %s  max %s%n", micros((long)h.getMean()),
            micros(h.getValueAtPercentile(50)), micros(h.getValueAtPercentile(90)),
            micros(h.getValueAtPercentile(99)), micros(h.getValueAtPercentile(99.9)),
            micros(h.getValueAtPercentile(99.99)), micros(h.getMaxValue()));
    }

    private static String micros(final long nanos)
    {
        return String.format("%,.0fus", nanos / 1000.0);
    }
}
