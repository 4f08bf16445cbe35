package io.ringex.engine.processor;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToIntFunction;

import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import static io.ringex.engine.processor.Harness.INSTRUMENT;
import static io.ringex.engine.processor.Harness.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trading day as engine state, on the ring's clock: the venue is held before the open, opens, is held at the
 * close, and DAY orders expire at the end of day; weekends, holidays and the change to summer time are the calendar's;
 * an operator's halt outlasts the next open; bad schedules are refused; a snapshot and a replay act the same.
 */
final class TradingScheduleTest
{
    private static final ZoneId LONDON = ZoneId.of("Europe/London");
    private static final int WEEKDAYS = 0b0011111;
    private static final int PRE_OPEN = 7 * 60 + 50;
    private static final int OPEN = 8 * 60;
    private static final int CLOSE = 16 * 60 + 30;
    private static final int END_OF_DAY = 17 * 60;
    /** A Monday, the week before the clocks go forward in London (Sunday 29 March 2026). */
    private static final LocalDate MONDAY = LocalDate.of(2026, 3, 23);

    private final Harness h = Harness.standard();

    private static long at(final LocalDate date, final int hour, final int minute)
    {
        return LocalDateTime.of(date, LocalTime.of(hour, minute)).atZone(LONDON).toEpochSecond() *
            1_000_000_000L;
    }

    private List<Object> sendAt(final long timeNs, final int length)
    {
        h.time = timeNs - 1;
        return h.send(length);
    }

