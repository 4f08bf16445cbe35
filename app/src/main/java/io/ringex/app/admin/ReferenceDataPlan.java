package io.ringex.app.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;

import io.ringex.client.AdminClient;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.UserRoles;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UserRole;

/**
 * What must change for a venue to hold a reference-data file: the commands, in an order the engine takes them
 * (instruments, accounts, their limits and balances, then users and credentials), each with a line saying what it does;
 * what it compares is docs/operations.md's ("What {@code apply} compares").
 * <p>
 * Applying the same file again finds nothing to change, and nothing at the venue is removed because the file omits it
 * ({@link #extras()}); what cannot be applied is listed in {@link #conflicts()}.
 * <p>
 * Immutable once computed; one thread.
 */
public final class ReferenceDataPlan
{
    /** Writes a step's command; returns its length. */
    @FunctionalInterface
    interface Command
    {
        /**
         * @param commands  the encoder (its operator already named).
         * @param requestId the command's request id.
         * @return its length.
         */
        int encode(CommandEncoder commands, long requestId);
    }

    /**
     * One command and what it does.
     *
     * @param description a line for the operator.
     * @param command     the command.
     */
    record Step(String description, Command command)
    {
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<String> conflicts = new ArrayList<>();
    private final List<String> extras = new ArrayList<>();

    private ReferenceDataPlan()
    {
    }

    /**
     * @param file   what the venue should hold.
     * @param venue  what it holds.
     * @param reason the reason the commands give (may be empty).
     * @return the plan.
     */
    static ReferenceDataPlan compute(final ReferenceData file, final VenueState venue, final String reason)
    {
        final ReferenceDataPlan plan = new ReferenceDataPlan();
        plan.instruments(file, venue, reason);
        plan.accounts(file, venue, reason);
        plan.users(file, venue, reason);
        plan.schedule(file, venue, reason);
        return plan;
    }

    /**
     * Install a file on a venue known to hold nothing yet (a fresh all-in-one: no need to read its streams).
     *
     * @param admin  the engine's admin link (its encoder names the operator).
     * @param data   the file.
     * @param reason the reason the commands give.
     * @throws IllegalStateException if the engine refuses a command (naming it and the reason).
     */
    public static void install(final AdminClient admin, final ReferenceData data, final String reason)
    {
        final String refusal = compute(data, new VenueState(), reason).apply(admin, 1, (line) ->
        {
        });
        if (null != refusal)
        {
            throw new IllegalStateException("the engine refused the reference data: " + refusal);
        }
    }

    /**
     * @return the commands to send, in order; empty when the venue already holds the file.
     */
    List<Step> steps()
    {
        return steps;
    }

    /**
     * @return what the file asks that cannot be applied; the plan must not be applied when any.
     */
    List<String> conflicts()
    {
        return conflicts;
    }

    /**
     * @return what the venue holds that the file does not name (left as it is).
     */
    List<String> extras()
    {
        return extras;
    }

    /**
     * Send the steps one by one, each after the engine accepted the previous one.
     *
     * @param admin     the engine's admin link (its encoder names the operator).
     * @param requestId the first request id.
     * @param progress  told each step's line with its answer, as it is answered.
     * @return null when every step was accepted, else the refused step's line and the engine's reason.
     */
    String apply(final AdminClient admin, final long requestId, final java.util.function.Consumer<String> progress)
    {
        long next = requestId;
        for (final Step step : steps)
        {
            final AdminClient.Answer answer = admin.request(step.command().encode(admin.commands(), next++));
            if (!answer.accepted())
            {
                return step.description() + ": refused: " + answer.reason();
            }
            progress.accept("done: " + step.description());
        }
        return null;
    }

