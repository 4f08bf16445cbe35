package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.LogonAttempt;
import io.ringex.gateway.auth.LogonAuthenticator;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.RateLimitedLog;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.LogonDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The SBE sessions' lifecycle: Logon (checked on the logon worker before anything is opened for the caller), heartbeats
 * and their timeouts, and teardown (Logout, cancel-on-disconnect, SessionStatus to the engine). Sessions live in the
 * gateway, not the engine: they stay logged on when the gateway follows a new primary.
 * <p>
 * A response destination belongs to one session at a time; a session of a user with a cancel-on-disconnect grace leaves
 * its id in {@link SessionsInGrace}, and the user's next logon within the grace takes it back.
 * <p>
 * Thread safety: the {@link SbeGatewayAgent} thread only.
 */
final class SbeSessions
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    /** Sessions one client publication may carry; a Logon beyond is refused THROTTLED. */
    static final int MAX_SESSIONS_PER_IMAGE = 64;
    /** Text of the LogonResponse refusing a Logon: the same whatever the cause, so it tells an attacker nothing. */
    static final String REFUSED_TEXT = "logon refused: invalid credentials, or too many failed logons (retry later)";
    /** Text of the LogonResponse refusing a disabled user's Logon with the right password (USER_DISABLED). */
    static final String DISABLED_TEXT = "logon refused: user disabled";
    /** Text of the LogonResponse refusing a Logon that was not checked: too many in hand, or no users yet. */
    static final String BUSY_TEXT = "logon refused: the gateway is busy or not ready, retry";
    /** Text of the LogonResponse refusing a Logon of a user that holds as many sessions as it may. */
    static final String TOO_MANY_SESSIONS_TEXT = "logon refused: the user holds as many sessions as it may here";
    /** Term length of the short-lived publication answering a refused Logon (Aeron's minimum). */
    static final int REJECT_TERM_LENGTH = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(SbeSessions.class);

    private final GatewayContext ctx;
    private final Aeron aeron;
    private final EngineRouter router;
    private final SbeReplies replies;
    private final AtomicCounter activeSessions;
    private final AtomicCounter rejects;
    private final AtomicCounter dropped;
    private final AtomicCounter refusedLogons;
    private final LogonAuthenticator authenticator;
    private final EpochClock epochClock;
    private final long logonTimeoutNs;
    private final Int2ObjectHashMap<ClientSession> sessionsByImage = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<ClientSession> sessionsByNumber = new Int2ObjectHashMap<>();
    private final HashMap<String, ClientSession> sessionsByDestination = new HashMap<>();
    /** Sessions opened (awaiting connection or active) per user name; a name is here only while it holds one. */
    private final Object2IntHashMap<String> sessionsByUser = new Object2IntHashMap<>(0);
    private final RateLimitedLog unansweredLog = new RateLimitedLog(1_000);
    private final RateLimitedLog sessionCapLog = new RateLimitedLog(1_000);
    private final ArrayList<SbeLogon> pendingLogons = new ArrayList<>();
    private final Queue<SbeLogon> verdicts = new ConcurrentLinkedQueue<>();
    private int pendingRejects;
    private final ArrayList<ClientSession> toClose = new ArrayList<>();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final LogonDecoder logonDecoder = new LogonDecoder();
    private int sessionCounter;
    private final SessionsInGrace inGrace;

    SbeSessions(
        final GatewayContext ctx,
        final Aeron aeron,
        final EngineRouter router,
        final SbeReplies replies,
        final AtomicCounter activeSessions,
        final AtomicCounter rejects,
        final AtomicCounter dropped,
        final AtomicCounter refusedLogons,
        final EpochClock epochClock)
    {
        this.ctx = ctx;
        this.refusedLogons = refusedLogons;
        this.epochClock = epochClock;
        this.authenticator = ctx.logonAuthenticator();
        this.sessionCounter = SessionNumbers.firstSbeCounter(System.currentTimeMillis());
        this.aeron = aeron;
        this.router = router;
        this.replies = replies;
        this.activeSessions = activeSessions;
        this.rejects = rejects;
        this.dropped = dropped;
        this.logonTimeoutNs = ctx.logonTimeoutNs();
        this.inGrace = new SessionsInGrace(SessionsInGrace.CAPACITY, ctx.sbeMaxSessionsPerUser());
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
            // The image's one session; a refusal still being answered on the image is not it.
            ClientSession session = first;
            while (null != session && session.state == ClientSession.State.REJECTING && null != session.nextOnImage)
            {
                session = session.nextOnImage;
            }
            return session;
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

    /**
     * A Logon: nothing is allocated for the caller beyond the logon's own record until the worker has checked the
     * credentials and where the answer would go. A second Logon for the same response channel and stream on the same
     * image is answered "already logged on" when that session is active, and refused unanswered while the first is
     * being checked.
     *
     * @param buffer     holding the validated Logon.
     * @param offset     of its header.
     * @param image      the client's image.
     * @param sourceHost where the image's frames come from ({@link io.ringex.gateway.auth.RemoteAddresses#host}).
     * @param nowNs      the clock.
     */
    void onLogon(
        final DirectBuffer buffer, final int offset, final int image, final String sourceHost, final long nowNs)
    {
        headerDecoder.wrap(buffer, offset);
        logonDecoder.wrap(buffer, offset + HEADER_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final long heartbeatMs = logonDecoder.heartbeatIntervalMs();
        final boolean cancelOnDisconnect = logonDecoder.cancelOnDisconnectRaw() == BooleanType.TRUE.value();
        final int responseStreamId = logonDecoder.responseStreamId();
        final long logonRequestId = logonDecoder.logonRequestId();
        final String username = logonDecoder.username();
        final String credential = logonDecoder.credential();
        final String responseChannel = logonDecoder.responseChannel();

        for (ClientSession existing = sessionsByImage.get(image); null != existing; existing = existing.nextOnImage)
        {
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
        for (int i = 0, size = pendingLogons.size(); i < size; i++)
        {
            final SbeLogon pending = pendingLogons.get(i);
            if (pending.imageSessionId == image && pending.destination.streamId() == responseStreamId &&
                pending.responseChannel.equals(responseChannel))
            {
                refusedLogons.increment();
                unanswered(username, sourceHost, "a Logon for the same response path is being checked");
                return;
            }
        }

        final ResponseDestination destination = ResponseDestination.parse(responseChannel, responseStreamId);
        if (null == destination)
        {
            refusedLogons.increment();
            unanswered(username, sourceHost, "response channel not accepted: " +
                LogonGuard.printable(responseChannel) + " stream " + responseStreamId);
            return;
        }

        final SbeLogon logon = new SbeLogon(username, credential, sourceHost, epochClock.time(), image,
            responseChannel, destination, ctx.sbeResponseSourceCheck(), headerDecoder.version(), logonRequestId,
            heartbeatMs, cancelOnDisconnect, verdicts);
        if (authenticator.submit(logon))
        {
            pendingLogons.add(logon);
        }
        else
        {
            refusedLogons.increment();
        }
    }

    /**
     * Act on the worker's verdicts: open the session, or answer the refusal at the destination when that is safe.
     *
     * @param nowNs the clock.
     * @return work done.
     */
    int pollVerdicts(final long nowNs)
    {
        int work = 0;
        SbeLogon logon;
        while (null != (logon = verdicts.poll()))
        {
            work++;
            pendingLogons.remove(logon);
            if (logon.abandoned)
            {
                continue;
            }
            final String key = logon.destination.key();
            final boolean accepted = logon.verdict() == LogonAttempt.Verdict.ACCEPTED;
            if (null != key && sessionsByDestination.containsKey(key))
            {
                // A response path belongs to one session: never answer there for another, never disturb it.
                refusedLogons.increment();
                unanswered(logon.username(), logon.address(), "response destination " + logon.destination +
                    " belongs to a live session");
            }
            else if (accepted && sessionsOn(logon.imageSessionId) < MAX_SESSIONS_PER_IMAGE &&
                sessionsByUser.getValue(logon.user().username()) < ctx.sbeMaxSessionsPerUser())
            {
                open(logon, nowNs);
            }
            else
            {
                refusedLogons.increment();
                if (accepted && sessionsOn(logon.imageSessionId) >= MAX_SESSIONS_PER_IMAGE)
                {
                    answerRefusal(logon, RejectReason.THROTTLED, "too many sessions on one publication", nowNs);
                }
                else if (accepted)
                {
                    final long skipped = sessionCapLog.admit(epochClock.time());
                    if (skipped != RateLimitedLog.SKIP)
                    {
                        LOG.warn("SBE logon refused: user={} address={} reason=the user holds {} sessions, the most " +
                            "it may ({}) ({} such lines skipped since the last, at most one a second)",
                            LogonGuard.printable(logon.username()), logon.address(),
                            sessionsByUser.getValue(logon.user().username()),
                            GatewayContext.Configuration.SBE_MAX_SESSIONS_PER_USER_PROP_NAME, skipped);
                    }
                    answerRefusal(logon, RejectReason.THROTTLED, TOO_MANY_SESSIONS_TEXT, nowNs);
                }
                else if (logon.verdict() == LogonAttempt.Verdict.BUSY)
                {
                    answerRefusal(logon, RejectReason.ENGINE_BUSY, BUSY_TEXT, nowNs);
                }
                else if (logon.verdict() == LogonAttempt.Verdict.DISABLED)
                {
                    answerRefusal(logon, RejectReason.USER_DISABLED, DISABLED_TEXT, nowNs);
                }
                else
                {
                    answerRefusal(logon, RejectReason.INVALID_CREDENTIALS, REFUSED_TEXT, nowNs);
                }
            }
        }
        return work;
    }

    private void open(final SbeLogon logon, final long nowNs)
    {
        final ExclusivePublication publication = addPublication(logon, ctx.sbeResponseTermLength());
        if (null == publication)
        {
            refusedLogons.increment();
            return;
        }
        final ClientSession session = link(logon, publication, nowNs, true);
        session.user = logon.user();
        session.state = ClientSession.State.AWAITING_CONNECTION;
        session.cancelOnDisconnect = logon.cancelOnDisconnect;
        session.heartbeatIntervalNs = logon.heartbeatIntervalMs >= 10 && logon.heartbeatIntervalMs <= 600_000 ?
            TimeUnit.MILLISECONDS.toNanos(logon.heartbeatIntervalMs) : ctx.heartbeatIntervalNs();
        session.throttle = new Throttle(
            session.user.throttleMessagesPerSecond(ctx.throttleMessagesPerSecond()), ctx.throttleBurst(), nowNs);
        final String username = session.user.username();
        final SessionsInGrace.Released back = inGrace.reclaim(username, session.accountId(), nowNs);
        if (null != back)
        {
            session.reclaimed = true;
            session.graceExpiresNs = back.expiresNs();
            session.sessionNumber = back.sessionNumber();
            LOG.info("SBE logon of user {} within the cancel-on-disconnect grace of its session {}: the session's " +
                "id back", LogonGuard.printable(username), SessionIds.sessionId(ctx.gatewayId(), back.sessionNumber()));
        }
        else
        {
            session.sessionNumber = nextSessionNumber();
        }
        session.sessionId = SessionIds.sessionId(ctx.gatewayId(), session.sessionNumber);
        sessionsByNumber.put(session.sessionNumber, session);
        sessionsByUser.put(username, sessionsByUser.getValue(username) + 1);
    }

    /**
     * Answer a refused Logon where it asked, on a small short-lived publication, only if the worker found the
     * destination to be the caller's own and fewer than {@link GatewayContext#sbeMaxPendingRejects()} such answers
     * are under way; otherwise count it and say nothing.
     */
    private void answerRefusal(final SbeLogon logon, final RejectReason reason, final String text, final long nowNs)
    {
        if (null != logon.destinationRefusal())
        {
            unanswered(logon.username(), logon.address(), logon.destinationRefusal());
            return;
        }
        if (pendingRejects >= ctx.sbeMaxPendingRejects())
        {
            unanswered(logon.username(), logon.address(), "too many refusals being answered");
            return;
        }
        final ExclusivePublication publication = addPublication(logon, REJECT_TERM_LENGTH);
        if (null == publication)
        {
            return;
        }
        final ClientSession session = link(logon, publication, nowNs, false);
        session.state = ClientSession.State.REJECTING;
        session.logonRejectReason = reason;
        session.logonRejectText = text;
        pendingRejects++;
    }

    private ExclusivePublication addPublication(final SbeLogon logon, final int termLength)
    {
        try
        {
            return aeron.addExclusivePublication(logon.destination.channel(termLength), logon.destination.streamId());
        }
        catch (final RuntimeException ex)
        {
            unanswered(logon.username(), logon.address(), "the driver refused the response channel: " + ex);
            return null;
        }
    }

    private ClientSession link(
        final SbeLogon logon, final ExclusivePublication publication, final long nowNs, final boolean accepted)
    {
        final ClientSession session = new ClientSession(logon.imageSessionId, logon.responseChannel,
            logon.destination.streamId(), publication, nowNs);
        session.destinationKey = logon.destination.key();
        session.schemaVersion = logon.schemaVersion;
        session.logonRequestId = logon.logonRequestId;
        sessionsByDestination.put(session.destinationKey, session);
        final ClientSession first = sessionsByImage.get(logon.imageSessionId);
        if (null == first)
        {
            sessionsByImage.put(logon.imageSessionId, session);
        }
        else
        {
            session.nextOnImage = first.nextOnImage;
            first.nextOnImage = session;
            // Several sessions logged on over one image: its messages must say whose they are.
            if (accepted && sessionsOn(logon.imageSessionId) > 1)
            {
                for (ClientSession shared = first; null != shared; shared = shared.nextOnImage)
                {
                    shared.imageShared = true;
                }
            }
        }
        return session;
    }

    private int sessionsOn(final int image)
    {
        int count = 0;
        for (ClientSession session = sessionsByImage.get(image); null != session; session = session.nextOnImage)
        {
            if (session.state != ClientSession.State.REJECTING)
            {
                count++;
            }
        }
        return count;
    }

    private void unanswered(final String username, final String address, final String reason)
    {
        dropped.increment();
        final long skipped = unansweredLog.admit(epochClock.time());
        if (skipped != RateLimitedLog.SKIP)
        {
            LOG.warn("SBE logon refused, not answered: user={} address={} reason={} ({} such lines skipped since the " +
                "last, at most one a second)", LogonGuard.printable(username), LogonGuard.printable(address), reason,
                skipped);
        }
    }

    /**
     * The image went away: logons it sent that are still being checked are dropped when their verdict comes.
     *
     * @param image the lost image.
     */
    void abandonPending(final int image)
    {
        for (int i = 0, size = pendingLogons.size(); i < size; i++)
        {
            final SbeLogon pending = pendingLogons.get(i);
            if (pending.imageSessionId == image)
            {
                pending.abandoned = true;
            }
        }
    }

    private int nextSessionNumber()
    {
        do
        {
            sessionCounter = SessionNumbers.sbe(sessionCounter + 1);
        }
        while (sessionCounter == 0 || sessionsByNumber.containsKey(sessionCounter) || inGrace.holds(sessionCounter));
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
        int work = inGrace.expire(nowNs);
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

    /**
     * Log out every live session of a user (disabled, or its accounts changed), cancelling its orders if it asked.
     *
     * @param username the user.
     * @param reason   USER_DISABLED or NOT_AUTHORISED, sent in the Logout.
     * @param text     the Logout's text: what happened.
     * @param nowNs    the clock.
     * @return sessions ended.
     */
    int endSessionsOf(final String username, final RejectReason reason, final String text, final long nowNs)
    {
        // Its sessions in their grace are not to come back as they were: the engine cancels their orders when it ends.
        inGrace.forget(username);
        for (final ClientSession session : sessionsByNumber.values())
        {
            if (null != session.user && session.user.username().equals(username) &&
                session.state == ClientSession.State.ACTIVE)
            {
                toClose.add(session);
            }
        }
        final int ended = toClose.size();
        for (int i = 0; i < ended; i++)
        {
            final ClientSession session = toClose.get(i);
            session.endedByOperator = true;
            disconnect(session, reason, text, true, nowNs);
        }
        toClose.clear();
        return ended;
    }

    void disconnect(
        final ClientSession session, final RejectReason reason, final boolean sendLogout, final long nowNs)
    {
        disconnect(session, reason, null, sendLogout, nowNs);
    }

    /**
     * End a session: its Logout (when asked for and it is active) says {@code text}, or the reason's own words when
     * null.
     */
    void disconnect(
        final ClientSession session,
        final RejectReason reason,
        final String text,
        final boolean sendLogout,
        final long nowNs)
    {
        if (session.state != ClientSession.State.CLOSED && null != session.user && session.sessionNumber != 0)
        {
            final String username = session.user.username();
            final int held = sessionsByUser.getValue(username) - 1;
            if (held > 0)
            {
                sessionsByUser.put(username, held);
            }
            else
            {
                sessionsByUser.removeKey(username);
            }
        }
        unlink(session);
        if (sessionsByDestination.get(session.destinationKey) == session)
        {
            sessionsByDestination.remove(session.destinationKey);
        }
        if (session.state == ClientSession.State.REJECTING && session.user == null)
        {
            pendingRejects--;
        }
        if (session.sessionNumber != 0)
        {
            sessionsByNumber.remove(session.sessionNumber);
        }
        if (session.state == ClientSession.State.ACTIVE)
        {
            activeSessions.decrement();
            if (sendLogout)
            {
                replies.logout(session, reason, text, nowNs);
            }
            loggedOff(session, nowNs);
        }
        else if (session.reclaimed && session.state == ClientSession.State.AWAITING_CONNECTION &&
            nowNs - session.graceExpiresNs < 0)
        {
            // Never logged on: the engine's timer still runs, and the id is still the user's to take back.
            inGrace.add(session.user.username(), session.accountId(), session.sessionNumber, session.graceExpiresNs);
        }
        session.state = ClientSession.State.CLOSED;
        CloseHelper.quietClose(session.publication);
    }

    /**
     * Tell the engine an active session went: with its user's grace if it asked for cancel-on-disconnect and the user
     * has one (its id kept for the user's next logon), else cancelling its orders at once if it asked.
     */
    private void loggedOff(final ClientSession session, final long nowNs)
    {
        // The user as the engine holds it now: an operator's change of its grace applies at once.
        final User current = ctx.users().user(session.user.username());
        final int graceMs = session.endedByOperator ? 0 :
            (null == current ? session.user : current).cancelOnDisconnectGraceMs();
        if (session.cancelOnDisconnect && graceMs > 0)
        {
            inGrace.add(session.user.username(), session.accountId(), session.sessionNumber,
                nowNs + TimeUnit.MILLISECONDS.toNanos(graceMs));
            router.ingress().sessionStatus(session.sessionId, session.accountId(), false, graceMs);
            return;
        }
        if (session.cancelOnDisconnect)
        {
            router.ingress().cancelOnDisconnect(session.sessionId, session.accountId());
        }
        router.ingress().sessionStatus(session.sessionId, session.accountId(), false);
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
