package io.ringex.gateway.fix;

import io.ringex.gateway.SessionNumbers;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableRingBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.status.AtomicCounter;
import uk.co.real_logic.artio.Reply;
import uk.co.real_logic.artio.library.FixLibrary;
import uk.co.real_logic.artio.messages.SessionReplyStatus;

import java.util.Iterator;
import java.util.function.Consumer;

/**
 * Engine reports for FIX sessions the gateway has no Artio session for yet (one this process has not seen since it
 * started, or one Artio took away), held in order, off-heap, per session, while Artio is asked for the session offline
 * ({@link FixLibrary#requestSession}), then delivered through {@link Delivery}.
 * <p>
 * Nothing is dropped silently: a report beyond the per-session bound or for a session Artio does not know is counted
 * and logged.
 * <p>
 * Threading: the FIX agent thread only, like the agent's Artio callbacks.
 */
final class FixOfflineSessions
{
    /** Asks Artio for a session; the agent's library. */
    @FunctionalInterface
    interface SessionRequester
    {
        /**
         * {@link FixLibrary#requestSession} without replay: Artio hands a disconnected session over offline.
         *
         * @param artioSessionId Artio's session id.
         * @return Artio's reply, or null if the library cannot ask now (not connected to its engine).
         */
        Reply<SessionReplyStatus> requestSession(long artioSessionId);
    }

    /** How a held report is handed on; implemented by the agent. */
    interface Delivery
    {
        /** Sent to Artio, or dropped and counted by the deliverer (a report the encoder refuses). */
        int DELIVERED = 0;
        /** Artio is back-pressured: keep the report and try again on a later poll. */
        int RETRY = 1;
        /** The agent has no Artio session for it yet. */
        int NO_SESSION = 2;

        /**
         * @param sessionNumber the Ringex session number the report is for.
         * @param buffer        the engine message, SBE header first.
         * @param offset        where it starts.
         * @param length        its length.
         * @return {@link #DELIVERED}, {@link #RETRY} or {@link #NO_SESSION}.
         */
        int deliver(int sessionNumber, DirectBuffer buffer, int offset, int length);
    }

    /** Artio's own default for a library reply. */
    static final long REQUEST_TIMEOUT_MS = 10_000;
    /** Requests for one session before its held reports are given up. */
    static final int MAX_REQUESTS = 5;

    private static final int INITIAL_RING_BYTES = 4096;
    private static final int DELIVER_LIMIT = 64;

    private final Int2ObjectHashMap<Held> heldBySessionNumber = new Int2ObjectHashMap<>();
    /** Sessions Artio answered it does not know: their reports are dropped at once until one logs on. */
    private final IntHashSet unknownToArtio = new IntHashSet();
    private final SessionRequester requester;
    private final Delivery delivery;
    private final AtomicCounter dropped;
    private final AtomicCounter heldReports;
    private final int maxBytesPerSession;
    private final long retryIntervalNs;
    private final Consumer<String> log;
    private final String logPrefix;
    private final ExpandableRingBuffer.MessageConsumer deliverHeld = this::deliverHeld;
    private Held delivering;
    private int lastResult;

    /**
     * @param requester          asks Artio for a session.
     * @param delivery           hands a held report on.
     * @param dropped            counts reports given up.
     * @param heldReports        reports held now (a gauge).
     * @param maxBytesPerSession bound of each session's ring, a power of two (each report takes its length plus 8,
     *                           aligned to 8).
     * @param retryIntervalNs    wait before asking Artio again after a refusal.
     * @param logPrefix          names the gateway in log lines.
     * @param log                where a dropped report's line goes.
     */
    FixOfflineSessions(
        final SessionRequester requester,
        final Delivery delivery,
        final AtomicCounter dropped,
        final AtomicCounter heldReports,
        final int maxBytesPerSession,
        final long retryIntervalNs,
        final String logPrefix,
        final Consumer<String> log)
    {
        this.requester = requester;
        this.delivery = delivery;
        this.dropped = dropped;
        this.heldReports = heldReports;
        this.maxBytesPerSession = maxBytesPerSession;
        this.retryIntervalNs = retryIntervalNs;
        this.logPrefix = logPrefix;
        this.log = log;
    }

    /**
     * @param sessionNumber a FIX session number.
     * @return true while reports for it are held: a new one must queue behind them ({@link #hold}).
     */
    boolean isHolding(final int sessionNumber)
    {
        return !heldBySessionNumber.isEmpty() && heldBySessionNumber.containsKey(sessionNumber);
    }

    /**
     * Hold a report, in arrival order, until the session's Artio session is there; or count and log it if the
     * session's bound is full.
     *
     * @param sessionNumber the FIX session number it is for.
     * @param buffer        the engine message, SBE header first.
     * @param offset        where it starts.
     * @param length        its length.
     * @param nowNs         the agent's clock.
     * @return false if it was dropped (counted): over the session's bound, or for a session Artio does not know.
     */
    boolean hold(
        final int sessionNumber, final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        if (unknownToArtio.contains(sessionNumber))
        {
            dropped.increment();
            return false;
        }
        Held held = heldBySessionNumber.get(sessionNumber);
        if (held == null)
        {
            held = new Held(sessionNumber, new ExpandableRingBuffer(
                Math.min(INITIAL_RING_BYTES, maxBytesPerSession), maxBytesPerSession, true), nowNs);
            heldBySessionNumber.put(sessionNumber, held);
        }
        if (!held.reports.append(buffer, offset, length))
        {
            dropped.increment();
            held.overflowDrops++;
            if (held.overflowDrops == 1)
            {
                log.accept(logPrefix + "reports held for FIX session " + artioId(held) + " exceed " +
                    maxBytesPerSession + " bytes: dropping the newest (counted as dropped) until Artio takes them");
            }
            return false;
        }
        held.count++;
        heldReports.increment();
        return true;
    }

