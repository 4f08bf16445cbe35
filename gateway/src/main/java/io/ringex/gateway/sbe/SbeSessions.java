package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The SBE sessions' lifecycle: Logon (authenticate, open the response publication, answer once it connects),
 * heartbeats and their timeouts, and teardown (Logout, cancel-on-disconnect, SessionStatus to the engine). Sessions
 * live here, in the gateway, not in the engine: when the gateway follows a new primary they stay logged on.
 * <p>
 * Thread safety: the {@link SbeGatewayAgent} thread only.
 */
final class SbeSessions
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final GatewayContext ctx;
    private final Aeron aeron;
    private final EngineRouter router;
    private final SbeReplies replies;
    private final AtomicCounter activeSessions;
    private final AtomicCounter rejects;
    private final AtomicCounter dropped;
    private final long logonTimeoutNs;
    private final Int2ObjectHashMap<ClientSession> sessionsByImage = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<ClientSession> sessionsByNumber = new Int2ObjectHashMap<>();
    private final ArrayList<ClientSession> toClose = new ArrayList<>();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final LogonDecoder logonDecoder = new LogonDecoder();
    private int sessionCounter;

    SbeSessions(
        final GatewayContext ctx,
        final Aeron aeron,
        final EngineRouter router,
        final SbeReplies replies,
        final AtomicCounter activeSessions,
        final AtomicCounter rejects,
        final AtomicCounter dropped)
    {
        this.ctx = ctx;
        this.sessionCounter = SessionNumbers.firstSbeCounter(System.currentTimeMillis());
        this.aeron = aeron;
        this.router = router;
        this.replies = replies;
        this.activeSessions = activeSessions;
        this.rejects = rejects;
        this.dropped = dropped;
        this.logonTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ctx.logonTimeoutMs());
    }

    ClientSession byImage(final int imageSessionId)
    {
        return sessionsByImage.get(imageSessionId);
    }

    ClientSession byNumber(final int sessionNumber)
    {
        return sessionsByNumber.get(sessionNumber);
    }

    void onLogon(
        final ClientSession existing, final DirectBuffer buffer, final int offset, final int image, final long nowNs)
    {
        if (existing != null)
        {
            if (existing.state == ClientSession.State.ACTIVE)
            {
                existing.lastReceivedNs = nowNs;
                replies.reject(existing, LogonDecoder.TEMPLATE_ID, null, 0, RejectReason.MALFORMED,
                    "already logged on", router.epoch(), nowNs);
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

    /**
     * Answer logons whose response channel connected, time out silent sessions, heartbeat quiet ones.
     *
     * @param nowNs the clock.
     * @return work done.
     */
    int checkTimers(final long nowNs)
    {
        int work = 0;
        for (final ClientSession session : sessionsByImage.values())
        {
            switch (session.state)
            {
                case AWAITING_CONNECTION:
                case REJECTING:
                    if (session.publication.isConnected() && replies.logonResponse(session, router.epoch(), nowNs))
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
                            router.ingress().sessionStatus(session.sessionId, session.accountId(), true);
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
                        replies.heartbeat(session, nowNs);
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
            disconnect(session, timedOut ? RejectReason.NOT_LOGGED_ON : RejectReason.NONE, timedOut, nowNs);
            work++;
        }
        toClose.clear();
        return work;
    }

    /**
     * Close every session (the gateway is stopping), telling the clients.
     *
     * @param nowNs the clock.
     */
    void closeAll(final long nowNs)
    {
        toClose.addAll(sessionsByImage.values());
        for (final ClientSession session : toClose)
        {
            disconnect(session, RejectReason.NONE, true, nowNs);
        }
        toClose.clear();
    }

    void disconnect(
        final ClientSession session, final RejectReason reason, final boolean sendLogout, final long nowNs)
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
                replies.logout(session, reason, nowNs);
            }
            if (session.cancelOnDisconnect)
            {
                router.ingress().cancelOnDisconnect(session.sessionId, session.accountId());
            }
            router.ingress().sessionStatus(session.sessionId, session.accountId(), false);
        }
        session.state = ClientSession.State.REJECTING;
        CloseHelper.quietClose(session.publication);
    }
}
