package io.ringex.gateway.fix;

import io.ringex.gateway.fix.codecs.decoder.OrderMassStatusRequestDecoder;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.DropCopyScopes;
import io.ringex.gateway.EngineIngress;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.SessionNumbers;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import uk.co.real_logic.artio.CommonConfiguration;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.engine.SessionInfo;
import uk.co.real_logic.artio.library.FixLibrary;
import uk.co.real_logic.artio.library.LibraryConfiguration;
import uk.co.real_logic.artio.library.OnMessageInfo;
import uk.co.real_logic.artio.library.SessionAcquireHandler;
import uk.co.real_logic.artio.library.SessionAcquiredInfo;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.messages.SessionState;
import uk.co.real_logic.artio.session.Session;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The FIX 4.4 side of the gateway as an Agrona {@link Agent}: it owns the Artio {@link FixLibrary} (the {@code
 * FixEngine} with the TCP sockets runs in {@link FixAcceptor}) and translates between FIX sessions and the engine
 * ({@link FixCommandTranslator}, {@link FixEventTranslator}); docs/client.md, "FIX 4.4", is its contract. FIX sessions
 * live here, not in the engine: they stay logged on when the gateway follows a new primary.
 * <p>
 * Every event gets an answer, and the egress is never held up for one session: what Artio does not take at once waits,
 * in order, in the session's bounded store ({@link FixOfflineSessions}).
 * <p>
 * Threading: everything runs on the agent thread, including Artio's callbacks (they happen inside {@code
 * library.poll}).
 */
