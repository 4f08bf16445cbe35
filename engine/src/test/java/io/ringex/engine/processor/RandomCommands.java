package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.client.QuoteEntries;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;

import java.util.SplittableRandom;

/**
 * A seeded stream of mixed commands over two instruments and a few accounts: limit orders of every time in force
 * (GTD included), market orders, post-only, stops and stop-limits, icebergs, minimum quantities, cancels and
 * replaces (some of unknown or done orders, some moving a stop price), mass cancels, kill switches, end of day,
 * deposits, epochs, trading-phase changes (call phases with and without a duration, halts, now and then a close),
 * dynamic bands and Ticks; and the market makers' commands: mass quotes (accounts 1 and 2, account 1 under
 * market-maker protection), quote cancels, protection resets, cancel-all-after and sessions going away with a
 * cancel-on-disconnect grace and coming back. Allocation-free per command, so the allocation test can use it.
 * <p>
 * It needs the commands' timestamps for GTD expiries and phase durations: the caller stamps command {@code sequence}
 * with {@code timeOffsetNs + sequence * nsPerSequence}.
 */
final class RandomCommands
{
    static final int ACCOUNTS = 4;
    static final long SESSION_BASE = 1L << 32;
    static final long INITIAL_BALANCE = 1_000_000_000_00000000L;

    private static final SelfTradePrevention[] STP = {
        SelfTradePrevention.ACCOUNT_DEFAULT, SelfTradePrevention.CANCEL_NEWEST, SelfTradePrevention.CANCEL_OLDEST,
        SelfTradePrevention.CANCEL_BOTH, SelfTradePrevention.DECREMENT_AND_CANCEL };
    private static final TimeInForce[] TIF = { TimeInForce.GTC, TimeInForce.IOC, TimeInForce.FOK, TimeInForce.DAY };
    private static final TimeInForce[] RESTING_TIF = { TimeInForce.GTC, TimeInForce.DAY, TimeInForce.GTD };
    private static final TradingStatus[] PHASES = { TradingStatus.OPEN, TradingStatus.PRE_OPEN,
        TradingStatus.OPENING_AUCTION, TradingStatus.VOLATILITY_AUCTION, TradingStatus.CLOSING_AUCTION,
        TradingStatus.HALTED, TradingStatus.OPEN, TradingStatus.OPENING_AUCTION };

    private static final MassStatusScope[] STATUS_SCOPES = {
        MassStatusScope.SESSION, MassStatusScope.ACCOUNTS, MassStatusScope.INSTRUMENT };

    private final SplittableRandom random;
    private final SplittableRandom queryRandom;
    private final long[][] accountSets = { { 1 }, { 2 }, { 3 }, { 4 }, { 1, 2 }, { 3, 4, 1 }, { 1, 2, 3, 4 } };
    private long statusRequestId;
    private final CommandEncoder encoder;
    private final BusinessLogicProcessor processor;
    private long clientOrderId;
    private long requestId;
    private long deposited = ACCOUNTS * INITIAL_BALANCE;
    private final long timeOffsetNs;
    private final long nsPerSequence;
    private final QuoteEntries quoteEntries = new QuoteEntries();
    private long quoteId;

    RandomCommands(final long seed, final CommandEncoder encoder, final BusinessLogicProcessor processor)
    {
        this(seed, encoder, processor, 0, 1_000);
    }

    /**
     * @param seed          the stream's seed.
     * @param encoder       where commands are written.
     * @param processor     the processor they go to (read for live order ids and prices).
     * @param timeOffsetNs  the caller's timestamps are {@code timeOffsetNs + sequence * nsPerSequence}.
     * @param nsPerSequence see above.
     */
    RandomCommands(
        final long seed,
        final CommandEncoder encoder,
        final BusinessLogicProcessor processor,
        final long timeOffsetNs,
        final long nsPerSequence)
    {
        this.random = new SplittableRandom(seed);
        this.queryRandom = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.encoder = encoder;
        this.processor = processor;
        this.timeOffsetNs = timeOffsetNs;
        this.nsPerSequence = nsPerSequence;
    }

