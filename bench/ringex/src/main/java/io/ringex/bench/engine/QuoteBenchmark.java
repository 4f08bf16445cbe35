package io.ringex.bench.engine;

import io.ringex.client.CommandEncoder;
import io.ringex.client.QuoteEntries;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Market-maker quote updates through the business-logic processor alone, against the equivalent order flow: the same
 * updates as two ReplaceOrders, as MassQuotes of one entry and of ten, alternating round by round in one JVM
 * (docs/benchmarks-engine.md, "Market makers: quote updates against orders"). Events are only counted ({@link
 * TallyingEventSink}); a run fails if anything was refused or an order is missing.
 * <pre>
 * java ${ringex.jvm.flags} ${ringex.engine.jvm.flags} -Xms1g -Xmx1g -cp ... \
 *     io.ringex.bench.engine.QuoteBenchmark [--instruments 10] [--updates 500000] [--warmup 2] [--rounds 5] \
 *     [--batch 64] [--move-percent 25] [--seed 1]
 * </pre>
 */
public final class QuoteBenchmark
{
    private static final long MAKER = 1;
    private static final long BACKGROUND = 2;
    private static final long SESSION_ID = WorkloadEncoder.SESSION_ID;
    private static final long ADMIN = WorkloadEncoder.ADMIN_SOURCE_ID;
    private static final long TICK = 5;
    private static final long BID_LOW = 9_900;
    private static final long BID_HIGH = 9_990;
    private static final long ASK_LOW = 10_010;
    private static final long ASK_HIGH = 10_100;
    private static final long LEVEL_STEP = 10;
    private static final long SIZE_LOW = 50;
    private static final long SIZE_HIGH = 100;
    private static final long SIZE_CUT = 10;
    private static final long BACKGROUND_SIZE = 100;
    private static final int SETUP_BATCH = 1024;

    private static final int ORDERS = 0;
    private static final int QUOTES_1 = 1;
    private static final int QUOTES_10 = 2;
    private static final String[] NAMES = { "orders", "quotes-1", "quotes-10" };
    private static final int[] PER_MESSAGE = { 0, 1, 10 };

    private QuoteBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        final BenchArgs options = new BenchArgs(args);
        final int instruments = options.integer("--instruments", 10);
        final int updates = options.integer("--updates", 500_000) / QuoteEntries.MAX_ENTRIES *
            QuoteEntries.MAX_ENTRIES;
        final int warmup = options.integer("--warmup", 2);
        final int rounds = options.integer("--rounds", 5);
        final int batch = options.integer("--batch", 64);
        final int movePercent = options.integer("--move-percent", 25);
        final long seed = options.number("--seed", 1);
        if (instruments <= 0 || instruments % QuoteEntries.MAX_ENTRIES != 0 || updates <= 0)
        {
            throw new IllegalArgumentException("--instruments must be a multiple of " + QuoteEntries.MAX_ENTRIES +
                " and --updates at least that");
        }

        final Updates plan = Updates.generate(instruments, updates, movePercent, new Random(seed));
        final EncodedCommands setUp = encodeSetUp(instruments);
        final EncodedCommands[] opening = new EncodedCommands[NAMES.length];
        final EncodedCommands[] timed = new EncodedCommands[NAMES.length];
        for (int variant = 0; variant < NAMES.length; variant++)
        {
            opening[variant] = variant == ORDERS ? encodeOpeningOrders(plan) : encodeOpeningQuotes(plan);
            timed[variant] = variant == ORDERS ? encodeReplaces(plan) : encodeQuotes(plan, PER_MESSAGE[variant]);
        }
        final int restingOrders = (int)(instruments * 2 * backgroundLevels()) + 2 * instruments;
        System.out.printf(Locale.ROOT, "PLAN instruments=%d updates=%d movePercent=%d seed=%d batch=%d " +
            "sidesKeepingPriority=%d sidesLosingPriority=%d commands=orders:%d,quotes-1:%d,quotes-10:%d%n",
            instruments, updates, movePercent, seed, batch, plan.keptPriority, plan.lostPriority,
            timed[ORDERS].count(), timed[QUOTES_1].count(), timed[QUOTES_10].count());

        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        final double[][] perSecond = new double[NAMES.length][rounds];
        final double[][] perCpuSecond = new double[NAMES.length][rounds];
        for (int round = -warmup; round < rounds; round++)
        {
            final double loadBefore = os.getSystemLoadAverage();
            for (int i = 0; i < NAMES.length; i++)
            {
                // each round starts with the next variant, so none always runs first
                final int variant = Math.floorMod(round + i, NAMES.length);
                final double[] rate = run(variant, round, setUp, opening[variant], timed[variant], updates, batch,
                    restingOrders);
                if (round >= 0)
                {
                    perSecond[variant][round] = rate[0];
                    perCpuSecond[variant][round] = rate[1];
                }
            }
            System.out.printf(Locale.ROOT, "round=%d%s load1=%.2f..%.2f%n", round, round < 0 ? " (warm-up)" : "",
                loadBefore, os.getSystemLoadAverage());
        }

