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
    /** Sessions one client publication may carry; a Logon beyond is refused THROTTLED. */
    static final int MAX_SESSIONS_PER_IMAGE = 64;

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

    /**
     * @param imageSessionId the client's Aeron image.
     * @return the first of the image's sessions, or null.
     */
    ClientSession byImage(final int imageSessionId)
    {
        return sessionsByImage.get(imageSessionId);
    }

    /**
     * The session a client message other than Logon belongs to: the image's one session, whatever session id the
     * message carries (the gateway stamps its own); or, once the image has carried several sessions, the one whose id
     * the message carries (a session that has gone is not taken for another). Every such message starts its block
     * with the session id.
     *
     * @return the session, or null if the image has none or none of its sessions is named.
     */
    ClientSession forMessage(final int imageSessionId, final DirectBuffer buffer, final int offset, final int length)
    {
        final ClientSession first = sessionsByImage.get(imageSessionId);
        if (null == first || !first.imageShared)
        {
            return first;
        }
        if (length < HEADER_LENGTH + Long.BYTES)
        {
            return null;
        }
        final long sessionId = buffer.getLong(offset + HEADER_LENGTH, MessageHeaderDecoder.BYTE_ORDER);
        for (ClientSession session = first; null != session; session = session.nextOnImage)
        {
            if (session.sessionId == sessionId && 0 != sessionId)
            {
                return session;
            }
        }
        return null;
    }

    ClientSession byNumber(final int sessionNumber)
    {
        return sessionsByNumber.get(sessionNumber);
    }

    void onLogon(final DirectBuffer buffer, final int offset, final int image, final long nowNs)
    {
        headerDecoder.wrap(buffer, offset);
        logonDecoder.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final long heartbeatMs = logonDecoder.heartbeatIntervalMs();
        final boolean cancelOnDisconnect = logonDecoder.cancelOnDisconnectRaw() == BooleanType.TRUE.value();
        final int responseStreamId = logonDecoder.responseStreamId();
        final String username = logonDecoder.username();
        final String credential = logonDecoder.credential();
        final String responseChannel = logonDecoder.responseChannel();

        final ClientSession first = sessionsByImage.get(image);
        int sessionsOnImage = 0;
        for (ClientSession existing = first; null != existing; existing = existing.nextOnImage)
        {
            sessionsOnImage++;
            // A second Logon answered on the same channel and stream is the same session's; another is a new session.
            if (existing.responseStreamId == responseStreamId && existing.responseChannel.equals(responseChannel))
            {
                if (existing.state == ClientSession.State.ACTIVE)
                {
                    existing.lastReceivedNs = nowNs;
                    replies.reject(existing, LogonDecoder.TEMPLATE_ID, null, 0, RejectReason.MALFORMED,
                        "already logged on", router.epoch(), nowNs);
                }
                return;
            }
        }

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

        final ClientSession session = new ClientSession(image, responseChannel, responseStreamId, publication, nowNs);
        if (null == first)
        {
            sessionsByImage.put(image, session);
        }
        else
        {
            session.nextOnImage = first.nextOnImage;
            first.nextOnImage = session;
            for (ClientSession shared = first; null != shared; shared = shared.nextOnImage)
            {
                shared.imageShared = true;
            }
        }

        final User user = ctx.users().authenticate(username, credential);
        if (user == null || sessionsOnImage >= MAX_SESSIONS_PER_IMAGE)
        {
            rejects.increment();
            session.state = ClientSession.State.REJECTING;
            session.logonRejectReason = user == null ? RejectReason.INVALID_CREDENTIALS : RejectReason.THROTTLED;
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
        for (final ClientSession first : sessionsByImage.values())
        {
            for (ClientSession session = first; null != session; session = session.nextOnImage)
            {
                work += checkTimers(session, nowNs);
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

    private int checkTimers(final ClientSession session, final long nowNs)
    {
        switch (session.state)
        {
            case AWAITING_CONNECTION:
            case REJECTING:
                if (session.publication.isConnected() && replies.logonResponse(session, router.epoch(), nowNs))
                {
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
                    return 1;
                }
                if (nowNs - session.createdNs > logonTimeoutNs)
                {
                    toClose.add(session);
                }
                return 0;

            case ACTIVE:
                if (nowNs - session.lastReceivedNs > 3 * session.heartbeatIntervalNs)
                {
                    toClose.add(session);
                }
                else if (nowNs - session.lastSentNs >= session.heartbeatIntervalNs)
                {
                    replies.heartbeat(session, nowNs);
                    return 1;
                }
                return 0;

            default:
                return 0;
        }
    }

    /**
     * Close every session (the gateway is stopping), telling the clients.
     *
     * @param nowNs the clock.
     */
    void closeAll(final long nowNs)
    {
        for (final ClientSession first : sessionsByImage.values())
        {
            for (ClientSession session = first; null != session; session = session.nextOnImage)
            {
                toClose.add(session);
            }
        }
        for (final ClientSession session : toClose)
        {
            disconnect(session, RejectReason.NONE, true, nowNs);
        }
        toClose.clear();
    }

    void disconnect(
        final ClientSession session, final RejectReason reason, final boolean sendLogout, final long nowNs)
    {
        unlink(session);
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

    private void unlink(final ClientSession session)
    {
        final ClientSession first = sessionsByImage.get(session.imageSessionId);
        if (first == session)
        {
            if (null == session.nextOnImage)
            {
                sessionsByImage.remove(session.imageSessionId);
            }
            else
            {
                sessionsByImage.put(session.imageSessionId, session.nextOnImage);
            }
        }
        else
        {
            ClientSession previous = first;
            while (null != previous && previous.nextOnImage != session)
            {
                previous = previous.nextOnImage;
            }
            if (null != previous)
            {
                previous.nextOnImage = session.nextOnImage;
            }
        }
        session.nextOnImage = null;
    }
}
