package io.ringex.risk.actions;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

import java.util.function.LongToIntFunction;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.ringex.protocol.CommandText;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.KillSwitchEncoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsEncoder;
import io.ringex.protocol.codecs.SetTradingStatusEncoder;
import io.ringex.protocol.codecs.TakeSnapshotEncoder;
import io.ringex.protocol.codecs.UnlockLogonsEncoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.risk.aeron.AdminCommandSink;
import io.ringex.risk.aeron.AdminResponseListener;
import io.ringex.risk.aeron.OfferOutcome;
import io.ringex.risk.model.RiskReadModel;

/**
 * Sends admin commands to the engine and tracks their answers: an action is PENDING once offered and ACCEPTED or
 * REJECTED by the AdminResponse with its {@code requestId}; an offer that fails is an {@link
 * ActionUnavailableException} (HTTP 503) and records nothing. Request ids start from the wall clock in microseconds, so
 * a restarted service's never meet the previous one's answers.
 * <p>
 * Threading: submits on HTTP threads, {@link #onAdminResponse} on the Aeron agent thread; state is a concurrent map of
 * immutable {@link ActionView}s.
 */
public final class ActionService implements AdminResponseListener
{
    /** Shown for actions without an engine response yet. */
    public static final String PENDING = "PENDING";

    private static final int MAX_POSITION_LIMITS = 1024;
    private static final int MAX_REASON = 64;
    /** The statuses an officer sets (VOLATILITY_AUCTION is the dynamic band's, DELISTED DelistInstrument's). */
    static final List<TradingStatus> SETTABLE_STATUSES = List.of(TradingStatus.OPEN, TradingStatus.HALTED,
        TradingStatus.CLOSED, TradingStatus.PRE_OPEN, TradingStatus.OPENING_AUCTION, TradingStatus.CLOSING_AUCTION);
    /** The call phases a duration may be given to: each then ends by itself, uncrossing. */
    static final List<TradingStatus> TIMED_STATUSES = List.of(TradingStatus.PRE_OPEN, TradingStatus.OPENING_AUCTION,
        TradingStatus.CLOSING_AUCTION);
    /** The longest call phase: a trading day. */
    public static final long MAX_PHASE_DURATION_NS = 86_400_000_000_000L;

    private final AdminCommandSink sink;
    private final RiskReadModel model;
    private final Clock clock;
    private final long responseTimeoutMs;
    private final int retained;
    private final AtomicLong nextRequestId;
    private final AtomicLong changeCount = new AtomicLong();
    private final Map<Long, ActionView> actions = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<Long> order = new ConcurrentLinkedDeque<>();

    /**
     * @param sink              the engine's ingress.
     * @param model             the read model, for instruments' symbols.
     * @param clock             wall clock.
     * @param responseTimeoutMs PENDING actions older than this show as TIMED_OUT.
     * @param retained          how many recent actions are kept.
     */
    public ActionService(
        final AdminCommandSink sink,
        final RiskReadModel model,
        final Clock clock,
        final long responseTimeoutMs,
        final int retained)
    {
        this.sink = sink;
        this.model = model;
        this.clock = clock;
        this.responseTimeoutMs = responseTimeoutMs;
        this.retained = retained;
        this.nextRequestId = new AtomicLong(clock.millis() * 1000L);
    }

