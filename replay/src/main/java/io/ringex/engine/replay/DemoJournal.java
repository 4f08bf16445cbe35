package io.ringex.engine.replay;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalWriter;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.file.Path;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * Writes the journal the demo venue would write, without a venue or a clock: the demo's instruments and accounts
 * (the admin commands the all-in-one venue sends on its first start), the sessions' logons, and the demo flow (two
 * market makers who cancel and requote three levels a side every 400 ms of simulated time, two takers who cross them
 * with IOC orders every 0.7 to 1.4 s) with, now and then, a taker's resting order that is replaced and later
 * cancelled, an end of day at each midnight, and the Ticks the node journals when a deadline falls due. Everything is
 * a function of the seed and the start time, so the same arguments always write the same journal, files included
 * (the Chronicle file names are the simulated days). With a snapshot directory it also writes the node's snapshots
 * every so many commands.
 * <p>
 * It serves as the reference journal of the shadow-replay check, the source of the benchmark's 10M-command journals
 * and a journal to try the replay tools on ({@code ./ringex journal synth}).
 * <p>
 * Threading: one thread.
 */
public final class DemoJournal
{
    /** The demo's start of trading: Monday 5 January 2026, 08:00 UTC. */
    public static final long DEFAULT_START_NS = Instant.parse("2026-01-05T08:00:00Z").getEpochSecond() * 1_000_000_000L;
    /** The admin source: gateway 0, session 1. */
    public static final long ADMIN_SOURCE = 1;

    private static final long NS_PER_MS = 1_000_000L;
    private static final long DAY_NS = 86_400_000_000_000L;
    private static final long QUOTE_INTERVAL_NS = 400 * NS_PER_MS;
    private static final long TAKE_INTERVAL_NS = 700 * NS_PER_MS;
    private static final int LEVELS = 3;
    private static final int[] INSTRUMENT_IDS = { 1, 2, 3 };
    private static final String[] SYMBOLS = { "RGX-USD", "LMX-USD", "EUR-USD" };
    private static final int[] SCALES = { 2, 2, 4 };
    private static final long[] TICKS = { 1, 5, 1 };
    private static final long[] LOTS = { 1, 10, 1_000 };
    private static final long[] REFERENCES = { 10_000, 5_000, 11_650 };
    private static final long[] BANDS_BPS = { 1_000, 1_000, 200 };
    private static final long[] ACCOUNTS = { 1001, 1002, 1003, 1004, 1005 };
    private static final long[] DEPOSITS = { 5_000_000, 5_000_000, 1_000_000, 1_000_000, 1_000_000 };

    /** Sees each command as the venue applied it (a test's view of the live venue). */
    @FunctionalInterface
    public interface Observer
    {
        /**
         * @param sequence    the command's sequence.
         * @param timestampNs its time.
         * @param events      the events the live processor wrote for it (valid during the call).
         * @param processor   the live processor, after the command.
         */
        void onCommand(long sequence, long timestampNs, EventLog events, BusinessLogicProcessor processor);
    }

    /** What was written. */
    public record Summary(long commands, long firstTimestampNs, long lastTimestampNs, long stateHash, int snapshots)
    {
    }

    private final CommandEncoder encoder = new CommandEncoder();
    private final SplittableRandom random;
    private final JournalWriter writer;
    private final EventLog events = new EventLog();
    private final BusinessLogicProcessor processor = new BusinessLogicProcessor(events, 1 << 16, null);
    private final Observer observer;
    private final SnapshotStore snapshots;
    private final long snapshotEvery;
    private final long[] reference = REFERENCES.clone();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ExpandableArrayBuffer snapshotBuffer = new ExpandableArrayBuffer(1 << 16);
    private long sequence;
    private long nowNs;
    private long lastTimeNs;
    private long requestId = 1;
    private long clientOrderId = 1;
    private long restingClientOrderId;
    private long restingAccount;
    private int restingInstrument;
    private int restingAge;
    private int snapshotCount;

    private DemoJournal(
        final JournalWriter writer,
        final SnapshotStore snapshots,
        final long snapshotEvery,
        final long seed,
        final Observer observer)
    {
        this.observer = observer;
        this.writer = writer;
        this.snapshots = snapshots;
        this.snapshotEvery = snapshotEvery;
        this.random = new SplittableRandom(seed);
    }