    private int londonWeekdays(final CommandEncoder e, final int... holidays)
    {
        return e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, holidays, "Europe/London",
            "the venue's hours");
    }

    private List<Object> tickAt(final long timeNs)
    {
        return sendAt(timeNs, h.encoder.tick(timeNs));
    }

    private Harness.Er order(final long timeNs, final long clientOrderId, final TimeInForce tif)
    {
        return Harness.only(sendAt(timeNs, h.encoder.newOrder(SESSION, 1, clientOrderId, INSTRUMENT, Side.BUY,
            OrderType.LIMIT, tif, false, SelfTradePrevention.CANCEL_NEWEST, 9_995, 10)), Harness.Er.class).get(0);
    }

    private static TradingStatus status(final List<Object> events)
    {
        final List<Harness.Definition> definitions = Harness.only(events, Harness.Definition.class);
        assertEquals(1, definitions.size(), events.toString());
        return definitions.get(0).status();
    }

    @Test
    void theDayRunsOnTheRingsClock()
    {
        final List<Object> set = sendAt(at(MONDAY, 6, 0), londonWeekdays(h.encoder));
        assertEquals(AdminStatus.ACCEPTED, Harness.only(set, Harness.Admin.class).get(0).status());
        assertEquals(TradingStatus.HALTED, status(set), "set before the open: held at once");
        assertEquals(at(MONDAY, 7, 50), h.processor.nextDeadlineNs());
        assertEquals(RejectReason.INSTRUMENT_HALTED, order(at(MONDAY, 6, 30), 1, TimeInForce.GTC).rejectReason());

        assertEquals(TradingStatus.PRE_OPEN, status(tickAt(at(MONDAY, 7, 50))), "the pre-open call phase");
        assertEquals(at(MONDAY, 8, 0), h.processor.nextDeadlineNs());
        assertEquals(TradingStatus.OPEN, status(tickAt(at(MONDAY, 8, 0))));
        assertEquals(ExecType.NEW, order(at(MONDAY, 9, 0), 2, TimeInForce.GTC).execType());
        assertEquals(ExecType.NEW, order(at(MONDAY, 9, 1), 3, TimeInForce.DAY).execType());

        assertEquals(TradingStatus.HALTED, status(tickAt(at(MONDAY, 16, 30))));
        final List<Harness.Er> expired = Harness.only(tickAt(at(MONDAY, 17, 0)), Harness.Er.class);
        assertEquals(1, expired.size(), expired.toString());
        assertEquals("3", expired.get(0).clientOrderId());
        assertEquals(ExecType.EXPIRED, expired.get(0).execType());
        assertEquals(CancelReason.END_OF_DAY, expired.get(0).cancelReason());

        // Tuesday: the GTC order lived through the night, and the venue opens again.
        final LocalDate tuesday = MONDAY.plusDays(1);
        assertEquals(at(tuesday, 7, 50), h.processor.nextDeadlineNs());
        tickAt(at(tuesday, 7, 50));
        assertEquals(TradingStatus.OPEN, status(tickAt(at(tuesday, 8, 0))));
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID, order(at(tuesday, 8, 1), 2, TimeInForce.GTC)
            .rejectReason(), "the GTC order still rests");
    }

    @Test
    void transitionsMissedWhileNobodySentAnythingAreAppliedInOrderAtTheNextCommand()
    {
        sendAt(at(MONDAY, 9, 0), londonWeekdays(h.encoder));
        assertEquals(ExecType.NEW, order(at(MONDAY, 9, 1), 1, TimeInForce.DAY).execType());
        // No Tick all evening: the next command, Tuesday at noon, first closes Monday, expires its DAY orders,
        // then takes Tuesday's pre-open and open.
        final List<Object> events = sendAt(at(MONDAY.plusDays(1), 12, 0), h.encoder.limit(SESSION, 2, 9, INSTRUMENT,
            Side.SELL, 10_100, 10));
        final List<TradingStatus> statuses = Harness.only(events, Harness.Definition.class).stream()
            .map(Harness.Definition::status).toList();
        assertEquals(List.of(TradingStatus.HALTED, TradingStatus.PRE_OPEN, TradingStatus.OPEN), statuses);
        final List<Harness.Er> reports = Harness.only(events, Harness.Er.class);
        assertEquals(ExecType.EXPIRED, reports.get(0).execType());
        assertEquals(ExecType.NEW, reports.get(1).execType(), "then the command, on the open venue");
    }

    @Test
    void weekendsHolidaysAndSummerTimeAreTheCalendars()
    {
        final LocalDate friday = MONDAY.plusDays(4);
        final LocalDate nextMonday = MONDAY.plusDays(7);
        final LocalDate nextTuesday = MONDAY.plusDays(8);
        sendAt(at(friday, 17, 30), londonWeekdays(h.encoder, (int)nextMonday.toEpochDay()));
        assertEquals(at(nextTuesday, 7, 50), h.processor.nextDeadlineNs(), "the weekend and the holiday are closed");
        // After the clocks went forward, 07:50 in London is 06:50 UTC; the week before it was 07:50 UTC.
        assertEquals(at(MONDAY.plusDays(1), 7, 50) + 7 * 86_400_000_000_000L - 3_600_000_000_000L,
            h.processor.nextDeadlineNs());
        assertEquals(LocalDateTime.of(2026, 3, 31, 6, 50).atZone(ZoneId.of("UTC")).toEpochSecond() * 1_000_000_000L,
            h.processor.nextDeadlineNs());
    }

    @Test
    void anOperatorsHaltOutlastsTheNextOpenAndAResumeReopens()
    {
        sendAt(at(MONDAY, 9, 0), londonWeekdays(h.encoder));
        sendAt(at(MONDAY, 10, 0), h.encoder.setTradingStatus(2, INSTRUMENT, TradingStatus.HALTED));
        assertTrue(Harness.only(tickAt(at(MONDAY, 16, 30)), Harness.Definition.class).isEmpty());
        tickAt(at(MONDAY, 17, 0));
        tickAt(at(MONDAY.plusDays(1), 7, 50));
        assertTrue(Harness.only(tickAt(at(MONDAY.plusDays(1), 8, 0)), Harness.Definition.class).isEmpty(),
            "the schedule does not reopen what an operator halted");
        assertEquals(TradingStatus.OPEN, status(sendAt(at(MONDAY.plusDays(1), 9, 0),
            h.encoder.setTradingStatus(3, INSTRUMENT, TradingStatus.OPEN))));
        assertEquals(TradingStatus.HALTED, status(tickAt(at(MONDAY.plusDays(1), 16, 30))), "and closes it again");
    }

    @Test
    void noTradingDaysRemovesTheSchedule()
    {
        sendAt(at(MONDAY, 6, 0), londonWeekdays(h.encoder));
        final List<Object> removed = sendAt(at(MONDAY, 6, 1), h.encoder.setTradingSchedule(2, 0, -1, 0, 0, 0,
            new int[0], "", "run by hand"));
        assertEquals(AdminStatus.ACCEPTED, Harness.only(removed, Harness.Admin.class).get(0).status());
        assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs());
        assertEquals(TradingStatus.OPEN, status(sendAt(at(MONDAY, 6, 2),
            h.encoder.setTradingStatus(3, INSTRUMENT, TradingStatus.OPEN))));
    }

    @Test
    void everyBadScheduleIsRefusedAndChangesNothing()
    {
        final List<ToIntFunction<CommandEncoder>> bad = List.of(
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, new int[0], "Mars/Olympus", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, new int[0], "", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, CLOSE, OPEN, END_OF_DAY, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, OPEN + 1, OPEN, CLOSE, END_OF_DAY, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, CLOSE - 1, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, 24 * 60, 24 * 60, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, 200, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, -2, OPEN, CLOSE, END_OF_DAY, new int[0], "UTC", ""),
            e -> e.setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, new int[367], "UTC", ""),
            e -> e.operator("").setTradingSchedule(1, WEEKDAYS, PRE_OPEN, OPEN, CLOSE, END_OF_DAY, new int[0],
                "UTC", ""));
        for (final ToIntFunction<CommandEncoder> command : bad)
        {
            final long hash = h.processor.stateHash();
            final List<Object> events = sendAt(at(MONDAY, 6, 0), command.applyAsInt(h.encoder));
            final Harness.Admin answer = Harness.only(events, Harness.Admin.class).get(0);
            assertEquals(AdminStatus.REJECTED, answer.status());
            assertEquals(RejectReason.INVALID_ARGUMENT, answer.reason());
            assertEquals(hash, h.processor.stateHash(), "a refused schedule changed the state");
            assertEquals(Long.MAX_VALUE, h.processor.nextDeadlineNs());
            h.encoder.operator("ringex");
        }
    }

    /**
     * Random calendars, operators' halts and order flow, each run twice (as live and as a replay of the same journal)
     * and once from a snapshot taken half-way: the same events, the same deadlines and the same state hash.
     */
    @Test
    void randomCalendarsActTheSameLiveFromASnapshotAndInAReplay()
    {
        final long seed = new Random().nextLong();
        final Random random = new Random(seed);
        for (int run = 0; run < 50; run++)
        {
            final List<Command> journal = journal(random);
            final Harness live = Harness.standard();
            final Harness replay = Harness.standard();
            final List<Object> liveEvents = new ArrayList<>();
            final List<Object> replayEvents = new ArrayList<>();
            final int half = journal.size() / 2;
            final ExpandableArrayBuffer image = new ExpandableArrayBuffer(8192);
            int imageLength = 0;
            final List<Object> fromSnapshotEvents = new ArrayList<>();
            Harness restored = null;
            for (int i = 0; i < journal.size(); i++)
            {
                final Command command = journal.get(i);
                liveEvents.addAll(command.sendTo(live));
                replayEvents.addAll(command.sendTo(replay));
                if (i == half)
                {
                    imageLength = live.processor.writeSnapshot(image, 0);
                    restored = new Harness();
                    restored.processor.restore(image, 0, imageLength);
                    restored.sequence = live.sequence;
                }
                else if (i > half)
                {
                    fromSnapshotEvents.addAll(command.sendTo(restored));
                    assertEquals(live.processor.stateHash(), restored.processor.stateHash(),
                        "seed " + seed + " run " + run + ": restored differs at command " + i);
                }
                assertEquals(live.processor.nextDeadlineNs(), replay.processor.nextDeadlineNs());
            }
            assertEquals(liveEvents, replayEvents, "seed " + seed + " run " + run);
            assertEquals(live.processor.stateHash(), replay.processor.stateHash(), "seed " + seed);
            assertEquals(liveEvents.subList(liveEvents.size() - fromSnapshotEvents.size(), liveEvents.size()),
                fromSnapshotEvents, "seed " + seed + " run " + run + ": events after the snapshot");
        }
    }

    /** One journaled command: its time and its encoding, replayable into any harness. */
    private record Command(long timeNs, ToIntFunction<CommandEncoder> encoding)
    {
        List<Object> sendTo(final Harness harness)
        {
            harness.time = timeNs - 1;
            return harness.send(encoding.applyAsInt(harness.encoder));
        }
    }

    private static List<Command> journal(final Random random)
    {
        final List<Command> journal = new ArrayList<>();
        final int open = 6 * 60 + random.nextInt(4 * 60);
        final int close = open + 1 + random.nextInt(8 * 60);
        final int endOfDay = close + random.nextInt(Math.max(1, 24 * 60 - close));
        final int preOpen = random.nextBoolean() ? -1 : random.nextInt(open);
        final int days = 1 + random.nextInt(127);
        final long start = at(MONDAY.plusDays(random.nextInt(14)), random.nextInt(24), random.nextInt(60));
        final int[] holidays = { (int)MONDAY.plusDays(random.nextInt(21)).toEpochDay() };
        final String zone = random.nextBoolean() ? "Europe/London" : "America/New_York";
        journal.add(new Command(start, e -> e.setTradingSchedule(1, days, preOpen, open, close, endOfDay, holidays,
            zone, "random calendar")));
        long time = start;
        for (int i = 0; i < 150; i++)
        {
            time += 1 + (long)(random.nextDouble() * 6 * 3_600_000_000_000L);
            final long clientOrderId = 1000 + i;
            final long account = 1 + random.nextInt(3);
            final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
            final TimeInForce tif = random.nextBoolean() ? TimeInForce.DAY : TimeInForce.GTC;
            final long price = 9_900 + 5 * random.nextInt(40);
            final int kind = random.nextInt(10);
            if (kind == 0)
            {
                final long at = time;
                journal.add(new Command(at, e -> e.tick(at)));
            }
            else if (kind == 1)
            {
                final TradingStatus status = random.nextBoolean() ? TradingStatus.HALTED : TradingStatus.OPEN;
                journal.add(new Command(time, e -> e.setTradingStatus(2, INSTRUMENT, status)));
            }
            else
            {
                journal.add(new Command(time, e -> e.newOrder(SESSION, account, clientOrderId, INSTRUMENT, side,
                    OrderType.LIMIT, tif, false, SelfTradePrevention.CANCEL_NEWEST, price, 10)));
            }
        }
        return journal;
    }
}