    /**
     * @param request the new limits.
     * @param user    who asks.
     * @return the action, PENDING.
     */
    public ActionView setLimits(final ActionRequests.SetLimits request, final String user)
    {
        final String reason = reason(request.reason());
        final long maxOrderNotional = money("maxOrderNotional", request.maxOrderNotional());
        final long creditLimit = money("creditLimit", request.creditLimit());
        require(request.accountId() > 0, "accountId must be positive");
        require(request.maxOrderQuantity() >= 0 && request.defaultPositionLimit() >= 0 && request.maxOpenOrders() >= 0,
            "limits must not be negative");
        require(maxOrderNotional >= 0 && creditLimit >= 0, "money limits must not be negative");
        final List<ActionRequests.PositionLimit> overrides =
            request.positionLimits() == null ? List.of() : request.positionLimits();
        require(overrides.size() <= MAX_POSITION_LIMITS, "too many position limits");

        require(isOperator(user), "operator name unusable");
        final long requestId = nextRequestId.incrementAndGet();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256 + overrides.size() * 16]);
        final SetLimitsEncoder encoder = new SetLimitsEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .accountId(request.accountId())
            .maxOrderQuantity(request.maxOrderQuantity())
            .maxOrderNotional(maxOrderNotional)
            .creditLimit(creditLimit)
            .defaultPositionLimit(request.defaultPositionLimit())
            .maxOpenOrders(request.maxOpenOrders())
            .allowShort(request.allowShort() ? BooleanType.TRUE : BooleanType.FALSE);
        final SetLimitsEncoder.PositionLimitsEncoder group = encoder.positionLimitsCount(overrides.size());
        final java.util.Set<Integer> named = new java.util.HashSet<>();
        for (final ActionRequests.PositionLimit limit : overrides)
        {
            require(limit != null, "positionLimits must not hold null");
            require(limit.positionLimit() >= 0, "position limits must not be negative");
            require(named.add(limit.instrumentId()), "positionLimits names instrument " + limit.instrumentId() +
                " twice");
            group.next().instrumentId(limit.instrumentId()).positionLimit(limit.positionLimit());
        }
        // Schema version 4: the journal names who changed the limits and why.
        encoder.operatorName(user).reason(reason);
        return send(requestId, buffer, framed(encoder.encodedLength()),
            new ActionView(requestId, "SET_LIMITS", "account " + request.accountId(), user, clock.millis(), PENDING,
            null, 0, 0, reason));
    }

    /**
     * @param request scope and on/off.
     * @param user    who asks.
     * @return the action, PENDING.
     */
    public ActionView killSwitch(final ActionRequests.KillSwitch request, final String user)
    {
        final String reason = reason(request.reason());
        final KillSwitchScope scope = parseEnum(KillSwitchScope.class, "scope", request.scope());
        require(scope != KillSwitchScope.ACCOUNT || request.accountId() > 0, "accountId must be positive");
        require(isOperator(user), "operator name unusable");
        final long requestId = nextRequestId.incrementAndGet();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final KillSwitchEncoder encoder = new KillSwitchEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .scope(scope)
            .accountId(scope == KillSwitchScope.ACCOUNT ? request.accountId() : 0)
            .active(request.active() ? BooleanType.TRUE : BooleanType.FALSE)
            .operatorName(user)
            .reason(reason);
        final String target = (scope == KillSwitchScope.ACCOUNT ? "account " + request.accountId() : "the venue") +
            (request.active() ? " on" : " off");
        return send(requestId, buffer, framed(encoder.encodedLength()),
            new ActionView(requestId, "KILL_SWITCH", target, user, clock.millis(), PENDING, null, 0, 0, reason));
    }

    /**
     * @param request instrument, status and, for a timed call phase, its length.
     * @param user    who asks.
     * @return the action, PENDING.
     * @throws IllegalArgumentException (400) for a status an officer does not set, or a duration that is not
     *                                  1 ns to {@link #MAX_PHASE_DURATION_NS} or not on a call phase.
     */
    public ActionView tradingStatus(final ActionRequests.TradingStatus request, final String user)
    {
        final String reason = reason(request.reason());
        final TradingStatus status = parseStatus(request.status());
        final Long duration = request.phaseDurationNs();
        if (null != duration)
        {
            require(TIMED_STATUSES.contains(status), "phaseDurationNs is for a call phase that ends by itself: " +
                "status " + TIMED_STATUSES + ", not " + status.name());
            require(duration > 0 && duration <= MAX_PHASE_DURATION_NS, "phaseDurationNs must be 1 to " +
                MAX_PHASE_DURATION_NS + " (24 h) nanoseconds, was " + duration);
        }
        final long durationNs = null == duration ? 0 : duration;
        require(isOperator(user), "operator name unusable");
        final long requestId = nextRequestId.incrementAndGet();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SetTradingStatusEncoder encoder = new SetTradingStatusEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .instrumentId(request.instrumentId())
            .status(status)
            .phaseDurationNs(durationNs)
            .operatorName(user)
            .reason(reason);
        return send(requestId, buffer, framed(encoder.encodedLength()), new ActionView(requestId, "TRADING_STATUS",
            model.symbol(request.instrumentId()) + " (instrument " + request.instrumentId() + ") to " +
            status.name() + (durationNs > 0 ? " for " + durationText(durationNs) : ""), user, clock.millis(),
            PENDING, null, 0, 0, reason));
    }

    private static TradingStatus parseStatus(final String text)
    {
        for (final TradingStatus status : SETTABLE_STATUSES)
        {
            if (status.name().equals(text))
            {
                return status;
            }
        }
        throw new IllegalArgumentException("status must be one of " + SETTABLE_STATUSES);
    }

    private static String durationText(final long durationNs)
    {
        return durationNs % 1_000_000_000L == 0 ? durationNs / 1_000_000_000L + " s" :
            durationNs % 1_000_000L == 0 ? durationNs / 1_000_000L + " ms" : durationNs + " ns";
    }

    /**
     * @param request the user name and/or address, and why.
     * @param user    who asks: journaled as the operator.
     * @return the action, PENDING.
     */
    public ActionView unlockLogons(final ActionRequests.UnlockLogons request, final String user)
    {
        final String username = request.username() == null ? "" : request.username();
        final String address = request.address() == null ? "" : request.address();
        require(!username.isEmpty() || !address.isEmpty(), "give a username, an address or both");
        final String reason = reason(request.reason());
        require(username.isEmpty() || CommandText.isToken(username, 32),
            "username must be 1..32 printable ASCII characters, no spaces");
        require(address.isEmpty() || CommandText.isToken(address, 45),
            "address must be at most 45 printable ASCII characters");
        require(CommandText.isToken(user, 32), "operator name unusable");
        final long requestId = nextRequestId.incrementAndGet();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final UnlockLogonsEncoder encoder = new UnlockLogonsEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .username(username)
            .address(address)
            .operatorName(user)
            .reason(reason);
        return send(requestId, buffer, framed(encoder.encodedLength()), "UNLOCK_LOGONS",
            (username.isEmpty() ? "" : "user " + username) + (username.isEmpty() || address.isEmpty() ? "" : ", ") +
            (address.isEmpty() ? "" : "address " + address), user);
    }

    /** Whether a dashboard user's name can be journaled as a command's operator (1 to 32 printable, no spaces). */
    private static boolean isOperator(final String user)
    {
        return CommandText.isToken(user, 32);
    }

    /**
     * @param reason an officer's reason for an action.
     * @return it, if 1 to 64 printable ASCII characters.
     * @throws IllegalArgumentException otherwise (400, naming the field).
     */
    static String reason(final String reason)
    {
        require(reason != null && !reason.isBlank() && CommandText.isPrintable(reason, MAX_REASON),
            "reason must be 1 to " + MAX_REASON + " printable ASCII characters: every action says why (the admin " +
            "log shows it)");
        return reason;
    }

    /**
     * Send a command encoded elsewhere (the console's ADMIN commands, {@link ConsoleActions}), recorded and tracked
     * as the actions here are.
     *
     * @param action  what it is, e.g. ADD_INSTRUMENT.
     * @param target  what it acts on, for people.
     * @param reason  why, as the operator gave it.
     * @param user    who asks.
     * @param buffer  where {@code encoder} writes the command, at offset 0.
     * @param encoder writes the command with the request id it is given; returns its length, header included.
     * @return the action, PENDING.
     * @throws ActionUnavailableException if it could not be put on the ingress (nothing recorded).
     */
    public ActionView submit(
        final String action,
        final String target,
        final String reason,
        final String user,
        final DirectBuffer buffer,
        final LongToIntFunction encoder)
    {
        final long requestId = nextRequestId.incrementAndGet();
        final int length = encoder.applyAsInt(requestId);
        return send(requestId, buffer, length,
            new ActionView(requestId, action, target, user, clock.millis(), PENDING, null, 0, 0, reason));
    }

    /**
     * @param requestId a request id.
     * @return the action sent from this service under it, as recorded (its status not brought up to date), or null
     *         if it is not (or no longer) retained.
     */
    public ActionView sent(final long requestId)
    {
        return actions.get(requestId);
    }

    /**
     * @param reason why, or null: a snapshot changes nothing in the venue.
     * @param user   who asks.
     * @return the action, PENDING.
     */
    public ActionView takeSnapshot(final String reason, final String user)
    {
        final String why = reason == null ? null : reason(reason);
        require(isOperator(user), "operator name unusable");
        final long requestId = nextRequestId.incrementAndGet();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final TakeSnapshotEncoder encoder = new TakeSnapshotEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .operatorName(user)
            .reason(null == why ? "" : why);
        return send(requestId, buffer, framed(encoder.encodedLength()),
            new ActionView(requestId, "TAKE_SNAPSHOT", "engine", user, clock.millis(), PENDING, null, 0, 0, why));
    }

    @Override
    public void onAdminResponse(
        final long requestId,
        final int templateId,
        final AdminStatus status,
        final RejectReason reason,
        final long commandSequence)
    {
        final long nowMs = clock.millis();
        final ActionView updated = actions.computeIfPresent(requestId, (id, a) -> a.withStatus(
            status == AdminStatus.ACCEPTED ? "ACCEPTED" : "REJECTED",
            status == AdminStatus.ACCEPTED ? null : reason.name(), commandSequence, nowMs));
        if (updated != null)
        {
            changeCount.incrementAndGet();
        }
    }

    /**
     * @param requestId the request.
     * @return its action as it stands, or null if unknown (never sent from here, or no longer retained).
     */
    public ActionView find(final long requestId)
    {
        final ActionView a = actions.get(requestId);
        return a == null ? null : current(a);
    }

    /** @return recent actions, newest first. */
    public List<ActionView> recent()
    {
        final List<ActionView> out = new ArrayList<>();
        final Iterator<Long> ids = order.descendingIterator();
        while (ids.hasNext())
        {
            final ActionView a = actions.get(ids.next());
            if (a != null)
            {
                out.add(current(a));
            }
        }
        return out;
    }

    /** @return a counter that grows whenever an action is recorded or answered. */
    public long changeCount()
    {
        return changeCount.get();
    }

    private ActionView current(final ActionView a)
    {
        if (PENDING.equals(a.status()) && clock.millis() - a.requestedAtMs() > responseTimeoutMs)
        {
            return a.withStatus("TIMED_OUT", null, 0, 0);
        }
        return a;
    }

    private ActionView send(
        final long requestId,
        final DirectBuffer buffer,
        final int length,
        final String action,
        final String target,
        final String user)
    {
        return send(requestId, buffer, length,
            new ActionView(requestId, action, target, user, clock.millis(), PENDING, null, 0, 0));
    }

    private ActionView send(final long requestId, final DirectBuffer buffer, final int length, final ActionView pending)
    {
        // Recorded before the offer: over IPC the engine's answer can arrive before offer() returns.
        final ActionView view = record(pending);
        final OfferOutcome outcome = sink.offerIngress(buffer, 0, length);
        if (outcome != OfferOutcome.SENT)
        {
            forget(requestId);
            throw new ActionUnavailableException(outcome);
        }
        return view;
    }

    private ActionView record(final ActionView view)
    {
        actions.put(view.requestId(), view);
        order.addLast(view.requestId());
        while (order.size() > retained)
        {
            final Long oldest = order.pollFirst();
            if (oldest != null)
            {
                actions.remove(oldest);
            }
        }
        changeCount.incrementAndGet();
        return view;
    }

    private void forget(final long requestId)
    {
        actions.remove(requestId);
        order.remove(requestId);
        changeCount.incrementAndGet();
    }

    private static int framed(final int bodyLength)
    {
        return MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
    }

    static long money(final String field, final String text)
    {
        final long value = FixedPoint.parse(text, FixedPoint.MONEY_SCALE);
        if (value == FixedPoint.INVALID)
        {
            throw new IllegalArgumentException(field + " must be a decimal number with at most " +
                FixedPoint.MONEY_SCALE + " places, was '" + text + "'");
        }
        return value;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * @param type  the enum.
     * @param field the JSON field, for the message.
     * @param text  the value exactly as docs/risk-api.md spells it (upper case, no spaces).
     * @return the constant.
     * @throws IllegalArgumentException naming the field and the values it takes, for any other spelling.
     */
    static <E extends Enum<E>> E parseEnum(final Class<E> type, final String field, final String text)
    {
        for (final E value : type.getEnumConstants())
        {
            if (!"NULL_VAL".equals(value.name()) && value.name().equals(text))
            {
                return value;
            }
        }
        final List<String> names = new ArrayList<>();
        for (final E e : type.getEnumConstants())
        {
            if (!"NULL_VAL".equals(e.name()))
            {
                names.add(e.name());
            }
        }
        throw new IllegalArgumentException(field + " must be one of " + names);
    }
}
