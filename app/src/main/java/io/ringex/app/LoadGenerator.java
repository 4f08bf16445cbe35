package io.ringex.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.ringex.app.admin.ReferenceDataException;
import io.ringex.client.QuoteEntries;
import io.ringex.common.config.CommandLineOptions;
import org.HdrHistogram.Histogram;

/**
 * The load generator: {@code ./ringex loadgen} against a running venue, over SBE, FIX, REST or REST with the user
 * stream (docs/operations.md, "All-in-one and load generator options"). {@code --orders} picks the flow: {@code cross}
 * (pairs that trade, the default), {@code ioc} or {@code quotes} (SBE mass quotes).
 * <p>
 * Open loop: order i is due at {@code start + i / rate}, whether or not earlier ones were answered, and its latency is
 * measured from when it was DUE to its first report, so a stall counts against every order it delays (coordinated
 * omission corrected).
 * <p>
 * It prints a progress line each second, the percentiles at the end, and one {@code RESULT} line of key=value pairs for
 * scripts. An option it does not take, or a value that does not parse, stops it with exit status 2 naming the option.
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

        /**
         * Send one mass quote of the account: a two-sided quote in each instrument; its MassQuoteAck must be handed to
         * {@link Reports#onFirstReport(long, long)}.
         *
         * @param id          the quote's number in the run.
         * @param account     a market maker's account.
         * @param instruments the instruments quoted.
         * @return false if it could not be sent now (back-pressure): the caller retries.
         */
        default boolean sendQuote(long id, DemoData.Account account, List<DemoData.Instrument> instruments)
        {
            throw new UnsupportedOperationException("mass quotes");
        }

        /** Poll for reports. */
        int poll();

        @Override
        void close();
    }

    /** Collects first-report times; single-threaded with the generator. */
    static final class Reports
    {
        final long[] dueNs;
        /** Due -> first report per order; 0 while unanswered, {@link #REJECTED} if refused before the engine. */
        final long[] latencyNs;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        /**
         * Due -> the request's own answer, for a transport whose first report comes another way (REST answers while
         * the first reports are timed on the user stream): the two of the same orders, side by side.
         */
        final Histogram answerLatency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        /** Orders below this id are the warm-up: answered, counted, not measured. */
        final int measuredFrom;
        long count;
        long measured;
        /** Orders refused before they reached the engine (BusinessReject), THROTTLED among them. */
        long rejects;
        /** Orders the gateway refused THROTTLED: the session sent faster than its throttle. */
        long throttled;
        /** Mass quote entries the engine refused (answered, measured: the quote was acknowledged). */
        long quoteEntriesRejected;
        /** Why the first of them was refused. */
        String firstQuoteEntryRejectReason;

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

        /**
         * A measured order's request answered (when its first report is timed another way; see
         * {@link #answerLatency}).
         *
         * @param id    the order's id.
         * @param nowNs when the answer was read.
         */
        void onAnswer(final long id, final long nowNs)
        {
            final int i = (int)id;
            if (i >= measuredFrom && i < dueNs.length && dueNs[i] != 0)
            {
                answerLatency.recordValue(Math.min(answerLatency.getHighestTrackableValue(),
                    Math.max(1, nowNs - dueNs[i])));
            }
        }

        /**
         * An order the venue refused before it reached the engine: answered (the run does not wait for it), counted,
         * and kept out of the latency figures, which are of orders the engine processed.
         *
         * @param id        the order's id, or -1 when the reject does not name one.
         * @param throttled whether the reason is THROTTLED.
         */
        void onReject(final long id, final boolean throttled)
        {
            final int i = (int)id;
            if (id >= 0 && i < latencyNs.length && latencyNs[i] == 0 && dueNs[i] != 0)
            {
                // A sentinel rather than a latency: the timeline and the histogram leave it out.
                latencyNs[i] = REJECTED;
                count++;
                if (i >= measuredFrom)
                {
                    rejects++;
                    if (throttled)
                    {
                        this.throttled++;
                    }
                }
            }
        }
    }

    /** {@link Reports#latencyNs} of an order refused before the engine. */
    static final long REJECTED = -1;

    private LoadGenerator()
    {
    }

    /**
     * The command line, read strictly ({@link CommandLineOptions}): an option it does not take, one without its value,
     * one given twice and a value that does not parse or is out of range stop it naming the option.
     *
     * @param transport   sbe, fix, rest or rest-ws.
     * @param orders      cross or ioc.
     * @param rate        orders per second.
     * @param durationS   measured seconds.
     * @param warmupS     seconds of warm-up before.
     * @param instruments how many of the demo's instruments.
     * @param accounts    how many of the demo's accounts.
     * @param host        the venue's host.
     * @param sbePort     its SBE port.
     * @param fixPort     its FIX port.
     * @param webPort     its REST port.
     * @param apiKeys     the API keys file (REST), or null.
     * @param timeline    where to write the latency timeline, or null.
     */
    record Options(String transport, String orders, int rate, int durationS, int warmupS, int instruments,
        int accounts, String host, int sbePort, int fixPort, int webPort, String apiKeys, String timeline,
        DemoData.Venue venue)
    {
        static final Set<String> WITH_VALUES = Set.of("--transport", "--rate", "--duration", "--warmup",
            "--instruments", "--accounts", "--orders", "--host", "--sbe-port", "--fix-port", "--web-port", "--api-keys",
            "--timeline", "--reference-data");

        /**
         * @param args the command line.
         * @return the options.
         * @throws CommandLineOptions.UsageException naming the option that is wrong.
         */
        static Options parse(final String[] args)
        {
            final CommandLineOptions options = CommandLineOptions.parse("loadgen", Arrays.asList(args), WITH_VALUES,
                Set.of());
            options.requirePositionals(0, "only options");
            final Options parsed = new Options(
                oneOf(options, "--transport", "sbe", "sbe", "fix", "rest", "rest-ws"),
                oneOf(options, "--orders", "cross", "cross", "ioc", "quotes"),
                options.intValue("--rate", 2_000, 1),
                options.intValue("--duration", 10, 1),
                options.intValue("--warmup", 0, 0),
                options.intValue("--instruments", 1, 1),
                options.intValue("--accounts", 2, 1),
                options.string("--host", "localhost"),
                port(options, "--sbe-port", 40200),
                port(options, "--fix-port", 9880),
                port(options, "--web-port", 8480),
                options.string("--api-keys", null),
                options.string("--timeline", null),
                venue(options.string("--reference-data", null)));
            if (parsed.instruments > parsed.venue.instruments().size())
            {
                throw new CommandLineOptions.UsageException("--instruments: the venue has " +
                    parsed.venue.instruments().size() + " (was '" + parsed.instruments + "')");
            }
            if (parsed.accounts > parsed.venue.accounts().size())
            {
                throw new CommandLineOptions.UsageException("--accounts: the venue has " +
                    parsed.venue.accounts().size() + " demo accounts (was '" + parsed.accounts + "')");
            }
            if (parsed.orders.equals("cross") && parsed.accounts < 2)
            {
                throw new CommandLineOptions.UsageException("--orders cross needs --accounts 2 or more");
            }
            if (parsed.transport.startsWith("rest") != (null != parsed.apiKeys))
            {
                throw new CommandLineOptions.UsageException("--api-keys: " + (null == parsed.apiKeys ?
                    "required with --transport rest and rest-ws (the users' API keys file)" :
                    "only with --transport rest and rest-ws"));
            }
            if (parsed.orders.equals("quotes") && !parsed.transport.equals("sbe"))
            {
                throw new CommandLineOptions.UsageException("--orders quotes needs --transport sbe");
            }
            if (parsed.orders.equals("quotes") && parsed.instruments > QuoteEntries.MAX_ENTRIES)
            {
                throw new CommandLineOptions.UsageException("--instruments: a mass quote holds at most " +
                    QuoteEntries.MAX_ENTRIES + " (was '" + parsed.instruments + "')");
            }
            return parsed;
        }

        /** The users this run logs on as: the market makers for quotes, else traders first, then market makers. */
        List<DemoData.Account> users()
        {
            final boolean quotes = orders.equals("quotes");
            final List<DemoData.Account> users = new ArrayList<>();
            for (final boolean makers : quotes ? new boolean[]{ true } : new boolean[]{ false, true })
            {
                for (final DemoData.Account account : venue.accounts())
                {
                    if (account.role().equals("market maker") == makers && users.size() < accounts)
                    {
                        users.add(account);
                    }
                }
            }
            if (users.isEmpty())
            {
                throw new CommandLineOptions.UsageException("--orders quotes: the venue has no market makers");
            }
            return users;
        }

        private static DemoData.Venue venue(final String file)
        {
            if (null == file)
            {
                return DemoData.Venue.DEMO;
            }
            try
            {
                return DemoData.read(Path.of(file));
            }
            catch (final ReferenceDataException ex)
            {
                throw new CommandLineOptions.UsageException("--reference-data: " + ex.getMessage());
            }
        }

        private static String oneOf(final CommandLineOptions options, final String option, final String defaultValue,
            final String... allowed)
        {
            final String value = options.string(option, defaultValue);
            if (!Arrays.asList(allowed).contains(value))
            {
                throw new CommandLineOptions.UsageException(option + ": must be " + String.join(" or ", allowed) +
                    " (was '" + value + "')");
            }
            return value;
        }

        private static int port(final CommandLineOptions options, final String option, final int defaultValue)
        {
            final int port = options.intValue(option, defaultValue, 1);
            if (port > 65535)
            {
                throw new CommandLineOptions.UsageException(option + ": must be a port, 1..65535 (was '" + port +
                    "')");
            }
            return port;
        }
    }

    private static Transport transport(final Options options, final Reports reports)
    {
        return switch (options.transport())
        {
            case "fix" -> new FixLoadTransport(options.host(), options.fixPort(), reports);
            case "rest", "rest-ws" -> new RestLoadTransport(options.host(), options.webPort(),
                Path.of(options.apiKeys()), reports, options.transport().equals("rest-ws"));
            default -> new SbeLoadTransport(options.host(), options.sbePort(), reports);
        };
    }

    /**
     * @param args options as in the class comment.
     * @throws Exception on set-up failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final Options options;
        try
        {
            options = Options.parse(args);
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            System.err.println("ringex loadgen: " + ex.getMessage());
            System.err.println("usage: ringex loadgen [--transport sbe|fix|rest|rest-ws] [--rate N] [--duration S] " +
                "[--warmup S] [--instruments K] [--accounts A] [--orders cross|ioc|quotes] [--host H] [--sbe-port P] " +
                "[--fix-port P] [--web-port P --api-keys FILE] [--timeline FILE] [--reference-data FILE]");
            System.exit(2);
            return;
        }
        final List<DemoData.Account> users;
        try
        {
            users = options.users();
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            System.err.println("ringex loadgen: " + ex.getMessage());
            System.exit(2);
            return;
        }
        final int rate = options.rate();
        final List<DemoData.Instrument> markets = options.venue().instruments().subList(0, options.instruments());
        final int warmup = (int)Math.min(Integer.MAX_VALUE / 2, (long)rate * options.warmupS());
        final int total = (int)Math.min(Integer.MAX_VALUE / 2, (long)rate * options.durationS());
        final Reports reports = new Reports(warmup, total);

        try (Transport transport = transport(options, reports))
        {
            transport.connect(users);
            System.out.printf("loadgen: %s, %,d orders/s for %d s (after %d s of warm-up) over %d instrument(s) " +
                "and %d account(s), %s%n", options.transport(), rate, options.durationS(), options.warmupS(),
                markets.size(), users.size(), options.orders());
            run(transport, reports, users, markets, rate, options.orders());
        }
        if (options.timeline() != null)
        {
            writeTimeline(Path.of(options.timeline()), reports, rate);
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
                if (reports.latencyNs[i] > 0)
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
        final String orders)
    {
        final boolean cross = orders.equals("cross");
        final boolean quotes = orders.equals("quotes");
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
                reports.dueNs[sent] = startNs + sent * intervalNs;
                final boolean accepted = quotes ? transport.sendQuote(sent, users.get(sent % accounts), markets) :
                    sendOrder(transport, sent, users, markets, cross);
                if (accepted)
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
                System.out.printf("\r  sent %,d  answered %,d  p50 %s  p99 %s%s   ", sent, reports.count,
                    micros(reports.latency.getValueAtPercentile(50)),
                    micros(reports.latency.getValueAtPercentile(99)),
                    reports.throttled == 0 ? "" : String.format("  THROTTLED %,d", reports.throttled));
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
        final String throttleWarning = throttleWarning(measuredSent, reports.throttled, rate, accounts);
        if (throttleWarning != null)
        {
            System.out.println(throttleWarning);
        }
        else if (reports.rejects > 0)
        {
            System.out.printf("%,d orders were refused before the engine (BusinessReject); their latency is not in " +
                "the figures above%n", reports.rejects);
        }
        if (reports.quoteEntriesRejected > 0)
        {
            System.out.printf("%,d quote entries were refused by the engine (the first: %s)%n",
                reports.quoteEntriesRejected, reports.firstQuoteEntryRejectReason);
        }
        System.out.printf("RESULT rate=%d sent=%d answered=%d rejects=%d throttled=%d seconds=%.2f " +
            "answeredPerSec=%.0f p50us=%.1f p90us=%.1f p99us=%.1f p999us=%.1f p9999us=%.1f maxus=%.1f%n", rate,
            measuredSent, reports.measured, reports.rejects, reports.throttled, seconds, reports.measured / seconds,
            h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
            h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3);
        final Histogram answers = reports.answerLatency;
        if (answers.getTotalCount() > 0)
        {
            System.out.printf("RESULT answerP50us=%.1f answerP90us=%.1f answerP99us=%.1f answerP999us=%.1f%n",
                answers.getValueAtPercentile(50) / 1e3, answers.getValueAtPercentile(90) / 1e3,
                answers.getValueAtPercentile(99) / 1e3, answers.getValueAtPercentile(99.9) / 1e3);
        }
    }

    /** Order {@code sent} of a {@code cross} or {@code ioc} run. */
    private static boolean sendOrder(
        final Transport transport,
        final int sent,
        final List<DemoData.Account> users,
        final List<DemoData.Instrument> markets,
        final boolean cross)
    {
        final int accounts = users.size();
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
        return transport.send(sent, account, instrument, buy, price, instrument.lot(), ioc);
    }

    /**
     * What to tell the user when the venue's gateway throttled the run: how many, why, and how to raise the
     * throttle for a load test.
     *
     * @param sent      measured orders sent.
     * @param throttled of them refused THROTTLED.
     * @param rate      orders per second offered.
     * @param sessions  client sessions the orders went over.
     * @return the message, or null when nothing was throttled.
     */
    static String throttleWarning(final long sent, final long throttled, final int rate, final int sessions)
    {
        if (throttled == 0)
        {
            return null;
        }
        final long perSession = (rate + sessions - 1) / sessions;
        final long suggested = Math.max(perSession * 2, 10_000);
        return String.format(
            "THROTTLED: the venue refused %,d of the %,d orders sent (%.0f%%) with BusinessReject THROTTLED, and the " +
            "figures above leave them out.%n" +
            "  The gateway lets each session send at most its throttle (order-entry messages per second, token " +
            "bucket): the user's own throttle, or%n" +
            "  the gateway's ringex.gateway.throttle.messages.per.second (1000 unless set) and " +
            "ringex.gateway.throttle.burst. This run offered%n" +
            "  %,d orders/s over %d session(s), about %,d/s per session. For a load test, start the venue with a " +
            "higher throttle, e.g.%n" +
            "    ./ringex demo --ringex.gateway.throttle.messages.per.second=%d%n" +
            "  (or -Dringex.gateway.throttle.messages.per.second=%d in RINGEX_JAVA_OPTS; a user given a throttle of " +
            "its own with `ringex admin user` keeps it).",
            throttled, sent, 100.0 * throttled / Math.max(1, sent), rate, sessions, perSession, suggested, suggested);
    }

    private static String micros(final long nanos)
    {
        return String.format("%,.0fus", nanos / 1000.0);
    }
}