    /**
     * Write a demo journal into an empty directory.
     *
     * @param journalDirectory  where; must hold no journal yet.
     * @param snapshotDirectory where to write snapshots, or null for none.
     * @param commands          how many commands (at least the static data's 21).
     * @param snapshotEvery     commands between snapshots (ignored without a snapshot directory).
     * @param seed              the flow's random seed.
     * @param startNs           the first command's time.
     * @return what was written.
     */
    public static Summary write(
        final Path journalDirectory,
        final Path snapshotDirectory,
        final long commands,
        final long snapshotEvery,
        final long seed,
        final long startNs)
    {
        return write(journalDirectory, snapshotDirectory, commands, snapshotEvery, seed, startNs, null);
    }

    /**
     * Write a demo journal into an empty directory, showing each command to an observer.
     *
     * @param journalDirectory  where; must hold no journal yet.
     * @param snapshotDirectory where to write snapshots, or null for none.
     * @param commands          how many commands (at least the static data's 21).
     * @param snapshotEvery     commands between snapshots (ignored without a snapshot directory).
     * @param seed              the flow's random seed.
     * @param startNs           the first command's time.
     * @param observer          sees each command with its events, or null.
     * @return what was written.
     */
    public static Summary write(
        final Path journalDirectory,
        final Path snapshotDirectory,
        final long commands,
        final long snapshotEvery,
        final long seed,
        final long startNs,
        final Observer observer)
    {
        final long[] clock = { startNs };
        try (Journal journal = Journal.open(journalDirectory, Journal.Durability.PROCESS,
            () -> clock[0] / NS_PER_MS))
        {
            final DemoJournal demo = new DemoJournal(journal.newWriter(0),
                snapshotDirectory == null ? null : new SnapshotStore(snapshotDirectory), snapshotEvery, seed, observer);
            demo.nowNs = startNs;
            return demo.run(commands, clock);
        }
    }

    private Summary run(final long commands, final long[] clock)
    {
        final long firstNs = nowNs;
        staticData();
        long nextQuoteNs = nowNs;
        long nextTakeNs = nowNs + TAKE_INTERVAL_NS;
        long nextDayNs = (nowNs / DAY_NS + 1) * DAY_NS;
        while (sequence < commands)
        {
            final long next = Math.min(nextQuoteNs, Math.min(nextTakeNs, nextDayNs));
            nowNs = Math.max(nowNs + 1000, next);
            clock[0] = nowNs;
            if (next == nextDayNs)
            {
                admin(encoder.reason("the demo's end of day").endOfDay(requestId++));
                nextDayNs += DAY_NS;
            }
            else if (next == nextQuoteNs)
            {
                quote(commands);
                nextQuoteNs = next + QUOTE_INTERVAL_NS;
            }
            else
            {
                take(commands);
                nextTakeNs = next + TAKE_INTERVAL_NS + random.nextLong(TAKE_INTERVAL_NS);
            }
        }
        writer.endOfBatch();
        processor.onEndOfBatch();
        return new Summary(sequence, firstNs, nowNs, processor.stateHash(), snapshotCount);
    }

    private void staticData()
    {
        // Since schema version 4 these changes name their operator (the encoder's, "ringex") and reason.
        encoder.reason("the demo venue's reference data");
        for (int i = 0; i < INSTRUMENT_IDS.length; i++)
        {
            admin(encoder.addInstrument(requestId++, INSTRUMENT_IDS[i], SYMBOLS[i], SCALES[i], TICKS[i], LOTS[i],
                REFERENCES[i], PriceBandType.BASIS_POINTS, BANDS_BPS[i]));
        }
        for (int a = 0; a < ACCOUNTS.length; a++)
        {
            final long deposit = DEPOSITS[a] * FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
            admin(encoder.addAccount(requestId++, ACCOUNTS[a], SelfTradePrevention.CANCEL_NEWEST));
            admin(encoder.setLimits(requestId++, ACCOUNTS[a], 100_000, deposit / 2, deposit / 10, 200_000, 500,
                true, new int[0], new long[0]));
            admin(encoder.adjustBalance(requestId++, ACCOUNTS[a], deposit));
        }
        for (int a = 0; a < ACCOUNTS.length; a++)
        {
            send(session(a), encoder.sessionStatus(session(a), ACCOUNTS[a], true));
        }
    }

    /** Gateway 1, one session per account, as the gateway numbers them. */
    private static long session(final int accountIndex)
    {
        return (1L << 32) | (accountIndex + 1);
    }

