package io.ringex.engine.processor;

import io.ringex.engine.book.Order;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.MmpLimit;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionDecoder;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;

/**
 * Market-maker protection: per account and group of instruments, limits on what the account's quotes may trade within a
 * rolling interval ({@link FillWindow}) on the ring's clock (docs/matching.md, "Market-maker protection"). The fill
 * that reaches a limit trades in full; then, in the same step and before anything else can trade, the account's quotes
 * in the group are cancelled and new ones refused until the freeze ends ({@link Clocked}) or a reset. Accounts are
 * walked in the order they were first protected, groups by id: no hash map is iterated.
 * <p>
 * Threading: single business-logic thread.
 */
final class MarketMakerProtection implements Clocked
{
    static final int MAX_FILL_LIMIT = 10_000;
    static final int MAX_INSTRUMENTS = 64;
    static final long MIN_INTERVAL_NS = 1_000_000L;
    static final long MAX_INTERVAL_NS = 24L * 3600 * 1_000_000_000L;

    /** One account's protection in one group of instruments. */
    static final class Group
    {
        final long accountId;
        final int groupId;
        long intervalNs;
        long quantityLimit;
        long notionalLimit;
        int fillLimit;
        long freezeNs;
        boolean cancelOrders;
        int[] instruments;
        final FillWindow window = new FillWindow();
        boolean frozen;
        long frozenUntilNs;
        long sessionId;
        MmpLimit pendingLimit = MmpLimit.NONE;
        long pendingSessionId;

        Group(final long accountId, final int groupId)
        {
            this.accountId = accountId;
            this.groupId = groupId;
        }
    }

    /** One account's groups, by id and by instrument. */
    static final class Protected
    {
        final long accountId;
        final ArrayList<Group> groups = new ArrayList<>();
        final Int2ObjectHashMap<Group> byInstrument = new Int2ObjectHashMap<>();

        Protected(final long accountId)
        {
            this.accountId = accountId;
        }

        Group group(final int groupId)
        {
            for (int i = 0, n = groups.size(); i < n; i++)
            {
                if (groups.get(i).groupId == groupId)
                {
                    return groups.get(i);
                }
            }
            return null;
        }

        void reindex()
        {
            byInstrument.clear();
            for (int i = 0, n = groups.size(); i < n; i++)
            {
                final Group group = groups.get(i);
                for (final int instrumentId : group.instruments)
                {
                    byInstrument.put(instrumentId, group);
                }
            }
        }
    }

    private final EngineState state;
    private final EventEncoder events;
    private final OrderLifecycle lifecycle;
    private final Long2ObjectHashMap<Protected> byAccount = new Long2ObjectHashMap<>();
    private final ArrayList<Protected> accounts = new ArrayList<>();
    private final int[] instrumentScratch = new int[MAX_INSTRUMENTS];
    private long nextUnfreezeNs = Long.MAX_VALUE;
    private int pendingBreaches;

    MarketMakerProtection(final EngineState state, final EventEncoder events, final OrderLifecycle lifecycle)
    {
        this.state = state;
        this.events = events;
        this.lifecycle = lifecycle;
    }

    /**
     * @param accountId    an account.
     * @param instrumentId an instrument.
     * @return whether new quotes of the account in the instrument are refused now (QUOTE_FROZEN).
     */
    boolean isFrozen(final long accountId, final int instrumentId)
    {
        final Group group = groupOf(accountId, instrumentId);
        return null != group && group.frozen;
    }

    private Group groupOf(final long accountId, final int instrumentId)
    {
        final Protected account = byAccount.get(accountId);
        return null == account ? null : account.byInstrument.get(instrumentId);
    }

    /**
     * A quote order traded. Counted towards its account's group of the instrument, if protected; a limit reached
     * cancels the group's quotes now (or, {@code deferred}, once the uncrossing that made the fill is done).
     *
     * @param accountId    the quote order's account.
     * @param instrumentId its instrument.
     * @param sessionId    its session (told of a breach).
     * @param quantity     the fill's quantity.
     * @param notional     its notional.
     * @param taker        the incoming order matching now, or null: if it is to be cancelled it is stopped instead.
     * @param deferred     true during an uncrossing.
     */
    void onQuoteFill(
        final long accountId,
        final int instrumentId,
        final long sessionId,
        final long quantity,
        final long notional,
        final Order taker,
        final boolean deferred)
    {
        final Group group = groupOf(accountId, instrumentId);
        if (null == group || (group.frozen && group.pendingLimit == MmpLimit.NONE))
        {
            return;
        }
        final long now = events.timestampNs();
        final FillWindow window = group.window;
        window.evict(now, group.intervalNs);
        window.add(now, quantity, notional);
        final MmpLimit reached = reached(group);
        if (reached == MmpLimit.NONE)
        {
            return;
        }
        if (deferred)
        {
            if (group.pendingLimit == MmpLimit.NONE)
            {
                group.pendingLimit = reached;
                group.pendingSessionId = sessionId;
                pendingBreaches++;
            }
            return;
        }
        breach(group, reached, sessionId, taker);
    }