    private void instruments(final ReferenceData file, final VenueState venue, final String reason)
    {
        for (final ReferenceData.Instrument want : file.instruments())
        {
            final VenueState.Instrument have = venue.instruments.get(want.id());
            final VenueState.Instrument holder = venue.instrument(want.symbol());
            if (null != holder && holder.id() != want.id())
            {
                conflicts.add("instrument " + want.id() + ": the symbol " + want.symbol() + " is instrument " +
                    holder.id() + "'s at the venue");
                continue;
            }
            if (null == have)
            {
                steps.add(new Step("add instrument " + want.id() + " " + want.symbol() + ": " + describe(want),
                    (c, id) -> c.addInstrument(id, want.id(), want.symbol(), want.priceScale(), want.tickSize(),
                    want.lotSize(), want.referencePrice(), want.bandType(), want.band())));
                continue;
            }
            if (have.status() == TradingStatus.DELISTED)
            {
                conflicts.add("instrument " + want.id() + " " + want.symbol() + " is delisted at the venue and " +
                    "cannot come back: remove it from the file");
                continue;
            }
            if (have.priceScale() != want.priceScale())
            {
                conflicts.add("instrument " + want.id() + " " + want.symbol() + ": its price scale is " +
                    have.priceScale() + " at the venue and cannot change (the file says " + want.priceScale() + ")");
                continue;
            }
            final List<String> changes = new ArrayList<>();
            final int scale = want.priceScale();
            change(changes, "symbol", have.symbol(), want.symbol());
            change(changes, "tick", FixedPoint.format(have.tickSize(), scale), FixedPoint.format(want.tickSize(),
                scale));
            change(changes, "lot", have.lotSize(), want.lotSize());
            change(changes, "referencePrice", FixedPoint.format(have.referencePrice(), scale),
                FixedPoint.format(want.referencePrice(), scale));
            change(changes, "band", band(have.bandType(), have.band()), band(want.bandType(), want.band()));
            if (!changes.isEmpty())
            {
                steps.add(new Step("amend instrument " + want.id() + ": " + String.join(", ", changes),
                    (c, id) -> c.amendInstrument(id, want.id(), want.symbol(), want.tickSize(), want.lotSize(),
                    want.referencePrice(), want.bandType(), want.band(), reason)));
            }
        }
        for (final VenueState.Instrument have : venue.instruments.values())
        {
            if (file.instruments().stream().noneMatch((i) -> i.id() == have.id()))
            {
                extras.add("instrument " + have.id() + " " + have.symbol() + " (" + have.status() + ")");
            }
        }
    }

    private void accounts(final ReferenceData file, final VenueState venue, final String reason)
    {
        for (final ReferenceData.Account want : file.accounts())
        {
            final VenueState.Account have = venue.accounts.get(want.id());
            final ReferenceData.Limits limits = want.limits();
            final Command setLimits = (c, id) -> c.setLimits(id, want.id(), limits.maxOrderQuantity(),
                limits.maxOrderNotional(), limits.creditLimit(), limits.positionLimit(), limits.maxOpenOrders(),
                limits.allowShort(), limits.instrumentLimits().keySet().stream().mapToInt(Integer::intValue).toArray(),
                limits.instrumentLimits().values().stream().mapToLong(Long::longValue).toArray());
            if (null == have)
            {
                steps.add(new Step("open account " + want.id() + ": self-trade prevention " +
                    ReferenceData.stpName(want.stp()), (c, id) -> c.addAccount(id, want.id(), want.stp())));
                steps.add(new Step("set limits of account " + want.id() + ": " + describe(limits), setLimits));
                if (want.openingBalance() > 0)
                {
                    steps.add(new Step("deposit " + money(want.openingBalance()) + " to account " + want.id() +
                        " (opening balance)", (c, id) -> c.adjustBalance(id, want.id(), want.openingBalance(),
                        "opening balance", reason)));
                }
                protection(want, java.util.Collections.emptySortedMap(), reason);
                continue;
            }
            protection(want, venue.protection.getOrDefault(want.id(), java.util.Collections.emptySortedMap()),
                reason);
            final List<String> changes = new ArrayList<>();
            change(changes, "maxOrderQuantity", have.maxOrderQuantity(), limits.maxOrderQuantity());
            change(changes, "maxOrderNotional", money(have.maxOrderNotional()), money(limits.maxOrderNotional()));
            change(changes, "creditLimit", money(have.creditLimit()), money(limits.creditLimit()));
            change(changes, "maxOpenOrders", have.maxOpenOrders(), limits.maxOpenOrders());
            final VenueState.Definition known = have.definition();
            if (null != known)
            {
                change(changes, "positionLimit", known.defaultPositionLimit(), limits.positionLimit());
                change(changes, "allowShort", known.allowShort(), limits.allowShort());
                change(changes, "instrumentLimits", known.ownPositionLimits(), limits.instrumentLimits());
            }
            else
            {
                for (final Map.Entry<Integer, Long> limit : have.positionLimits().entrySet())
                {
                    final long wanted = limits.instrumentLimits().getOrDefault(limit.getKey(),
                        limits.positionLimit());
                    change(changes, "position limit in instrument " + limit.getKey(), limit.getValue(), wanted);
                }
            }
            if (!changes.isEmpty())
            {
                steps.add(new Step("set limits of account " + want.id() + ": " + String.join(", ", changes),
                    setLimits));
            }
        }
        for (final VenueState.Account have : venue.accounts.values())
        {
            if (file.accounts().stream().noneMatch((a) -> a.id() == have.id()))
            {
                extras.add("account " + have.id());
            }
        }
    }

