package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.ToIntFunction;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static io.ringex.engine.processor.Harness.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pre-trade checks (one reason each), post-trade accounting, risk updates and admin commands through onCommand.
 */
final class RiskAndAdminScenarioTest
{
    private static final long MONEY = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);

    private final Harness h = Harness.standard();

    private Harness.Er firstEr(final List<Object> events)
    {
        return only(events, Harness.Er.class).get(0);
    }

    private RejectReason rejectOf(final ToIntFunction<CommandEncoder> command)
    {
        final Harness.Er er = firstEr(h.send(command.applyAsInt(h.encoder)));
        assertEquals(ExecType.REJECTED, er.execType());
        assertEquals(0, er.orderId());
        return er.rejectReason();
    }

    private static int buy(final CommandEncoder e, final long account, final long price, final long qty)
    {
        return e.limit(SESSION, account, 77, INSTRUMENT, Side.BUY, price, qty);
    }

    private Harness.Admin admin(final int length)
    {
        return only(h.send(length), Harness.Admin.class).get(0);
    }

    @Test
    void orderValidationReasons()
    {
        assertEquals(RejectReason.INVALID_QUANTITY, rejectOf(e -> buy(e, 1, 10_000, 0)));
        assertEquals(RejectReason.INVALID_QUANTITY, rejectOf(e -> buy(e, 1, 10_000, -10)));
        assertEquals(RejectReason.INVALID_LOT, rejectOf(e -> buy(e, 1, 10_000, 15)));
        assertEquals(RejectReason.INVALID_PRICE, rejectOf(e -> buy(e, 1, 0, 10)));
        assertEquals(RejectReason.INVALID_PRICE, rejectOf(e -> buy(e, 1, -5, 10)));
        assertEquals(RejectReason.INVALID_TICK, rejectOf(e -> buy(e, 1, 10_002, 10)));
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, rejectOf(e -> buy(e, 1, 15_005, 10)));
        assertEquals(RejectReason.NOTIONAL_OVERFLOW, rejectOf(e -> buy(e, 1, 10_000, Long.MAX_VALUE / 20 * 10)));
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, rejectOf(e -> buy(e, 99, 10_000, 10)));
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, rejectOf(e -> e.limit(SESSION, 1, 5, 42, Side.BUY, 100, 10)));
        assertEquals(0, h.processor.errorCount());
    }

    @Test
    void accountLimitsEachHaveTheirReason()
    {
        h.send(h.encoder.addAccount(1, 9, SelfTradePrevention.CANCEL_NEWEST));
        assertEquals(RejectReason.MAX_ORDER_QUANTITY, rejectOf(e -> buy(e, 9, 10_000, 10)), "no limits yet");

        // max qty 100, max notional 1000.00, credit 0, position limit 15, 1 open order, no short
        h.send(h.encoder.setLimits(2, 9, 100, 1000 * MONEY, 0, 15, 1, false, new int[0], new long[0]));
        assertEquals(RejectReason.MAX_ORDER_QUANTITY, rejectOf(e -> buy(e, 9, 5_000, 110)));
        assertEquals(RejectReason.MAX_ORDER_NOTIONAL, rejectOf(e -> buy(e, 9, 10_000, 100)));
        assertEquals(RejectReason.INSUFFICIENT_CREDIT, rejectOf(e -> buy(e, 9, 5_000, 10)));
        h.send(h.encoder.adjustBalance(3, 9, 1000 * MONEY));
        assertEquals(RejectReason.INSUFFICIENT_POSITION, rejectOf(e -> e.limit(SESSION, 9, 1, INSTRUMENT, Side.SELL,
            5_000, 10)));
        assertEquals(ExecType.NEW, firstEr(h.send(h.encoder.limit(SESSION, 9, 1, INSTRUMENT, Side.BUY, 5_000, 10)))
            .execType());
        assertEquals(RejectReason.TOO_MANY_OPEN_ORDERS, rejectOf(e -> e.limit(SESSION, 9, 4, INSTRUMENT, Side.BUY,
            5_000, 10)));
        assertEquals(RejectReason.POSITION_LIMIT, rejectOf(e -> e.newOrder(SESSION, 9, 2, INSTRUMENT, Side.BUY,
            OrderType.LIMIT, TimeInForce.IOC, false, SelfTradePrevention.ACCOUNT_DEFAULT, 5_000, 10)));
    }

    @Test
    void creditCountsReservedOpenBuys()
    {
        h.send(h.encoder.addAccount(1, 9, SelfTradePrevention.CANCEL_NEWEST));
        h.send(h.encoder.setLimits(2, 9, 1000, 1_000_000 * MONEY, 0, 1000, 100, false, new int[0], new long[0]));
        h.send(h.encoder.adjustBalance(3, 9, 1500 * MONEY));
        assertEquals(ExecType.NEW, firstEr(h.send(buy(h.encoder, 9, 10_000, 10))).execType());
        assertEquals(RejectReason.INSUFFICIENT_CREDIT, rejectOf(e -> e.limit(SESSION, 9, 5, INSTRUMENT, Side.BUY,
            10_000, 10)));
        h.send(h.encoder.setLimits(4, 9, 1000, 1_000_000 * MONEY, 1000 * MONEY, 1000, 100, false, new int[0],
            new long[0]));
        assertEquals(ExecType.NEW, firstEr(h.send(h.encoder.limit(SESSION, 9, 5, INSTRUMENT, Side.BUY, 10_000, 10)))
            .execType());

        // a replace counts the order's own reservation once: 1000.00 held by the other buy, 2500.00 available
        assertEquals(ExecType.REPLACED, firstEr(h.send(h.encoder.replace(SESSION, 9, 6, 5, 0, INSTRUMENT, 5_000,
            30))).execType());
        assertEquals(RejectReason.INSUFFICIENT_CREDIT, only(h.send(h.encoder.replace(SESSION, 9, 7, 6, 0, INSTRUMENT,
            5_000, 40)), Harness.CxlRej.class).get(0).reason());
    }

    @Test
    void tradeMovesCashAndPositionsAndRealisesPnl()
    {
        h.send(h.encoder.limit(SESSION, 1, 1, INSTRUMENT, Side.SELL, 10_000, 100));
        h.send(h.encoder.limit(SESSION, 2, 2, INSTRUMENT, Side.BUY, 10_000, 100));
        h.send(h.encoder.limit(SESSION, 2, 3, INSTRUMENT, Side.SELL, 10_500, 40));
        h.send(h.encoder.limit(SESSION, 3, 4, INSTRUMENT, Side.BUY, 10_500, 40));
        final List<Harness.Risk> risk = only(h.endBatch(), Harness.Risk.class);

        final Harness.Risk two = risk.stream().filter(r -> r.accountId() == 2).findFirst().orElseThrow();
        // bought 100 @ 100.00 (10000.00), sold 40 @ 105.00 (4200.00)
        assertEquals(1_000_000 * MONEY - 10_000 * MONEY + 4_200 * MONEY, two.balance());
        final Harness.Pos pos = two.positions().get(0);
        assertEquals(60, pos.position());
        assertEquals(10_000, pos.averageCost());
        assertEquals(200 * MONEY, pos.realisedPnl());
        assertEquals(300 * MONEY, pos.unrealisedPnl(), "60 x (105 - 100) marked at last trade");
        assertEquals(60 * 105 * MONEY, two.exposure());

        long cash = 0;
        long net = 0;
        for (final Harness.Risk r : risk)
        {
            cash += r.balance();
            net += r.positions().isEmpty() ? 0 : r.positions().get(0).position();
        }
        assertEquals(3 * 1_000_000 * MONEY, cash);
        assertEquals(0, net);
    }

    @Test
    void riskUpdatesAreCoalescedPerBatch()
    {
        h.send(h.encoder.limit(SESSION, 1, 1, INSTRUMENT, Side.BUY, 9_000, 10));
        h.send(h.encoder.limit(SESSION, 1, 2, INSTRUMENT, Side.BUY, 9_000, 10));
        h.send(h.encoder.limit(SESSION, 2, 3, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Harness.Risk> risk = only(h.endBatch(), Harness.Risk.class);
        assertEquals(List.of(1L, 2L), risk.stream().map(Harness.Risk::accountId).toList());
        assertEquals(2, risk.get(0).openOrders());
        assertEquals(20, risk.get(0).positions().get(0).openBuy());
        assertEquals(2 * 90 * 10 * MONEY, risk.get(0).reserved());
        assertTrue(h.endBatch().isEmpty());
    }

    @Test
    void killSwitchesCancelAndRefuse()
    {
        h.send(h.encoder.limit(SESSION, 1, 1, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Object> kill = h.send(h.encoder.killSwitch(5, KillSwitchScope.ACCOUNT, 1, true));
        assertEquals(CancelReason.KILL_SWITCH, firstEr(kill).cancelReason());
        assertEquals(AdminStatus.ACCEPTED, only(kill, Harness.Admin.class).get(0).status());
        assertEquals(RejectReason.ACCOUNT_KILLED, rejectOf(e -> buy(e, 1, 9_000, 10)));
        h.send(h.encoder.killSwitch(6, KillSwitchScope.ACCOUNT, 1, false));

        h.send(h.encoder.limit(SESSION, 2, 1, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Object> venue = h.send(h.encoder.killSwitch(7, KillSwitchScope.VENUE, 0, true));
        assertEquals(CancelReason.KILL_SWITCH, firstEr(venue).cancelReason());
        assertEquals(RejectReason.VENUE_KILLED, rejectOf(e -> buy(e, 1, 9_000, 10)));
    }

    @Test
    void haltAndCloseInstrument()
    {
        h.send(h.encoder.limit(SESSION, 1, 1, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Object> halt = h.send(h.encoder.setTradingStatus(5, INSTRUMENT, TradingStatus.HALTED));
        assertEquals(TradingStatus.HALTED, only(halt, Harness.Definition.class).get(0).status());
        assertEquals(RejectReason.INSTRUMENT_HALTED, rejectOf(e -> buy(e, 2, 9_000, 10)));
        assertEquals(RejectReason.INSTRUMENT_HALTED, only(h.send(h.encoder.replace(SESSION, 1, 2, 1, 0, INSTRUMENT,
            9_000, 5)), Harness.CxlRej.class).get(0).reason());
        assertEquals(ExecType.CANCELED, firstEr(h.send(h.encoder.cancel(SESSION, 1, 3, 1, 0, INSTRUMENT))).execType());

        h.send(h.encoder.setTradingStatus(6, INSTRUMENT, TradingStatus.OPEN));
        h.send(h.encoder.limit(SESSION, 1, 4, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Object> close = h.send(h.encoder.setTradingStatus(7, INSTRUMENT, TradingStatus.CLOSED));
        assertEquals(CancelReason.INSTRUMENT_HALTED, firstEr(close).cancelReason());
    }

    @Test
    void endOfDayExpiresDayOrdersOnly()
    {
        h.send(h.encoder.newOrder(SESSION, 1, 1, INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, false,
            SelfTradePrevention.ACCOUNT_DEFAULT, 9_000, 10));
        h.send(h.encoder.limit(SESSION, 1, 2, INSTRUMENT, Side.BUY, 9_000, 10));
        final List<Harness.Er> expired = only(h.send(h.encoder.endOfDay(8)), Harness.Er.class);
        assertEquals(1, expired.size());
        assertEquals(ExecType.EXPIRED, expired.get(0).execType());
        assertEquals(CancelReason.END_OF_DAY, expired.get(0).cancelReason());
        assertEquals(1, expired.get(0).orderId());
    }

    @Test
    void epochIsStampedAndMayNotGoBack()
    {
        assertEquals(0, firstEr(h.send(buy(h.encoder, 1, 9_000, 10))).epoch());
        assertEquals(AdminStatus.ACCEPTED, admin(h.encoder.newEpoch(1, 3, 1)).status());
        assertEquals(3, firstEr(h.send(h.encoder.limit(SESSION, 1, 2, INSTRUMENT, Side.BUY, 9_000, 10))).epoch());
        assertEquals(RejectReason.STALE_EPOCH, admin(h.encoder.newEpoch(2, 2, 1)).reason());
    }

    @Test
    void adminValidation()
    {
        assertEquals(RejectReason.DUPLICATE_ID, admin(h.encoder.addInstrument(1, INSTRUMENT, "X", 2, 5, 10, 10_000,
            PriceBandType.TICKS, 10)).reason());
        assertEquals(RejectReason.INVALID_ARGUMENT, admin(h.encoder.addInstrument(1, 2, "X", 2, 1, 1, 10_000_000,
            PriceBandType.TICKS, 2_000_000)).reason(), "band wider than a million ticks");
        assertEquals(RejectReason.INVALID_ARGUMENT, admin(h.encoder.addInstrument(1, 2, "X", 9, 1, 1, 100,
            PriceBandType.TICKS, 10)).reason());
        assertEquals(RejectReason.INVALID_ARGUMENT, admin(h.encoder.addInstrument(1, 2, "X", 2, 5, 1, 102,
            PriceBandType.TICKS, 10)).reason(), "reference off tick");
        final List<Object> added = h.send(h.encoder.addInstrument(1, 2, "Y", 4, 1, 1, 10_000,
            PriceBandType.BASIS_POINTS, 500));
        assertEquals(AdminStatus.ACCEPTED, only(added, Harness.Admin.class).get(0).status());
        assertEquals(1, only(added, Harness.Definition.class).size());
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, rejectOf(e -> e.limit(SESSION, 1, 1, 2, Side.BUY, 10_501, 1)));
        assertEquals(RejectReason.DUPLICATE_ID, admin(h.encoder.addAccount(1, 1,
            SelfTradePrevention.CANCEL_NEWEST)).reason());
        assertEquals(RejectReason.UNKNOWN_ACCOUNT, admin(h.encoder.adjustBalance(1, 42, 5)).reason());
        assertEquals(RejectReason.UNKNOWN_INSTRUMENT, admin(h.encoder.setLimits(1, 1, 1, 1, 1, 1, 1, false,
            new int[]{ 99 }, new long[]{ 5 })).reason());
        assertEquals(AdminStatus.ACCEPTED, admin(h.encoder.takeSnapshot(1)).status());
        assertTrue(h.send(h.encoder.sessionStatus(SESSION, 1, true)).isEmpty());
    }

    @Test
    void perInstrumentPositionLimitOverride()
    {
        h.send(h.encoder.setLimits(1, 1, 1000, Long.MAX_VALUE / 4, Long.MAX_VALUE / 8, 1000, 100, true,
            new int[]{ INSTRUMENT }, new long[]{ 20 }));
        assertEquals(RejectReason.POSITION_LIMIT, rejectOf(e -> buy(e, 1, 9_000, 30)));
        assertEquals(RejectReason.POSITION_LIMIT, rejectOf(e -> e.limit(SESSION, 1, 3, INSTRUMENT, Side.SELL,
            11_000, 30)));
    }

    @Test
    void unknownTemplateAndInternalErrorsNeverThrow()
    {
        final int length = h.encoder.takeSnapshot(1);
        h.encoder.buffer().putShort(2, (short)99, java.nio.ByteOrder.LITTLE_ENDIAN);
        final List<Harness.BizRej> rej = only(h.send(length), Harness.BizRej.class);
        assertEquals(RejectReason.UNKNOWN_MESSAGE, rej.get(0).reason());

        // a buffer too short for the message header: the processor catches the bounds failure
        h.processor.onCommand(1, 1, 1, new org.agrona.concurrent.UnsafeBuffer(new byte[4]), 0, 4);
        assertEquals(1, h.processor.errorCount());
        final Object last = h.decode(h.sink.size() - 1, h.sink.size()).get(0);
        assertFalse(!(last instanceof Harness.BizRej));
    }

    @Test
    void riskUpdateIsSplitToFitTheSink()
    {
        final Harness small = new Harness(new CapturingEventSink(1 << 16, 200));
        for (int instrument = 1; instrument <= 3; instrument++)
        {
            small.send(small.encoder.addInstrument(instrument, instrument, "I" + instrument, 2, 5, 10, 10_000,
                PriceBandType.TICKS, 100));
        }
        small.account(1, SelfTradePrevention.CANCEL_NEWEST);
        small.account(2, SelfTradePrevention.CANCEL_NEWEST);
        for (int instrument = 1; instrument <= 3; instrument++)
        {
            small.send(small.encoder.limit(SESSION, 1, instrument, instrument, Side.SELL, 10_000, 10));
            small.send(small.encoder.limit(SESSION, 2, instrument, instrument, Side.BUY, 10_000, 10));
        }
        final List<Harness.Risk> updates = only(small.endBatch(), Harness.Risk.class);
        final List<Harness.Risk> first = updates.stream().filter(r -> r.accountId() == 1).toList();
        assertEquals(3, first.size());
        assertEquals(List.of(1, 2, 3), first.stream().map(r -> r.positions().get(0).instrumentId()).toList());
        assertEquals(-10, first.get(2).positions().get(0).position());
    }

    @Test
    void unlockLogonsIsAnsweredAndToldToTheGatewaysButChangesNoState()
    {
        final long hash = h.processor.stateHash();
        final List<Object> events = h.send(h.encoder.unlockLogons(50, "alice", "10.0.0.7", "admin", "called in"));
        assertEquals(AdminStatus.ACCEPTED, only(events, Harness.Admin.class).get(0).status());
        final Harness.Unlocked unlocked = only(events, Harness.Unlocked.class).get(0);
        assertEquals("alice", unlocked.username());
        assertEquals("10.0.0.7", unlocked.address());
        assertEquals(hash, h.processor.stateHash());

        for (final int length : new int[]{
            h.encoder.unlockLogons(51, "", "", "admin", "nothing named"),
            h.encoder.unlockLogons(52, "alice", "", "", "no operator"),
            h.encoder.unlockLogons(53, "ali ce", "", "admin", "a space in the name"),
            h.encoder.unlockLogons(54, "x".repeat(33), "", "admin", "name too long"),
            h.encoder.unlockLogons(55, "alice", "", "admin", "r".repeat(65)),
            h.encoder.unlockLogons(56, "alice\n", "", "admin", "control byte") })
        {
            final List<Object> refused = h.send(length);
            assertEquals(RejectReason.INVALID_ARGUMENT, only(refused, Harness.Admin.class).get(0).reason());
            assertTrue(only(refused, Harness.Unlocked.class).isEmpty());
        }
        assertEquals(hash, h.processor.stateHash());
    }
}
