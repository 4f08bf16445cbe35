package io.ringex.gateway.fix;

import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.ringex.gateway.Throttle;
import io.ringex.gateway.auth.User;
import org.agrona.DirectBuffer;
import uk.co.real_logic.artio.library.OnMessageInfo;
import uk.co.real_logic.artio.library.SessionHandler;
import uk.co.real_logic.artio.messages.DisconnectReason;
import uk.co.real_logic.artio.session.Session;

/**
 * One FIX session as {@link FixGatewayAgent} keeps it: Artio's {@link Session} plus the gateway's state for it, and
 * Artio's {@link SessionHandler} for it, which hands every callback to the agent.
 * <p>
 * {@link #online} is false for a session that is not connected now but that the library still owns (Artio keeps a
 * disconnected session in its sole library, and hands one over offline on {@code requestSession}): reports sent to
 * it go to Artio's archive and are resent when the client logs on again. A new connection of the same session comes
 * with a new {@code FixSession}, so the per-connection state (throttle, back-pressure clocks) starts afresh.
 * <p>
 * Threading: the FIX agent thread only (Artio calls the handler inside {@code library.poll}).
 */
final class FixSession implements SessionHandler
{
    final FixGatewayAgent agent;
    final Session session;
    final User user;
    boolean online;
    int sessionNumber;
    long sessionId;
    Throttle throttle;
    long lastProcessedSeqNum;
    long ingressBackPressureStartNs;
    long slowSinceNs;
    /** Disconnected for not taking its reports: the bound on what is held for it was reached. */
    boolean overflowDisconnect;
    /** Logged out because the operator disabled or changed its user: no cancel-on-disconnect grace. */
    boolean endedByOperator;

    FixSession(final FixGatewayAgent agent, final Session session, final User user, final boolean online)
    {
        this.agent = agent;
        this.session = session;
        this.user = user;
        this.online = online;
    }

    /**
     * {@inheritDoc}
     */
    public Action onMessage(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int libraryId,
        final Session session,
        final int sequenceIndex,
        final long messageType,
        final long timestampInNs,
        final long position,
        final OnMessageInfo messageInfo)
    {
        return agent.onFixMessage(this, buffer, offset, length, messageType, messageInfo);
    }

    /**
     * {@inheritDoc}
     */
    public void onTimeout(final int libraryId, final Session session)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void onSlowStatus(final int libraryId, final Session session, final boolean hasBecomeSlow)
    {
        agent.onSlowStatus(this, hasBecomeSlow);
    }

    /**
     * {@inheritDoc}
     */
    public Action onDisconnect(final int libraryId, final Session session, final DisconnectReason reason)
    {
        agent.onFixDisconnect(this);
        return Action.CONTINUE;
    }

    /**
     * {@inheritDoc}
     */
    public void onSessionStart(final Session session)
    {
    }
}
