package io.ringex.gateway.auth;

import io.ringex.common.net.LockoutAddress;
import org.agrona.collections.MutableInteger;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks logons on a worker thread of its own, so the slow credential hash never stalls a gateway agent, and delivers
 * every refusal {@link LogonPolicy#failureDelayMs()} after the logon arrived, whatever the reason (docs/security.md,
 * "Logon lockouts (gateway)").
 * <p>
 * What callers may hold is bounded ({@link LogonPolicy#maxPending()}, {@link LogonPolicy#maxPendingPerAddress()};
 * beyond, {@link #submit} refuses at once), and a locked name or address waits in a pool of its own, so one that locked
 * itself out cannot keep others from logging on.
 * <p>
 * Thread safety: {@link #submit} from any thread; verdicts are delivered on the worker thread.
 */
public final class LogonAuthenticator implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(LogonAuthenticator.class);
    private static final long BUSY_LOG_INTERVAL_MS = 1_000;

    private final UserDirectory users;
    private final LogonGuard guard;
    private final EpochClock clock;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger lockedAnswers = new AtomicInteger();
    /** Slots held per address key; a key is here only while it holds one, so at most maxPending keys. */
    private final HashMap<String, MutableInteger> pendingByAddress = new HashMap<>();
    private final AtomicLong busyRefusals = new AtomicLong();
    private final RateLimitedLog busyLog = new RateLimitedLog(BUSY_LOG_INTERVAL_MS);
    private final ScheduledThreadPoolExecutor worker;

    /**
     * @param users who may log on.
     * @param guard failure counts and lockouts, shared by every protocol of the gateway.
     * @param clock wall clock.
     */
    public LogonAuthenticator(final UserDirectory users, final LogonGuard guard, final EpochClock clock)
    {
        this.users = users;
        this.guard = guard;
        this.clock = clock;
        this.worker = new ScheduledThreadPoolExecutor(1, runnable ->
        {
            final Thread thread = new Thread(runnable, "ringex-gateway-logons");
            thread.setDaemon(true);
            return thread;
        });
        worker.setRemoveOnCancelPolicy(true);
    }

    /**
     * @return the failure counts and lockouts.
     */
    public LogonGuard guard()
    {
        return guard;
    }

    /**
     * Hand a logon to the worker; a logon of a locked name or address is answered LOCKED, late, without taking a
     * slot.
     *
     * @param attempt the logon.
     * @return false, with the attempt's verdict BUSY and nothing delivered, if too many logons are in hand (in all, or
     *         from its address, or locked ones being answered).
     */
    public boolean submit(final LogonAttempt attempt)
    {
        final LogonPolicy policy = guard.policy();
        final long nowMs = clock.time();
        final LogonGuard.Lock lock = guard.check(attempt.protocol(), attempt.username(), attempt.address(), nowMs);
        if (lock != LogonGuard.Lock.NONE)
        {
            return answerLocked(attempt, lock, nowMs);
        }

        final String addressKey = LockoutAddress.key(attempt.address());
        if (!takeAddressSlot(addressKey, policy.maxPendingPerAddress()))
        {
            return busy(attempt, "too many logons in hand from one address", nowMs);
        }
        if (pending.incrementAndGet() > policy.maxPending())
        {
            pending.decrementAndGet();
            releaseAddressSlot(addressKey);
            return busy(attempt, "too many logons in hand", nowMs);
        }
        try
        {
            worker.execute(() -> check(attempt));
        }
        catch (final RuntimeException ex)
        {
            pending.decrementAndGet();
            releaseAddressSlot(addressKey);
            attempt.wipePassword();
            attempt.decide(LogonAttempt.Verdict.BUSY, null, "authenticator closed");
            return false;
        }
        return true;
    }

    /**
     * @return logons in hand now (slots taken: being checked, or refused and waiting out the delay).
     */
    public int pending()
    {
        return pending.get();
    }

    /**
     * @return logons of locked names or addresses waiting out the delay (no slot taken).
     */
    public int lockedAnswers()
    {
        return lockedAnswers.get();
    }

    /**
     * @return logons refused at once since start because too many were in hand.
     */
    public long busyRefusals()
    {
        return busyRefusals.get();
    }

    /**
     * Stop the worker; logons in hand are not answered (their sessions are closing anyway).
     */
    public void close()
    {
        worker.shutdownNow();
    }

    private void check(final LogonAttempt attempt)
    {
        try
        {
            attempt.prepare();
            final String username = attempt.username();
            final String address = attempt.address();
            final LogonGuard.Lock lock = guard.check(attempt.protocol(), username, address, clock.time());
            if (lock != LogonGuard.Lock.NONE)
            {
                attempt.wipePassword();
                attempt.decide(LogonAttempt.Verdict.LOCKED, null, lock == LogonGuard.Lock.USER ?
                    "user locked out" : "address locked out");
                deliverLate(attempt);
                return;
            }

            if (!users.loaded())
            {
                // Not a failure of the caller's: the engine's users have not arrived (no primary yet, or it is
                // answering); refused as busy, at once, and not counted towards a lockout.
                attempt.wipePassword();
                attempt.decide(LogonAttempt.Verdict.BUSY, null, "the users have not arrived from the engine yet");
                deliver(attempt);
                return;
            }
            final User user = users.authenticate(username, attempt.password());
            attempt.wipePassword();
            final boolean disabled = null != user && !user.enabled();
            final String refusal = null == user ? "invalid credentials" :
                disabled ? "user disabled" : attempt.permits(user);
            if (null != refusal)
            {
                // Counted and answered late like any failure; only a disabled user's right password is told why.
                guard.onFailure(attempt.protocol(), username, address, refusal, clock.time());
                attempt.decide(disabled ? LogonAttempt.Verdict.DISABLED : LogonAttempt.Verdict.REFUSED, null,
                    refusal);
                deliverLate(attempt);
                return;
            }
            guard.onSuccess(username, address);
            attempt.decide(LogonAttempt.Verdict.ACCEPTED, user, null);
            deliver(attempt);
        }
        catch (final RuntimeException ex)
        {
            LOG.error("logon check failed: protocol={} user={}", attempt.protocol(),
                LogonGuard.printable(attempt.username()), ex);
            attempt.wipePassword();
            attempt.decide(LogonAttempt.Verdict.REFUSED, null, "internal error: " + ex);
            deliver(attempt);
        }
    }

    private boolean answerLocked(final LogonAttempt attempt, final LogonGuard.Lock lock, final long nowMs)
    {
        attempt.wipePassword();
        if (lockedAnswers.incrementAndGet() > guard.policy().maxPending())
        {
            lockedAnswers.decrementAndGet();
            return busy(attempt, "too many logons of locked names or addresses being answered", nowMs);
        }
        attempt.decide(LogonAttempt.Verdict.LOCKED, null, lock == LogonGuard.Lock.USER ?
            "user locked out" : "address locked out");
        final long delayMs = Math.max(0, attempt.receivedAtMs() + guard.policy().failureDelayMs() - nowMs);
        try
        {
            worker.schedule(() -> deliverLocked(attempt), delayMs, TimeUnit.MILLISECONDS);
        }
        catch (final RuntimeException ex)
        {
            lockedAnswers.decrementAndGet();
            attempt.decide(LogonAttempt.Verdict.BUSY, null, "authenticator closed");
            return false;
        }
        return true;
    }

    /** A locked logon's delay is over: let the protocol prepare its answer (where it may go), then deliver it. */
    private void deliverLocked(final LogonAttempt attempt)
    {
        try
        {
            attempt.prepare();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("logon answer not prepared: protocol={} user={}", attempt.protocol(),
                LogonGuard.printable(attempt.username()), ex);
        }
        lockedAnswers.decrementAndGet();
        try
        {
            attempt.onVerdict();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("logon verdict not delivered: protocol={} user={}", attempt.protocol(),
                LogonGuard.printable(attempt.username()), ex);
        }
    }

    private boolean busy(final LogonAttempt attempt, final String reason, final long nowMs)
    {
        attempt.wipePassword();
        attempt.decide(LogonAttempt.Verdict.BUSY, null, reason);
        final long busy = busyRefusals.incrementAndGet();
        final long skipped = busyLog.admit(nowMs);
        if (skipped != RateLimitedLog.SKIP)
        {
            LOG.warn("logon refused: protocol={} user={} address={} reason=busy: {} ({} logons in hand, {} from " +
                "one address at most; {} refused busy since start; {} such lines skipped since the last, at most one " +
                "a second)", attempt.protocol(), LogonGuard.printable(attempt.username()),
                LogonGuard.printable(attempt.address()), reason, pending.get(), guard.policy().maxPendingPerAddress(),
                busy, skipped);
        }
        return false;
    }

    private boolean takeAddressSlot(final String addressKey, final int maxPerAddress)
    {
        synchronized (pendingByAddress)
        {
            final MutableInteger held = pendingByAddress.get(addressKey);
            if (null == held)
            {
                pendingByAddress.put(addressKey, new MutableInteger(1));
                return true;
            }
            if (held.get() >= maxPerAddress)
            {
                return false;
            }
            held.increment();
            return true;
        }
    }

    private void releaseAddressSlot(final String addressKey)
    {
        synchronized (pendingByAddress)
        {
            final MutableInteger held = pendingByAddress.get(addressKey);
            if (null != held && held.decrementAndGet() <= 0)
            {
                pendingByAddress.remove(addressKey);
            }
        }
    }

    private void deliverLate(final LogonAttempt attempt)
    {
        final long delayMs = attempt.receivedAtMs() + guard.policy().failureDelayMs() - clock.time();
        if (delayMs <= 0)
        {
            deliver(attempt);
        }
        else
        {
            worker.schedule(() -> deliver(attempt), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private void deliver(final LogonAttempt attempt)
    {
        pending.decrementAndGet();
        releaseAddressSlot(LockoutAddress.key(attempt.address()));
        try
        {
            attempt.onVerdict();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("logon verdict not delivered: protocol={} user={}", attempt.protocol(),
                LogonGuard.printable(attempt.username()), ex);
        }
    }
}