    /**
     * Act on the breaches an uncrossing's fills reached, accounts in the order they were first protected, groups by
     * id.
     */
    void afterUncrossing()
    {
        if (pendingBreaches == 0)
        {
            return;
        }
        pendingBreaches = 0;
        for (int a = 0, n = accounts.size(); a < n; a++)
        {
            final ArrayList<Group> groups = accounts.get(a).groups;
            for (int g = 0, m = groups.size(); g < m; g++)
            {
                final Group group = groups.get(g);
                if (group.pendingLimit != MmpLimit.NONE)
                {
                    final MmpLimit limit = group.pendingLimit;
                    group.pendingLimit = MmpLimit.NONE;
                    breach(group, limit, group.pendingSessionId, null);
                }
            }
        }
    }

    private static MmpLimit reached(final Group group)
    {
        final FillWindow window = group.window;
        if (group.quantityLimit > 0 && window.quantity() >= group.quantityLimit)
        {
            return MmpLimit.QUANTITY;
        }
        if (group.notionalLimit > 0 && window.notional() >= group.notionalLimit)
        {
            return MmpLimit.NOTIONAL;
        }
        return window.fills() >= group.fillLimit ? MmpLimit.FILLS : MmpLimit.NONE;
    }

    private void breach(final Group group, final MmpLimit limit, final long sessionId, final Order taker)
    {
        final long now = events.timestampNs();
        final FillWindow window = group.window;
        final long quantity = window.quantity();
        final long notional = window.notional();
        final int fills = window.fills();
        window.clear();
        group.frozen = true;
        group.frozenUntilNs = group.freezeNs == 0 ? 0 :
            (now > Long.MAX_VALUE - 1 - group.freezeNs ? Long.MAX_VALUE - 1 : now + group.freezeNs);
        group.sessionId = sessionId;
        recomputeNextUnfreeze();

        int quotes = 0;
        int orders = 0;
        final Account account = state.account(group.accountId);
        final Protected owner = byAccount.get(group.accountId);
        Order order = account.firstOpenOrder();
        while (null != order)
        {
            final Order next = order.accountNext;
            final boolean quote = order.isQuote();
            if ((quote || group.cancelOrders) && owner.byInstrument.get(order.instrumentId()) == group &&
                (order != taker || order.leavesQuantity() > 0))
            {
                if (order == taker)
                {
                    // it is matching now: the matcher stops after this trade and its entry cancels the rest
                    order.stopMatching();
                }
                else
                {
                    lifecycle.cancelResting(state.book(order.instrumentId()), order, ExecType.CANCELED,
                        CancelReason.MARKET_MAKER_PROTECTION, order.clientOrderId(), EventEncoder.NO_CLIENT_ORDER_ID);
                }
                quotes += quote ? 1 : 0;
                orders += quote ? 0 : 1;
            }
            order = next;
        }
        event(sessionId, group, MmpEventType.BREACHED, limit, quantity, notional, fills, quotes, orders);
    }

    /** {@inheritDoc} */
    public long nextDeadlineNs()
    {
        return nextUnfreezeNs;
    }

    /** {@inheritDoc} */
    public void onTime(final long nowNs)
    {
        while (nextUnfreezeNs <= nowNs)
        {
            final Group group = firstToUnfreeze();
            group.frozen = false;
            group.frozenUntilNs = 0;
            recomputeNextUnfreeze();
            event(group.sessionId, group, MmpEventType.UNFROZEN, MmpLimit.NONE, group.window.quantity(),
                group.window.notional(), group.window.fills(), 0, 0);
        }
    }

    /** The frozen group with the earliest end; ties: accounts in protection order, groups by id. */
    private Group firstToUnfreeze()
    {
        Group first = null;
        for (int a = 0, n = accounts.size(); a < n; a++)
        {
            final ArrayList<Group> groups = accounts.get(a).groups;
            for (int g = 0, m = groups.size(); g < m; g++)
            {
                final Group group = groups.get(g);
                if (group.frozen && group.frozenUntilNs != 0 &&
                    (null == first || group.frozenUntilNs < first.frozenUntilNs))
                {
                    first = group;
                }
            }
        }
        return first;
    }

