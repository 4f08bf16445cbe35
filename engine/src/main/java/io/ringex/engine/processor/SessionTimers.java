package io.ringex.engine.processor;

import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.CancelAllAfterStatus;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SessionStatusDecoder;

import java.util.ArrayList;

/**
 * The sessions' timers on the ring's clock: a session's cancel-all-after (the dead man's switch it arms, refreshes and
 * turns off itself with CancelAllAfter) and a disconnected session's cancel-on-disconnect grace (armed by the gateway's
 * SessionStatus when the session went away, disarmed by its SessionStatus when it logs on again). When one runs out,
 * every order of the session is cancelled, quote orders included (those it entered or last amended, as a SESSION
 * mass cancel: CancelReason CANCEL_ALL_AFTER, with a CancelAllAfterReport TRIGGERED after the cancels; or
 * CANCEL_ON_DISCONNECT).
 * <p>
 * Timers are state: snapshotted, hashed, replayed, so a newly elected leader fires them when they are due on its own
 * clock (the node journals a Tick at {@link #nextDeadlineNs()} when no command comes first). Due timers fire in order
 * of (deadline, session id, kind). A session has at most one timer of each kind; they are kept in that order in a list
 * (a few per session, rare changes), and a timer's record is reused.
 * <p>
 * Threading: single business-logic thread.
 */
final class SessionTimers implements Clocked
{
    /** The dead man's switch a session arms itself. */
    static final int CANCEL_ALL_AFTER = 1;
    /** The grace a disconnected session has to log on again before its orders are cancelled. */
    static final int DISCONNECT = 2;
    /** Shortest cancel-all-after timeout. */
    static final long MIN_TIMEOUT_MS = 100;
    /** Longest cancel-all-after timeout (an hour). */
    static final long MAX_TIMEOUT_MS = 3_600_000;
    /** Longest cancel-on-disconnect grace (ten minutes). */
    static final int MAX_GRACE_MS = MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS;

    private static final long NS_PER_MS = 1_000_000L;

    /** One armed timer. */
    static final class Timer
    {
        long sessionId;
        int kind;
        long deadlineNs;
        long timeoutMs;
    }

    private final EventEncoder events;
    private final MassCancels massCancels;
    private final ArrayList<Timer> armed = new ArrayList<>();
    private final ArrayList<Timer> free = new ArrayList<>();

    SessionTimers(final EventEncoder events, final MassCancels massCancels)
    {
        this.events = events;
        this.massCancels = massCancels;
    }

    /**
     * A session's CancelAllAfter: 0 disarms; 100 ms to an hour arms (or re-arms) it at the command's time plus the
     * timeout; anything else is refused (INVALID_ARGUMENT), leaving the timer as it was. Answered with a
     * CancelAllAfterReport.
     *
     * @param decoder wrapped on the command.
     */
    void onCancelAllAfter(final CancelAllAfterDecoder decoder)
    {
        final long sessionId = decoder.sessionId();
        final long timeoutMs = decoder.timeoutMs();
        if (timeoutMs != 0 && (timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS))
        {
            final Timer current = find(sessionId, CANCEL_ALL_AFTER);
            events.cancelAllAfterReport(sessionId, CancelAllAfterStatus.REJECTED, RejectReason.INVALID_ARGUMENT,
                timeoutMs, null == current ? 0 : current.deadlineNs, 0);
            return;
        }
        if (timeoutMs == 0)
        {
            disarm(sessionId, CANCEL_ALL_AFTER);
            events.cancelAllAfterReport(sessionId, CancelAllAfterStatus.DISARMED, RejectReason.NONE, 0, 0, 0);
            return;
        }
        final long deadlineNs = events.timestampNs() + timeoutMs * NS_PER_MS;
        arm(sessionId, CANCEL_ALL_AFTER, deadlineNs, timeoutMs);
        events.cancelAllAfterReport(sessionId, CancelAllAfterStatus.ARMED, RejectReason.NONE, timeoutMs, deadlineNs,
            0);
    }