        for (int variant = 0; variant < NAMES.length; variant++)
        {
            System.out.printf(Locale.ROOT, "RESULT instruments=%d variant=%s updatesPerSec=%.0f perRound=%s " +
                "updatesPerCpuSec=%.0f perRound=%s%n", instruments, NAMES[variant], median(perSecond[variant]),
                rates(perSecond[variant]), median(perCpuSecond[variant]), rates(perCpuSecond[variant]));
        }
        for (final int variant : new int[] { QUOTES_1, QUOTES_10 })
        {
            final double[] ratios = new double[rounds];
            final double[] cpuRatios = new double[rounds];
            for (int round = 0; round < rounds; round++)
            {
                ratios[round] = perSecond[variant][round] / perSecond[ORDERS][round];
                cpuRatios[round] = perCpuSecond[variant][round] / perCpuSecond[ORDERS][round];
            }
            System.out.printf(Locale.ROOT, "RATIO instruments=%d %s/orders=%.2f perRound=%s cpu=%.2f perRound=%s%n",
                instruments, NAMES[variant], median(perSecond[variant]) / median(perSecond[ORDERS]),
                BlpBenchmark.perPass(ratios), median(perCpuSecond[variant]) / median(perCpuSecond[ORDERS]),
                BlpBenchmark.perPass(cpuRatios));
        }
    }

    private static double[] run(
        final int variant, final int round, final EncodedCommands setUp, final EncodedCommands opening,
        final EncodedCommands timed, final int updates, final int batch, final int restingOrders)
    {
        final EventTally tally = new EventTally();
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(
            new TallyingEventSink(1 << 16, tally), 1 << 16, Throwable::printStackTrace);
        long sequence = replay(processor, setUp, 0, SETUP_BATCH);
        sequence = replay(processor, opening, sequence, SETUP_BATCH);
        if (tally.rejects() != 0)
        {
            throw new IllegalStateException(NAMES[variant] + ": set-up refused: " + tally.rejectSummary());
        }
        tally.reset();
        System.gc();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long startCpu = threads.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        replay(processor, timed, sequence, batch);
        final long ns = System.nanoTime() - start;
        final long cpuNs = Math.max(1, threads.getCurrentThreadCpuTime() - startCpu);
        final double rate = updates * 1e9 / ns;
        final double cpuRate = updates * 1e9 / cpuNs;
        final int orders = processor.state().orders().size();
        System.out.printf(Locale.ROOT, "round=%d variant=%s updates=%d commands=%d ms=%.1f updatesPerSec=%.0f " +
            "updatesPerCpuSec=%.0f commandsPerSec=%.0f events=%d rejects=%d errors=%d restingOrders=%d%n", round,
            NAMES[variant], updates, timed.count(), ns / 1e6, rate, cpuRate, timed.count() * 1e9 / ns, tally.events(),
            tally.rejects(), processor.errorCount(), orders);
        if (tally.rejects() != 0 || processor.errorCount() != 0 || orders != restingOrders)
        {
            throw new IllegalStateException(NAMES[variant] + ": refused " + tally.rejectSummary() + ", errors " +
                processor.errorCount() + ", resting orders " + orders + " (expected " + restingOrders + ")");
        }
        return new double[] { rate, cpuRate };
    }

    private static long replay(
        final BusinessLogicProcessor processor, final EncodedCommands commands, final long firstSequence,
        final int batch)
    {
        final UnsafeBuffer buffer = commands.buffer();
        final int limit = commands.limit();
        long sequence = firstSequence;
        int inBatch = 0;
        for (int frame = 0; frame < limit; frame = commands.next(frame))
        {
            sequence++;
            processor.onCommand(sequence, sequence, commands.sourceId(frame), buffer,
                EncodedCommands.messageOffset(frame), commands.length(frame));
            if (++inBatch == batch)
            {
                processor.onEndOfBatch();
                inBatch = 0;
            }
        }
        processor.onEndOfBatch();
        return sequence;
    }

    private static EncodedCommands encodeSetUp(final int instruments)
    {
        final long levels = backgroundLevels();
        final EncodedCommands out = EncodedCommands.forCommands(instruments * (1 + 2 * levels) + 6);
        final CommandEncoder encoder = new CommandEncoder();
        long requestId = 0;
        for (int id = 1; id <= instruments; id++)
        {
            append(out, ADMIN, encoder, encoder.addInstrument(++requestId, id, "Q" + id, 2, TICK, 1, 10_000,
                PriceBandType.TICKS, 1000));
        }
        for (long account = MAKER; account <= BACKGROUND; account++)
        {
            append(out, ADMIN, encoder, encoder.addAccount(++requestId, account, SelfTradePrevention.CANCEL_NEWEST));
            append(out, ADMIN, encoder, encoder.setLimits(++requestId, account, 1_000_000_000L, Long.MAX_VALUE / 4,
                Long.MAX_VALUE / 8, 1_000_000_000L, 100_000, true, new int[0], new long[0]));
            append(out, ADMIN, encoder, encoder.adjustBalance(++requestId, account, 1_000_000_00000000L));
        }
        long clientId = 1_000_000_000L;
        for (int id = 1; id <= instruments; id++)
        {
            for (long level = 0; level < levels; level++)
            {
                append(out, SESSION_ID, encoder, encoder.newOrder(SESSION_ID, BACKGROUND, ++clientId, id, Side.BUY,
                    OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                    BID_LOW + level * LEVEL_STEP, BACKGROUND_SIZE));
                append(out, SESSION_ID, encoder, encoder.newOrder(SESSION_ID, BACKGROUND, ++clientId, id, Side.SELL,
                    OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                    ASK_LOW + level * LEVEL_STEP, BACKGROUND_SIZE));
            }
        }
        return out;
    }

    private static EncodedCommands encodeOpeningOrders(final Updates plan)
    {
        final EncodedCommands out = EncodedCommands.forCommands(2L * plan.instruments);
        final CommandEncoder encoder = new CommandEncoder();
        for (int id = 1; id <= plan.instruments; id++)
        {
            append(out, SESSION_ID, encoder, encoder.newOrder(SESSION_ID, MAKER, bidClientId(id), id, Side.BUY,
                OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, Updates.OPEN_BID,
                SIZE_HIGH));
            append(out, SESSION_ID, encoder, encoder.newOrder(SESSION_ID, MAKER, askClientId(id), id, Side.SELL,
                OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, Updates.OPEN_ASK,
                SIZE_HIGH));
        }
        return out;
    }

    private static EncodedCommands encodeOpeningQuotes(final Updates plan)
    {
        final EncodedCommands out = EncodedCommands.forCommands(plan.instruments);
        final CommandEncoder encoder = new CommandEncoder();
        final QuoteEntries entries = new QuoteEntries();
        for (int id = 1; id <= plan.instruments; id++)
        {
            entries.clear().add(0, 1, id, Updates.OPEN_BID, SIZE_HIGH, Updates.OPEN_ASK, SIZE_HIGH);
            append(out, SESSION_ID, encoder, encoder.massQuote(SESSION_ID, MAKER, id, SelfTradePrevention
                .ACCOUNT_DEFAULT, entries));
        }
        return out;
    }

    private static EncodedCommands encodeReplaces(final Updates plan)
    {
        final EncodedCommands out = EncodedCommands.forCommands(2L * plan.count);
        final CommandEncoder encoder = new CommandEncoder();
        final long[] bidIds = new long[plan.instruments + 1];
        final long[] askIds = new long[plan.instruments + 1];
        for (int id = 1; id <= plan.instruments; id++)
        {
            bidIds[id] = bidClientId(id);
            askIds[id] = askClientId(id);
        }
        long clientId = 2L * plan.instruments;
        for (int u = 0; u < plan.count; u++)
        {
            final int id = plan.instrument[u];
            append(out, SESSION_ID, encoder, encoder.replace(SESSION_ID, MAKER, ++clientId, bidIds[id], 0, id,
                plan.bidPrice[u], plan.bidSize[u]));
            bidIds[id] = clientId;
            append(out, SESSION_ID, encoder, encoder.replace(SESSION_ID, MAKER, ++clientId, askIds[id], 0, id,
                plan.askPrice[u], plan.askSize[u]));
            askIds[id] = clientId;
        }
        return out;
    }

    private static EncodedCommands encodeQuotes(final Updates plan, final int perMessage)
    {
        final int messages = plan.count / perMessage;
        // a MassQuote of 10 entries is 469 bytes: a frame of up to 512
        final EncodedCommands out = perMessage == 1 ? EncodedCommands.forCommands(messages) :
            EncodedCommands.withCapacity(messages * 512L);
        final CommandEncoder encoder = new CommandEncoder();
        final QuoteEntries entries = new QuoteEntries();
        for (int m = 0; m < messages; m++)
        {
            entries.clear();
            for (int u = m * perMessage; u < (m + 1) * perMessage; u++)
            {
                entries.add(u + 1, 1, plan.instrument[u], plan.bidPrice[u], plan.bidSize[u], plan.askPrice[u],
                    plan.askSize[u]);
            }
            append(out, SESSION_ID, encoder, encoder.massQuote(SESSION_ID, MAKER, plan.instruments + m + 1L,
                SelfTradePrevention.ACCOUNT_DEFAULT, entries));
        }
        return out;
    }

    private static long backgroundLevels()
    {
        return (BID_HIGH - BID_LOW) / LEVEL_STEP + 1;
    }

    private static long bidClientId(final int instrumentId)
    {
        return 2L * instrumentId - 1;
    }

    private static long askClientId(final int instrumentId)
    {
        return 2L * instrumentId;
    }

    private static void append(
        final EncodedCommands out, final long sourceId, final CommandEncoder encoder, final int length)
    {
        final int templateId = encoder.buffer().getShort(MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        out.append(sourceId, templateId, encoder.buffer(), 0, length);
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String rates(final double[] values)
    {
        final StringBuilder out = new StringBuilder();
        for (final double v : values)
        {
            out.append(out.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return out.toString();
    }

    /**
     * The maker's quote updates, the same for every variant: update {@code u} sets instrument
     * {@code u % instruments + 1} to its bid and ask price and size.
     */
    static final class Updates
    {
        static final long OPEN_BID = 9_950;
        static final long OPEN_ASK = 10_050;

        final int instruments;
        final int count;
        final int[] instrument;
        final long[] bidPrice;
        final long[] bidSize;
        final long[] askPrice;
        final long[] askSize;
        long keptPriority;
        long lostPriority;

        private Updates(final int instruments, final int count)
        {
            this.instruments = instruments;
            this.count = count;
            instrument = new int[count];
            bidPrice = new long[count];
            bidSize = new long[count];
            askPrice = new long[count];
            askSize = new long[count];
        }

        static Updates generate(final int instruments, final int count, final int movePercent, final Random random)
        {
            final Updates plan = new Updates(instruments, count);
            final long[][] bids = new long[instruments + 1][];
            final long[][] asks = new long[instruments + 1][];
            for (int id = 1; id <= instruments; id++)
            {
                bids[id] = new long[] { OPEN_BID, SIZE_HIGH };
                asks[id] = new long[] { OPEN_ASK, SIZE_HIGH };
            }
            for (int u = 0; u < count; u++)
            {
                final int id = u % instruments + 1;
                plan.instrument[u] = id;
                plan.next(bids[id], BID_LOW, BID_HIGH, movePercent, random);
                plan.bidPrice[u] = bids[id][0];
                plan.bidSize[u] = bids[id][1];
                plan.next(asks[id], ASK_LOW, ASK_HIGH, movePercent, random);
                plan.askPrice[u] = asks[id][0];
                plan.askSize[u] = asks[id][1];
            }
            return plan;
        }

        /** One side's next price and size, {@code priceAndSize} updated in place. */
        private void next(
            final long[] priceAndSize, final long low, final long high, final int movePercent, final Random random)
        {
            if (random.nextInt(100) < movePercent)
            {
                final long delta = TICK * (1 + random.nextInt(3)) * (random.nextBoolean() ? 1 : -1);
                final long price = priceAndSize[0] + delta;
                priceAndSize[0] = price < low || price > high ? priceAndSize[0] - delta : price;
                priceAndSize[1] = SIZE_LOW + SIZE_CUT * random.nextInt((int)((SIZE_HIGH - SIZE_LOW) / SIZE_CUT) + 1);
                lostPriority++;
            }
            else if (priceAndSize[1] - SIZE_CUT >= SIZE_LOW)
            {
                priceAndSize[1] -= SIZE_CUT;
                keptPriority++;
            }
            else
            {
                priceAndSize[1] = SIZE_HIGH;
                lostPriority++;
            }
        }
    }
}
