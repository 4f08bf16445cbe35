package io.ringex.engine.processor;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Arrays;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.OrderBook;
import io.ringex.protocol.CommandText;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetTradingScheduleDecoder;
import org.agrona.collections.IntHashSet;

/**
 * The venue's trading day as engine state: pre-open, open, close and end of day on each trading day, in the schedule's
 * time zone (docs/operations.md, "The trading day").
 * <p>
 * Transitions happen on the ring's clock ({@link Clocked}): every transition due is applied, in order, before the first
 * command past it, so the live node, every cluster member and a replay of the journal apply them at the same command.
 * <p>
 * Threading: single business-logic thread.
 */
final class TradingSchedule implements Clocked
{
    /** A year's closures: a command must fit an input slot (256 bytes by default). */
    static final int MAX_HOLIDAYS = 12;
    static final int MAX_TIME_ZONE = 32;
    static final int NO_PRE_OPEN = -1;
    static final int MINUTES_A_DAY = 24 * 60;
    /** Transitions in their order within a day. */
    static final byte PRE_OPEN = 0;
    static final byte OPEN = 1;
    static final byte CLOSE = 2;
    static final byte END_OF_DAY = 3;
    private static final int SEARCH_DAYS = 400;
    private static final long NANOS_A_SECOND = 1_000_000_000L;

    private final EngineState state;
    private final EventEncoder events;
    private final MassCancels massCancels;
    private final TradingPhases phases;
    private final IntHashSet held = new IntHashSet();
    private int tradingDays;
    private int preOpenMinute = NO_PRE_OPEN;
    private int openMinute;
    private int closeMinute;
    private int endOfDayMinute;
    private String timeZone = "";
    private ZoneId zone;
    private int[] holidays = new int[0];
    private long lastActedNs;
    private long nextNs = Long.MAX_VALUE;
    private byte nextKind;

    TradingSchedule(
        final EngineState state, final EventEncoder events, final MassCancels massCancels, final TradingPhases phases)
    {
        this.state = state;
        this.events = events;
        this.massCancels = massCancels;
        this.phases = phases;
    }

    /**
     * SetTradingSchedule: INVALID_ARGUMENT unless the days are 0..127 and, with trading days, the minutes are in
     * order within the day (pre-open before the open, the open before the close, the end of day at or after the close),
     * at most {@value #MAX_HOLIDAYS} holidays, a time zone the JVM knows and the operator named.
     *
     * @param decoder wrapped on the command.
     * @param nowNs   the command's time.
     */
    void onSetTradingSchedule(final SetTradingScheduleDecoder decoder, final long nowNs)
    {
        final long requestId = decoder.requestId();
        final int days = decoder.tradingDays();
        final int preOpen = decoder.preOpenMinute();
        final int open = decoder.openMinute();
        final int close = decoder.closeMinute();
        final int endOfDay = decoder.endOfDayMinute();
        final SetTradingScheduleDecoder.HolidaysDecoder group = decoder.holidays();
        final int[] closedDays = new int[group.count()];
        int i = 0;
        for (final SetTradingScheduleDecoder.HolidaysDecoder holiday : group)
        {
            closedDays[i++] = holiday.epochDay();
        }
        final String zoneId = decoder.timeZone();
        final String operator = decoder.operatorName();
        final String reason = decoder.reason();
        ZoneId parsedZone = null;
        if (days != 0 && zoneId.length() <= MAX_TIME_ZONE && CommandText.isToken(zoneId, MAX_TIME_ZONE))
        {
            try
            {
                parsedZone = ZoneId.of(zoneId);
            }
            catch (final DateTimeException ex)
            {
                parsedZone = null;
            }
        }
        final boolean valid = Text.isAudited(operator, reason) && days >= 0 && days < 128 &&
            (days != 0 || closedDays.length == 0) &&
            (days == 0 || null != parsedZone && closedDays.length <= MAX_HOLIDAYS &&
            open >= 0 && close > open && close < MINUTES_A_DAY && endOfDay >= close && endOfDay < MINUTES_A_DAY &&
            (preOpen == NO_PRE_OPEN || preOpen >= 0 && preOpen < open));
        if (!valid)
        {
            events.adminResponse(requestId, SetTradingScheduleDecoder.TEMPLATE_ID, RejectReason.INVALID_ARGUMENT);
            return;
        }
        held.clear();
        if (days == 0)
        {
            tradingDays = 0;
            timeZone = "";
            zone = null;
            holidays = new int[0];
            preOpenMinute = NO_PRE_OPEN;
            openMinute = closeMinute = endOfDayMinute = 0;
            nextNs = Long.MAX_VALUE;
            events.adminResponse(requestId, SetTradingScheduleDecoder.TEMPLATE_ID, RejectReason.NONE);
            publish();
            return;
        }
        tradingDays = days;
        preOpenMinute = preOpen;
        openMinute = open;
        closeMinute = close;
        endOfDayMinute = endOfDay;
        timeZone = zoneId;
        zone = parsedZone;
        Arrays.sort(closedDays);
        holidays = closedDays;
        lastActedNs = nowNs;
        events.adminResponse(requestId, SetTradingScheduleDecoder.TEMPLATE_ID, RejectReason.NONE);
        publish();
        if (!withinOpenHours(nowNs))
        {
            close();
        }
        scheduleNext();
    }