    /**
     * A gateway's SessionStatus: logged on disarms the session's disconnect grace; logged off with a grace (schema
     * version 3; at most {@value #MAX_GRACE_MS} ms, more is taken as that) arms it.
     *
     * @param decoder wrapped on the command, at its version.
     */
    void onSessionStatus(final SessionStatusDecoder decoder)
    {
        final long sessionId = decoder.sessionId();
        if (decoder.loggedOnRaw() == 1)
        {
            disarm(sessionId, DISCONNECT);
            return;
        }
        final int graceMs = decoder.cancelOnDisconnectGraceMs();
        if (graceMs > 0 && graceMs != SessionStatusDecoder.cancelOnDisconnectGraceMsNullValue())
        {
            final long grace = Math.min(graceMs, MAX_GRACE_MS);
            arm(sessionId, DISCONNECT, events.timestampNs() + grace * NS_PER_MS, grace);
        }
    }

    /** {@inheritDoc} */
    public long nextDeadlineNs()
    {
        return armed.isEmpty() ? Long.MAX_VALUE : armed.get(0).deadlineNs;
    }

    /** {@inheritDoc} */
    public void onTime(final long nowNs)
    {
        while (!armed.isEmpty() && armed.get(0).deadlineNs <= nowNs)
        {
            final Timer timer = armed.remove(0);
            free.add(timer);
            final long sessionId = timer.sessionId;
            if (timer.kind == CANCEL_ALL_AFTER)
            {
                final int canceled = massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, sessionId, false,
                    ExecType.CANCELED, CancelReason.CANCEL_ALL_AFTER, null);
                events.cancelAllAfterReport(sessionId, CancelAllAfterStatus.TRIGGERED, RejectReason.NONE,
                    timer.timeoutMs, timer.deadlineNs, canceled);
            }
            else
            {
                massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, sessionId, false, ExecType.CANCELED,
                    CancelReason.CANCEL_ON_DISCONNECT, null);
            }
        }
    }

    /**
     * @param sessionId a session.
     * @param kind      {@link #CANCEL_ALL_AFTER} or {@link #DISCONNECT}.
     * @return its armed timer of that kind, or null.
     */
    Timer find(final long sessionId, final int kind)
    {
        for (int i = 0, n = armed.size(); i < n; i++)
        {
            final Timer timer = armed.get(i);
            if (timer.sessionId == sessionId && timer.kind == kind)
            {
                return timer;
            }
        }
        return null;
    }

    /**
     * Arm (or move) a session's timer of a kind.
     *
     * @param sessionId  the session.
     * @param kind       its kind.
     * @param deadlineNs when it runs out on the ring's clock.
     * @param timeoutMs  the timeout (cancel-all-after) or grace it was armed with.
     */
    void arm(final long sessionId, final int kind, final long deadlineNs, final long timeoutMs)
    {
        Timer timer = find(sessionId, kind);
        if (null != timer)
        {
            armed.remove(timer);
        }
        else
        {
            timer = free.isEmpty() ? new Timer() : free.remove(free.size() - 1);
            timer.sessionId = sessionId;
            timer.kind = kind;
        }
        timer.deadlineNs = deadlineNs;
        timer.timeoutMs = timeoutMs;
        int at = armed.size();
        while (at > 0 && after(armed.get(at - 1), timer))
        {
            at--;
        }
        armed.add(at, timer);
    }

    private void disarm(final long sessionId, final int kind)
    {
        final Timer timer = find(sessionId, kind);
        if (null != timer)
        {
            armed.remove(timer);
            free.add(timer);
        }
    }

    private static boolean after(final Timer a, final Timer b)
    {
        if (a.deadlineNs != b.deadlineNs)
        {
            return a.deadlineNs > b.deadlineNs;
        }
        if (a.sessionId != b.sessionId)
        {
            return a.sessionId > b.sessionId;
        }
        return a.kind > b.kind;
    }

    /** @return the armed timers in the order they fire (snapshot, tools; do not modify). */
    ArrayList<Timer> armed()
    {
        return armed;
    }
}
