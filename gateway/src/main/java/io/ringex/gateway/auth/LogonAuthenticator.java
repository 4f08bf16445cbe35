package io.ringex.gateway.auth;

import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks logons on a worker thread of its own, so the slow credential hash never stalls a gateway agent, and answers
 * refusals late: every refused logon's verdict is delivered {@link LogonPolicy#failureDelayMs()} after it arrived,
 * whether the name was unknown, the password wrong or the caller locked out (an unknown name is hashed against a
 * dummy credential, so even the worker's time does not differ). At most {@link LogonPolicy#maxPending()} logons are
 * in hand at once; beyond, {@link #submit} refuses at once and the caller answers BUSY without allocating anything
 * more for it.
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
    private final AtomicLong busyRefusals = new AtomicLong();
    private volatile long lastBusyLogMs = Long.MIN_VALUE / 2;
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
     * Hand a logon to the worker.
     *
     * @param attempt the logon.
     * @return false, with the attempt's verdict BUSY and nothing delivered, if too many logons are in hand.
     */
    public boolean submit(final LogonAttempt attempt)
    {
        if (pending.incrementAndGet() > guard.policy().maxPending())
        {
            pending.decrementAndGet();
            attempt.wipePassword();
            attempt.decide(LogonAttempt.Verdict.BUSY, null, "too many logons in hand");
            final long busy = busyRefusals.incrementAndGet();
            final long nowMs = clock.time();
            if (nowMs - lastBusyLogMs >= BUSY_LOG_INTERVAL_MS)
            {
                lastBusyLogMs = nowMs;
                LOG.warn("logon refused: protocol={} user={} address={} reason=busy ({} logons in hand; {} refused " +
                    "busy since start, logged at most once a second)", attempt.protocol(),
                    LogonGuard.printable(attempt.username()), attempt.address(), guard.policy().maxPending(), busy);
            }
            return false;
        }
        try
        {
            worker.execute(() -> check(attempt));
        }
        catch (final RuntimeException ex)
        {
            pending.decrementAndGet();
            attempt.wipePassword();
            attempt.decide(LogonAttempt.Verdict.BUSY, null, "authenticator closed");
            return false;
        }
        return true;
    }

    /**
     * @return logons in hand now.
     */
    public int pending()
    {
        return pending.get();
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
            final String refusal = null == user ? "invalid credentials" :
                !user.enabled() ? "user disabled" : attempt.permits(user);
            if (null != refusal)
            {
                guard.onFailure(attempt.protocol(), username, address, refusal, clock.time());
                attempt.decide(LogonAttempt.Verdict.REFUSED, null, refusal);
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
