package io.ringex.app.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UserRole;

/**
 * What a running venue holds, as its engine tells it on its streams ({@link VenueReader}): the instruments
 * (InstrumentDefinition), the accounts (AccountRiskUpdate and AccountDefinition: standing and every limit), their
 * market-maker protection (MarketMakerProtectionEvent) and the users (UserDefinition).
 * <p>
 * Not thread-safe: filled and read by one thread.
 */
final class VenueState
{
    /**
     * An instrument as its last InstrumentDefinition gave it.
     *
     * @param id             its id.
     * @param symbol         its symbol.
     * @param priceScale     decimal places.
     * @param tickSize       the price step.
     * @param lotSize        the quantity step.
     * @param referencePrice the band's centre.
     * @param bandType       the band's unit.
     * @param band           the band.
     * @param status         its trading status.
     */
    record Instrument(
        int id,
        String symbol,
        int priceScale,
        long tickSize,
        long lotSize,
        long referencePrice,
        PriceBandType bandType,
        long band,
        TradingStatus status)
    {
    }

    /**
     * An account as its last AccountRiskUpdate gave it.
     *
     * @param id               its id.
     * @param balance          cash, money.
     * @param reserved         held by open buys, money.
     * @param creditLimit      money.
     * @param maxOrderQuantity largest order quantity.
     * @param maxOrderNotional money.
     * @param openOrders       resting orders.
     * @param maxOpenOrders    most resting orders.
     * @param killSwitch       its kill switch.
     * @param positions        net position by instrument, of every position held that is not flat.
     * @param positionLimits   the effective position limit by instrument, for the same.
     * @param definition       its standing and the limits only AccountDefinition carries, null before one came.
     * @param complete         the positions are every position the engine holds (a whole refresh has come).
     */
    record Account(
        long id,
        long balance,
        long reserved,
        long creditLimit,
        long maxOrderQuantity,
        long maxOrderNotional,
        int openOrders,
        int maxOpenOrders,
        boolean killSwitch,
        SortedMap<Integer, Long> positions,
        SortedMap<Integer, Long> positionLimits,
        Definition definition,
        boolean complete)
    {
    }

    /**
     * An account's standing and the limits only its AccountDefinition carries.
     *
     * @param status               ACTIVE, SUSPENDED or CLOSED.
     * @param selfTradePrevention  the default of its orders.
     * @param defaultPositionLimit the position limit of every instrument without its own.
     * @param allowShort           short selling.
     * @param ownPositionLimits    the instruments with a limit of their own, with it.
     */
    record Definition(
        AccountStatus status,
        SelfTradePrevention selfTradePrevention,
        long defaultPositionLimit,
        boolean allowShort,
        SortedMap<Integer, Long> ownPositionLimits)
    {
    }

    /**
     * A user as the engine's directory gave it.
     *
     * @param username           login name.
     * @param enabled            may log on.
     * @param accounts           its accounts, the default first.
     * @param fixSenderCompId    its FIX SenderCompID, or empty.
     * @param cancelOnDisconnect its FIX sessions cancel on disconnect.
     * @param codGraceMs         its cancel-on-disconnect grace in ms, 0 for none.
     * @param throttle           messages per second, 0 for the gateway's default.
     * @param credential         its credential hash, empty when none is set.
     */
    record User(
        String username,
        boolean enabled,
        List<Long> accounts,
        String fixSenderCompId,
        boolean cancelOnDisconnect,
        int codGraceMs,
        int throttle,
        String credential,
        UserRole role)
    {
    }

    /**
     * An account's market-maker protection in one group, as its last MarketMakerProtectionEvent gave it.
     *
     * @param group         the group.
     * @param instruments   its instrument ids, ascending.
     * @param intervalNs    the rolling interval.
     * @param fillLimit     fills that breach.
     * @param quantityLimit quantity that breaches, 0 none.
     * @param notionalLimit notional that breaches, money, 0 none.
     * @param freezeNs      the freeze after a breach, 0 until reset.
     * @param cancelOrders  a breach cancels orders too.
     */
    record Protection(
        int group,
        SortedSet<Integer> instruments,
        long intervalNs,
        int fillLimit,
        long quantityLimit,
        long notionalLimit,
        long freezeNs,
        boolean cancelOrders)
    {
    }

    final SortedMap<Integer, Instrument> instruments = new TreeMap<>();
    /** Market-maker protection by account, then group; an account without any has no entry. */
    final SortedMap<Long, SortedMap<Integer, Protection>> protection = new TreeMap<>();
    final SortedMap<Long, Account> accounts = new TreeMap<>();
    /** In the engine's order (creation). */
    final Map<String, User> users = new LinkedHashMap<>();
    /** The trading day, once a TradingScheduleDefinition came (null before; tradingDays 0: none). */
    Schedule schedule;

    /**
     * The trading day as the engine publishes it (TradingScheduleDefinition).
     *
     * @param tradingDays    bit 0 Monday ... bit 6 Sunday; 0 for no schedule.
     * @param preOpenMinute  minute of the local day, or -1.
     * @param openMinute     minute of the open.
     * @param closeMinute    minute of the close.
     * @param endOfDayMinute minute DAY orders expire.
     * @param holidays       closed local dates as days since 1970-01-01, ascending.
     * @param timeZone       IANA id.
     */
    record Schedule(
        int tradingDays,
        int preOpenMinute,
        int openMinute,
        int closeMinute,
        int endOfDayMinute,
        List<Integer> holidays,
        String timeZone)
    {
        /**
         * @return a line for the operator.
         */
        String describe()
        {
            if (0 == tradingDays)
            {
                return "none";
            }
            final StringBuilder text = new StringBuilder(timeZone).append(' ');
            for (final java.time.DayOfWeek day : java.time.DayOfWeek.values())
            {
                if ((tradingDays & (1 << (day.getValue() - 1))) != 0)
                {
                    text.append(day.name(), 0, 3).append(' ');
                }
            }
            if (preOpenMinute >= 0)
            {
                text.append("pre-open ").append(time(preOpenMinute)).append(", ");
            }
            text.append("open ").append(time(openMinute)).append(", close ").append(time(closeMinute))
                .append(", end of day ").append(time(endOfDayMinute));
            if (!holidays.isEmpty())
            {
                text.append(", holidays ").append(holidays.stream()
                    .map(d -> java.time.LocalDate.ofEpochDay(d).toString()).toList());
            }
            return text.toString();
        }

        private static String time(final int minute)
        {
            return String.format("%02d:%02d", minute / 60, minute % 60);
        }
    }

    /**
     * @param symbol a symbol.
     * @return the venue's instrument with it, or null.
     */
    Instrument instrument(final String symbol)
    {
        for (final Instrument instrument : instruments.values())
        {
            if (instrument.symbol().equals(symbol))
            {
                return instrument;
            }
        }
        return null;
    }

    /**
     * @return whether the venue holds nothing.
     */
    boolean isEmpty()
    {
        return instruments.isEmpty() && accounts.isEmpty() && users.isEmpty();
    }
}
