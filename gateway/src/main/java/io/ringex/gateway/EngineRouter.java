package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.EventBatches;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.GatewayBarrierEncoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's link to the engine nodes (one, or a cluster's members): it follows the node claiming PRIMARY at the
 * highest epoch ({@link PrimarySelector}), sends commands and control messages only there ({@link EngineIngress}), and
 * lets through to the agent's {@link EventHandler} only the client-bound events that are for this gateway and new
 * ({@link EgressDeduplicator}).
 * <p>
 * No order is left unanswered: when the primary or its era changes with commands unanswered ({@link InFlightCommands}),
 * it holds new commands back, sends a {@code GatewayBarrier}, and then re-submits each command in doubt or answers it
 * OUTCOME_UNKNOWN, so none executes twice (docs/operations.md, "No order left unanswered").
 * <p>
 * Thread safety: one instance per agent, used on the agent's thread only.
 */
public final class EngineRouter implements AutoCloseable
{
    private static final int EGRESS_FRAGMENT_LIMIT = 16;
    private static final int STATUS_FRAGMENT_LIMIT = 64;
    private static final int COUNTER_TYPE_ID = 7103;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final java.nio.ByteOrder ORDER = MessageHeaderDecoder.BYTE_ORDER;
    private static final long EXPIRY_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    /**
     * A command unanswered for this long (or five status timeouts, if longer), its primary unchanged, is taken as
     * answered elsewhere and forgotten.
     */
    private static final long UNANSWERED_EXPIRY_NS = TimeUnit.SECONDS.toNanos(60);
    /** The epoch fence's verdicts on a client-bound event ({@link #epochFence}). */
    private static final int EPOCH_CURRENT = 0;
    private static final int EPOCH_SUPERSEDED = 1;
    private static final int EPOCH_NOT_YET_PRIMARY = 2;

    /**
     * Receives the client-bound events the router lets through; the agent delivers them to its sessions.
     */
    @FunctionalInterface
    public interface EventHandler
    {
        /**
         * @param templateId ExecutionReport, CancelReject, BusinessReject or OrderStatusReport.
         * @param buffer     holding the event.
         * @param offset     of its message header.
         * @param length     whole message.
         * @param sessionId  the session it is for (of this gateway).
         * @return CONTINUE, or ABORT to have it redelivered.
         */
        Action onClientEvent(int templateId, DirectBuffer buffer, int offset, int length, long sessionId);
    }

    /**
     * Sees every ExecutionReport the router lets through, whichever gateway's session it is for, once, in the engine's
     * order, after the event went to this gateway's own session: the drop copies. It cannot ask for the event again
     * (the session's own delivery is done), so it must keep what it cannot send now.
     */
    @FunctionalInterface
    public interface ReportObserver
    {
        /**
         * @param buffer    holding the ExecutionReport.
         * @param offset    of its message header.
         * @param length    whole message.
         * @param sessionId the session it is for (of any gateway).
         * @param accountId its account.
         */
        void onReport(DirectBuffer buffer, int offset, int length, long sessionId, long accountId);
    }

    /**
     * Sees every TradeBusted of the followed node (the engine publishes them on the egress for the drop copies).
     */
    @FunctionalInterface
    public interface BustObserver
    {
        /**
         * @param buffer          holding the TradeBusted.
         * @param offset          of its message header.
         * @param length          whole message.
         * @param commandSequence the BustTrade command it came from.
         */
        void onBust(DirectBuffer buffer, int offset, int length, long commandSequence);
    }

    private static final ReportObserver NO_OBSERVER = (buffer, offset, length, sessionId, accountId) ->
    {
    };

