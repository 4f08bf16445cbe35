package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.Header;
import io.ringex.gateway.EngineIngress;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.StatusRequests;
import io.ringex.gateway.auth.RemoteAddresses;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.OlderVersions;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.CancelAllAfterEncoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.DropCopySubscribeDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MassQuoteEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestEncoder;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.QuoteCancelEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionEncoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.ArrayListUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The SBE-over-Aeron side of the gateway, as an Agrona {@link Agent}: polls client ingress and the session timers
 * ({@link SbeSessions}); each client message is validated ({@link CommandChecker}), throttled, checked for account
 * authority, stamped with its session and forwarded to the primary. The gateway's {@link
 * io.ringex.gateway.GatewayAgent} polls the engines and hands this agent its sessions' events.
 * <p>
 * Nothing is dropped silently: a back-pressured or primary-less forward returns {@link Action#ABORT} until {@link
 * GatewayContext#backPressureTimeoutNs()}, then is refused; an event a client's publication refuses waits in the
 * session's own queue, so a slow client never holds up the egress.
 * <p>
 * Threading: the agent's thread, except the image handlers (Aeron's conductor thread), which only enqueue. Counters are
 * Aeron counters.
 */
public final class SbeGatewayAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(SbeGatewayAgent.class);
    private static final int FRAGMENT_LIMIT = 16;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final ByteOrder ORDER = MessageHeaderDecoder.BYTE_ORDER;
    private static final long TIMER_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int COUNTER_TYPE_ID = 7101;
    /** Room for an engine event rewritten for a client of an older schema version (client events are small). */
    private static final int OLDER_BUFFER_LENGTH = 64 * 1024;

    private final GatewayContext ctx;
    private final Aeron aeron;
    private final NanoClock clock;
    private final CommandChecker checker;
    private final long backPressureTimeoutNs;
    private final long slowClientTimeoutNs;
    /** The most a session may have held: as much as its publication's term. */
    private final int maxHeldBytes;
    /** Sessions with events held. */
    private final ArrayList<ClientSession> holding = new ArrayList<>();
    private final ConcurrentLinkedQueue<Integer> lostImages = new ConcurrentLinkedQueue<>();
    private final UnsafeBuffer commandBuffer;
    private final StatusRequests statusRequests = new StatusRequests();
    private final ControlledFragmentHandler clientHandler = this::onClientFragmentSafely;

    private final EngineRouter router;
    private final EngineIngress ingress;
    private Subscription clientSubscription;
    private SbeSessions sessions;
    private SbeReplies replies;
    private AtomicCounter activeSessions;
    private AtomicCounter rejects;
    private AtomicCounter throttled;
    private AtomicCounter engineBusy;
    private AtomicCounter backPressureEvents;
    private AtomicCounter dropped;
    private AtomicCounter refusedLogons;
    private AtomicCounter dropCopies;
    private AtomicCounter dropCopyReplays;
    private AtomicCounter dropCopySlow;
    private AtomicCounter heldEvents;
    private SbeDropCopy dropCopy;
    private final UnsafeBuffer olderBuffer;
    private long nextTimerCheckNs;
    private long nowNs;

    /**
     * @param ctx    concluded configuration.
     * @param aeron  client connected to the media driver; not closed by the agent.
     * @param clock  monotonic clock for heartbeats, timeouts, throttle and back-pressure bounds.
     * @param router the gateway's one link to the engine nodes, polled by its owner ({@link
     *               io.ringex.gateway.GatewayAgent}), which hands this agent its sessions' events
     *               ({@link #onEngineEvent}).
     */
    public SbeGatewayAgent(
        final GatewayContext ctx, final Aeron aeron, final NanoClock clock, final EngineRouter router)
    {
        if (!ctx.isConcluded())
        {
            throw new IllegalStateException("GatewayContext.conclude() first");
        }
        this.ctx = ctx;
        this.aeron = aeron;
        this.clock = clock;
        this.router = router;
        this.ingress = router.ingress();
        this.checker = new CommandChecker(ctx.maxMessageLength());
        this.commandBuffer = new UnsafeBuffer(new byte[ctx.maxMessageLength()]);
        this.olderBuffer = new UnsafeBuffer(new byte[OLDER_BUFFER_LENGTH]);
        this.backPressureTimeoutNs = ctx.backPressureTimeoutNs();
        this.slowClientTimeoutNs = ctx.slowClientTimeoutNs();
        this.maxHeldBytes = ctx.sbeResponseTermLength();
    }

    /**
     * {@inheritDoc}
     */
    public void onStart()
    {
        nowNs = clock.nanoTime();
        final String prefix = "ringex-gateway-" + ctx.gatewayId() + " sbe ";
        activeSessions = aeron.addCounter(COUNTER_TYPE_ID, prefix + "active sessions");
        rejects = aeron.addCounter(COUNTER_TYPE_ID, prefix + "rejects");
        throttled = aeron.addCounter(COUNTER_TYPE_ID, prefix + "throttled");
        engineBusy = aeron.addCounter(COUNTER_TYPE_ID, prefix + "engine busy / no primary rejects");
        backPressureEvents = aeron.addCounter(COUNTER_TYPE_ID, prefix + "engine back-pressure events");
        dropped = aeron.addCounter(COUNTER_TYPE_ID, prefix + "dropped (no session / slow client)");
        refusedLogons = aeron.addCounter(COUNTER_TYPE_ID, prefix + "logons refused");
        replies = new SbeReplies(rejects, dropped);
        sessions = new SbeSessions(ctx, aeron, router, replies, activeSessions, rejects, dropped, refusedLogons,
            SystemEpochClock.INSTANCE);
        // Before the client subscription: once clients can connect, the agent is ready for them.
        dropCopies = aeron.addCounter(COUNTER_TYPE_ID, prefix + "drop copies sent");
        dropCopyReplays = aeron.addCounter(COUNTER_TYPE_ID, prefix + "drop-copy replays asked");
        dropCopySlow = aeron.addCounter(COUNTER_TYPE_ID, prefix + "drop-copy sessions too slow");
        heldEvents = aeron.addCounter(COUNTER_TYPE_ID, prefix + "events held");
        dropCopy = new SbeDropCopy(ctx, aeron, router,
            (session, now) -> sessions.disconnect(session, RejectReason.NONE, true, now),
            dropCopies, dropCopyReplays, dropCopySlow);
        router.bustObserver((buffer, offset, length, sequence) ->
            dropCopy.onCopy(TradeBustedDecoder.TEMPLATE_ID, buffer, offset, length, sequence));
        clientSubscription = aeron.addSubscription(
            ctx.clientChannel(), ctx.clientStreamId(), null, this::onClientImageUnavailable);
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        nowNs = clock.nanoTime();
        int work = clientSubscription.controlledPoll(clientHandler, FRAGMENT_LIMIT);
        work += processLostImages();
        work += sessions.pollVerdicts(nowNs);
        work += dropCopy.doWork(nowNs);
        if (!holding.isEmpty())
        {
            work += sendHeld();
        }
        if (nowNs >= nextTimerCheckNs)
        {
            nextTimerCheckNs = nowNs + TIMER_INTERVAL_NS;
            work += sessions.checkTimers(nowNs);
        }
        return work;
    }

    /**
     * End the live sessions of a user the engine disabled or changed (the agent's thread).
     *
     * @param username the user.
     * @param disabled whether the user was disabled (else its accounts, CompIDs or role changed).
     * @param change   what changed, for the Logout's text.
     */
    public void endSessionsOf(final String username, final boolean disabled, final String change)
    {
        final RejectReason reason = disabled ? RejectReason.USER_DISABLED : RejectReason.NOT_AUTHORISED;
        final String text = disabled ? "user disabled" : change + ": log on again";
        final int ended = sessions.endSessionsOf(username, reason, text, clock.nanoTime());
        if (ended > 0)
        {
            LOG.warn("SBE: {} session(s) of user {} logged out ({}: {})", ended, username, reason, change);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        if (sessions != null)
        {
            sessions.closeAll(clock.nanoTime());
        }
        if (dropCopy != null)
        {
            router.bustObserver(null);
            dropCopy.close();
        }
        CloseHelper.closeAll(clientSubscription, activeSessions, rejects, throttled, engineBusy,
            backPressureEvents, dropped, refusedLogons, dropCopies, dropCopyReplays, dropCopySlow, heldEvents);
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "ringex-gateway-sbe";
    }

    /**
     * @return sessions logged on now (agent thread; tests read the Aeron counter instead).
     */
    public int activeSessionCount()
    {
        return (int)activeSessions.get();
    }

    // ---------------------------------------------------------------- client ingress

    private void onClientImageUnavailable(final Image image)
    {
        lostImages.add(image.sessionId());
    }

    private int processLostImages()
    {
        int work = 0;
        Integer imageSessionId;
        while ((imageSessionId = lostImages.poll()) != null)
        {
            // Every session the lost publication carried, and the logons it sent that are still being checked.
            sessions.abandonPending(imageSessionId.intValue());
            ClientSession session;
            while ((session = sessions.byImage(imageSessionId.intValue())) != null)
            {
                sessions.disconnect(session, RejectReason.NONE, false, nowNs);
            }
            work++;
        }
        return work;
    }

    /**
     * A bug must not turn one client message into a poison pill redelivered forever: count it, skip it.
     */
    private Action onClientFragmentSafely(
        final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        try
        {
            return onClientFragment(buffer, offset, length, header);
        }
        catch (final RuntimeException ex)
        {
            dropped.increment();
            return Action.CONTINUE;
        }
    }

    private Action onClientFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final RejectReason invalid = checker.validate(buffer, offset, length);
        final int templateId = length >= HEADER_LENGTH ?
            buffer.getShort(offset + 2, ORDER) & 0xFFFF : 0;
        if (invalid == RejectReason.NONE && templateId == LogonDecoder.TEMPLATE_ID)
        {
            sessions.onLogon(buffer, offset, header.sessionId(),
                RemoteAddresses.host(((Image)header.context()).sourceIdentity()), nowNs);
            return Action.CONTINUE;
        }

        final ClientSession session = sessions.forMessage(header.sessionId(), buffer, offset, length);
        if (invalid != RejectReason.NONE)
        {
            if (session != null && session.state == ClientSession.State.ACTIVE)
            {
                session.lastReceivedNs = nowNs;
                reject(session, templateId, null, 0, invalid, "invalid message");
            }
            else
            {
                dropped.increment();
            }
            return Action.CONTINUE;
        }

        if (session == null || session.state != ClientSession.State.ACTIVE)
        {
            // No session to answer on: a client that skipped Logon. Counted, not answered.
            dropped.increment();
            return Action.CONTINUE;
        }

        session.lastReceivedNs = nowNs;
        switch (templateId)
        {
            case HeartbeatDecoder.TEMPLATE_ID:
                return Action.CONTINUE;
            case LogoutDecoder.TEMPLATE_ID:
                sessions.disconnect(session, RejectReason.NONE, true, nowNs);
                return Action.CONTINUE;
            case DropCopySubscribeDecoder.TEMPLATE_ID:
                if (!session.throttle.tryAcquire(nowNs))
                {
                    throttled.increment();
                    reject(session, templateId, buffer, offset, RejectReason.THROTTLED, null);
                    return Action.CONTINUE;
                }
                dropCopy.onSubscribe(session, buffer, offset, nowNs);
                return Action.CONTINUE;
            default:
                break;
        }

        return onOrderEntry(session, buffer, offset, length, templateId);
    }

    private Action onOrderEntry(
        final ClientSession session,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int templateId)
    {
        final boolean firstAttempt = session.ingressBackPressureStartNs == 0;
        if (firstAttempt)
        {
            final RejectReason reason = checker.check(session.user, buffer, offset);
            if (reason != RejectReason.NONE)
            {
                reject(session, templateId, buffer, offset, reason, checker.text());
                return Action.CONTINUE;
            }
            if (!session.throttle.tryAcquire(nowNs))
            {
                throttled.increment();
                reject(session, templateId, buffer, offset, RejectReason.THROTTLED, null);
                return Action.CONTINUE;
            }
        }

        // Never write into the term buffer: stamp a copy.
        commandBuffer.putBytes(0, buffer, offset, length);
        final int stampedLength = stamp(session, templateId, length);
        final long result = ingress.offer(commandBuffer, 0, stampedLength);
        if (result > 0)
        {
            session.ingressBackPressureStartNs = 0;
            return Action.CONTINUE;
        }

        if (result == EngineIngress.NO_PRIMARY)
        {
            // Nothing to wait for: refused at once, so the client is never left without an answer.
            session.ingressBackPressureStartNs = 0;
            engineBusy.increment();
            reject(session, templateId, buffer, offset, RejectReason.NO_PRIMARY, "no primary engine; retry");
            return Action.CONTINUE;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            session.ingressBackPressureStartNs = 0;
            engineBusy.increment();
            reject(session, templateId, buffer, offset, RejectReason.ENGINE_BUSY, "engine ingress closed");
            return Action.CONTINUE;
        }

        if (firstAttempt)
        {
            backPressureEvents.increment();
            session.ingressBackPressureStartNs = nowNs;
        }
        if (nowNs - session.ingressBackPressureStartNs < backPressureTimeoutNs)
        {
            return Action.ABORT;
        }
        session.ingressBackPressureStartNs = 0;
        engineBusy.increment();
        reject(session, templateId, buffer, offset, RejectReason.ENGINE_BUSY, null);
        return Action.CONTINUE;
    }

    /** Stamp the session (and for a mass status, the accounts it may see) on the copy; returns its length. */
    private int stamp(final ClientSession session, final int templateId, final int length)
    {
        final int at = HEADER_LENGTH;
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + NewOrderEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case CancelOrderDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + CancelOrderEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case ReplaceOrderDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + ReplaceOrderEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case MassCancelDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + MassCancelEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                // Only the gateway may ask for cancel-on-disconnect semantics.
                commandBuffer.putByte(
                    at + MassCancelEncoder.cancelOnDisconnectEncodingOffset(), (byte)BooleanType.FALSE.value());
                break;
            case OrderStatusRequestDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + OrderStatusRequestEncoder.sessionIdEncodingOffset(), session.sessionId,
                    ORDER);
                break;
            case MassQuoteDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + MassQuoteEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case QuoteCancelDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + QuoteCancelEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case ResetMarketMakerProtectionDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + ResetMarketMakerProtectionEncoder.sessionIdEncodingOffset(),
                    session.sessionId, ORDER);
                break;
            case CancelAllAfterDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + CancelAllAfterEncoder.sessionIdEncodingOffset(), session.sessionId, ORDER);
                break;
            case OrderMassStatusRequestDecoder.TEMPLATE_ID:
                commandBuffer.putLong(at + OrderMassStatusRequestEncoder.sessionIdEncodingOffset(), session.sessionId,
                    ORDER);
                return statusRequests.writeAccounts(session.user,
                    commandBuffer.getLong(at + OrderMassStatusRequestEncoder.accountIdEncodingOffset(), ORDER),
                    commandBuffer);
            default:
                break;
        }
        return length;
    }

    private void reject(
        final ClientSession session,
        final int refTemplateId,
        final DirectBuffer message,
        final int messageOffset,
        final RejectReason reason,
        final String text)
    {
        replies.reject(session, refTemplateId, message, messageOffset, reason, text, router.epoch(), nowNs);
    }

    // ---------------------------------------------------------------- engine egress

    /**
     * An ExecutionReport the router let through, for any gateway's session: copied to the SBE drop-copy sessions
     * whose scope it is in ({@link SbeDropCopy}).
     *
     * @param buffer holding the report.
     * @param offset of its header.
     * @param length whole message.
     */
    public void onDropCopyReport(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null != dropCopy)
        {
            dropCopy.onCopy(ExecutionReportDecoder.TEMPLATE_ID, buffer, offset, length, buffer.getLong(
                offset + HEADER_LENGTH + ExecutionReportDecoder.commandSequenceEncodingOffset(), ORDER));
        }
    }

    /**
     * An engine event for one of this gateway's SBE sessions: offered on its publication, at the client's schema
     * version. Never redelivered: the egress it comes on carries every session's reports (and, through the engine,
     * every client's), so a client that does not keep up must not hold it up. What its publication refuses waits, in
     * order, in the session's own queue ({@link #sendHeld}), up to as much as the publication's term holds; a client
     * whose queue would grow past that, or does not move for the slow-client timeout, is disconnected.
     *
     * @param templateId ExecutionReport, CancelReject, BusinessReject, OrderStatusReport, MassCancelReport, or a
     *                   market maker's MassQuoteAck, QuoteCancelReport, MarketMakerProtectionEvent or
     *                   CancelAllAfterReport.
     * @param buffer     holding the event.
     * @param offset     of its header.
     * @param length     whole message.
     * @param sessionId  the session.
     * @return CONTINUE.
     */
    public Action onEngineEvent(
        final int templateId, final DirectBuffer buffer, final int offset, final int length, final long sessionId)
    {
        final int sessionNumber = SessionIds.sessionNumber(sessionId);
        if (SessionNumbers.isFix(sessionNumber))
        {
            return Action.CONTINUE;
        }
        final ClientSession session = sessions.byNumber(sessionNumber);
        if (session == null || session.state != ClientSession.State.ACTIVE)
        {
            dropped.increment();
            return Action.CONTINUE;
        }

        if (null == session.held || session.held.isEmpty())
        {
            final long result = offer(session, buffer, offset, length);
            if (result > 0)
            {
                session.lastSentNs = nowNs;
                return Action.CONTINUE;
            }
            if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION)
            {
                // Gone (its publication closed or lost its subscriber): drop it.
                dropped.increment();
                sessions.disconnect(session, RejectReason.NONE, false, nowNs);
                return Action.CONTINUE;
            }
            if (null == session.held)
            {
                session.held = new CopyQueue();
            }
            session.heldProgressNs = nowNs;
            holding.add(session);
        }
        if (session.held.bytes() + CopyQueue.RECORD_HEADER + length > maxHeldBytes)
        {
            // A client that cannot keep up: drop it rather than queue without end.
            dropHeld(session);
            dropped.increment();
            sessions.disconnect(session, RejectReason.NONE, false, nowNs);
            return Action.CONTINUE;
        }
        session.held.append(buffer, offset, length, -1);
        heldEvents.increment();
        return Action.CONTINUE;
    }

    /**
     * Offer the sessions' held events again, in order; disconnect a session whose events have not moved for the
     * slow-client timeout.
     */
    private int sendHeld()
    {
        int work = 0;
        for (int i = holding.size() - 1; i >= 0; i--)
        {
            final ClientSession session = holding.get(i);
            final CopyQueue held = session.held;
            while (session.state == ClientSession.State.ACTIVE && !held.isEmpty())
            {
                final long result = offer(session, held.buffer(), held.headOffset(), held.headLength());
                if (result <= 0)
                {
                    break;
                }
                held.removeHead();
                heldEvents.decrement();
                session.lastSentNs = nowNs;
                session.heldProgressNs = nowNs;
                work++;
            }
            if (session.state != ClientSession.State.ACTIVE || held.isEmpty())
            {
                dropHeld(session);
                ArrayListUtil.fastUnorderedRemove(holding, i);
            }
            else if (nowNs - session.heldProgressNs >= slowClientTimeoutNs)
            {
                dropHeld(session);
                ArrayListUtil.fastUnorderedRemove(holding, i);
                sessions.disconnect(session, RejectReason.NONE, false, nowNs);
                work++;
            }
        }
        return work;
    }

    /** Count what is still held for a session as dropped, and forget it. */
    private void dropHeld(final ClientSession session)
    {
        if (null != session.held)
        {
            dropped.getAndAdd(session.held.size());
            heldEvents.getAndAdd(-session.held.size());
            session.held.clear();
        }
    }

    private long offer(final ClientSession session, final DirectBuffer buffer, final int offset, final int length)
    {
        return session.schemaVersion >= MessageValidator.SCHEMA_VERSION || length > OLDER_BUFFER_LENGTH ?
            session.publication.offer(buffer, offset, length) :
            session.publication.offer(olderBuffer, 0,
                OlderVersions.copyAs(buffer, offset, length, session.schemaVersion, olderBuffer, 0));
    }
}