    private void protection(
        final ReferenceData.Account account, final SortedMap<Integer, VenueState.Protection> venue, final String reason)
    {
        final long ms = 1_000_000L;
        for (final ReferenceData.Protection want : account.protection())
        {
            final VenueState.Protection have = venue.get(want.group());
            final VenueState.Protection wanted = new VenueState.Protection(want.group(), want.instruments(),
                want.intervalMs() * ms, want.fillLimit(), want.quantityLimit(), want.notionalLimit(),
                want.freezeMs() * ms, want.cancelOrders());
            if (wanted.equals(have))
            {
                continue;
            }
            // Only when it differs: setting a group again clears its counters and lifts a freeze.
            final int[] instruments = want.instruments().stream().mapToInt(Integer::intValue).toArray();
            steps.add(new Step((null == have ? "set" : "change") + " market-maker protection of account " +
                account.id() + " group " + want.group() + ": " + describe(want), (c, id) ->
                c.setMarketMakerProtection(id, account.id(), want.group(), wanted.intervalNs(), want.quantityLimit(),
                want.notionalLimit(), want.fillLimit(), wanted.freezeNs(), want.cancelOrders(), instruments,
                reason)));
        }
        for (final VenueState.Protection have : venue.values())
        {
            if (account.protection().stream().noneMatch((p) -> p.group() == have.group()))
            {
                extras.add("market-maker protection of account " + account.id() + " group " + have.group());
            }
        }
    }

    private void users(final ReferenceData file, final VenueState venue, final String reason)
    {
        for (final ReferenceData.User want : file.users())
        {
            final VenueState.User have = venue.users.get(want.username());
            final long[] accounts = want.accounts().stream().mapToLong(Long::longValue).toArray();
            final Command upsert = (c, id) -> c.upsertUser(id, want.username(), want.enabled(), accounts,
                want.fixSenderCompId(), want.cancelOnDisconnect(), want.throttle(), want.role(), want.codGraceMs(),
                reason);
            if (null == have)
            {
                steps.add(new Step("add user " + want.username() + ": " + describe(want), upsert));
            }
            else
            {
                final List<String> changes = new ArrayList<>();
                change(changes, "accounts", have.accounts(), want.accounts());
                change(changes, "fixSenderCompId", have.fixSenderCompId(), want.fixSenderCompId());
                change(changes, "cancelOnDisconnect", have.cancelOnDisconnect(), want.cancelOnDisconnect());
                change(changes, "cancelOnDisconnectGraceMs", have.codGraceMs(), want.codGraceMs());
                change(changes, "throttle", have.throttle(), want.throttle());
                change(changes, "enabled", have.enabled(), want.enabled());
                change(changes, "role", UserRoles.name(have.role()), UserRoles.name(want.role()));
                if (!changes.isEmpty())
                {
                    steps.add(new Step("change user " + want.username() + ": " + String.join(", ", changes),
                        upsert));
                }
            }
            if (null != want.credential() && (null == have || !want.credential().equals(have.credential())))
            {
                steps.add(new Step("set the credential of user " + want.username(), (c, id) ->
                    c.setUserCredential(id, want.username(), want.credential(), reason)));
            }
        }
        for (final VenueState.User have : venue.users.values())
        {
            if (file.users().stream().noneMatch((u) -> u.username().equals(have.username())))
            {
                extras.add("user " + have.username() + (have.enabled() ? "" : " (disabled)"));
            }
        }
    }

