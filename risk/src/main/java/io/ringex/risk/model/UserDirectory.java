package io.ringex.risk.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.UserRole;

/**
 * The venue's users as the engine's egress stream tells them: the answer to this service's UserDirectoryRequest
 * replaces the list whole, and a broadcast UserDefinition updates one user, never with an older command sequence
 * (docs/risk-api.md, "Users (the engine's directory)"). Only whether a user has a credential is kept.
 * <p>
 * Threading: the {@code on*}, {@link #requestNeeded} and {@link #requested} methods on the Aeron agent thread; the
 * views on any thread. All take this object's monitor.
 */
public final class UserDirectory
{
    private static final int MAX_BACKOFF_SHIFT = 4;

    private final int gatewayId;
    private final long timeoutNs;
    private final AtomicLong changeCount = new AtomicLong();
    private Map<String, Views.UserView> users = new TreeMap<>();
    private Map<String, Views.UserView> staging;
    private long pendingRequestId;
    private long requestedAtNs;
    private int requestedFrom = -1;
    private int answeredBy = -1;
    private int unanswered;
    private boolean stale = true;

    /**
     * @param gatewayId the gateway id this service names in its requests: answers carry it.
     * @param timeoutNs a request not answered within this is sent again.
     */
    public UserDirectory(final int gatewayId, final long timeoutNs)
    {
        this.gatewayId = gatewayId;
        this.timeoutNs = timeoutNs;
    }

    /** @return the gateway id this service names in its requests. */
    public int gatewayId()
    {
        return gatewayId;
    }

    /** @return a counter that grows whenever the list changed. */
    public long changeCount()
    {
        return changeCount.get();
    }

    // ---------------------------------------------------------------- requests (agent thread)

    /**
     * The directory must be asked for again from the engine followed now: it is a node the list did not come from, or
     * it may have lost what the list says (its egress reconnected).
     */
    public synchronized void invalidate()
    {
        stale = true;
    }

    /**
     * @param engine the node followed now.
     * @param nowNs  monotonic time.
     * @return whether a UserDirectoryRequest should be sent to it now.
     */
    public synchronized boolean requestNeeded(final int engine, final long nowNs)
    {
        return engine != requestedFrom || stale ||
            pendingRequestId != 0 && nowNs - requestedAtNs >= timeoutNs << Math.min(unanswered, MAX_BACKOFF_SHIFT);
    }

    /**
     * @param engine    the node asked.
     * @param requestId the request's id: its answers carry it.
     * @param nowNs     monotonic time.
     */
    public synchronized void requested(final int engine, final long requestId, final long nowNs)
    {
        unanswered = pendingRequestId != 0 && engine == requestedFrom ? unanswered + 1 : 0;
        pendingRequestId = requestId;
        requestedAtNs = nowNs;
        requestedFrom = engine;
        stale = false;
        staging = new TreeMap<>();
    }

    // ---------------------------------------------------------------- events (agent thread)

    /**
     * @param engine     the node that sent it.
     * @param definition a user, broadcast or in answer to a directory request; its credential is skipped unread.
     */
    public synchronized void onUserDefinition(final int engine, final UserDefinitionDecoder definition)
    {
        final int addressee = definition.gatewayId();
        final long requestId = definition.requestId();
        final boolean broadcast = addressee == 0;
        final boolean answer = addressee == gatewayId && requestId == pendingRequestId && pendingRequestId != 0 &&
            engine == requestedFrom;
        if (!broadcast && !answer)
        {
            return;
        }
        final boolean enabled = definition.enabled() == BooleanType.TRUE;
        final boolean cancelOnDisconnect = definition.fixCancelOnDisconnect() == BooleanType.TRUE;
        final int throttle = definition.throttleMessagesPerSecond();
        final long sequence = definition.commandSequence();
        final UserRole role = definition.role();
        // Absent before schema version 3 (the null value): no grace.
        final int graceRaw = definition.cancelOnDisconnectGraceMs();
        final int graceMs = graceRaw == UserDefinitionDecoder.cancelOnDisconnectGraceMsNullValue() ? 0 : graceRaw;
        final List<Long> accounts = new ArrayList<>();
        for (final UserDefinitionDecoder.AccountsDecoder a : definition.accounts())
        {
            accounts.add(a.accountId());
        }
        final String username = definition.username();
        final String compId = definition.fixSenderCompId();
        final boolean passwordSet = definition.credentialHashLength() > 0;
        definition.skipCredentialHash();
        final Views.UserView user = new Views.UserView(username, enabled, List.copyOf(accounts), compId,
            cancelOnDisconnect, throttle, passwordSet, sequence, role, graceMs);
        if (answer)
        {
            staging.put(username, user);
            return;
        }
        final Views.UserView known = users.get(username);
        if (known == null || known.commandSequence() <= sequence)
        {
            users.put(username, user);
            changeCount.incrementAndGet();
        }
    }

    /**
     * @param engine the node that sent it.
     * @param end    the end of a directory answer: if it answers this service's pending request, the list becomes
     *               the answer.
     */
    public synchronized void onUserDirectoryEnd(final int engine, final UserDirectoryEndDecoder end)
    {
        if (end.gatewayId() != gatewayId || end.requestId() != pendingRequestId || pendingRequestId == 0 ||
            engine != requestedFrom)
        {
            return;
        }
        users = staging;
        staging = null;
        pendingRequestId = 0;
        answeredBy = engine;
        changeCount.incrementAndGet();
    }

    // ---------------------------------------------------------------- views (any thread)

    /** @return every user by name, and whether the followed engine's directory has arrived. */
    public synchronized Views.UserList users()
    {
        return new Views.UserList(answeredBy >= 0 && answeredBy == requestedFrom && pendingRequestId == 0, answeredBy,
            List.copyOf(users.values()));
    }

    /**
     * @param username a user name.
     * @return the user as last known, or null.
     */
    public synchronized Views.UserView user(final String username)
    {
        return users.get(username);
    }
}