    /**
     * An operator set an instrument's status: the schedule lets go of it until the next close.
     *
     * @param instrumentId the instrument.
     */
    void onOperatorStatus(final int instrumentId)
    {
        held.remove(instrumentId);
    }

    /**
     * Publish the schedule as it stands (TradingScheduleDefinition).
     */
    void publish()
    {
        events.tradingSchedule(tradingDays, preOpenMinute, openMinute, closeMinute, endOfDayMinute, timeZone, holidays);
    }

    public long nextDeadlineNs()
    {
        return nextNs;
    }

    public void onTime(final long nowNs)
    {
        while (nextNs <= nowNs)
        {
            lastActedNs = nextNs;
            switch (nextKind)
            {
                case OPEN:
                    open();
                    break;
                case CLOSE:
                    close();
                    break;
                case END_OF_DAY:
                    massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, MassCancels.ANY_SESSION, true,
                        ExecType.EXPIRED, CancelReason.END_OF_DAY, null);
                    break;
                default:
                    preOpen();
                    break;
            }
            scheduleNext();
        }
    }

    /**
     * The held instruments enter the pre-open call phase: orders and cancels are taken, nothing matches, the
     * indicative price is published.
     */
    private void preOpen()
    {
        for (int b = 0, n = state.bookCount(); b < n; b++)
        {
            final OrderBook book = state.bookAt(b);
            if (held.contains(book.instrument().instrumentId()) &&
                book.instrument().status() == Instrument.STATUS_HALTED)
            {
                phases.scheduled(book, Instrument.STATUS_PRE_OPEN);
            }
        }
    }

    /**
     * The held instruments open: from the pre-open, the opening uncrossing first.
     */
    private void open()
    {
        for (int b = 0, n = state.bookCount(); b < n; b++)
        {
            final OrderBook book = state.bookAt(b);
            final byte status = book.instrument().status();
            if (held.remove(book.instrument().instrumentId()) &&
                (status == Instrument.STATUS_HALTED || status == Instrument.STATUS_PRE_OPEN))
            {
                phases.scheduled(book, Instrument.STATUS_OPEN);
            }
        }
    }

    /**
     * Every instrument trading (continuously or in a call phase) is held: no new orders, resting ones kept.
     */
    private void close()
    {
        for (int b = 0, n = state.bookCount(); b < n; b++)
        {
            final OrderBook book = state.bookAt(b);
            final byte status = book.instrument().status();
            if (status == Instrument.STATUS_OPEN || Instrument.isCallPhase(status))
            {
                phases.scheduled(book, Instrument.STATUS_HALTED);
                held.add(book.instrument().instrumentId());
            }
        }
    }

    private void scheduleNext()
    {
        nextNs = Long.MAX_VALUE;
        if (tradingDays == 0)
        {
            return;
        }
        final long startDay = localDay(lastActedNs) - 1;
        for (long day = startDay; day <= startDay + SEARCH_DAYS; day++)
        {
            if (!isTradingDay(day))
            {
                continue;
            }
            for (byte kind = PRE_OPEN; kind <= END_OF_DAY; kind++)
            {
                final int minute = minute(kind);
                if (minute == NO_PRE_OPEN)
                {
                    continue;
                }
                final long atNs = instantNs(day, minute);
                if (atNs > lastActedNs)
                {
                    nextNs = atNs;
                    nextKind = kind;
                    return;
                }
            }
        }
    }

    /**
     * Whether the last transition at or before a time was an open: the venue is within its open hours.
     */
    private boolean withinOpenHours(final long nowNs)
    {
        final long today = localDay(nowNs);
        for (long day = today; day >= today - SEARCH_DAYS; day--)
        {
            if (!isTradingDay(day))
            {
                continue;
            }
            for (byte kind = END_OF_DAY; kind >= PRE_OPEN; kind--)
            {
                final int minute = minute(kind);
                if (minute != NO_PRE_OPEN && instantNs(day, minute) <= nowNs)
                {
                    return kind == OPEN;
                }
            }
        }
        return false;
    }

    private int minute(final byte kind)
    {
        switch (kind)
        {
            case PRE_OPEN:
                return preOpenMinute;
            case OPEN:
                return openMinute;
            case CLOSE:
                return closeMinute;
            default:
                return endOfDayMinute;
        }
    }

    private boolean isTradingDay(final long epochDay)
    {
        final DayOfWeek dayOfWeek = LocalDate.ofEpochDay(epochDay).getDayOfWeek();
        return (tradingDays & (1 << (dayOfWeek.getValue() - 1))) != 0 &&
            Arrays.binarySearch(holidays, (int)epochDay) < 0;
    }

    private long localDay(final long epochNs)
    {
        return LocalDate.ofInstant(Instant.ofEpochSecond(Math.floorDiv(epochNs, NANOS_A_SECOND)), zone).toEpochDay();
    }

    private long instantNs(final long epochDay, final int minute)
    {
        return LocalDate.ofEpochDay(epochDay).atTime(LocalTime.of(minute / 60, minute % 60)).atZone(zone)
            .toEpochSecond() * NANOS_A_SECOND;
    }

    // ---------------------------------------------------------------- snapshot

    int tradingDays()
    {
        return tradingDays;
    }

    int preOpenMinute()
    {
        return preOpenMinute;
    }

    int openMinute()
    {
        return openMinute;
    }

    int closeMinute()
    {
        return closeMinute;
    }

    int endOfDayMinute()
    {
        return endOfDayMinute;
    }

    String timeZone()
    {
        return timeZone;
    }

    int[] holidays()
    {
        return holidays;
    }

    long lastActedNs()
    {
        return lastActedNs;
    }

    /**
     * @return the instruments the schedule holds, ascending (a canonical order for the snapshot and the hash).
     */
    int[] heldInstruments()
    {
        final int[] ids = new int[held.size()];
        int i = 0;
        final IntHashSet.IntIterator iterator = held.iterator();
        while (iterator.hasNext())
        {
            ids[i++] = iterator.nextValue();
        }
        Arrays.sort(ids);
        return ids;
    }

    /**
     * Restore from a snapshot.
     */
    void restore(
        final int days,
        final int preOpen,
        final int open,
        final int close,
        final int endOfDay,
        final String zoneId,
        final int[] closedDays,
        final long lastActed,
        final int[] heldInstruments)
    {
        tradingDays = days;
        preOpenMinute = preOpen;
        openMinute = open;
        closeMinute = close;
        endOfDayMinute = endOfDay;
        timeZone = zoneId;
        zone = days == 0 ? null : ZoneId.of(zoneId);
        holidays = closedDays;
        lastActedNs = lastActed;
        held.clear();
        for (final int id : heldInstruments)
        {
            held.add(id);
        }
        scheduleNext();
    }
}