    private void quote(final long commands)
    {
        for (int i = 0; i < INSTRUMENT_IDS.length && sequence < commands; i++)
        {
            final long base = REFERENCES[i];
            final long maxMove = base / 20;
            final long drift = (random.nextInt(3) - 1) * TICKS[i] * (1 + random.nextInt(3));
            reference[i] = Math.max(base - maxMove, Math.min(base + maxMove, reference[i] + drift));
            final long mid = reference[i] - reference[i] % TICKS[i];
            final int maker = random.nextInt(2);
            final long session = session(maker);
            send(session, encoder.massCancel(session, ACCOUNTS[maker], clientOrderId++, MassCancelScope.INSTRUMENT,
                INSTRUMENT_IDS[i], false));
            for (int level = 1; level <= LEVELS && sequence < commands; level++)
            {
                final long offset = TICKS[i] * (2L * level + random.nextInt(2));
                final long size = LOTS[i] * (1 + random.nextInt(20)) * level;
                send(session, encoder.newOrder(session, ACCOUNTS[maker], clientOrderId++, INSTRUMENT_IDS[i],
                    Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                    mid - offset, size));
                if (sequence < commands)
                {
                    send(session, encoder.newOrder(session, ACCOUNTS[maker], clientOrderId++, INSTRUMENT_IDS[i],
                        Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
                        mid + offset, size));
                }
            }
        }
    }

    private void take(final long commands)
    {
        final int i = random.nextInt(INSTRUMENT_IDS.length);
        final int taker = 2 + random.nextInt(2);
        final long session = session(taker);
        final boolean buy = random.nextBoolean();
        if (restingClientOrderId != 0 && ++restingAge >= 3)
        {
            // the taker's resting order: replaced once, then cancelled
            final int r = restingInstrument;
            final int restingTaker = restingAccount == ACCOUNTS[2] ? 2 : 3;
            final long restingSession = session(restingTaker);
            if (restingAge == 3)
            {
                final long newId = clientOrderId++;
                send(restingSession, encoder.replace(restingSession, restingAccount, newId, restingClientOrderId, 0,
                    INSTRUMENT_IDS[r], reference[r] - reference[r] % TICKS[r] - TICKS[r], LOTS[r] * 4));
                restingClientOrderId = newId;
            }
            else
            {
                send(restingSession, encoder.cancel(restingSession, restingAccount, clientOrderId++,
                    restingClientOrderId, 0, INSTRUMENT_IDS[r]));
                restingClientOrderId = 0;
            }
            return;
        }
        if (restingClientOrderId == 0 && random.nextInt(8) == 0 && sequence < commands)
        {
            restingClientOrderId = clientOrderId++;
            restingAccount = ACCOUNTS[taker];
            restingInstrument = i;
            restingAge = 0;
            final long price = reference[i] - reference[i] % TICKS[i] - 2 * TICKS[i];
            send(session, encoder.newOrder(session, ACCOUNTS[taker], restingClientOrderId, INSTRUMENT_IDS[i],
                Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, price,
                LOTS[i] * 3));
            return;
        }
        final long through = TICKS[i] * 4;
        final long price = buy ? reference[i] + through : reference[i] - through;
        send(session, encoder.newOrder(session, ACCOUNTS[taker], clientOrderId++, INSTRUMENT_IDS[i],
            buy ? Side.BUY : Side.SELL, OrderType.LIMIT, TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT,
            price - price % TICKS[i], LOTS[i] * (1 + random.nextInt(10))));
    }

    private void admin(final int length)
    {
        send(ADMIN_SOURCE, length);
    }

    private void send(final long sourceId, final int length)
    {
        final long deadline = processor.nextDeadlineNs();
        if (deadline <= nowNs)
        {
            final CommandEncoder tickEncoder = new CommandEncoder();
            apply(0, tickEncoder.buffer(), tickEncoder.tick(deadline), Math.max(deadline, lastTimeNs));
        }
        apply(sourceId, encoder.buffer(), length, nowNs);
    }

    private void apply(final long sourceId, final MutableDirectBuffer buffer, final int length, final long timeNs)
    {
        sequence++;
        lastTimeNs = timeNs;
        header.wrap(buffer, 0);
        writer.append(sequence, timeNs, sourceId, header.templateId(), buffer, 0, length);
        events.clear();
        processor.onCommand(sequence, timeNs, sourceId, buffer, 0, length);
        if (observer != null)
        {
            observer.onCommand(sequence, timeNs, events, processor);
        }
        if ((sequence & 255) == 0)
        {
            writer.endOfBatch();
            processor.onEndOfBatch();
        }
        if (snapshots != null && snapshotEvery > 0 && sequence % snapshotEvery == 0)
        {
            processor.onEndOfBatch();
            final int snapshotLength = processor.writeSnapshot(snapshotBuffer, 0);
            snapshots.write(sequence, timeNs, processor.stateHash(), SnapshotDescriptor.VERSION, snapshotBuffer, 0,
                snapshotLength);
            snapshotCount++;
        }
    }
}
