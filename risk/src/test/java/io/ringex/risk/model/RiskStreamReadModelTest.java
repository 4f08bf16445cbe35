package io.ringex.risk.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.CapturingEventSink;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.risk.aeron.EngineEventHandler;

/**
 * The dashboard's read model fed the engine's own risk stream: the business-logic processor's events, byte for byte
 * as it writes them, through the handler the Aeron agent uses, on seeded random trading. After every batch each
 * account's positions on the dashboard are exactly the engine's positions that are not flat (an update names only
 * the positions that changed: the others must stay), with their quantities, open orders, average cost, realised
 * P&amp;L and limit; its balance, reservations and open orders are the engine's; and its limits (every value a
 * SetLimits replaces, per-instrument ones too) and standing are the engine's.
 */
class RiskStreamReadModelTest
{
    private static final long MONEY_UNIT = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
    private static final int ACCOUNTS = 4;
    private static final long SESSION = (1L << 32) | 1;
    private static final int[] SCALES = {0, 2, 4};
    private static final long[] TICKS = {0, 5, 10};
    private static final long[] LOTS = {0, 10, 1_000};
    private static final long[] REFERENCES = {0, 10_000, 11_650};

    private final CapturingEventSink sink = new CapturingEventSink(1 << 22, 4096);
    private final BusinessLogicProcessor engine = new BusinessLogicProcessor(sink, 4096, null);
    private final CommandEncoder commands = new CommandEncoder();
    private final RiskReadModel model = new RiskReadModel(4, 5_000_000_000L, System::nanoTime);
    private final EngineEventHandler handler = new EngineEventHandler(0, model,
        (requestId, templateId, status, reason, sequence) -> { });
    private long sequence;
    private long clientOrderId;
    private int fed;

    @Test
    void theDashboardHoldsTheEnginesAccountsAfterEveryBatchOfRandomTrading()
    {
        install();
        final SplittableRandom random = new SplittableRandom(38);
        int checks = 0;
        int positionsSeen = 0;
        for (int i = 0; i < 6_000; i++)
        {
            send(nextCommand(random));
            if (random.nextInt(3) == 0)
            {
                endBatch();
                for (long accountId = 1001; accountId < 1001 + ACCOUNTS; accountId++)
                {
                    positionsSeen += assertShowsTheEnginesAccount(accountId, "after command " + i);
                    checks++;
                }
            }
        }
        assertTrue(checks > 5_000, "checks: " + checks);
        assertTrue(positionsSeen > 5_000, "positions compared: " + positionsSeen);
        assertTrue(engine.state().lastTradeId() > 1_000, "trades: " + engine.state().lastTradeId());
    }

    @Test
    void theLimitsApiGivesEveryLimitTheEngineHolds()
    {
        install();
        send(commands.setLimits(++sequence, 1003, 77, 123_456 * MONEY_UNIT + 5, 9_000 * MONEY_UNIT, 40, 12, true,
            new int[] {2}, new long[] {400}));
        send(commands.limit(SESSION, 1003, ++clientOrderId, 1, Side.BUY, 9_990, 20));
        endBatch();
        Views.AccountLimits limits = model.limits(1003);
        assertEquals(new Views.AccountLimits(1003, true, "ACTIVE", "CANCEL_NEWEST", 77L, "123456.00000005",
            "9000.00000000", 40L, 12, true, List.of(new Views.PositionLimitView(2, "LMX-USD", 400))), limits);
        assertEquals(limits, model.account(1003).limits(), "the account detail carries the same");

        // a limit change that keeps what it does not touch: the whole current set sent back with one value changed
        send(commands.setLimits(++sequence, 1003, 77, 123_456 * MONEY_UNIT + 5, 12_000 * MONEY_UNIT, 40, 12, true,
            new int[] {2}, new long[] {400}));
        endBatch();
        limits = model.limits(1003);
        assertEquals("12000.00000000", limits.creditLimit());
        assertEquals(true, limits.allowShort());
        assertEquals(List.of(new Views.PositionLimitView(2, "LMX-USD", 400)), limits.positionLimits());
        assertShowsTheEnginesAccount(1003, "after the limit change");
        assertEquals(40, model.account(1003).positions().get(0).positionLimit(), "the position's limit is the default");
    }

    @Test
    void theStandingIsTheEnginesAndApartFromTheKillSwitch()
    {
        install();
        assertEquals("ACTIVE", model.account(1002).summary().status());
        send(commands.setAccountStatus(++sequence, 1002, io.ringex.protocol.codecs.AccountStatus.SUSPENDED,
            "KYC review"));
        endBatch();
        assertEquals("SUSPENDED", model.account(1002).summary().status());
        assertEquals(false, model.account(1002).summary().killSwitch(), "suspended is not killed");
        send(commands.killSwitch(++sequence, io.ringex.protocol.codecs.KillSwitchScope.ACCOUNT, 1002, true));
        endBatch();
        assertEquals("SUSPENDED", model.accounts(AccountSort.ACCOUNT).get(1).status());
        assertEquals(true, model.accounts(AccountSort.ACCOUNT).get(1).killSwitch());
        assertEquals("ACTIVE", model.account(1001).summary().status(), "the others stay active");
    }