public final class FixGatewayAgent implements Agent, SessionAcquireHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(FixGatewayAgent.class);
    private static final int FRAGMENT_LIMIT = 16;
    private static final int COUNTER_TYPE_ID = 7102;
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final long ENCODING_FAILED = Long.MIN_VALUE;

    /**
     * Attempts at a claim on the streams between Artio's framer and this library, the library's sends and the
     * framer's deliveries alike: Artio's spins and yields, never its parks (its default adds 1,000 parks, about a
     * second). A report Artio refuses as back-pressured waits in its session's store and is sent again later, and
     * the framer keeps a message it could not deliver and tries again on its next cycle, so neither side waits for
     * the other while the other waits for it.
     */
    static final int LIBRARY_CLAIMS = CommonConfiguration.BACKOFF_SPINS + CommonConfiguration.BACKOFF_YIELDS;

    private final GatewayContext ctx;
    private final Aeron aeron;
    private final NanoClock clock;
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final Int2ObjectHashMap<FixSession> sessionsByNumber = new Int2ObjectHashMap<>();
    private final FixFields fields = new FixFields();
    private final FixCommandTranslator commandTranslator = new FixCommandTranslator();
    private final FixQuoteTranslator quoteTranslator = new FixQuoteTranslator();
    private final FixEventTranslator eventTranslator = new FixEventTranslator();
    private final FixDictionaryCheck dictionaryCheck = new FixDictionaryCheck();
    private final StringBuilder identity = new StringBuilder(128);
    private final MessageValidator validator;
    private final UnsafeBuffer commandBuffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder instrumentDefinition = new InstrumentDefinitionDecoder();
    private final MarketDataCache marketDataCache;
    private final long backPressureTimeoutNs;
    private final long slowClientTimeoutNs;

    private final EngineRouter router;
    private final EngineIngress ingress;
    private FixLibrary library;
    private AtomicCounter activeSessions;
    private volatile AtomicCounter rejects;
    private volatile AtomicCounter sessionRejects;
    private volatile AtomicCounter duplicates;
    private volatile AtomicCounter dropped;
    private AtomicCounter held;
    private volatile AtomicCounter errors;
    private volatile AtomicCounter fitted;
    private FixProblemLog problemLog;
    private RuntimeException lastFailure;
    private FixOfflineSessions offlineSessions;
    private volatile AtomicCounter instrumentCount;
    private volatile AtomicCounter mdSubscriptions;
    private volatile AtomicCounter mdRejects;
    private volatile AtomicCounter mdFullRefreshes;
    private volatile AtomicCounter mdIncrementals;
    private volatile AtomicCounter mdDeferred;
    private AtomicCounter mdErrors;
    private FixMarketData marketData;
    private volatile AtomicCounter slowDisconnects;
    private volatile AtomicCounter dropCopies;
    private DropCopyScopes dropCopyScopes = new DropCopyScopes();
    private Supplier<List<SessionInfo>> artioSessions = Collections::emptyList;
    private boolean offlineDropCopiesFound;
    private int slowSessions;
    private long nowNs;

    /**
     * @param ctx    concluded configuration.
     * @param aeron  client for the engine streams; not closed by the agent.
     * @param clock  monotonic clock.
     * @param router the gateway's one link to the engine nodes, polled by its owner ({@link
     *               io.ringex.gateway.GatewayAgent}), which hands this agent its sessions' events
     *               ({@link #onEngineEvent}).
     * @param market the gateway's copy of the market, fed by its owner, which also hands this agent each instrument
     *               definition ({@link #onInstrumentDefinition}).
     */
    public FixGatewayAgent(
        final GatewayContext ctx,
        final Aeron aeron,
        final NanoClock clock,
        final EngineRouter router,
        final MarketDataCache market)
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
        this.marketDataCache = market;
        this.validator = new MessageValidator(ctx.maxMessageLength());
        this.backPressureTimeoutNs = ctx.backPressureTimeoutNs();
        this.slowClientTimeoutNs = ctx.slowClientTimeoutNs();
        ctx.populate(instruments);
    }

    /**
     * {@inheritDoc}
     */
    public void onStart()
    {
        nowNs = clock.nanoTime();
        final String prefix = "ringex-gateway-" + ctx.gatewayId() + " fix ";
        activeSessions = aeron.addCounter(COUNTER_TYPE_ID, prefix + "active sessions");
        rejects = aeron.addCounter(COUNTER_TYPE_ID, prefix + "rejects");
        duplicates = aeron.addCounter(COUNTER_TYPE_ID, prefix + "possdup duplicates ignored");
        dropped = aeron.addCounter(COUNTER_TYPE_ID, prefix + "dropped (no session / slow client)");
        held = aeron.addCounter(COUNTER_TYPE_ID, prefix + "reports held for sessions being acquired");
        errors = aeron.addCounter(COUNTER_TYPE_ID, prefix + "encoding errors");
        sessionRejects = aeron.addCounter(COUNTER_TYPE_ID, prefix + "session rejects (Reject 3)");
        fitted = aeron.addCounter(COUNTER_TYPE_ID, prefix + "values fitted to FIX (see Text 58)");
        problemLog = new FixProblemLog(prefix, System.err::println);
        instrumentCount = aeron.addCounter(COUNTER_TYPE_ID, prefix + "instruments known");
        instrumentCount.setRelease(instruments.size());
        mdSubscriptions = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data subscriptions");
        mdRejects = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data requests rejected (Y)");
        mdFullRefreshes = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data full refreshes (W)");
        mdIncrementals = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data incremental refreshes (X)");
        mdDeferred = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data subscribers deferred (conflated)");
        mdErrors = aeron.addCounter(COUNTER_TYPE_ID, prefix + "market data encoding errors");
        slowDisconnects = aeron.addCounter(COUNTER_TYPE_ID, prefix + "sessions disconnected: not reading");
        dropCopies = aeron.addCounter(COUNTER_TYPE_ID, prefix + "drop copies sent or held");
        marketData = new FixMarketData(marketDataCache, FixMarketData.DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION,
            mdSubscriptions, mdRejects,
            new FixMarketDataPublisher(mdFullRefreshes, mdIncrementals, mdDeferred, mdErrors));

        final LibraryConfiguration configuration = new LibraryConfiguration()
            .sessionAcquireHandler(this)
            .libraryAeronChannels(Collections.singletonList(ctx.fixLibraryChannel()))
            .libraryName("ringex-gateway-" + ctx.gatewayId());
        configuration.outboundMaxClaimAttempts(LIBRARY_CLAIMS);
        configuration.monitoringFile(FixAcceptor.monitoringFile(ctx, "library"));
        configuration.aeronContext().aeronDirectoryName(ctx.aeronDirectoryName());
        library = FixLibrary.connect(configuration);
        offlineSessions = new FixOfflineSessions(artioId -> library.isConnected() ? library.requestSession(artioId,
            FixLibrary.NO_MESSAGE_REPLAY, FixLibrary.NO_MESSAGE_REPLAY, FixOfflineSessions.REQUEST_TIMEOUT_MS) : null,
            this::deliverHeld, dropped, held, ctx.fixOfflineHoldBytes(), TimeUnit.SECONDS.toNanos(1), prefix,
            System.err::println);
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        nowNs = clock.nanoTime();
        int work = library.poll(FRAGMENT_LIMIT);
        work += marketData.doWork();
        if (slowSessions > 0)
        {
            work += disconnectSlowSessions();
        }
        work += offlineSessions.poll(nowNs);
        if (!offlineDropCopiesFound && ctx.users().loaded())
        {
            offlineDropCopiesFound = true;
            work += findOfflineDropCopies(null);
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        if (offlineSessions != null)
        {
            offlineSessions.close();
        }
        CloseHelper.closeAll(
            library, activeSessions, rejects, sessionRejects, duplicates, dropped, held, errors, fitted,
            instrumentCount, mdSubscriptions, mdRejects, mdFullRefreshes, mdIncrementals, mdDeferred, mdErrors,
            slowDisconnects, dropCopies);
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "ringex-gateway-fix";
    }

    /**
     * The drop-copy sessions this agent's FIX drop-copy sessions join (the gateway's, shared with the SBE side); set
     * before the agent starts.
     *
     * @param scopes the gateway's.
     * @return this.
     */
    public FixGatewayAgent dropCopyScopes(final DropCopyScopes scopes)
    {
        this.dropCopyScopes = scopes;
        return this;
    }

    /**
     * Where the sessions Artio's engine knows are listed (its {@code FixEngine.allSessions()}, safe from any
     * thread): after a restart, the drop-copy sessions among them get their copies, held by Artio, before their
     * clients log on again. Set before the agent starts; without it, a drop-copy session gets copies from its first
     * logon after a restart.
     *
     * @param sessions lists Artio's sessions.
     * @return this.
     */
    public FixGatewayAgent artioSessions(final Supplier<List<SessionInfo>> sessions)
    {
        this.artioSessions = sessions;
        return this;
    }

    /**
     * @return execution report copies sent to drop-copy sessions or held for them (any thread).
     */
    public long dropCopiesSent()
    {
        return valueOf(dropCopies);
    }

    /**
     * @return whether the Artio library is connected to its engine.
     */
    public boolean isLibraryConnected()
    {
        return library != null && library.isConnected();
    }

    /**
     * @return instruments whose price scale is known (any thread; -1 before the agent starts).
     */
    public long instrumentCount()
    {
        final AtomicCounter counter = instrumentCount;
        return counter == null ? -1 : counter.get();
    }

    /**
     * @return PossDup resends ignored because their MsgSeqNum was already processed (any thread).
     */
    public long duplicatesIgnored()
    {
        return valueOf(duplicates);
    }

    /**
     * @return client messages the gateway refused itself, Reject(3) included (any thread).
     */
    public long rejectsSent()
    {
        return valueOf(rejects);
    }

    /**
     * @return session-level Reject(3) sent for messages that are not valid FIX 4.4 (any thread).
     */
    public long sessionRejectsSent()
    {
        return valueOf(sessionRejects);
    }

    /**
     * @return answers or reports Artio could not encode, each replaced by a BusinessMessageReject (any thread).
     */
    public long encodingErrors()
    {
        return valueOf(errors);
    }

    /**
     * @return messages sent with values fitted to what FIX can carry, said so in Text(58) (any thread).
     */
    public long valuesFitted()
    {
        return valueOf(fitted);
    }

    /**
     * @return reports and answers not delivered: no session, slow client, or not even a fallback encoded (any
     * thread).
     */
    public long droppedMessages()
    {
        return valueOf(dropped);
    }

    /**
     * @return live FIX market-data subscriptions (any thread).
     */
    public long marketDataSubscriptions()
    {
        return valueOf(mdSubscriptions);
    }

    /**
     * @return MarketDataRequestReject (Y) sent (any thread).
     */
    public long marketDataRejects()
    {
        return valueOf(mdRejects);
    }

    /**
     * @return MarketDataSnapshotFullRefresh (W) sent (any thread).
     */
    public long marketDataFullRefreshes()
    {
        return valueOf(mdFullRefreshes);
    }

    /**
     * @return MarketDataIncrementalRefresh (X) sent (any thread).
     */
    public long marketDataIncrementals()
    {
        return valueOf(mdIncrementals);
    }

    /**
     * @return times a market-data subscriber could not be sent to (slow) and was left to catch up later, conflated
     * (any thread).
     */
    public long marketDataDeferred()
    {
        return valueOf(mdDeferred);
    }

    private static long valueOf(final AtomicCounter counter)
    {
        return counter == null ? 0 : counter.get();
    }

    // ---------------------------------------------------------------- sessions

    /**
     * {@inheritDoc}
     */
    public SessionHandler onSessionAcquired(final Session session, final SessionAcquiredInfo acquiredInfo)
    {
        // Offline: Artio handed over a disconnected session (requestSession); the engine already knows it is off.
        final boolean online = session.isConnected();
        final User user = ctx.users().userBySenderCompId(session.compositeKey().remoteCompId());
        final FixSession fixSession = new FixSession(this, session, user, online);
        if (user == null)
        {
            // Authentication checked the CompIDs: this only happens if configuration changed under a live session.
            if (online)
            {
                session.requestDisconnect();
            }
            return fixSession;
        }
        fixSession.sessionNumber = SessionNumbers.fix(session.id());
        fixSession.sessionId = SessionIds.sessionId(ctx.gatewayId(), fixSession.sessionNumber);
        fixSession.throttle = new Throttle(
            user.throttleMessagesPerSecond(ctx.throttleMessagesPerSecond()), ctx.throttleBurst(), clock.nanoTime());
        fixSession.lastProcessedSeqNum = session.lastReceivedMsgSeqNum();
        final FixSession previous = sessionsByNumber.put(fixSession.sessionNumber, fixSession);
        if (previous != null)
        {
            marketData.onDisconnect(previous);
            onSlowStatus(previous, false);
        }
        offlineSessions.known(fixSession.sessionNumber);
        final boolean wasOnline = previous != null && previous.online;
        if (user.isDropCopy())
        {
            // From now on its copies go to Artio, which keeps them for it while it is away (an offline session).
            dropCopyScopes.add(fixSession.sessionId, user);
        }
        if (online && !wasOnline)
        {
            activeSessions.increment();
            ingress.sessionStatus(fixSession.sessionId, user.defaultAccount(), true);
        }
        else if (!online && wasOnline)
        {
            // Artio took the session away (a library timeout) and the client left meanwhile.
            onFixDisconnect(previous);
        }
        return fixSession;
    }

    /**
     * Log out the live FIX sessions of a user the engine disabled or changed, with a Logout whose Text(58) says what
     * happened ({@link #logoutText}); their disconnect cancels their orders at once, with no grace, if the user asked
     * for cancel-on-disconnect ({@link #onFixDisconnect}).
     *
     * @param username the user.
     * @param disabled whether the user was disabled (else its accounts, CompIDs or role changed).
     * @param change   what changed ({@link io.ringex.gateway.auth.User#sessionEndingChange}).
     */
    public void endSessionsOf(final String username, final boolean disabled, final String change)
    {
        int ended = 0;
        final byte[] text = logoutText(disabled, change).getBytes(StandardCharsets.US_ASCII);
        for (final FixSession fixSession : sessionsByNumber.values())
        {
            if (null != fixSession.user && fixSession.user.username().equals(username) && fixSession.online)
            {
                fixSession.endedByOperator = true;
                fixSession.session.logoutAndDisconnect(text);
                ended++;
            }
        }
        if (ended > 0)
        {
            LOG.warn("FIX: {} session(s) of user {} logged out ({})", ended, username, change);
        }
        // A drop copy that keeps its role (other accounts) goes on getting copies while its client is away.
        findOfflineDropCopies(username);
    }

    /**
     * @param disabled whether the user was disabled.
     * @param change   what changed.
     * @return Text(58) of the Logout ending a session for it: {@code Logged out: user disabled}, or e.g.
     * {@code Logged out: role changed to drop-copy; log on again}.
     */
    public static String logoutText(final boolean disabled, final String change)
    {
        return "Logged out: " + (disabled ? "user disabled" : change + "; log on again");
    }

    /**
     * Make the FIX sessions Artio knows for drop-copy users drop-copy sessions, online or not: copies for a session
     * the library does not hold yet are held while Artio hands it over offline ({@link FixOfflineSessions}), and
     * Artio keeps them for the client's next logon.
     *
     * @param username only this user's, or null for every user's.
     * @return how many were added.
     */
    private int findOfflineDropCopies(final String username)
    {
        int added = 0;
        final List<SessionInfo> sessions;
        try
        {
            sessions = artioSessions.get();
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("FIX: Artio's sessions could not be listed; drop copies start at their next logon", ex);
            return 0;
        }
        for (final SessionInfo info : sessions)
        {
            final User user = ctx.users().userBySenderCompId(info.sessionKey().remoteCompId());
            if (null == user || !user.isDropCopy() || (null != username && !username.equals(user.username())) ||
                !user.fixTargetCompId().equals(info.sessionKey().localCompId()))
            {
                continue;
            }
            final long sessionId = SessionIds.sessionId(ctx.gatewayId(), SessionNumbers.fix(info.sessionId()));
            if (!dropCopyScopes.contains(sessionId) && dropCopyScopes.add(sessionId, user))
            {
                added++;
            }
        }
        if (added > 0)
        {
            LOG.info("FIX: {} drop-copy session(s) get their copies while their clients are away", added);
        }
        return added;
    }

    /**
     * Artio's word that a session's TCP connection is full (the client is not reading) or drains again. All sessions
     * of the library share one stream to Artio's framer, which can only move on so far past a session it cannot
     * write to: a client that stops reading for longer than the slow-client timeout is disconnected, so it cannot
     * hold up the others for long. Market data to it is deferred meanwhile ({@link FixMarketDataPublisher}).
     */
    void onSlowStatus(final FixSession fixSession, final boolean hasBecomeSlow)
    {
        if (hasBecomeSlow && fixSession.slowSinceNs == 0)
        {
            fixSession.slowSinceNs = Math.max(1, nowNs);
            slowSessions++;
        }
        else if (!hasBecomeSlow && fixSession.slowSinceNs != 0)
        {
            fixSession.slowSinceNs = 0;
            slowSessions--;
        }
    }

    private int disconnectSlowSessions()
    {
        int work = 0;
        for (final FixSession fixSession : sessionsByNumber.values())
        {
            if (fixSession.slowSinceNs != 0 && nowNs - fixSession.slowSinceNs >= slowClientTimeoutNs)
            {
                onSlowStatus(fixSession, false);
                slowDisconnects.increment();
                fixSession.session.requestDisconnect();
                work++;
            }
        }
        return work;
    }

    /**
     * @return FIX sessions disconnected because Artio found their connection full for longer than the slow-client
     * timeout (any thread).
     */
    public long slowSessionsDisconnected()
    {
        return valueOf(slowDisconnects);
    }

    void onFixDisconnect(final FixSession fixSession)
    {
        fixSession.overflowDisconnect = false;
        if (fixSession.slowSinceNs != 0)
        {
            onSlowStatus(fixSession, false);
        }
        marketData.onDisconnect(fixSession);
        if (fixSession.user == null || !fixSession.online)
        {
            return;
        }
        // The library keeps the session, offline: reports for it go on to Artio's archive until the next logon.
        fixSession.online = false;
        activeSessions.decrement();
        // The user as the engine holds it now: an operator's change of its cancel-on-disconnect applies at once.
        final User current = ctx.users().user(fixSession.user.username());
        final User user = null == current ? fixSession.user : current;
        final long accountId = fixSession.user.defaultAccount();
        final int graceMs = fixSession.endedByOperator ? 0 : user.cancelOnDisconnectGraceMs();
        fixSession.endedByOperator = false;
        if (user.fixCancelOnDisconnect() && graceMs > 0)
        {
            // The session keeps its id when it logs on again (Artio's persistent session id): the engine cancels its
            // orders when the grace runs out, unless the logged-on SessionStatus of that logon comes first.
            ingress.sessionStatus(fixSession.sessionId, accountId, false, graceMs);
            return;
        }
        if (user.fixCancelOnDisconnect())
        {
            ingress.cancelOnDisconnect(fixSession.sessionId, accountId);
        }
        ingress.sessionStatus(fixSession.sessionId, accountId, false);
    }

    /**
     * @return the session's {@link FixSession} if the library still has it. One Artio has disabled (taken back after
     * a library timeout, the client perhaps still connected) is not a disconnect: its reports are held and the
     * session asked for again, and {@link #onSessionAcquired} settles whether it is still online.
     */
    private FixSession sessionFor(final int sessionNumber)
    {
        final FixSession fixSession = sessionsByNumber.get(sessionNumber);
        return fixSession != null && fixSession.session.state() == SessionState.DISABLED ? null : fixSession;
    }

    Action onFixMessage(
        final FixSession fixSession,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long messageType,
        final OnMessageInfo messageInfo)
    {
        if (fixSession.user == null || !messageInfo.isValid() || isSessionLevel(messageType))
        {
            return Action.CONTINUE;
        }

        fields.scan(buffer, offset, length);
        final long seqNum = fields.longValue(FixFields.MSG_SEQ_NUM);
        if (seqNum > 0 && seqNum <= fixSession.lastProcessedSeqNum)
        {
            duplicates.increment();
            return Action.CONTINUE;
        }
        if (messageType == 'V' || messageType == 'x' || messageType == 'e')
        {
            final Action action = messageType == 'V' ?
                marketData.onMarketDataRequest(fixSession, buffer, offset, length) :
                messageType == 'x' ? marketData.onSecurityListRequest(fixSession, buffer, offset, length) :
                marketData.onSecurityStatusRequest(fixSession, (int)seqNum, buffer, offset, length);
            if (action == Action.CONTINUE)
            {
                fixSession.lastProcessedSeqNum = Math.max(fixSession.lastProcessedSeqNum, seqNum);
            }
            return action;
        }
        final char msgType = messageType == 'D' || messageType == 'F' || messageType == 'G' || messageType == 'q' ||
            messageType == 'H' || messageType == 'i' || messageType == 'Z' ? (char)messageType :
            messageType == OrderMassStatusRequestDecoder.MESSAGE_TYPE ? FixCommandTranslator.ORDER_MASS_STATUS_REQUEST :
            '?';

        final int invalid = dictionaryCheck.check(buffer, offset, length, msgType, fields);
        if (invalid != FixDictionaryCheck.VALID)
        {
            return sessionReject(fixSession, seqNum, invalid);
        }
        if (fixSession.user.isDropCopy())
        {
            // A drop copy reads; it sends nothing to the engine: no order, cancel, replace, mass cancel, nor a status
            // query (it catches up by resend from its own sequence numbers). Nothing is forwarded.
            return reject(fixSession, msgType, seqNum, RejectReason.DROP_COPY_SESSION,
                "a drop-copy session may not send orders or requests");
        }

        final boolean firstAttempt = fixSession.ingressBackPressureStartNs == 0;
        final boolean quote = msgType == 'i' || msgType == 'Z';
        final RejectReason reason = quote ?
            quoteTranslator.translate(buffer, offset, length, msgType, fixSession.user, fixSession.sessionId,
                instruments, commandBuffer) :
            commandTranslator.translate(
                fields, msgType, fixSession.user, fixSession.sessionId, instruments, commandBuffer);
        if (reason != RejectReason.NONE)
        {
            return reject(fixSession, msgType, seqNum, reason,
                quote ? quoteTranslator.text() : commandTranslator.text());
        }
        if (firstAttempt && !fixSession.throttle.tryAcquire(nowNs))
        {
            return reject(fixSession, msgType, seqNum, RejectReason.THROTTLED, null);
        }

        final long result = ingress.offer(commandBuffer, 0,
            quote ? quoteTranslator.encodedLength() : commandTranslator.encodedLength());
        if (result > 0)
        {
            fixSession.ingressBackPressureStartNs = 0;
            fixSession.lastProcessedSeqNum = seqNum;
            return Action.CONTINUE;
        }
        if (result != Publication.CLOSED && result != Publication.MAX_POSITION_EXCEEDED &&
            result != EngineIngress.NO_PRIMARY)
        {
            if (firstAttempt)
            {
                fixSession.ingressBackPressureStartNs = nowNs;
            }
            if (nowNs - fixSession.ingressBackPressureStartNs < backPressureTimeoutNs)
            {
                return Action.ABORT;
            }
        }
        fixSession.ingressBackPressureStartNs = 0;
        if (result == EngineIngress.NO_PRIMARY)
        {
            return reject(fixSession, msgType, seqNum, RejectReason.NO_PRIMARY, "no primary engine; retry");
        }
        return reject(fixSession, msgType, seqNum, RejectReason.ENGINE_BUSY, null);
    }

    private Action reject(
        final FixSession fixSession,
        final char msgType,
        final long seqNum,
        final RejectReason reason,
        final String text)
    {
        Encoder encoder;
        try
        {
            encoder = eventTranslator.reject(fields, msgType, refSeqNum(seqNum), reason, text, "UNKNOWN");
        }
        catch (final RuntimeException ex)
        {
            lastFailure = ex;
            encoder = null;
        }
        return answer(fixSession, encoder, seqNum, false);
    }

    private Action sessionReject(final FixSession fixSession, final long seqNum, final int sessionRejectReason)
    {
        Encoder encoder;
        try
        {
            encoder = eventTranslator.sessionReject(fields, refSeqNum(seqNum), dictionaryCheck.invalidTag(),
                sessionRejectReason, dictionaryCheck.text());
        }
        catch (final RuntimeException ex)
        {
            lastFailure = ex;
            encoder = null;
        }
        return answer(fixSession, encoder, seqNum, true);
    }

    /**
     * Send the gateway's answer to a client message it refused; if the answer cannot be encoded (a bug: it is built
     * from checked values), a minimal BusinessMessageReject goes instead, and the failure is counted and logged.
     */
    private Action answer(
        final FixSession fixSession, final Encoder encoder, final long seqNum, final boolean sessionLevel)
    {
        long sent = encoder == null ? ENCODING_FAILED : trySend(fixSession, encoder);
        if (sent == ENCODING_FAILED)
        {
            final RuntimeException failure = lastFailure;
            sent = trySend(fixSession, eventTranslator.minimalReject(fields, refSeqNum(seqNum)));
            if (sent < 0 && sent != ENCODING_FAILED)
            {
                // Artio could not take it now: have the inbound message redelivered and answer then.
                return Action.ABORT;
            }
            errors.increment();
            identity.setLength(0);
            appendInboundIdentity(identity, fixSession, seqNum).append(": ").append(failure);
            problemLog.record("could not encode the answer to a refused message: " +
                failure.getClass().getSimpleName(), identity);
            if (sent == ENCODING_FAILED)
            {
                dropped.increment();
                return Action.CONTINUE;
            }
        }
        else if (sent < 0)
        {
            // Artio could not take it now: have the inbound message redelivered and answer then.
            return Action.ABORT;
        }
        else
        {
            recordFitted(eventTranslator.issues(), "answer", fixSession, null, 0, seqNum);
        }
        rejects.increment();
        if (sessionLevel)
        {
            sessionRejects.increment();
        }
        fixSession.lastProcessedSeqNum = Math.max(fixSession.lastProcessedSeqNum, seqNum);
        return Action.CONTINUE;
    }

    /**
     * Translate and send an engine event. An event Artio cannot encode is answered by a BusinessMessageReject naming
     * it instead, counted and logged; values that had to be fitted are counted and logged.
     *
     * @return what {@code trySend} returned (&lt; 0: retry later, nothing counted), or {@link #ENCODING_FAILED} if not
     * even the fallback could be sent.
     */
    private long sendEvent(final FixSession fixSession, final DirectBuffer buffer, final int offset)
    {
        long sent;
        try
        {
            sent = trySend(fixSession, null != fixSession.user && fixSession.user.isDropCopy() ?
                dropCopyOf(buffer, offset) : eventTranslator.engineEvent(buffer, offset, instruments));
        }
        catch (final RuntimeException ex)
        {
            lastFailure = ex;
            sent = ENCODING_FAILED;
        }
        if (sent >= 0)
        {
            recordFitted(eventTranslator.issues(), "report", fixSession, buffer, offset, 0);
            return sent;
        }
        if (sent != ENCODING_FAILED)
        {
            return sent;
        }

        final RuntimeException failure = lastFailure;
        try
        {
            sent = trySend(fixSession, eventTranslator.undeliverable(buffer, offset, failure));
        }
        catch (final RuntimeException ex)
        {
            sent = ENCODING_FAILED;
        }
        if (sent < 0 && sent != ENCODING_FAILED)
        {
            return sent;
        }
        errors.increment();
        appendEventIdentity(fixSession, buffer, offset).append(": ").append(failure);
        problemLog.record("could not encode " + eventName(buffer, offset) + ": " + failure.getClass().getSimpleName(),
            identity);
        if (sent == ENCODING_FAILED)
        {
            dropped.increment();
        }
        return sent;
    }

    private void recordFitted(
        final int kinds,
        final String what,
        final FixSession fixSession,
        final DirectBuffer event,
        final int offset,
        final long seqNum)
    {
        if (kinds == 0)
        {
            return;
        }
        fitted.increment();
        for (int kind = 1; kind <= kinds; kind <<= 1)
        {
            if ((kinds & kind) == 0)
            {
                continue;
            }
            if (event != null)
            {
                appendEventIdentity(fixSession, event, offset);
            }
            else
            {
                identity.setLength(0);
                appendInboundIdentity(identity, fixSession, seqNum);
            }
            identity.append(": ").append(eventTranslator.issueNotes());
            problemLog.record(what + " sent with a " + FixWireValues.kindName(kind) + " fitted to FIX", identity);
        }
    }

    /**
     * The event's kind and ids into {@link #identity}, for a log line; an event too damaged to read says so.
     */
    private StringBuilder appendEventIdentity(final FixSession fixSession, final DirectBuffer event, final int offset)
    {
        identity.setLength(0);
        try
        {
            eventTranslator.appendIdentity(identity, event, offset);
        }
        catch (final RuntimeException ex)
        {
            identity.setLength(0);
            identity.append("an engine event that does not read (").append(ex).append(')');
        }
        return identity.append(" for ").append(fixSession.session.compositeKey().remoteCompId());
    }

    private String eventName(final DirectBuffer event, final int offset)
    {
        try
        {
            return eventTranslator.templateName(event, offset);
        }
        catch (final RuntimeException ex)
        {
            return "an engine event";
        }
    }

    private StringBuilder appendInboundIdentity(
        final StringBuilder out, final FixSession fixSession, final long seqNum)
    {
        out.append(fixSession.session.compositeKey().remoteCompId()).append(" MsgSeqNum ").append(seqNum);
        if (fields.isWellFormed() && fields.has(FixFields.MSG_TYPE))
        {
            out.append(" MsgType ");
            appendPrintable(out, fields.value(FixFields.MSG_TYPE), 8);
        }
        if (fields.isWellFormed() && fields.has(FixFields.CL_ORD_ID))
        {
            out.append(" ClOrdID ");
            appendPrintable(out, fields.value(FixFields.CL_ORD_ID), 64);
        }
        return out;
    }

    private static void appendPrintable(final StringBuilder out, final CharSequence value, final int max)
    {
        for (int i = 0, n = Math.min(max, value.length()); i < n; i++)
        {
            final char c = value.charAt(i);
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
    }

    private static int refSeqNum(final long seqNum)
    {
        return (int)Math.max(0, Math.min(seqNum, Integer.MAX_VALUE));
    }

    /**
     * Artio's {@code trySend}, except that an encoder refusing its own content (a bug, or data the dictionary cannot
     * carry) is reported as {@link #ENCODING_FAILED} ({@link #lastFailure} says why) instead of escaping the duty
     * cycle: retrying would fail again.
     */
    private long trySend(final FixSession fixSession, final Encoder encoder)
    {
        try
        {
            return fixSession.session.trySend(encoder);
        }
        catch (final RuntimeException ex)
        {
            lastFailure = ex;
            return ENCODING_FAILED;
        }
    }

    private static boolean isSessionLevel(final long messageType)
    {
        // Heartbeat 0, TestRequest 1, ResendRequest 2, Reject 3, SequenceReset 4, Logout 5, Logon A.
        return (messageType >= '0' && messageType <= '5') || messageType == 'A';
    }

    // ---------------------------------------------------------------- engine streams

    /**
     * An engine event for one of this gateway's FIX sessions: translated and sent, or held while the session is
     * acquired or Artio is back-pressured. Never redelivered: the egress it comes on carries every session's reports
     * (and, through the engine, every client's), so one session Artio cannot take reports for must not hold it up;
     * its reports wait in order in its own bounded store ({@link FixOfflineSessions}) and go out as soon as Artio
     * takes them.
     *
     * @param templateId ExecutionReport, CancelReject, BusinessReject or OrderStatusReport.
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
        final FixSession fixSession = sessionFor(sessionNumber);
        if (fixSession != null && !offlineSessions.isHolding(sessionNumber))
        {
            final long sent = sendEvent(fixSession, buffer, offset);
            if (sent >= 0 || sent == ENCODING_FAILED)
            {
                return Action.CONTINUE;
            }
        }
        // Not this library's now (held while it is acquired), behind reports still held for it, or Artio is
        // back-pressured: held, in order.
        if (!offlineSessions.hold(sessionNumber, buffer, offset, length, nowNs) && null != fixSession &&
            fixSession.online && !fixSession.overflowDisconnect)
        {
            // More of its reports waiting than the bound: a client sending faster than the venue can answer it is
            // disconnected, like one that does not read, so that it stops sending and notices. What is held still
            // goes to Artio (archived, resent when it logs on again); what did not fit is counted and logged.
            fixSession.overflowDisconnect = true;
            slowDisconnects.increment();
            fixSession.session.requestDisconnect();
        }
        return Action.CONTINUE;
    }

    /**
     * A copy of an engine ExecutionReport for one of this gateway's FIX drop-copy sessions: sent, or held (in order,
     * behind any copies held before it) while the session is acquired or its connection is back-pressured. Never
     * redelivered: the report's own session already has it.
     *
     * @param dropCopySessionId the drop-copy session.
     * @param buffer            holding the ExecutionReport.
     * @param offset            of its header.
     * @param length            whole message.
     */
    public void onDropCopy(final long dropCopySessionId, final DirectBuffer buffer, final int offset, final int length)
    {
        dropCopies.increment();
        final int sessionNumber = SessionIds.sessionNumber(dropCopySessionId);
        final FixSession fixSession = sessionFor(sessionNumber);
        if (fixSession == null || offlineSessions.isHolding(sessionNumber))
        {
            offlineSessions.hold(sessionNumber, buffer, offset, length, nowNs);
            return;
        }
        final long sent = sendEvent(fixSession, buffer, offset);
        if (sent < 0 && sent != ENCODING_FAILED)
        {
            // Back-pressured: kept, and sent by the offline store's poll as soon as Artio takes it.
            offlineSessions.hold(sessionNumber, buffer, offset, length, nowNs);
        }
    }

    private Encoder dropCopyOf(final DirectBuffer buffer, final int offset)
    {
        final long originSessionId = executionReportSessionId(buffer, offset);
        CharSequence originCompId = null;
        if (SessionIds.gatewayId(originSessionId) == ctx.gatewayId())
        {
            final FixSession origin = sessionsByNumber.get(SessionIds.sessionNumber(originSessionId));
            if (null != origin)
            {
                originCompId = origin.session.compositeKey().remoteCompId();
            }
        }
        return eventTranslator.dropCopy(buffer, offset, instruments, originSessionId, originCompId);
    }

    private long executionReportSessionId(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + HEADER_LENGTH + ExecutionReportDecoder.sessionIdEncodingOffset(),
            ExecutionReportDecoder.BYTE_ORDER);
    }

    private int deliverHeld(final int sessionNumber, final DirectBuffer buffer, final int offset, final int length)
    {
        final FixSession fixSession = sessionFor(sessionNumber);
        if (fixSession == null)
        {
            return FixOfflineSessions.Delivery.NO_SESSION;
        }
        final long sent = sendEvent(fixSession, buffer, offset);
        return sent >= 0 || sent == ENCODING_FAILED ?
            FixOfflineSessions.Delivery.DELIVERED : FixOfflineSessions.Delivery.RETRY;
    }

    /**
     * An instrument the engine defined (the agent thread): its symbol and price scale win over the configured ones.
     *
     * @param instrumentDefinition the message, valid during the call.
     */
    public void onInstrumentDefinition(final InstrumentDefinitionDecoder instrumentDefinition)
    {
        final int instrumentId = instrumentDefinition.instrumentId();
        final String symbol = instrumentDefinition.symbol().trim();
        final int priceScale = instrumentDefinition.priceScale();
        if (!symbol.isEmpty() && priceScale >= 0 && priceScale <= 8)
        {
            instruments.put(instrumentId, symbol, priceScale);
            instrumentCount.setRelease(instruments.size());
        }
    }
}