    private final GatewayContext ctx;
    private final EventHandler handler;
    private ReportObserver reportObserver = NO_OBSERVER;
    private RiskObserver riskObserver = (buffer, offset, length) -> { };
    private BustObserver bustObserver;
    private final List<EngineEndpoint> endpoints;
    private final Publication[] ingressPublications;
    private final Subscription[] egressSubscriptions;
    private final Subscription[] statusSubscriptions;
    private final ControlledFragmentHandler[] egressHandlers;
    private final FragmentHandler[] statusHandlers;
    private final EngineIngress ingress;
    private final PrimarySelector selector;
    private final EgressDeduplicator deduplicator = new EgressDeduplicator();
    private final MessageValidator validator;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder executionReport = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelReject = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessReject = new BusinessRejectDecoder();
    private final EngineStatusDecoder engineStatus = new EngineStatusDecoder();
    private final LogonsUnlockedDecoder logonsUnlocked = new LogonsUnlockedDecoder();
    private final UserDefinitionDecoder userDefinition = new UserDefinitionDecoder();
    private final UserDirectoryEndDecoder userDirectoryEnd = new UserDirectoryEndDecoder();
    private final UserDirectoryFeed users;
    private final OrderStatusReportDecoder orderStatusReport = new OrderStatusReportDecoder();
    private final MassCancelReportDecoder massCancelReport = new MassCancelReportDecoder();
    private final AtomicCounter switches;
    private final AtomicCounter duplicates;
    private final AtomicCounter superseded;
    private final AtomicCounter malformed;
    private final AtomicCounter controlResent;
    private final AtomicCounter resubmitted;
    private final AtomicCounter answeredUnknown;
    private final AtomicCounter unansweredExpired;
    private final AtomicCounter unansweredChecks;
    private final long statusTimeoutNs;
    private final long unansweredExpiryNs;
    private final long[] primaryEpochs;
    private final long[] epochStartSequences;
    private final long[] ingressSequences;
    private boolean followedEgressConnected;
    private final InFlightCommands inFlight;
    private final InDoubtAnswers inDoubtAnswers;
    private final long barrierSessionId;
    private final GatewayBarrierReachedDecoder barrierReached = new GatewayBarrierReachedDecoder();
    private final GatewayBarrierEncoder barrierEncoder = new GatewayBarrierEncoder();
    private final MessageHeaderEncoder barrierHeader = new MessageHeaderEncoder();
    private final UnsafeBuffer barrierBuffer = new UnsafeBuffer(new byte[64]);
    private final int[] doubtSlots;
    /** Per node, the era (primary epoch and its start) the two values after it were seen in. */
    private final long[] eraEpochs;
    private final long[] eraStarts;
    /** Per node: the highest command sequence of its events seen in its era, and its first re-sent window event's. */
    private final long[] lastSequencesSeen;
    private final long[] windowFirstSequences;
    private int lastFollowed = PrimarySelector.NONE;
    private int followedEngine = PrimarySelector.NONE;
    private boolean singleNodeStatusSeen;
    private long followedEpoch = -1;
    private long followedEpochStart = -1;
    private boolean barrierPending;
    private boolean barrierSent;
    private boolean resolving;
    private boolean resubmitDoubts;
    private boolean doubtUnsafe;
    private boolean checkRound;
    private int barrierTarget = PrimarySelector.NONE;
    private long barrierToken;
    private long barrierSentNs;
    private int doubtEngine;
    private long doubtEpoch;
    private long doubtEpochStart;
    private long doubtBaseline;
    private int resolveIndex;
    private int resolveCount;
    private long nextExpiryNs;
    private long nextCheckNs;
    private long epoch;
    private long nowNs;

