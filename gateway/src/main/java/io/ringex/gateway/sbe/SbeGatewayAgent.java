package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.Header;
import io.ringex.gateway.EngineIngress;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The SBE-over-Aeron side of the gateway, as an Agrona {@link Agent}: one duty cycle polls client ingress, the
 * engine egress and the session timers.
 * <p>
 * A client connection is an Aeron {@link Image} on the client ingress subscription, named by its
 * {@code header.sessionId()}. Its first message must be a Logon; the gateway authenticates it, opens a publication
 * to the channel and stream the Logon names and answers LogonResponse once that publication connects. Each later
 * message is validated ({@link MessageValidator} plus per-kind field checks), throttled (token bucket), checked for
 * account authority, stamped with the session id and forwarded to the engine ingress. When the engine ingress
 * back-pressures, the poll returns {@link Action#ABORT} so the same fragment is offered again on the next duty
 * cycle; past {@link GatewayContext#backPressureTimeoutMs()} it is rejected ENGINE_BUSY. Nothing is dropped silently:
 * every refusal is answered with a BusinessReject or counted.
 * <p>
 * Threading: all methods run on the agent's thread, except the image handlers (Aeron's conductor thread), which only
 * enqueue. Counters are Aeron counters, readable from outside the process with AeronStat.
 */
public final class SbeGatewayAgent implements Agent
{
    private static final int FRAGMENT_LIMIT = 16;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final ByteOrder ORDER = MessageHeaderDecoder.BYTE_ORDER;
    private static final long TIMER_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int COUNTER_TYPE_ID = 7101;

    private final GatewayContext ctx;
    private final Aeron aeron;
    private final NanoClock clock;
    private final MessageValidator validator;
    private final CommandChecker checker;
    private final long backPressureTimeoutNs;
    private final long slowClientTimeoutNs;
    private final long logonTimeoutNs;

    private final Int2ObjectHashMap<ClientSession> sessionsByImage = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<ClientSession> sessionsByNumber = new Int2ObjectHashMap<>();
    private final ConcurrentLinkedQueue<Integer> lostImages = new ConcurrentLinkedQueue<>();
    private final ArrayList<ClientSession> toClose = new ArrayList<>();

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final LogonDecoder logonDecoder = new LogonDecoder();
    private final ExecutionReportDecoder executionReportDecoder = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelRejectDecoder = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessRejectDecoder = new BusinessRejectDecoder();

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final LogonResponseEncoder logonResponseEncoder = new LogonResponseEncoder();
    private final HeartbeatEncoder heartbeatEncoder = new HeartbeatEncoder();
    private final LogoutEncoder logoutEncoder = new LogoutEncoder();
    private final BusinessRejectEncoder businessRejectEncoder = new BusinessRejectEncoder();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[512]);
    private final UnsafeBuffer commandBuffer;

    private final ControlledFragmentHandler clientHandler = this::onClientFragmentSafely;
    private final ControlledFragmentHandler egressHandler = this::onEngineEvent;

    private Subscription clientSubscription;
    private Subscription egressSubscription;
    private EngineIngress ingress;
    private AtomicCounter activeSessions;
    private AtomicCounter rejects;
    private AtomicCounter throttled;
    private AtomicCounter engineBusy;
    private AtomicCounter backPressureEvents;
    private AtomicCounter dropped;
    private int sessionCounter;
    private long epoch;
    private long nextTimerCheckNs;
    private long nowNs;

    /**
     * @param ctx   concluded configuration.
     * @param aeron client connected to the media driver; not closed by the agent.
     * @param clock monotonic clock for heartbeats, timeouts, throttle and back-pressure bounds.
     */
    public SbeGatewayAgent(final GatewayContext ctx, final Aeron aeron, final NanoClock clock)
    {
        if (!ctx.isConcluded())
        {
            throw new IllegalStateException("GatewayContext.conclude() first");
        }
        this.ctx = ctx;
        this.aeron = aeron;
        this.clock = clock;
        this.validator = new MessageValidator(ctx.maxMessageLength());
        this.checker = new CommandChecker(ctx.maxMessageLength());
        this.commandBuffer = new UnsafeBuffer(new byte[ctx.maxMessageLength()]);
        this.backPressureTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ctx.backPressureTimeoutMs());
        this.slowClientTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ctx.slowClientTimeoutMs());
        this.logonTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ctx.logonTimeoutMs());
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
        engineBusy = aeron.addCounter(COUNTER_TYPE_ID, prefix + "engine busy rejects");
        backPressureEvents = aeron.addCounter(COUNTER_TYPE_ID, prefix + "engine back-pressure events");
        dropped = aeron.addCounter(COUNTER_TYPE_ID, prefix + "dropped (no session / slow client)");
        ingress = new EngineIngress(aeron.addPublication(ctx.engineIngressChannel(), ctx.engineIngressStreamId()));
        egressSubscription = aeron.addSubscription(ctx.engineEgressChannel(), ctx.engineEgressStreamId());
        clientSubscription = aeron.addSubscription(
            ctx.clientChannel(), ctx.clientStreamId(), null, this::onClientImageUnavailable);
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        nowNs = clock.nanoTime();
        int work = ingress.drainPending();
        work += clientSubscription.controlledPoll(clientHandler, FRAGMENT_LIMIT);
        work += egressSubscription.controlledPoll(egressHandler, FRAGMENT_LIMIT);
        work += processLostImages();
        if (nowNs >= nextTimerCheckNs)
        {
            nextTimerCheckNs = nowNs + TIMER_INTERVAL_NS;
            work += checkSessions();
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        for (final ClientSession session : sessionsByImage.values())
        {
            toClose.add(session);
        }
        for (final ClientSession session : toClose)
        {
            disconnect(session, RejectReason.NONE, true);
        }
        toClose.clear();
        CloseHelper.closeAll(clientSubscription, egressSubscription, activeSessions, rejects, throttled, engineBusy,
            backPressureEvents, dropped);
        if (ingress != null)
        {
            CloseHelper.close(ingress.publication());
        }
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
            final ClientSession session = sessionsByImage.get(imageSessionId.intValue());
            if (session != null)
            {
                disconnect(session, RejectReason.NONE, false);
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
        final ClientSession session = sessionsByImage.get(header.sessionId());
        final RejectReason invalid = checker.validate(buffer, offset, length);
        final int templateId = length >= HEADER_LENGTH ?
            buffer.getShort(offset + 2, ORDER) & 0xFFFF : 0;
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

        if (templateId == LogonDecoder.TEMPLATE_ID)
        {
            onLogon(session, buffer, offset, header.sessionId());
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
                disconnect(session, RejectReason.NONE, true);
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
                reject(session, templateId, buffer, offset, reason, null);
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
        stamp(session, templateId);
        final long result = ingress.offer(commandBuffer, 0, length);
        if (result > 0)
        {
            session.ingressBackPressureStartNs = 0;
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

    private void stamp(final ClientSession session, final int templateId)
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
            default:
                break;
        }
    }

    // ---------------------------------------------------------------- logon

    private void onLogon(final ClientSession existing, final DirectBuffer buffer, final int offset, final int image)
    {
        if (existing != null)
        {
            if (existing.state == ClientSession.State.ACTIVE)
            {
                existing.lastReceivedNs = nowNs;
                reject(existing, LogonDecoder.TEMPLATE_ID, null, 0, RejectReason.MALFORMED, "already logged on");
            }
            return;
        }

        headerDecoder.wrap(buffer, offset);
        logonDecoder.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final long heartbeatMs = logonDecoder.heartbeatIntervalMs();
        final boolean cancelOnDisconnect = logonDecoder.cancelOnDisconnectRaw() == BooleanType.TRUE.value();
        final int responseStreamId = logonDecoder.responseStreamId();
        final String username = logonDecoder.username();
        final String credential = logonDecoder.credential();
        final String responseChannel = logonDecoder.responseChannel();

        final ExclusivePublication publication;
        try
        {
            publication = aeron.addExclusivePublication(responseChannel, responseStreamId);
        }
        catch (final RuntimeException ex)
        {
            // A channel the driver refuses: there is nowhere to answer.
            dropped.increment();
            return;
        }

        final ClientSession session = new ClientSession(image, publication, nowNs);
        final User user = ctx.users().authenticate(username, credential);
        if (user == null)
        {
            rejects.increment();
            session.state = ClientSession.State.REJECTING;
            session.logonRejectReason = RejectReason.INVALID_CREDENTIALS;
            sessionsByImage.put(image, session);
            return;
        }

        session.user = user;
        session.state = ClientSession.State.AWAITING_CONNECTION;
        session.cancelOnDisconnect = cancelOnDisconnect;
        session.heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(
            heartbeatMs >= 10 && heartbeatMs <= 600_000 ? heartbeatMs : ctx.heartbeatIntervalMs());
        session.throttle = new Throttle(ctx.throttleMessagesPerSecond(), ctx.throttleBurst(), nowNs);
        session.sessionNumber = nextSessionNumber();
        session.sessionId = SessionIds.sessionId(ctx.gatewayId(), session.sessionNumber);
        sessionsByImage.put(image, session);
        sessionsByNumber.put(session.sessionNumber, session);
    }

    private int nextSessionNumber()
    {
        do
        {
            sessionCounter = SessionNumbers.sbe(sessionCounter + 1);
        }
        while (sessionCounter == 0 || sessionsByNumber.containsKey(sessionCounter));
        return sessionCounter;
    }

    private boolean sendLogonResponse(final ClientSession session)
    {
        final boolean accepted = session.state == ClientSession.State.AWAITING_CONNECTION;
        logonResponseEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(accepted ? session.sessionId : 0)
            .status(accepted ? LogonStatus.ACCEPTED : LogonStatus.REJECTED)
            .rejectReason(accepted ? RejectReason.NONE : session.logonRejectReason)
            .heartbeatIntervalMs(accepted ? TimeUnit.NANOSECONDS.toMillis(session.heartbeatIntervalNs) : 0)
            .accountId(session.accountId())
            .epoch(epoch)
            .text(accepted ? "" : "logon refused");
        return send(session, HEADER_LENGTH + logonResponseEncoder.encodedLength());
    }

    // ---------------------------------------------------------------- engine egress

    private Action onEngineEvent(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            dropped.increment();
            return Action.CONTINUE;
        }
        headerDecoder.wrap(buffer, offset);
        final int bodyOffset = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        final long sessionId;
        final long eventEpoch;
        switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                executionReportDecoder.wrap(buffer, bodyOffset, blockLength, version);
                sessionId = executionReportDecoder.sessionId();
                eventEpoch = executionReportDecoder.epoch();
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                cancelRejectDecoder.wrap(buffer, bodyOffset, blockLength, version);
                sessionId = cancelRejectDecoder.sessionId();
                eventEpoch = cancelRejectDecoder.epoch();
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                businessRejectDecoder.wrap(buffer, bodyOffset, blockLength, version);
                sessionId = businessRejectDecoder.sessionId();
                eventEpoch = businessRejectDecoder.epoch();
                break;
            default:
                return Action.CONTINUE;
        }

        if (SessionIds.gatewayId(sessionId) != ctx.gatewayId())
        {
            return Action.CONTINUE;
        }
        if (eventEpoch < epoch)
        {
            // From a primary that has since been superseded (docs/protocol.md): never shown to clients.
            dropped.increment();
            return Action.CONTINUE;
        }
        epoch = eventEpoch;
        final int sessionNumber = SessionIds.sessionNumber(sessionId);
        if (SessionNumbers.isFix(sessionNumber))
        {
            return Action.CONTINUE;
        }
        final ClientSession session = sessionsByNumber.get(sessionNumber);
        if (session == null || session.state != ClientSession.State.ACTIVE)
        {
            dropped.increment();
            return Action.CONTINUE;
        }

        final long result = session.publication.offer(buffer, offset, length);
        if (result > 0)
        {
            session.egressBackPressureStartNs = 0;
            session.lastSentNs = nowNs;
            return Action.CONTINUE;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
        {
            if (session.egressBackPressureStartNs == 0)
            {
                session.egressBackPressureStartNs = nowNs;
            }
            if (nowNs - session.egressBackPressureStartNs < slowClientTimeoutNs)
            {
                return Action.ABORT;
            }
        }
        // A client that cannot keep up, or is gone: drop it rather than stall every other session.
        dropped.increment();
        disconnect(session, RejectReason.NONE, false);
        return Action.CONTINUE;
    }

    // ---------------------------------------------------------------- timers and teardown

    private int checkSessions()
    {
        int work = 0;
        for (final ClientSession session : sessionsByImage.values())
        {
            switch (session.state)
            {
                case AWAITING_CONNECTION:
                case REJECTING:
                    if (session.publication.isConnected() && sendLogonResponse(session))
                    {
                        work++;
                        if (session.state == ClientSession.State.REJECTING)
                        {
                            toClose.add(session);
                        }
                        else
                        {
                            session.state = ClientSession.State.ACTIVE;
                            session.lastReceivedNs = nowNs;
                            activeSessions.increment();
                            ingress.sessionStatus(session.sessionId, session.accountId(), true);
                        }
                    }
                    else if (nowNs - session.createdNs > logonTimeoutNs)
                    {
                        toClose.add(session);
                    }
                    break;

                case ACTIVE:
                    if (nowNs - session.lastReceivedNs > 3 * session.heartbeatIntervalNs)
                    {
                        toClose.add(session);
                    }
                    else if (nowNs - session.lastSentNs >= session.heartbeatIntervalNs)
                    {
                        heartbeatEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
                            .sessionId(session.sessionId)
                            .timestampNs(nowNs);
                        send(session, HEADER_LENGTH + heartbeatEncoder.encodedLength());
                        work++;
                    }
                    break;

                default:
                    break;
            }
        }

        for (int i = 0, size = toClose.size(); i < size; i++)
        {
            final ClientSession session = toClose.get(i);
            final boolean timedOut = session.state == ClientSession.State.ACTIVE;
            disconnect(session, timedOut ? RejectReason.NOT_LOGGED_ON : RejectReason.NONE, timedOut);
            work++;
        }
        toClose.clear();
        return work;
    }

    private void disconnect(final ClientSession session, final RejectReason reason, final boolean sendLogout)
    {
        sessionsByImage.remove(session.imageSessionId);
        if (session.sessionNumber != 0)
        {
            sessionsByNumber.remove(session.sessionNumber);
        }
        if (session.state == ClientSession.State.ACTIVE)
        {
            activeSessions.decrement();
            if (sendLogout)
            {
                logoutEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
                    .sessionId(session.sessionId)
                    .reason(reason)
                    .text(reason == RejectReason.NONE ? "logout" : "heartbeat timeout");
                send(session, HEADER_LENGTH + logoutEncoder.encodedLength());
            }
            if (session.cancelOnDisconnect)
            {
                ingress.cancelOnDisconnect(session.sessionId, session.accountId());
            }
            ingress.sessionStatus(session.sessionId, session.accountId(), false);
        }
        session.state = ClientSession.State.REJECTING;
        CloseHelper.quietClose(session.publication);
    }

    // ---------------------------------------------------------------- sending

    private void reject(
        final ClientSession session,
        final int refTemplateId,
        final DirectBuffer message,
        final int messageOffset,
        final RejectReason reason,
        final String text)
    {
        rejects.increment();
        businessRejectEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(epoch)
            .sessionId(session.sessionId)
            .refTemplateId(refTemplateId)
            .refClientOrderId("");
        final int idOffset = message == null ? -1 : clientOrderIdOffset(refTemplateId);
        if (idOffset >= 0)
        {
            copyClientOrderId(message, messageOffset + HEADER_LENGTH + idOffset);
        }
        businessRejectEncoder.rejectReason(reason);
        businessRejectEncoder.text(text == null ? reason.name() : text);
        if (!send(session, HEADER_LENGTH + businessRejectEncoder.encodedLength()))
        {
            dropped.increment();
        }
    }

    /** Offset of the client order id in a validated order-entry root block, or -1. */
    private static int clientOrderIdOffset(final int templateId)
    {
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                return NewOrderDecoder.clientOrderIdEncodingOffset();
            case CancelOrderDecoder.TEMPLATE_ID:
                return CancelOrderDecoder.clientOrderIdEncodingOffset();
            case ReplaceOrderDecoder.TEMPLATE_ID:
                return ReplaceOrderDecoder.clientOrderIdEncodingOffset();
            case MassCancelDecoder.TEMPLATE_ID:
                return MassCancelDecoder.clientRequestIdEncodingOffset();
            default:
                return -1;
        }
    }

    private void copyClientOrderId(final DirectBuffer source, final int sourceOffset)
    {
        sendBuffer.putBytes(
            HEADER_LENGTH + BusinessRejectEncoder.refClientOrderIdEncodingOffset(),
            source, sourceOffset, BusinessRejectEncoder.refClientOrderIdLength());
    }

    private boolean send(final ClientSession session, final int length)
    {
        final long result = session.publication.offer(sendBuffer, 0, length);
        if (result > 0)
        {
            session.lastSentNs = nowNs;
            return true;
        }
        return false;
    }
}