    /** Instruments 1 and 2; accounts 1001-1004, funded, with room to trade and to go short. */
    private void install()
    {
        send(commands.addInstrument(++sequence, 1, "RGX-USD", SCALES[1], TICKS[1], LOTS[1], REFERENCES[1],
            PriceBandType.BASIS_POINTS, 2_000));
        send(commands.addInstrument(++sequence, 2, "LMX-USD", SCALES[2], TICKS[2], LOTS[2], REFERENCES[2],
            PriceBandType.BASIS_POINTS, 2_000));
        for (long accountId = 1001; accountId < 1001 + ACCOUNTS; accountId++)
        {
            send(commands.addAccount(++sequence, accountId, SelfTradePrevention.CANCEL_NEWEST));
            send(commands.setLimits(++sequence, accountId, 1_000_000, 1_000_000_000 * MONEY_UNIT,
                1_000_000_000 * MONEY_UNIT, 1_000_000_000, 500, true, new int[0], new long[0]));
            send(commands.adjustBalance(++sequence, accountId, 10_000_000 * MONEY_UNIT));
        }
        endBatch();
    }

    /** Limit orders around the reference, market orders, cancels, and now and then an account closing a position. */
    private int nextCommand(final SplittableRandom random)
    {
        final long accountId = 1001 + random.nextInt(ACCOUNTS);
        final int instrumentId = 1 + random.nextInt(2);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long quantity = LOTS[instrumentId] * (1 + random.nextInt(10));
        final int roll = random.nextInt(100);
        if (roll < 55)
        {
            final long price = REFERENCES[instrumentId] + TICKS[instrumentId] * (random.nextInt(21) - 10);
            return commands.limit(SESSION, accountId, ++clientOrderId, instrumentId, side, price, quantity);
        }
        if (roll < 70)
        {
            return commands.newOrder(SESSION, accountId, ++clientOrderId, instrumentId, side, OrderType.MARKET,
                TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT, 0, quantity);
        }
        if (roll < 85)
        {
            final long target = Math.max(1, engine.state().lastOrderId() - random.nextInt(30));
            return commands.cancel(SESSION, accountId, ++clientOrderId, 0, target, instrumentId);
        }
        final Position position = engine.state().account(accountId).position(instrumentId);
        if (position != null && (position.openBuyQuantity() != 0 || position.openSellQuantity() != 0))
        {
            return commands.massCancel(SESSION, accountId, ++clientOrderId, MassCancelScope.INSTRUMENT, instrumentId,
                false);
        }
        final long held = position == null ? 0 : position.position();
        return commands.newOrder(SESSION, accountId, ++clientOrderId, instrumentId, held > 0 ? Side.SELL : Side.BUY,
            OrderType.MARKET, TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT, 0,
            held == 0 ? quantity : Math.abs(held));
    }

    private void send(final int length)
    {
        engine.onCommand(++sequence, 1_000_000_000L + sequence, SESSION, commands.buffer(), 0, length);
    }

    /** End the batch and hand the read model every event written since the last time, as the risk stream would. */
    private void endBatch()
    {
        engine.onEndOfBatch();
        for (; fed < sink.size(); fed++)
        {
            handler.onFragment(sink.events(), sink.offset(fed), sink.length(fed), null);
        }
    }

    /** @return positions compared. */
    private int assertShowsTheEnginesAccount(final long accountId, final String when)
    {
        final Account account = engine.state().account(accountId);
        final Views.AccountDetail shown = model.account(accountId);
        assertNotNull(shown, when + ": account " + accountId + " shown");
        final TreeMap<Integer, String> expected = new TreeMap<>();
        for (int i = 0; i < account.positionCount(); i++)
        {
            final Position p = account.positionAt(i);
            if (p.position() != 0 || p.openBuyQuantity() != 0 || p.openSellQuantity() != 0)
            {
                expected.put(p.instrumentId(), p.position() + " @ " +
                    FixedPoint.format(p.averageCost(), SCALES[p.instrumentId()]) + " realised " +
                    FixedPoint.format(p.realisedPnl(), FixedPoint.MONEY_SCALE) + " open " + p.openBuyQuantity() +
                    "/" + p.openSellQuantity() + " limit " + account.positionLimitFor(p));
            }
        }
        final TreeMap<Integer, String> actual = new TreeMap<>();
        final List<Integer> order = new ArrayList<>();
        for (final Views.PositionView p : shown.positions())
        {
            actual.put(p.instrumentId(), p.position() + " @ " + p.averageCost() + " realised " + p.realisedPnl() +
                " open " + p.openBuyQuantity() + "/" + p.openSellQuantity() + " limit " + p.positionLimit());
            order.add(p.instrumentId());
        }
        assertEquals(expected, actual, when + ": account " + accountId + "'s positions");
        assertEquals(new ArrayList<>(actual.keySet()), order, when + ": positions by instrument");
        assertEquals(FixedPoint.format(account.balance(), FixedPoint.MONEY_SCALE), shown.summary().balance(),
            when + ": balance");
        assertEquals(FixedPoint.format(account.reserved(), FixedPoint.MONEY_SCALE), shown.summary().reserved(),
            when + ": reserved");
        assertEquals(account.openOrders(), shown.summary().openOrders(), when + ": open orders");
        assertEquals(account.killed(), shown.summary().killSwitch(), when + ": kill switch");
        assertTrue(shown.summary().positionsComplete(), when + ": complete");
        assertEquals(account.allowShort(), shown.limits().allowShort(), when + ": allow short");
        assertEquals(account.defaultPositionLimit(), shown.limits().defaultPositionLimit(), when + ": default limit");
        return expected.size();
    }
}