    /**
     * @param ctx           concluded configuration: the engines.
     * @param aeron         client; not closed by the router.
     * @param counterPrefix names the router's counters (the agent's).
     * @param handler       the agent's delivery of client-bound events.
     * @param sessions      ends the live sessions of a user the engine disabled or changed.
     */
    public EngineRouter(
        final GatewayContext ctx,
        final Aeron aeron,
        final String counterPrefix,
        final EventHandler handler,
        final UserDirectoryFeed.SessionsOfUser sessions)
    {
        this.ctx = ctx;
        this.handler = handler;
        this.endpoints = ctx.engines();
        final int count = endpoints.size();
        this.statusTimeoutNs = ctx.engineStatusTimeoutNs();
        // after the primary has been asked about it twice (askAboutUnanswered), whatever the status timeout
        this.unansweredExpiryNs = Math.max(UNANSWERED_EXPIRY_NS, 5 * statusTimeoutNs);
        this.selector = new PrimarySelector(count, statusTimeoutNs, true);
        this.validator = new MessageValidator(ctx.maxMessageLength());
        ingressPublications = new Publication[count];
        egressSubscriptions = new Subscription[count];
        statusSubscriptions = new Subscription[count];
        egressHandlers = new ControlledFragmentHandler[count];
        statusHandlers = new FragmentHandler[count];
        primaryEpochs = new long[count];
        Arrays.fill(primaryEpochs, -1);
        epochStartSequences = new long[count];
        ingressSequences = new long[count];
        switches = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "primary switches");
        duplicates = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "duplicate events dropped");
        superseded = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "superseded-epoch events dropped");
        malformed = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "malformed engine events");
        controlResent = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "control re-sent to a new primary");
        resubmitted = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "commands in doubt re-submitted");
        answeredUnknown = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "commands in doubt answered unknown");
        unansweredExpired = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "unanswered commands forgotten");
        unansweredChecks = aeron.addCounter(COUNTER_TYPE_ID, counterPrefix + "primary asked about unanswered commands");
        inFlight = new InFlightCommands(ctx.inFlightCapacity());
        ingress = new EngineIngress(null, inFlight);
        inDoubtAnswers = new InDoubtAnswers(inFlight);
        doubtSlots = new int[inFlight.capacity()];
        barrierSessionId = SessionIds.sessionId(ctx.gatewayId(), 0);
        // Tokens differ between runs of a gateway, so a barrier answer re-sent from an old window is not taken for one.
        barrierToken = System.nanoTime();
        eraEpochs = new long[count];
        eraStarts = new long[count];
        lastSequencesSeen = new long[count];
        windowFirstSequences = new long[count];
        Arrays.fill(eraEpochs, -1);
        Arrays.fill(lastSequencesSeen, -1);
        Arrays.fill(windowFirstSequences, -1);
        for (int i = 0; i < count; i++)
        {
            final EngineEndpoint endpoint = endpoints.get(i);
            final int engine = i;
            ingressPublications[i] = aeron.addPublication(endpoint.ingressChannel(), endpoint.ingressStreamId());
            egressSubscriptions[i] = aeron.addSubscription(endpoint.egressChannel(), endpoint.egressStreamId());
            egressHandlers[i] = EventBatches.unpackingControlled(
                (buffer, offset, length, header) -> onEgress(engine, buffer, offset, length));
            statusSubscriptions[i] = aeron.addSubscription(endpoint.statusChannel(), endpoint.statusStreamId());
            // The risk stream also carries the accounts' updates, batched and as large as their positions make them.
            statusHandlers[i] = new FragmentAssembler(EventBatches.unpacking(
                (buffer, offset, length, header) -> onStatus(engine, buffer, offset, length)));
        }
        if (count == 1)
        {
            ingress.target(ingressPublications[0]);
        }
        users = new UserDirectoryFeed(ctx.users(), ingress, sessions, ctx.gatewayId(), ctx.fixCompId(),
            ctx.adminKey());
    }

    /**
     * One duty cycle: status, choice of primary, pending control messages, egress.
     *
     * @param nowNs the agent's clock.
     * @return work done.
     */
    public int poll(final long nowNs)
    {
        this.nowNs = nowNs;
        ingress.clock(nowNs);
        int work = 0;
        for (int i = 0; i < statusSubscriptions.length; i++)
        {
            work += statusSubscriptions[i].poll(statusHandlers[i], STATUS_FRAGMENT_LIMIT);
        }
        if (followsStatus())
        {
            final int before = selector.primary();
            final int after = selector.select(nowNs);
            if (after != PrimarySelector.NONE && (after != followedEngine ||
                primaryEpochs[after] != followedEpoch || epochStartSequences[after] != followedEpochStart))
            {
                onNewPrimaryEra(after);
            }
            if (after != before)
            {
                ingress.target(after == PrimarySelector.NONE ? null : ingressPublications[after]);
                if (after != PrimarySelector.NONE && lastFollowed != PrimarySelector.NONE && after != lastFollowed)
                {
                    // What went to the old primary since shortly before it was last heard from may have died with it.
                    controlResent.getAndAdd(
                        ingress.resendSince(selector.lastHeardNs(lastFollowed) - statusTimeoutNs));
                }
                if (after != PrimarySelector.NONE && lastFollowed == PrimarySelector.NONE && endpoints.size() > 1)
                {
                    // Nothing this gateway sends can be numbered at or below what the node had taken in by then.
                    deduplicator.joined(ingressSequences[after]);
                }
                if (after != PrimarySelector.NONE)
                {
                    lastFollowed = after;
                }
                followedEgressConnected = false;
                switches.increment();
                work++;
            }
        }
        work += ingress.drainPending();
        final int followed = followed();
        final boolean connected = followed != PrimarySelector.NONE && egressSubscriptions[followed].imageCount() > 0;
        if (connected && !followedEgressConnected)
        {
            // A new primary, or its egress back after a gap in which user changes may have gone by: ask for all.
            users.requestDirectory(nowNs);
        }
        followedEgressConnected = connected;
        work += users.poll(nowNs);
        for (int i = 0; i < egressSubscriptions.length; i++)
        {
            work += egressSubscriptions[i].controlledPoll(egressHandlers[i], EGRESS_FRAGMENT_LIMIT);
        }
        if (barrierPending)
        {
            work += settleDoubts();
        }
        if (nowNs - nextExpiryNs >= 0)
        {
            nextExpiryNs = nowNs + EXPIRY_INTERVAL_NS;
            unansweredExpired.getAndAdd(inFlight.expire(nowNs - unansweredExpiryNs));
        }
        final int primary = selector.primary();
        if (nowNs - nextCheckNs >= 0 && !barrierPending && followsStatus() && primary != PrimarySelector.NONE &&
            primary == followedEngine)
        {
            nextCheckNs = nowNs + EXPIRY_INTERVAL_NS;
            work += askAboutUnanswered(primary);
        }
        return work;
    }

    /**
     * @return the node whose egress is believed: the primary, or the only node.
     */
    private int followed()
    {
        return followsStatus() ? selector.primary() : 0;
    }

    /**
     * @return whether the primary is chosen from the nodes' status: always with a pair; with a single node once it
     *     has sent one (until then, and with a stand-in engine that sends none, commands go to it unconditionally).
     */
    boolean followsStatus()
    {
        return endpoints.size() > 1 || singleNodeStatusSeen;
    }

    /**
     * @return index of the node whose egress is believed (the primary, or the only node), or
     * {@link PrimarySelector#NONE}: where a request for the node's services goes.
     */
    public int followedEngine()
    {
        return followed();
    }

    /**
     * @param observer sees every TradeBusted of the followed node (the drop copies), or null (agent thread, before
     *                 the first poll).
     * @return this.
     */
    public EngineRouter bustObserver(final BustObserver observer)
    {
        this.bustObserver = observer;
        return this;
    }

    /**
     * @return the commands forwarded and not yet answered.
     */
    public InFlightCommands inFlight()
    {
        return inFlight;
    }

    /**
     * @return whether commands in doubt after a change of primary are still being settled.
     */
    public boolean isSettlingDoubts()
    {
        return barrierPending;
    }

    /**
     * The router follows another primary, or the same node in another era: what was unanswered is in doubt until the
     * new primary's answer to a barrier. A second change before that answer leaves nothing to reason from.
     */
    private void onNewPrimaryEra(final int primary)
    {
        // A single node's first status names the era the commands sent before it went to: nothing is in doubt.
        final boolean firstOfSingleNode = endpoints.size() == 1 && followedEngine == PrimarySelector.NONE;
        if (!firstOfSingleNode && (inFlight.size() > 0 || barrierPending))
        {
            // A check of the old primary (askAboutUnanswered) sent it nothing but its barrier: this change is the
            // first one as far as the commands in doubt are concerned.
            if (barrierPending && !checkRound)
            {
                doubtUnsafe = true;
            }
            else
            {
                doubtUnsafe = followedEngine == PrimarySelector.NONE;
                doubtEngine = followedEngine;
                doubtEpoch = followedEpoch;
                doubtEpochStart = followedEpochStart;
                doubtBaseline = doubtUnsafe || eraEpochs[doubtEngine] != doubtEpoch ||
                    eraStarts[doubtEngine] != doubtEpochStart ? -1 : lastSequencesSeen[doubtEngine];
            }
            inFlight.markAllInDoubt();
            checkRound = false;
            barrierPending = true;
            barrierSent = false;
            resolving = false;
            barrierTarget = primary;
            ingress.hold(true);
        }
        followedEngine = primary;
        followedEpoch = primaryEpochs[primary];
        followedEpochStart = epochStartSequences[primary];
    }

    /**
     * Commands unanswered for twice the status timeout by a primary still heard from in the same era are in doubt:
     * the barrier goes to that primary (see the class comment).
     */
    private int askAboutUnanswered(final int primary)
    {
        if (inFlight.markInDoubtSentBefore(nowNs - 2 * statusTimeoutNs) == 0)
        {
            return 0;
        }
        doubtUnsafe = false;
        doubtEngine = followedEngine;
        doubtEpoch = followedEpoch;
        doubtEpochStart = followedEpochStart;
        doubtBaseline = -1;
        checkRound = true;
        barrierPending = true;
        barrierSent = false;
        resolving = false;
        barrierTarget = primary;
        ingress.hold(true);
        unansweredChecks.increment();
        return 1;
    }

    /**
     * Send the barrier to the primary, once its ingress takes it and the control messages due before it are gone;
     * once answered, re-submit or answer the commands in doubt, in order, as far as the publications let us.
     */
    private int settleDoubts()
    {
        final int primary = selector.primary();
        if (primary != barrierTarget)
        {
            return 0;
        }
        if (!resolving)
        {
            if (barrierSent && nowNs - barrierSentNs < 2 * statusTimeoutNs)
            {
                return 0;
            }
            if (ingress.pendingControlCount() > 0)
            {
                ingress.drainPending();
                if (ingress.pendingControlCount() > 0)
                {
                    return 0;
                }
            }
            // A barrier unanswered for long (its node's ingress image lost it) is sent again under a new token.
            barrierEncoder.wrapAndApplyHeader(barrierBuffer, 0, barrierHeader)
                .sessionId(barrierSessionId)
                .token(++barrierToken);
            if (ingressPublications[primary].offer(barrierBuffer, 0,
                HEADER_LENGTH + GatewayBarrierEncoder.BLOCK_LENGTH) > 0)
            {
                barrierSent = true;
                barrierSentNs = nowNs;
                return 1;
            }
            return 0;
        }

        int work = 0;
        while (resolveIndex < resolveCount)
        {
            final int slot = doubtSlots[resolveIndex];
            if (inFlight.isInDoubt(slot))
            {
                if (resubmitDoubts && !(checkRound && inFlight.checks(slot) > 1))
                {
                    if (ingressPublications[primary].offer(inFlight.commands(), inFlight.commandOffset(slot),
                        inFlight.commandLength(slot)) <= 0)
                    {
                        return work;
                    }
                    inFlight.resubmitted(slot, nowNs);
                    resubmitted.increment();
                }
                else
                {
                    final int length = inDoubtAnswers.encode(slot, Math.max(epoch, primaryEpochs[primary]));
                    if (handler.onClientEvent(inDoubtAnswers.templateId(), inDoubtAnswers.buffer(), 0, length,
                        inFlight.sessionId(slot)) == Action.ABORT)
                    {
                        return work;
                    }
                    inFlight.remove(slot);
                    answeredUnknown.increment();
                }
                work++;
            }
            resolveIndex++;
        }
        barrierPending = false;
        resolving = false;
        doubtUnsafe = false;
        checkRound = false;
        ingress.hold(false);
        return work + 1;
    }

    private void onBarrierReached(final int engine)
    {
        if (!barrierPending || !barrierSent || resolving || engine != barrierTarget ||
            barrierReached.sessionId() != barrierSessionId || barrierReached.token() != barrierToken ||
            barrierReached.epoch() != primaryEpochs[engine])
        {
            return;
        }
        final long epochStart = epochStartSequences[engine];
        final boolean sameEra = doubtEngine == engine && doubtEpoch == primaryEpochs[engine] &&
            doubtEpochStart == epochStart;
        final long windowFirst = eraEpochs[engine] == primaryEpochs[engine] && eraStarts[engine] == epochStart ?
            windowFirstSequences[engine] : -1;
        final boolean windowCovers = windowFirst >= 0 && doubtBaseline >= 0 && windowFirst <= doubtBaseline + 1;
        final boolean nothingBeyond = doubtBaseline >= 0 && epochStart - 1 <= doubtBaseline;
        resubmitDoubts = !doubtUnsafe && (sameEra || windowCovers || nothingBeyond);
        resolveCount = inFlight.inDoubtInSendOrder(doubtSlots);
        resolveIndex = 0;
        resolving = true;
    }

    /**
     * Note, per node and era, the highest command sequence seen and where the re-sent window began.
     */
    private void noteSequence(final int engine, final long eventEpoch, final long commandSequence)
    {
        final long primaryEpoch = primaryEpochs[engine];
        final long epochStart = epochStartSequences[engine];
        if (eventEpoch != primaryEpoch)
        {
            return;
        }
        if (eraEpochs[engine] != primaryEpoch || eraStarts[engine] != epochStart)
        {
            eraEpochs[engine] = primaryEpoch;
            eraStarts[engine] = epochStart;
            lastSequencesSeen[engine] = -1;
            windowFirstSequences[engine] = -1;
        }
        if (commandSequence < epochStart && windowFirstSequences[engine] < 0)
        {
            windowFirstSequences[engine] = commandSequence;
        }
        lastSequencesSeen[engine] = Math.max(lastSequencesSeen[engine], commandSequence);
    }

    /**
     * @param observer sees every ExecutionReport let through (the drop copies); replaces the one before (agent
     *                 thread, before the first poll).
     * @return this.
     */
    public EngineRouter reportObserver(final ReportObserver observer)
    {
        this.reportObserver = null == observer ? NO_OBSERVER : observer;
        return this;
    }

    /**
     * @param observer sees every AccountRiskUpdate of the followed node's risk stream, unvalidated; replaces the one
     *                 before (agent thread, before the first poll).
     * @return this.
     */
    public EngineRouter riskObserver(final RiskObserver observer)
    {
        this.riskObserver = null == observer ? (buffer, offset, length) -> { } : observer;
        return this;
    }

    /** Sees the followed node's AccountRiskUpdates. */
    @FunctionalInterface
    public interface RiskObserver
    {
        /**
         * @param buffer holding the message.
         * @param offset of its header.
         * @param length whole message.
         */
        void onRiskUpdate(DirectBuffer buffer, int offset, int length);
    }

    /**
     * @return where commands and control messages go (the current primary).
     */
    public EngineIngress ingress()
    {
        return ingress;
    }

    /**
     * @return the newest epoch seen on client-bound events (stamped on the gateway's own rejects).
     */
    public long epoch()
    {
        return epoch;
    }

    /**
     * @return index of the node followed now, or {@link PrimarySelector#NONE}.
     */
    public int primary()
    {
        return selector.primary();
    }

    /**
     * Close the publications, subscriptions and counters.
     */
    public void close()
    {
        CloseHelper.closeAll(ingressPublications);
        CloseHelper.closeAll(egressSubscriptions);
        CloseHelper.closeAll(statusSubscriptions);
        CloseHelper.closeAll(switches, duplicates, superseded, malformed, controlResent, resubmitted,
            answeredUnknown, unansweredExpired);
    }

    private void onStatus(final int engine, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER_LENGTH + EngineStatusDecoder.BLOCK_LENGTH)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != EngineStatusDecoder.SCHEMA_ID)
        {
            return;
        }
        if (headerDecoder.templateId() == AccountRiskUpdateDecoder.TEMPLATE_ID)
        {
            if (engine == followed())
            {
                riskObserver.onRiskUpdate(buffer, offset, length);
            }
            return;
        }
        if (headerDecoder.templateId() != EngineStatusDecoder.TEMPLATE_ID)
        {
            return;
        }
        engineStatus.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final NodeRole role = engineStatus.role();
        final long statusEpoch = engineStatus.epoch();
        ingressSequences[engine] = engineStatus.ingressSequence();
        singleNodeStatusSeen = true;
        if (role == NodeRole.PRIMARY)
        {
            primaryEpochs[engine] = statusEpoch;
            epochStartSequences[engine] = engineStatus.epochStartSequence();
        }
        selector.onStatus(engine, role, statusEpoch, nowNs);
    }

    /**
     * An operator lifted logon lockouts (UnlockLogons, journaled by the engine): apply it to this gateway's guard.
     * Idempotent, so the copy a promoted standby or the other agent's router delivers does no harm.
     */
    private void onLogonsUnlocked(final LogonsUnlockedDecoder decoder)
    {
        final String username = decoder.username();
        final String address = decoder.address();
        final LogonGuard guard = ctx.logonAuthenticator().guard();
        if (!username.isEmpty())
        {
            guard.unlockUser(username);
        }
        if (!address.isEmpty())
        {
            guard.unlockAddress(address);
        }
    }

    /**
     * Decode one engine event: the header and template, then, for an event bound for a client session, the fields it
     * is routed by (session, epoch, command sequence), for {@link #onSessionEvent}. The engine's notices to the gateway
     * itself go to {@link #onEngineNotice}.
     */
    private Action onEgress(final int engine, final DirectBuffer buffer, final int offset, final int length)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            malformed.increment();
            return Action.CONTINUE;
        }
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        final int body = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        final long sessionId;
        final long eventEpoch;
        final long commandSequence;
        long accountId = 0;
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                executionReport.wrap(buffer, body, blockLength, version);
                sessionId = executionReport.sessionId();
                accountId = executionReport.accountId();
                eventEpoch = executionReport.epoch();
                commandSequence = executionReport.commandSequence();
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                cancelReject.wrap(buffer, body, blockLength, version);
                sessionId = cancelReject.sessionId();
                eventEpoch = cancelReject.epoch();
                commandSequence = cancelReject.commandSequence();
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                businessReject.wrap(buffer, body, blockLength, version);
                sessionId = businessReject.sessionId();
                eventEpoch = businessReject.epoch();
                commandSequence = -1;
                break;
            case OrderStatusReportDecoder.TEMPLATE_ID:
                orderStatusReport.wrap(buffer, body, blockLength, version);
                sessionId = orderStatusReport.sessionId();
                eventEpoch = orderStatusReport.epoch();
                commandSequence = orderStatusReport.commandSequence();
                break;
            case MassCancelReportDecoder.TEMPLATE_ID:
                massCancelReport.wrap(buffer, body, blockLength, version);
                sessionId = massCancelReport.sessionId();
                eventEpoch = massCancelReport.epoch();
                commandSequence = massCancelReport.commandSequence();
                break;
            case MassQuoteAckDecoder.TEMPLATE_ID:
                sessionId = buffer.getLong(body + MassQuoteAckDecoder.sessionIdEncodingOffset(), ORDER);
                eventEpoch = buffer.getLong(body + MassQuoteAckDecoder.epochEncodingOffset(), ORDER);
                commandSequence = buffer.getLong(body + MassQuoteAckDecoder.commandSequenceEncodingOffset(), ORDER);
                break;
            case QuoteCancelReportDecoder.TEMPLATE_ID:
                sessionId = buffer.getLong(body + QuoteCancelReportDecoder.sessionIdEncodingOffset(), ORDER);
                eventEpoch = buffer.getLong(body + QuoteCancelReportDecoder.epochEncodingOffset(), ORDER);
                commandSequence = buffer.getLong(
                    body + QuoteCancelReportDecoder.commandSequenceEncodingOffset(), ORDER);
                break;
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID:
                // The session told: the one whose quote's fill breached, or that reset; 0 (the operator's) is nobody's.
                sessionId = buffer.getLong(body + MarketMakerProtectionEventDecoder.sessionIdEncodingOffset(), ORDER);
                eventEpoch = buffer.getLong(body + MarketMakerProtectionEventDecoder.epochEncodingOffset(), ORDER);
                commandSequence = buffer.getLong(
                    body + MarketMakerProtectionEventDecoder.commandSequenceEncodingOffset(), ORDER);
                break;
            case CancelAllAfterReportDecoder.TEMPLATE_ID:
                sessionId = buffer.getLong(body + CancelAllAfterReportDecoder.sessionIdEncodingOffset(), ORDER);
                eventEpoch = buffer.getLong(body + CancelAllAfterReportDecoder.epochEncodingOffset(), ORDER);
                commandSequence = buffer.getLong(
                    body + CancelAllAfterReportDecoder.commandSequenceEncodingOffset(), ORDER);
                break;
            default:
                return onEngineNotice(engine, templateId, buffer, offset, length);
        }
        return onSessionEvent(
            engine, templateId, buffer, offset, length, sessionId, accountId, eventEpoch, commandSequence);
    }

    /**
     * An event for the gateway itself rather than a client session (logons unlocked, users, a barrier reached, a
     * bust), its header decoded: neither fenced by epoch nor deduplicated. Unknown templates are skipped.
     */
    private Action onEngineNotice(
        final int engine, final int templateId, final DirectBuffer buffer, final int offset, final int length)
    {
        final int body = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        switch (templateId)
        {
            case LogonsUnlockedDecoder.TEMPLATE_ID:
                onLogonsUnlocked(logonsUnlocked.wrap(buffer, body, blockLength, version));
                break;
            case UserDefinitionDecoder.TEMPLATE_ID:
                if (engine == followed())
                {
                    users.onUserDefinition(userDefinition.wrap(buffer, body, blockLength, version));
                }
                break;
            case UserDirectoryEndDecoder.TEMPLATE_ID:
                if (engine == followed())
                {
                    users.onDirectoryEnd(userDirectoryEnd.wrap(buffer, body, blockLength, version));
                }
                break;
            case GatewayBarrierReachedDecoder.TEMPLATE_ID:
                barrierReached.wrap(buffer, body, blockLength, version);
                onBarrierReached(engine);
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                if (null != bustObserver && engine == followed())
                {
                    bustObserver.onBust(buffer, offset, length,
                        buffer.getLong(body + TradeBustedDecoder.commandSequenceEncodingOffset(), ORDER));
                }
                break;
            default:
                break;
        }
        return Action.CONTINUE;
    }

    /**
     * A client-bound event, judged in this order: the epoch fence, the duplicate filter, then delivery, after which it
     * counts as delivered. An event without a command sequence (-1: a BusinessReject) is fenced by its epoch alone and
     * never deduplicated.
     */
    private Action onSessionEvent(
        final int engine,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long sessionId,
        final long accountId,
        final long eventEpoch,
        final long commandSequence)
    {
        final int fence = epochFence(engine, eventEpoch, commandSequence);
        if (EPOCH_NOT_YET_PRIMARY == fence)
        {
            // Its status as primary of this epoch has not arrived yet: judge the event once it has.
            return Action.ABORT;
        }
        if (EPOCH_SUPERSEDED == fence)
        {
            // From a primary that has since been superseded (docs/protocol.md): never shown to clients.
            superseded.increment();
            return Action.CONTINUE;
        }
        final boolean sequenced = commandSequence >= 0 && followsStatus();
        final long epochStart = sequenced ? epochStartSequences[engine] : 0;
        if (sequenced)
        {
            noteSequence(engine, eventEpoch, commandSequence);
        }
        if (isDuplicate(engine, eventEpoch, epochStart, commandSequence))
        {
            duplicates.increment();
            return Action.CONTINUE;
        }
        epoch = eventEpoch;
        if (deliver(templateId, buffer, offset, length, sessionId, accountId) == Action.ABORT)
        {
            return Action.ABORT;
        }
        if (commandSequence >= 0)
        {
            deduplicator.delivered(engine, eventEpoch, epochStart, commandSequence);
        }
        return Action.CONTINUE;
    }

    /**
     * The epoch fence: an event of an epoch older than one already delivered, or, while another node is primary, older
     * than the highest primary's, is {@link #EPOCH_SUPERSEDED}; so is a sequenced event, with the nodes' status
     * followed, of an epoch older than its node's as primary; one of a newer epoch is {@link #EPOCH_NOT_YET_PRIMARY}.
     */
    private int epochFence(final int engine, final long eventEpoch, final long commandSequence)
    {
        final int primary = selector.primary();
        if (eventEpoch < epoch ||
            (primary != PrimarySelector.NONE && engine != primary && eventEpoch < selector.highestPrimaryEpoch()))
        {
            return EPOCH_SUPERSEDED;
        }
        if (commandSequence >= 0 && followsStatus())
        {
            if (eventEpoch > primaryEpochs[engine])
            {
                return EPOCH_NOT_YET_PRIMARY;
            }
            if (eventEpoch < primaryEpochs[engine])
            {
                return EPOCH_SUPERSEDED;
            }
        }
        return EPOCH_CURRENT;
    }

    /**
     * The duplicate filter: a sequenced event this router already delivered, from this node or another (a promoted
     * standby re-sends its report window), is not delivered again ({@link EgressDeduplicator}).
     */
    private boolean isDuplicate(
        final int engine, final long eventEpoch, final long epochStart, final long commandSequence)
    {
        return commandSequence >= 0 && !deduplicator.isNew(engine, eventEpoch, epochStart, commandSequence);
    }

    /**
     * Hand a fenced, new event on: to this gateway's session (which may ask for it again: ABORT), to the order command
     * kept in flight that it answers, and, an ExecutionReport, to the drop copies.
     */
    private Action deliver(
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long sessionId,
        final long accountId)
    {
        final boolean ours = SessionIds.gatewayId(sessionId) == ctx.gatewayId();
        if (ours && handler.onClientEvent(templateId, buffer, offset, length, sessionId) == Action.ABORT)
        {
            return Action.ABORT;
        }
        if (ours && answersOrderEntry(templateId))
        {
            inFlight.answered(sessionId, buffer, offset + HEADER_LENGTH + clientOrderIdOffset(templateId));
        }
        if (templateId == ExecutionReportDecoder.TEMPLATE_ID)
        {
            reportObserver.onReport(buffer, offset, length, sessionId, accountId);
        }
        return Action.CONTINUE;
    }

    /** Whether an event can answer a kept NewOrder, CancelOrder or ReplaceOrder ({@link InFlightCommands}). */
    private static boolean answersOrderEntry(final int templateId)
    {
        return templateId == ExecutionReportDecoder.TEMPLATE_ID || templateId == CancelRejectDecoder.TEMPLATE_ID ||
            templateId == BusinessRejectDecoder.TEMPLATE_ID;
    }

    private static int clientOrderIdOffset(final int templateId)
    {
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                return ExecutionReportDecoder.clientOrderIdEncodingOffset();
            case CancelRejectDecoder.TEMPLATE_ID:
                return CancelRejectDecoder.clientOrderIdEncodingOffset();
            default:
                return BusinessRejectDecoder.refClientOrderIdEncodingOffset();
        }
    }
}