    private void recomputeNextUnfreeze()
    {
        final Group first = firstToUnfreeze();
        nextUnfreezeNs = null == first ? Long.MAX_VALUE : first.frozenUntilNs;
    }

    /**
     * The operator's SetMarketMakerProtection: replace (or, interval 0, remove) an account's group; answered with an
     * AdminResponse, then, accepted, the group's event (CONFIGURED or REMOVED).
     *
     * @param decoder wrapped on the command.
     */
    void onSet(final SetMarketMakerProtectionDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final long accountId = decoder.accountId();
        final int groupId = decoder.mmpGroupId();
        final long intervalNs = decoder.intervalNs();
        final long quantityLimit = decoder.quantityLimit();
        final long notionalLimit = decoder.notionalLimit();
        final int fillLimit = decoder.fillLimit();
        final long freezeNs = decoder.freezeNs();
        final short cancelOrders = decoder.cancelOrdersRaw();
        final SetMarketMakerProtectionDecoder.InstrumentsDecoder group = decoder.instruments();
        final int count = group.count();
        int read = 0;
        boolean known = true;
        boolean duplicate = false;
        for (final SetMarketMakerProtectionDecoder.InstrumentsDecoder entry : group)
        {
            final int instrumentId = entry.instrumentId();
            if (read < MAX_INSTRUMENTS)
            {
                for (int i = 0; i < read; i++)
                {
                    duplicate |= instrumentScratch[i] == instrumentId;
                }
                instrumentScratch[read++] = instrumentId;
                known &= null != state.book(instrumentId);
            }
        }
        final String operator = decoder.operatorName();
        final String reason = decoder.reason();

        final Account account = state.account(accountId);
        final Protected current = byAccount.get(accountId);
        final Group existing = null == current ? null : current.group(groupId);
        RejectReason refusal = RejectReason.NONE;
        if (!Text.isAudited(operator, reason) || groupId == 0 || cancelOrders > 1)
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else if (null == account)
        {
            refusal = RejectReason.UNKNOWN_ACCOUNT;
        }
        else if (intervalNs == 0)
        {
            refusal = null == existing ? RejectReason.INVALID_ARGUMENT : RejectReason.NONE;
        }
        else if (intervalNs < MIN_INTERVAL_NS || intervalNs > MAX_INTERVAL_NS || quantityLimit < 0 ||
            notionalLimit < 0 || fillLimit < 1 || fillLimit > MAX_FILL_LIMIT ||
            (freezeNs != 0 && (freezeNs < MIN_INTERVAL_NS || freezeNs > MAX_INTERVAL_NS)) ||
            count < 1 || count > MAX_INSTRUMENTS || duplicate)
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else if (!known)
        {
            refusal = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (null != current)
        {
            for (int i = 0; i < read; i++)
            {
                final Group holder = current.byInstrument.get(instrumentScratch[i]);
                if (null != holder && holder.groupId != groupId)
                {
                    refusal = RejectReason.INVALID_ARGUMENT;
                }
            }
        }
        if (refusal != RejectReason.NONE)
        {
            events.adminResponse(requestId, SetMarketMakerProtectionDecoder.TEMPLATE_ID, refusal);
            return;
        }

        events.adminResponse(requestId, SetMarketMakerProtectionDecoder.TEMPLATE_ID, RejectReason.NONE);
        if (intervalNs == 0)
        {
            current.groups.remove(existing);
            current.reindex();
            recomputeNextUnfreeze();
            existing.frozen = false;
            existing.frozenUntilNs = 0;
            existing.window.clear();
            event(0, existing, MmpEventType.REMOVED, MmpLimit.NONE, 0, 0, 0, 0, 0);
            return;
        }
        final Protected owner = null == current ? protect(accountId) : current;
        final Group target = null == existing ? add(owner, groupId) : existing;
        target.intervalNs = intervalNs;
        target.quantityLimit = quantityLimit;
        target.notionalLimit = notionalLimit;
        target.fillLimit = fillLimit;
        target.freezeNs = freezeNs;
        target.cancelOrders = cancelOrders == 1;
        target.instruments = java.util.Arrays.copyOf(instrumentScratch, read);
        java.util.Arrays.sort(target.instruments);
        target.window.clear();
        target.frozen = false;
        target.frozenUntilNs = 0;
        owner.reindex();
        recomputeNextUnfreeze();
        event(0, target, MmpEventType.CONFIGURED, MmpLimit.NONE, 0, 0, 0, 0, 0);
    }

    private Protected protect(final long accountId)
    {
        final Protected account = new Protected(accountId);
        byAccount.put(accountId, account);
        accounts.add(account);
        return account;
    }

    private static Group add(final Protected owner, final int groupId)
    {
        final Group group = new Group(owner.accountId, groupId);
        int at = 0;
        while (at < owner.groups.size() && owner.groups.get(at).groupId < groupId)
        {
            at++;
        }
        owner.groups.add(at, group);
        return group;
    }

    /**
     * A client's ResetMarketMakerProtection: clear the counters of one group of the account (or, group 0, of each)
     * and lift its freeze; each group answers with a RESET event, or the request a BusinessReject (UNKNOWN_ACCOUNT;
     * INVALID_ARGUMENT when the account has no such group).
     *
     * @param decoder wrapped on the command.
     */
    void onReset(final ResetMarketMakerProtectionDecoder decoder)
    {
        final long sessionId = decoder.sessionId();
        final long accountId = decoder.accountId();
        final int groupId = decoder.mmpGroupId();
        final Protected owner = byAccount.get(accountId);
        if (null == state.account(accountId) || null == owner ||
            (groupId != 0 && null == owner.group(groupId)) || owner.groups.isEmpty())
        {
            events.businessReject(sessionId, ResetMarketMakerProtectionDecoder.TEMPLATE_ID,
                EventEncoder.NO_CLIENT_ORDER_ID,
                null == state.account(accountId) ? RejectReason.UNKNOWN_ACCOUNT : RejectReason.INVALID_ARGUMENT, false);
            return;
        }
        for (int g = 0, n = owner.groups.size(); g < n; g++)
        {
            final Group group = owner.groups.get(g);
            if (groupId == 0 || group.groupId == groupId)
            {
                group.window.clear();
                group.frozen = false;
                group.frozenUntilNs = 0;
                event(sessionId, group, MmpEventType.RESET, MmpLimit.NONE, 0, 0, 0, 0, 0);
            }
        }
        recomputeNextUnfreeze();
    }

    /**
     * Publish the state of every group of an account (STATE events), for late joiners; changes nothing.
     *
     * @param accountId the account.
     * @return groups published.
     */
    int publish(final long accountId)
    {
        final Protected owner = byAccount.get(accountId);
        if (null == owner)
        {
            return 0;
        }
        final long now = events.timestampNs();
        for (int g = 0, n = owner.groups.size(); g < n; g++)
        {
            final Group group = owner.groups.get(g);
            // what the window holds as of the last command, without changing it: a read-only walk
            long quantity = 0;
            long notional = 0;
            int fills = 0;
            final FillWindow window = group.window;
            for (int i = 0, m = window.fills(); i < m; i++)
            {
                if (now - window.timeAt(i) < group.intervalNs)
                {
                    quantity += window.quantityAt(i);
                    notional += window.notionalAt(i);
                    fills++;
                }
            }
            event(0, group, MmpEventType.STATE, MmpLimit.NONE, quantity, notional, fills, 0, 0);
        }
        return owner.groups.size();
    }

    /** @return the protected accounts, in the order they were first protected (snapshot, tools). */
    ArrayList<Protected> accounts()
    {
        return accounts;
    }

    /**
     * Restore a group from a snapshot (accounts and groups in the order written).
     *
     * @return the group, empty, to fill in.
     */
    Group restore(final long accountId, final int groupId)
    {
        Protected owner = byAccount.get(accountId);
        if (null == owner)
        {
            owner = protect(accountId);
        }
        return add(owner, groupId);
    }

    /** After a restore: rebuild the instrument maps and the next freeze end. */
    void restored()
    {
        for (int a = 0, n = accounts.size(); a < n; a++)
        {
            accounts.get(a).reindex();
        }
        recomputeNextUnfreeze();
    }

    private void event(
        final long sessionId,
        final Group group,
        final MmpEventType type,
        final MmpLimit limit,
        final long quantity,
        final long notional,
        final int fills,
        final int quotes,
        final int orders)
    {
        events.marketMakerProtection(sessionId, group.accountId, group.groupId, type, limit, group.intervalNs,
            group.quantityLimit, group.notionalLimit, group.fillLimit, group.freezeNs, group.cancelOrders, quantity,
            notional, fills, group.frozen, group.frozenUntilNs, quotes, orders, group.instruments);
    }
}