    /** The commands that set up the venue, each written to the encoder by the callback's caller. */
    int setupCommand(final int index)
    {
        switch (index)
        {
            case 0:
                return encoder.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000, PriceBandType.TICKS, 40);
            case 1:
                return encoder.addInstrument(2, 2, "BETA", 4, 1, 1, 500_000, PriceBandType.BASIS_POINTS, 100);
            case 2:
                // account 1 quotes under protection: 40 fills in an interval of 10,000 commands, a freeze of as long
                return encoder.setMarketMakerProtection(40, 1, 1, 10_000 * nsPerSequence, 0, 0, 40,
                    10_000 * nsPerSequence, false, new int[]{ 1, 2 }, "random");
            default:
            {
                final int account = (index - 3) / 3 + 1;
                switch ((index - 3) % 3)
                {
                    case 0:
                        return encoder.addAccount(10 + account, account, STP[1 + account % 4]);
                    case 1:
                        return encoder.setLimits(20 + account, account, 1_000_000, Long.MAX_VALUE / 4,
                            Long.MAX_VALUE / 8, 1_000_000_000, 200, true, new int[0], new long[0]);
                    default:
                        return encoder.adjustBalance(30 + account, account, INITIAL_BALANCE);
                }
            }
        }
    }

    static int setupCount()
    {
        return 3 + ACCOUNTS * 3;
    }

    /** @return total cash put into the venue by the commands written so far (setup included). */
    long deposited()
    {
        return deposited;
    }

    /**
     * Write a random read-only query (order status by order id or client order id, of the right account or another,
     * of open, done or never-seen orders; mass status of every scope, sometimes of an unknown instrument), drawn from
     * its own random stream so interleaving queries leaves {@link #next()}'s commands unchanged. Allocation-free.
     *
     * @return its length.
     */
    int nextQuery()
    {
        final SplittableRandom r = queryRandom;
        final long account = 1 + r.nextInt(ACCOUNTS);
        final long session = SESSION_BASE + account + (r.nextInt(4) == 0 ? 100 : 0);
        if (r.nextBoolean())
        {
            final long lastOrderId = processor.state().lastOrderId();
            final long target = lastOrderId == 0 ? 1 : 1 + Math.max(0, lastOrderId - r.nextInt(60));
            return r.nextBoolean() ?
                encoder.orderStatusRequest(session, account, ++statusRequestId, target, 0) :
                encoder.orderStatusRequest(session, account, ++statusRequestId, 0,
                    Math.max(1, clientOrderId - r.nextInt(60)));
        }
        final MassStatusScope scope = STATUS_SCOPES[r.nextInt(STATUS_SCOPES.length)];
        final int instrument = r.nextInt(10) == 0 ? 3 : 1 + r.nextInt(2);
        return encoder.orderMassStatusRequest(session, 0, ++statusRequestId, scope, instrument,
            accountSets[r.nextInt(accountSets.length)]);
    }

    /** Write the next random command; returns its length. */
    int next()
    {
        final int roll = random.nextInt(1000);
        final long account = 1 + random.nextInt(ACCOUNTS);
        final long session = SESSION_BASE + account + (random.nextInt(4) == 0 ? 100 : 0);
        final int instrument = 1 + random.nextInt(2);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long price = instrument == 1 ? 10_000 + 5 * (random.nextInt(41) - 20) :
            500_000 + 100 * (random.nextInt(41) - 20);
        final long quantity = instrument == 1 ? 10 * (1 + random.nextInt(20)) : 1 + random.nextInt(200);
        final long lastOrderId = processor.state().lastOrderId();
        final long target = lastOrderId == 0 ? 1 : 1 + Math.max(0, lastOrderId - 1 - random.nextInt(50));
        final long nowNs = timeOffsetNs + (processor.lastSequence() + 1) * nsPerSequence;
        final long tick = instrument == 1 ? 5 : 100;
        if (roll < 120)
        {
            return orderWithTerms(roll, session, account, instrument, side, price, quantity, tick, nowNs);
        }
        if (roll >= 560 && roll < 600)
        {
            return marketMaker(roll, session, instrument);
        }
        if (roll < 600)
        {
            final TimeInForce tif = TIF[random.nextInt(TIF.length)];
            return encoder.newOrder(session, account, ++clientOrderId, instrument, side, OrderType.LIMIT, tif,
                tif == TimeInForce.GTC && random.nextInt(10) == 0, STP[random.nextInt(STP.length)], price, quantity);
        }
        if (roll < 650)
        {
            return encoder.newOrder(session, account, ++clientOrderId, instrument, side, OrderType.MARKET,
                random.nextBoolean() ? TimeInForce.IOC : TimeInForce.FOK, false, STP[random.nextInt(STP.length)], 0,
                quantity);
        }
        if (roll < 850)
        {
            return encoder.cancel(session, account, ++clientOrderId, 0, target, instrument);
        }
        if (roll < 970)
        {
            final long stopPrice = random.nextInt(4) == 0 ? stopPrice(instrument, side, tick) : 0;
            return encoder.replace(session, account, ++clientOrderId, 0, target, instrument, price, quantity,
                stopPrice);
        }
        if (roll < 980)
        {
            return encoder.massCancel(session, account, ++clientOrderId,
                random.nextBoolean() ? MassCancelScope.ACCOUNT : MassCancelScope.SESSION, instrument,
                random.nextBoolean());
        }
        if (roll < 985)
        {
            return encoder.killSwitch(++requestId, KillSwitchScope.ACCOUNT, account, random.nextInt(3) == 0);
        }
        if (roll < 988)
        {
            return encoder.endOfDay(++requestId);
        }
        if (roll < 990)
        {
            return encoder.killSwitch(++requestId, KillSwitchScope.VENUE, 0, false);
        }
        if (roll < 993)
        {
            deposited += 1000;
            return encoder.adjustBalance(++requestId, account, 1000);
        }
        if (roll < 995)
        {
            final TradingStatus status = random.nextInt(40) == 0 ? TradingStatus.CLOSED :
                PHASES[random.nextInt(PHASES.length)];
            final boolean timed = status != TradingStatus.OPEN && status != TradingStatus.HALTED &&
                status != TradingStatus.CLOSED && random.nextBoolean();
            return encoder.setTradingStatus(++requestId, instrument, status,
                timed ? (20 + random.nextInt(200)) * nsPerSequence : 0);
        }
        if (roll < 996)
        {
            return encoder.setDynamicBand(++requestId, instrument, random.nextInt(3) * 50,
                (10 + random.nextInt(100)) * nsPerSequence);
        }
        if (roll < 998)
        {
            return encoder.tick(nowNs);
        }
        return encoder.newEpoch(++requestId, processor.state().epoch() + random.nextInt(2), 1);
    }

    /** A mass quote (most often), a quote cancel, a protection reset, a cancel-all-after or a session's status. */
    private int marketMaker(final int roll, final long session, final int instrument)
    {
        final long maker = 1 + random.nextInt(2);
        final long makerSession = SESSION_BASE + maker;
        if (roll < 586)
        {
            quoteEntries.clear();
            final int first = random.nextInt(3);
            for (int i = 1; i <= 2; i++)
            {
                if (first == 0 || first == i)
                {
                    final long tick = i == 1 ? 5 : 100;
                    final long mid = i == 1 ? 10_000 + 5 * (random.nextInt(21) - 10) :
                        500_000 + 100 * (random.nextInt(21) - 10);
                    final long spread = tick * (1 + random.nextInt(6));
                    final long size = i == 1 ? 10 * random.nextInt(8) : random.nextInt(80);
                    quoteEntries.add(++quoteId, 1 + random.nextInt(3), i, mid - spread, size, mid + spread,
                        random.nextInt(5) == 0 ? 0 : size + (i == 1 ? 10 : 1));
                }
            }
            return encoder.massQuote(makerSession, maker, ++quoteId, STP[random.nextInt(STP.length)], quoteEntries);
        }
        if (roll < 590)
        {
            final QuoteCancelScope scope = random.nextBoolean() ? QuoteCancelScope.ALL :
                random.nextBoolean() ? QuoteCancelScope.INSTRUMENT : QuoteCancelScope.QUOTE_SET;
            return encoder.quoteCancel(makerSession, maker, "c", scope, instrument, 1 + random.nextInt(3));
        }
        if (roll < 593)
        {
            return encoder.resetMarketMakerProtection(makerSession, 1, random.nextInt(3) == 0 ? 0 : 1);
        }
        if (roll < 597)
        {
            return encoder.cancelAllAfter(makerSession, random.nextInt(3) == 0 ? 0 : 100 + random.nextInt(1_000));
        }
        return encoder.sessionStatus(session, 1, random.nextBoolean(),
            (int)Math.min(600_000, random.nextInt(3) * 5_000 * nsPerSequence / 1_000_000 + 1));
    }

    /** A stop, stop-limit, iceberg, GTD or minimum-quantity order. */
    private int orderWithTerms(
        final int roll,
        final long session,
        final long account,
        final int instrument,
        final Side side,
        final long price,
        final long quantity,
        final long tick,
        final long nowNs)
    {
        final SelfTradePrevention stp = STP[random.nextInt(STP.length)];
        final TimeInForce resting = RESTING_TIF[random.nextInt(RESTING_TIF.length)];
        final long expire = resting == TimeInForce.GTD ? nowNs + (1 + random.nextInt(300)) * nsPerSequence : 0;
        if (roll < 40)
        {
            return encoder.newOrder(session, account, ++clientOrderId, instrument, side,
                random.nextBoolean() ? OrderType.STOP : OrderType.STOP_LIMIT, resting, false, stp, price, quantity,
                stopPrice(instrument, side, tick), 0, 0, expire);
        }
        if (roll < 80)
        {
            final long lot = instrument == 1 ? 10 : 1;
            final long display = Math.max(lot, quantity / (2 + random.nextInt(4)) / lot * lot);
            return encoder.newOrder(session, account, ++clientOrderId, instrument, side, OrderType.LIMIT, resting,
                false, stp, price, quantity, 0, display, 0, expire);
        }
        final boolean market = random.nextInt(3) == 0;
        final TimeInForce tif = market ? (random.nextBoolean() ? TimeInForce.IOC : TimeInForce.FOK) :
            TIF[random.nextInt(TIF.length)];
        final long lot = instrument == 1 ? 10 : 1;
        return encoder.newOrder(session, account, ++clientOrderId, instrument, side,
            market ? OrderType.MARKET : OrderType.LIMIT, tif, false, stp, price, quantity, 0, 0,
            Math.max(lot, quantity / 2 / lot * lot), 0);
    }

    /** A stop price a few ticks beyond the last trade price on the side's trigger side (sometimes already reached). */
    private long stopPrice(final int instrument, final Side side, final long tick)
    {
        final long last = processor.state().book(instrument).dynamicReferencePrice();
        final long ticks = random.nextInt(12) - 1;
        return side == Side.BUY ? last + ticks * tick : last - ticks * tick;
    }
}