    private void schedule(final ReferenceData file, final VenueState venue, final String reason)
    {
        final VenueState.Schedule have = venue.schedule;
        if (null == file.schedule())
        {
            if (null != have && have.tradingDays() != 0)
            {
                extras.add("the trading schedule " + have.describe());
            }
            return;
        }
        final VenueState.Schedule want = file.schedule().asVenue();
        if (!want.equals(have))
        {
            steps.add(new Step("set the trading schedule: " + want.describe() +
                (null == have ? "" : " (was " + have.describe() + ")"), (c, id) -> c.setTradingSchedule(id,
                want.tradingDays(), want.preOpenMinute(), want.openMinute(), want.closeMinute(),
                want.endOfDayMinute(), want.holidays().stream().mapToInt(Integer::intValue).toArray(),
                want.timeZone(), reason)));
        }
    }

    private static void change(final List<String> changes, final String what, final Object have, final Object want)
    {
        if (!Objects.equals(have, want))
        {
            changes.add(what + " " + have + " -> " + want);
        }
    }

    static String describe(final ReferenceData.Instrument i)
    {
        final int scale = i.priceScale();
        return "scale " + scale + ", tick " + FixedPoint.format(i.tickSize(), scale) + ", lot " + i.lotSize() +
            ", reference " + FixedPoint.format(i.referencePrice(), scale) + ", band " + band(i.bandType(), i.band());
    }

    static String describe(final ReferenceData.Limits l)
    {
        return "maxOrderQuantity " + l.maxOrderQuantity() + ", maxOrderNotional " + money(l.maxOrderNotional()) +
            ", creditLimit " + money(l.creditLimit()) + ", positionLimit " + l.positionLimit() +
            (l.instrumentLimits().isEmpty() ? "" : " " + l.instrumentLimits()) + ", maxOpenOrders " +
            l.maxOpenOrders() + ", allowShort " + l.allowShort();
    }

    static String describe(final ReferenceData.Protection p)
    {
        return "instruments " + p.instruments() + ", interval " + p.intervalMs() + " ms, fillLimit " + p.fillLimit() +
            (p.quantityLimit() == 0 ? "" : ", quantityLimit " + p.quantityLimit()) +
            (p.notionalLimit() == 0 ? "" : ", notionalLimit " + money(p.notionalLimit())) +
            (p.freezeMs() == 0 ? ", frozen until reset" : ", freeze " + p.freezeMs() + " ms") +
            (p.cancelOrders() ? ", orders too" : "");
    }

    static String describe(final ReferenceData.User u)
    {
        return "accounts " + u.accounts() + (u.fixSenderCompId().isEmpty() ? ", no FIX" : ", FIX " +
            u.fixSenderCompId()) + (u.cancelOnDisconnect() ? " (cancel on disconnect)" : "") +
            (u.codGraceMs() == 0 ? "" : ", cancel-on-disconnect grace " + u.codGraceMs() + " ms") +
            (u.throttle() == 0 ? "" : ", throttle " + u.throttle() + "/s") + (u.enabled() ? "" : ", disabled") +
            (u.role() == UserRole.TRADER ? "" : ", role " + UserRoles.name(u.role())) +
            (null == u.credential() ? ", no credential" : "");
    }

    static String band(final PriceBandType type, final long band)
    {
        return band + (type == PriceBandType.TICKS ? " ticks" : " bps");
    }

    static String money(final long amount)
    {
        final String text = FixedPoint.format(amount, FixedPoint.MONEY_SCALE);
        // 5000000.00000000 reads better as 5000000
        return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    }
}