    /**
     * Deliver what can be delivered, and ask Artio for the sessions still missing.
     *
     * @param nowNs the agent's clock.
     * @return work done.
     */
    int poll(final long nowNs)
    {
        if (heldBySessionNumber.isEmpty())
        {
            return 0;
        }
        int work = 0;
        final Iterator<Held> iterator = heldBySessionNumber.values().iterator();
        while (iterator.hasNext())
        {
            final Held held = iterator.next();
            lastResult = Delivery.DELIVERED;
            delivering = held;
            work += held.reports.consume(deliverHeld, DELIVER_LIMIT) > 0 ? 1 : 0;
            if (held.reports.isEmpty())
            {
                if (held.overflowDrops > 0)
                {
                    log.accept(logPrefix + "FIX session " + artioId(held) + " delivered to; " + held.overflowDrops +
                        " report(s) had been dropped over the bound");
                }
                iterator.remove();
                work++;
            }
            else if (lastResult == Delivery.NO_SESSION && !acquire(held, nowNs))
            {
                iterator.remove();
                work++;
            }
        }
        return work;
    }

    private boolean deliverHeld(final MutableDirectBuffer buffer, final int offset, final int length, final int head)
    {
        lastResult = delivery.deliver(delivering.sessionNumber, buffer, offset, length);
        if (lastResult == Delivery.DELIVERED)
        {
            delivering.count--;
            heldReports.decrement();
            return true;
        }
        return false;
    }

    /**
     * Move the session's request on: send one when due, read the answer when it is in.
     *
     * @return false if the held reports were given up (and counted).
     */
    private boolean acquire(final Held held, final long nowNs)
    {
        final Reply<SessionReplyStatus> reply = held.reply;
        if (reply != null)
        {
            if (reply.isExecuting())
            {
                return true;
            }
            held.reply = null;
            final SessionReplyStatus status = reply.resultIfPresent();
            if (status == SessionReplyStatus.OK)
            {
                // onSessionAcquired has run (Artio hands the session over before it replies): the next poll
                // delivers, unless the agent refused the session; then a later request tells.
                held.nextRequestNs = nowNs + retryIntervalNs;
                return true;
            }
            if (status == SessionReplyStatus.UNKNOWN_SESSION)
            {
                unknownToArtio.add(held.sessionNumber);
            }
            if (status == SessionReplyStatus.UNKNOWN_SESSION || held.requests >= MAX_REQUESTS)
            {
                giveUp(held, status == null ? reply.state() + " " + reply.error() : status.name());
                return false;
            }
            held.nextRequestNs = nowNs + retryIntervalNs;
            return true;
        }
        if (nowNs - held.nextRequestNs < 0)
        {
            return true;
        }
        try
        {
            held.reply = requester.requestSession(artioId(held));
            if (held.reply != null)
            {
                held.requests++;
            }
        }
        catch (final RuntimeException ex)
        {
            // Artio refuses requests while its engine is closing down (end of day): try again later, within bounds.
            held.nextRequestNs = nowNs + retryIntervalNs;
            if (++held.requests >= MAX_REQUESTS)
            {
                giveUp(held, ex.toString());
                return false;
            }
        }
        return true;
    }

    /**
     * A session was acquired (logged on, or handed over offline): Artio knows it after all.
     *
     * @param sessionNumber its FIX session number.
     */
    void known(final int sessionNumber)
    {
        unknownToArtio.remove(sessionNumber);
    }

    /**
     * The gateway is closing: whatever is still held cannot be delivered by this process; counted and logged.
     */
    void close()
    {
        for (final Held held : heldBySessionNumber.values())
        {
            giveUp(held, "the gateway closed first");
        }
        heldBySessionNumber.clear();
    }

    private void giveUp(final Held held, final String why)
    {
        dropped.getAndAdd(held.count);
        heldReports.getAndAdd(-held.count);
        log.accept(logPrefix + "dropping " + held.count + " report(s) held for FIX session " + artioId(held) +
            ": Artio did not hand it over (" + why + ")");
    }

    private static long artioId(final Held held)
    {
        return SessionNumbers.artioSessionId(held.sessionNumber);
    }

    /** The reports held for one session, and its request to Artio. */
    private static final class Held
    {
        final int sessionNumber;
        final ExpandableRingBuffer reports;
        Reply<SessionReplyStatus> reply;
        long nextRequestNs;
        int requests;
        long overflowDrops;
        int count;

        Held(final int sessionNumber, final ExpandableRingBuffer reports, final long nowNs)
        {
            this.sessionNumber = sessionNumber;
            this.reports = reports;
            this.nextRequestNs = nowNs;
        }
    }
}
