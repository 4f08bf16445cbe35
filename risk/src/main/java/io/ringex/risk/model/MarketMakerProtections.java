package io.ringex.risk.model;

import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MmpEventType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The market-maker protection of each account and group as the risk stream's MarketMakerProtectionEvents last told
 * it: limits, what was traded within the interval, and whether the group is frozen (every event carries the group's
 * whole state, so the last one is the truth; REMOVED takes the group away). The engine publishes a STATE event per
 * group for late joiners, so a service started after the events still learns them.
 * <p>
 * Thread safety: the Aeron agent writes, web threads read; every method is synchronized.
 */
public final class MarketMakerProtections
{
    /**
     * One group's state.
     *
     * @param accountId       the account.
     * @param groupId         the account's name for the group.
     * @param instruments     its instruments.
     * @param lastEvent       what happened last (CONFIGURED, BREACHED, UNFROZEN, RESET, STATE).
     * @param limitReached    BREACHED: the limit the fill reached (QUANTITY, NOTIONAL, FILLS); else NONE.
     * @param intervalNs      the rolling interval.
     * @param quantityLimit   quantity its quotes may trade within it; 0 for none.
     * @param notionalLimit   notional they may trade within it, money text; "0" for none.
     * @param fillLimit       fills they may have within it.
     * @param freezeNs        how long a breach freezes new quotes; 0 until reset.
     * @param cancelOrders    whether a breach cancels the account's orders in the group too.
     * @param quantityTraded  within the interval, as of the event.
     * @param notionalTraded  within the interval, money text.
     * @param fills           within the interval.
     * @param frozen          whether new quotes are refused now.
     * @param frozenUntilNs   when the freeze ends on the engine's clock; 0 while frozen means until reset.
     * @param quotesCanceled  BREACHED: quote orders cancelled.
     * @param ordersCanceled  BREACHED: other orders cancelled.
     * @param transactTimeNs  the event's time on the engine's clock.
     * @param commandSequence the command it came from (the journal's audit trail).
     */
    public record Group(long accountId, int groupId, List<Integer> instruments, String lastEvent, String limitReached,
        long intervalNs, long quantityLimit, String notionalLimit, int fillLimit, long freezeNs, boolean cancelOrders,
        long quantityTraded, String notionalTraded, int fills, boolean frozen, long frozenUntilNs, int quotesCanceled,
        int ordersCanceled, long transactTimeNs, long commandSequence)
    {
    }

    private final Map<Long, TreeMap<Integer, Group>> byAccount = new TreeMap<>();

    /**
     * Apply one event of the followed engine.
     *
     * @param event wrapped on the risk stream's message.
     */
    public synchronized void onEvent(final MarketMakerProtectionEventDecoder event)
    {
        final long accountId = event.accountId();
        final int groupId = event.mmpGroupId();
        final MmpEventType type = event.eventType();
        final String limit = event.limitReached().name();
        final long intervalNs = event.intervalNs();
        final long quantityLimit = event.quantityLimit();
        final String notionalLimit = FixedPoint.format(event.notionalLimit(), FixedPoint.MONEY_SCALE);
        final int fillLimit = event.fillLimit();
        final long freezeNs = event.freezeNs();
        final boolean cancelOrders = event.cancelOrders() == BooleanType.TRUE;
        final long quantityTraded = event.quantityTraded();
        final String notionalTraded = FixedPoint.format(event.notionalTraded(), FixedPoint.MONEY_SCALE);
        final int fills = event.fills();
        final boolean frozen = event.frozen() == BooleanType.TRUE;
        final long frozenUntilNs = event.frozenUntilNs();
        final int quotesCanceled = event.quotesCanceled();
        final int ordersCanceled = event.ordersCanceled();
        final long transactTimeNs = event.transactTimeNs();
        final long commandSequence = event.commandSequence();
        final List<Integer> instruments = new ArrayList<>();
        for (final MarketMakerProtectionEventDecoder.InstrumentsDecoder instrument : event.instruments())
        {
            instruments.add(instrument.instrumentId());
        }
        if (type == MmpEventType.REMOVED)
        {
            final TreeMap<Integer, Group> groups = byAccount.get(accountId);
            if (null != groups)
            {
                groups.remove(groupId);
                if (groups.isEmpty())
                {
                    byAccount.remove(accountId);
                }
            }
            return;
        }
        byAccount.computeIfAbsent(accountId, k -> new TreeMap<>()).put(groupId, new Group(accountId, groupId,
            List.copyOf(instruments), type.name(), limit, intervalNs, quantityLimit, notionalLimit, fillLimit,
            freezeNs, cancelOrders, quantityTraded, notionalTraded, fills, frozen, frozenUntilNs, quotesCanceled,
            ordersCanceled, transactTimeNs, commandSequence));
    }

    /**
     * @param accountId an account.
     * @return its groups by group id; empty if it has none.
     */
    public synchronized List<Group> of(final long accountId)
    {
        final TreeMap<Integer, Group> groups = byAccount.get(accountId);
        return null == groups ? List.of() : List.copyOf(groups.values());
    }

    /**
     * @return every account's groups, by account then group.
     */
    public synchronized List<Group> all()
    {
        final List<Group> all = new ArrayList<>();
        byAccount.values().forEach(groups -> all.addAll(groups.values()));
        return all;
    }

    /**
     * Forget everything: the service follows another engine now, whose STATE events tell its truth.
     */
    public synchronized void clear()
    {
        byAccount.clear();
    }
}
