package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's link to the engine nodes of a pair: it publishes to every node's ingress, subscribes to every node's
 * egress and status, follows the node claiming PRIMARY at the highest epoch ({@link PrimarySelector}) and sends
 * commands and control messages only there ({@link EngineIngress}). Client-bound events reach the agent's
 * {@link EventHandler} only if they are for this gateway and new: not of an epoch older than the newest seen, not
 * from a node other than the followed one at an epoch below the followed one's, not of an epoch below the one the node
 * last claimed PRIMARY at, and not already delivered ({@link EgressDeduplicator}, which needs the first command
 * sequence of the node's epoch from its EngineStatus). An event of an epoch the node has not yet claimed PRIMARY at in
 * a status the router has seen (egress and status are separate streams; a node announces its new epoch at once) is
 * held, and that node's egress with it, until the status arrives. BusinessRejects carry no command sequence and are
 * not deduplicated. On a switch, the control messages sent to the old primary since shortly before it was last heard
 * from are sent again to the new one ({@link EngineIngress#resendSince(long)}).
 * <p>
 * Thread safety: one instance per agent, used on the agent's thread only.
 */
public final class EngineRouter implements AutoCloseable
{
    private static final int EGRESS_FRAGMENT_LIMIT = 16;
    private static final int STATUS_FRAGMENT_LIMIT = 64;
    private static final int COUNTER_TYPE_ID = 7103;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    /**
     * Receives the client-bound events the router lets through; the agent delivers them to its sessions.
     */
    @FunctionalInterface
    public interface EventHandler
    {
        /**
         * @param templateId ExecutionReport, CancelReject or BusinessReject.
         * @param buffer     holding the event.
         * @param offset     of its message header.
         * @param length     whole message.
         * @param sessionId  the session it is for (of this gateway).
         * @return CONTINUE, or ABORT to have it redelivered.
         */
        Action onClientEvent(int templateId, DirectBuffer buffer, int offset, int length, long sessionId);
    }

    private final GatewayContext ctx;
    private final EventHandler handler;
    private final List<EngineEndpoint> endpoints;
    private final Publication[] ingressPublications;
    private final Subscription[] egressSubscriptions;
    private final Subscription[] statusSubscriptions;
    private final ControlledFragmentHandler[] egressHandlers;
    private final FragmentHandler[] statusHandlers;
    private final EngineIngress ingress = new EngineIngress(null);
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
    private final AtomicCounter switches;
    private final AtomicCounter duplicates;
    private final AtomicCounter superseded;
    private final AtomicCounter malformed;
    private final AtomicCounter controlResent;
    private final long statusTimeoutNs;
    private final long[] primaryEpochs;
    private final long[] epochStartSequences;
    private final long[] ingressSequences;
    private boolean followedEgressConnected;
    private int lastFollowed = PrimarySelector.NONE;
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
        this.statusTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ctx.engineStatusTimeoutMs());
        this.selector = new PrimarySelector(count, statusTimeoutNs);
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
        for (int i = 0; i < count; i++)
        {
            final EngineEndpoint endpoint = endpoints.get(i);
            final int engine = i;
            ingressPublications[i] = aeron.addPublication(endpoint.ingressChannel(), endpoint.ingressStreamId());
            egressSubscriptions[i] = aeron.addSubscription(endpoint.egressChannel(), endpoint.egressStreamId());
            egressHandlers[i] = (buffer, offset, length, header) -> onEgress(engine, buffer, offset, length);
            if (count > 1)
            {
                statusSubscriptions[i] = aeron.addSubscription(endpoint.statusChannel(), endpoint.statusStreamId());
                statusHandlers[i] = (buffer, offset, length, header) -> onStatus(engine, buffer, offset, length);
            }
        }
        if (count == 1)
        {
            ingress.target(ingressPublications[0]);
        }
        users = new UserDirectoryFeed(ctx.users(), ingress, sessions, ctx.gatewayId(), ctx.fixCompId());
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
        if (endpoints.size() > 1)
        {
            for (int i = 0; i < statusSubscriptions.length; i++)
            {
                work += statusSubscriptions[i].poll(statusHandlers[i], STATUS_FRAGMENT_LIMIT);
            }
            final int before = selector.primary();
            final int after = selector.select(nowNs);
            if (after != before)
            {
                ingress.target(after == PrimarySelector.NONE ? null : ingressPublications[after]);
                if (after != PrimarySelector.NONE && lastFollowed != PrimarySelector.NONE && after != lastFollowed)
                {
                    // What went to the old primary since shortly before it was last heard from may have died with it.
                    controlResent.getAndAdd(
                        ingress.resendSince(selector.lastHeardNs(lastFollowed) - statusTimeoutNs));
                }
                if (after != PrimarySelector.NONE && lastFollowed == PrimarySelector.NONE)
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
        return work;
    }

    /**
     * @return the node whose egress is believed: the primary, or the only node.
     */
    private int followed()
    {
        return endpoints.size() == 1 ? 0 : selector.primary();
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
        CloseHelper.closeAll(switches, duplicates, superseded, malformed, controlResent);
    }

    private void onStatus(final int engine, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER_LENGTH + EngineStatusDecoder.BLOCK_LENGTH)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != EngineStatusDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != EngineStatusDecoder.TEMPLATE_ID)
        {
            return;
        }
        engineStatus.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final NodeRole role = engineStatus.role();
        final long statusEpoch = engineStatus.epoch();
        ingressSequences[engine] = engineStatus.ingressSequence();
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
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                executionReport.wrap(buffer, body, blockLength, version);
                sessionId = executionReport.sessionId();
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
            case LogonsUnlockedDecoder.TEMPLATE_ID:
                onLogonsUnlocked(logonsUnlocked.wrap(buffer, body, blockLength, version));
                return Action.CONTINUE;
            case UserDefinitionDecoder.TEMPLATE_ID:
                if (engine == followed())
                {
                    users.onUserDefinition(userDefinition.wrap(buffer, body, blockLength, version));
                }
                return Action.CONTINUE;
            case UserDirectoryEndDecoder.TEMPLATE_ID:
                if (engine == followed())
                {
                    users.onDirectoryEnd(userDirectoryEnd.wrap(buffer, body, blockLength, version));
                }
                return Action.CONTINUE;
            default:
                return Action.CONTINUE;
        }

        final int primary = selector.primary();
        if (eventEpoch < epoch ||
            (primary != PrimarySelector.NONE && engine != primary && eventEpoch < selector.highestPrimaryEpoch()))
        {
            // From a primary that has since been superseded (docs/protocol.md): never shown to clients.
            superseded.increment();
            return Action.CONTINUE;
        }
        long epochStart = 0;
        if (commandSequence >= 0 && endpoints.size() > 1)
        {
            if (eventEpoch > primaryEpochs[engine])
            {
                // Its status as primary of this epoch has not arrived yet: judge the event once it has.
                return Action.ABORT;
            }
            if (eventEpoch < primaryEpochs[engine])
            {
                superseded.increment();
                return Action.CONTINUE;
            }
            epochStart = epochStartSequences[engine];
        }
        if (commandSequence >= 0 && !deduplicator.isNew(engine, eventEpoch, epochStart, commandSequence))
        {
            duplicates.increment();
            return Action.CONTINUE;
        }
        epoch = eventEpoch;
        if (SessionIds.gatewayId(sessionId) == ctx.gatewayId() &&
            handler.onClientEvent(templateId, buffer, offset, length, sessionId) == Action.ABORT)
        {
            return Action.ABORT;
        }
        if (commandSequence >= 0)
        {
            deduplicator.delivered(engine, eventEpoch, epochStart, commandSequence);
        }
        return Action.CONTINUE;
    }
}
