package io.ringex.app.admin;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;

import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;

/**
 * A venue's reference data as an operator writes it in a file (docs/operations.md, "Onboarding"): its instruments,
 * accounts with their limits and opening balances, users, and the trading day's schedule. Read and validated by
 * {@link ReferenceDataParser}; applied to a running venue by {@code ./ringex admin apply} ({@link AdminCli}).
 * <p>
 * Values are in the wire's units: prices at the instrument's scale, money at {@code FixedPoint.MONEY_SCALE}. Each
 * item remembers the line it starts on, for messages.
 * <p>
 * Immutable; any thread.
 *
 * @param instruments the instruments, in file order.
 * @param accounts    the accounts, in file order.
 * @param users       the users, in file order.
 * @param schedule    the trading day, or null when the file has none.
 */
public record ReferenceData(
    List<Instrument> instruments, List<Account> accounts, List<User> users, Schedule schedule)
{
    /**
     * An instrument.
     *
     * @param id             its id.
     * @param symbol         1 to 16 printable characters.
     * @param priceScale     decimal places of its prices.
     * @param tickSize       the price step, at the scale.
     * @param lotSize        the quantity step.
     * @param referencePrice the centre of the price band, at the scale.
     * @param bandType       basis points or ticks.
     * @param band           the band's half width, in its type's unit.
     * @param line           where it starts in the file.
     */
    public record Instrument(
        int id,
        String symbol,
        int priceScale,
        long tickSize,
        long lotSize,
        long referencePrice,
        PriceBandType bandType,
        long band,
        int line)
    {
    }

    /**
     * An account's limits, replaced whole by a SetLimits.
     *
     * @param maxOrderQuantity     largest order quantity.
     * @param maxOrderNotional     largest order notional, money.
     * @param creditLimit          how far cash may go below zero, money.
     * @param positionLimit        the default absolute position limit.
     * @param maxOpenOrders        most resting orders.
     * @param allowShort           sells beyond the position, within the limit.
     * @param instrumentLimits     per-instrument position limits, by instrument id.
     */
    public record Limits(
        long maxOrderQuantity,
        long maxOrderNotional,
        long creditLimit,
        long positionLimit,
        int maxOpenOrders,
        boolean allowShort,
        SortedMap<Integer, Long> instrumentLimits)
    {
    }

    /**
     * An account's market-maker protection in one group of instruments, replaced whole by a SetMarketMakerProtection.
     *
     * @param group         1 to 65535, the account's name for the group.
     * @param instruments   the group's instrument ids, ascending.
     * @param intervalMs    the rolling interval the limits count over.
     * @param fillLimit     fills within the interval that breach.
     * @param quantityLimit quantity traded within the interval that breaches, 0 for none.
     * @param notionalLimit notional traded within the interval that breaches, money, 0 for none.
     * @param freezeMs      how long new quotes are refused after a breach, 0 until the account resets.
     * @param cancelOrders  a breach cancels the account's orders in the group too.
     * @param line          where it starts in the file.
     */
    public record Protection(
        int group,
        SortedSet<Integer> instruments,
        long intervalMs,
        int fillLimit,
        long quantityLimit,
        long notionalLimit,
        long freezeMs,
        boolean cancelOrders,
        int line)
    {
    }

    /**
     * An account.
     *
     * @param id             its id.
     * @param stp            its orders' default self-trade prevention.
     * @param openingBalance money deposited when it is opened.
     * @param limits         its limits.
     * @param protection     its market-maker protection, by group (ascending); empty for none.
     * @param line           where it starts in the file.
     */
    public record Account(
        long id, SelfTradePrevention stp, long openingBalance, Limits limits, List<Protection> protection, int line)
    {
    }

    /**
     * A user of the gateways.
     *
     * @param username           the login name.
     * @param credential         a PBKDF2 hash ({@code pbkdf2-sha256:...}), or null to leave it to
     *                           {@code admin user passwd}.
     * @param accounts           the accounts it may trade, the default first.
     * @param fixSenderCompId    its FIX SenderCompID, or empty for no FIX access.
     * @param cancelOnDisconnect its FIX sessions cancel their orders on disconnect.
     * @param codGraceMs         its cancel-on-disconnect grace: how long a disconnected session of it that asked for
     *                           cancel-on-disconnect keeps its orders, waiting for it to log on again (0: none).
     * @param throttle           messages per second per session, 0 for the gateway's default.
     * @param enabled            may log on.
     * @param role               TRADER, DROP_COPY (copies of its accounts' reports, no orders) or CLEARING (copies
     *                           of every account's).
     * @param line               where it starts in the file.
     */
    public record User(
        String username,
        String credential,
        List<Long> accounts,
        String fixSenderCompId,
        boolean cancelOnDisconnect,
        int codGraceMs,
        int throttle,
        boolean enabled,
        UserRole role,
        int line)
    {
    }

    /**
     * The trading day (docs/operations.md, "The trading day").
     *
     * @param timeZone the venue's time zone.
     * @param days     the trading days.
     * @param preOpen  when instruments enter pre-open, or null for none.
     * @param open     when instruments open.
     * @param close    when they close.
     * @param endOfDay when DAY orders expire (at or after the close).
     * @param holidays closed dates (local), ascending.
     * @param line     where it starts in the file.
     */
    public record Schedule(
        ZoneId timeZone,
        Set<DayOfWeek> days,
        LocalTime preOpen,
        LocalTime open,
        LocalTime close,
        LocalTime endOfDay,
        List<LocalDate> holidays,
        int line)
    {
        /**
         * @return the schedule as the engine holds and publishes it.
         */
        VenueState.Schedule asVenue()
        {
            int mask = 0;
            for (final DayOfWeek day : days)
            {
                mask |= 1 << (day.getValue() - 1);
            }
            return new VenueState.Schedule(mask, null == preOpen ? -1 : minute(preOpen), minute(open), minute(close),
                minute(endOfDay), holidays.stream().map(d -> (int)d.toEpochDay()).toList(), timeZone.getId());
        }

        private static int minute(final LocalTime time)
        {
            return time.getHour() * 60 + time.getMinute();
        }
    }

    private static final Map<String, SelfTradePrevention> STP_NAMES = new LinkedHashMap<>();

    static
    {
        STP_NAMES.put("cancel-newest", SelfTradePrevention.CANCEL_NEWEST);
        STP_NAMES.put("cancel-oldest", SelfTradePrevention.CANCEL_OLDEST);
        STP_NAMES.put("cancel-both", SelfTradePrevention.CANCEL_BOTH);
        STP_NAMES.put("decrement-and-cancel", SelfTradePrevention.DECREMENT_AND_CANCEL);
    }

    /**
     * @param name a self-trade prevention's name in files and on the command line ({@code cancel-newest}, ...).
     * @return it, or null.
     */
    public static SelfTradePrevention stp(final String name)
    {
        return STP_NAMES.get(name);
    }

    /**
     * @param stp a self-trade prevention.
     * @return its name in files and on the command line.
     */
    public static String stpName(final SelfTradePrevention stp)
    {
        for (final Map.Entry<String, SelfTradePrevention> entry : STP_NAMES.entrySet())
        {
            if (entry.getValue() == stp)
            {
                return entry.getKey();
            }
        }
        return stp.name();
    }

    /**
     * @return the self-trade prevention names, for usage messages.
     */
    public static Set<String> stpNames()
    {
        return STP_NAMES.keySet();
    }

    /**
     * @param symbol a symbol.
     * @return the file's instrument with it, or null.
     */
    public Instrument instrument(final String symbol)
    {
        for (final Instrument instrument : instruments)
        {
            if (instrument.symbol().equals(symbol))
            {
                return instrument;
            }
        }
        return null;
    }

    /**
     * {@code validate FILE...}: parse and validate reference-data files, printing each one's problems (CI and
     * docker/validate.sh run this).
     *
     * @param args the files.
     */
    public static void main(final String[] args)
    {
        System.exit(validate(args, System.out, System.err));
    }

    /**
     * @param files the files.
     * @param out   where a valid file is reported.
     * @param err   where problems go.
     * @return 0 every file valid, 1 a problem, 2 no file given.
     */
    static int validate(final String[] files, final PrintStream out, final PrintStream err)
    {
        if (files.length == 0)
        {
            err.println("usage: validate FILE...");
            return 2;
        }
        int status = 0;
        for (final String file : files)
        {
            try
            {
                final ReferenceData data = ReferenceDataParser.parse(Path.of(file));
                out.println(file + ": valid: " + data.instruments().size() + " instruments, " +
                    data.accounts().size() + " accounts, " + data.users().size() + " users" +
                    (null == data.schedule() ? "" : ", a schedule"));
            }
            catch (final ReferenceDataException ex)
            {
                for (final String problem : ex.problems())
                {
                    err.println(problem);
                }
                status = 1;
            }
        }
        return status;
    }
}
