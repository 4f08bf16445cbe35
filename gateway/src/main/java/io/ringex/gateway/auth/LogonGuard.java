package io.ringex.gateway.auth;

import io.ringex.common.net.LockoutAddress;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failed logons, per user name and per remote address ({@link LockoutAddress#key lockout key}), and the lockouts they
 * earn, doubling up to {@link LogonPolicy#maxLockoutMs()} (docs/security.md, "Logon lockouts (gateway)").
 * <p>
 * Names are tracked whether a user of that name exists or not, so a lockout tells an attacker nothing; both maps are
 * bounded ({@link LogonPolicy#maxTracked()}). An operator lifts a lockout with {@link #unlockUser} or {@link
 * #unlockAddress}.
 * <p>
 * Thread safety: every method is synchronized: logons are rare, and the FIX and SBE sides share one guard.
 */
public final class LogonGuard
{
    private static final Logger LOG = LoggerFactory.getLogger(LogonGuard.class);

    /** Why a logon may not even be checked. */
    public enum Lock
    {
        /** Not locked: check the credentials. */
        NONE,
        /** The user name is locked out. */
        USER,
        /** The remote address is locked out. */
        ADDRESS
    }

    private final LogonPolicy policy;
    private final Map<String, Record> byUser;
    private final Map<String, Record> byAddress;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong lockouts = new AtomicLong();
    private volatile AtomicCounter failuresCounter;
    private volatile AtomicCounter lockoutsCounter;

    /**
     * @param policy the limits.
     */
    public LogonGuard(final LogonPolicy policy)
    {
        this.policy = policy;
        this.byUser = boundedMap(policy.maxTracked());
        this.byAddress = boundedMap(policy.maxTracked());
    }

    /**
     * Also count failures and lockouts in counters readable from outside the process (AeronStat).
     *
     * @param failuresCounter failed logons.
     * @param lockoutsCounter lockouts imposed.
     */
    public void counters(final AtomicCounter failuresCounter, final AtomicCounter lockoutsCounter)
    {
        this.failuresCounter = failuresCounter;
        this.lockoutsCounter = lockoutsCounter;
    }

    /**
     * @return the limits.
     */
    public LogonPolicy policy()
    {
        return policy;
    }

    /**
     * Whether a logon may be checked at all.
     *
     * @param protocol "FIX" or "SBE", for the log.
     * @param username the name given.
     * @param address  the caller's address (host, no port).
     * @param nowMs    wall clock.
     * @return NONE, or what is locked.
     */
    public synchronized Lock check(final String protocol, final String username, final String address, final long nowMs)
    {
        final Record address0 = live(byAddress, LockoutAddress.key(address), nowMs);
        if (null != address0 && address0.lockedUntilMs > nowMs)
        {
            refusedWhileLocked(address0, protocol, username, address, "address locked out");
            return Lock.ADDRESS;
        }
        final Record user = live(byUser, username, nowMs);
        if (null != user && user.lockedUntilMs > nowMs)
        {
            refusedWhileLocked(user, protocol, username, address, "user locked out");
            return Lock.USER;
        }
        return Lock.NONE;
    }

    /**
     * Count a failed logon; log it; lock the name or address when it reaches the limit.
     *
     * @param protocol "FIX" or "SBE".
     * @param username the name given (need not exist).
     * @param address  the caller's address.
     * @param reason   why it failed, for the log.
     * @param nowMs    wall clock.
     */
    public synchronized void onFailure(
        final String protocol, final String username, final String address, final String reason, final long nowMs)
    {
        failures.incrementAndGet();
        final AtomicCounter failuresCounter = this.failuresCounter;
        if (null != failuresCounter)
        {
            failuresCounter.increment();
        }
        LOG.warn("logon failed: protocol={} user={} address={} reason={}",
            protocol, printable(username), address, reason);
        fail(byUser, username, "user", policy.maxFailures(), protocol, username, address, nowMs);
        fail(byAddress, LockoutAddress.key(address), "address", policy.maxAddressFailures(), protocol, username,
            address, nowMs);
    }

    /**
     * A logon succeeded: forget the name's and the address's failures.
     *
     * @param username the user.
     * @param address  the caller's address.
     */
    public synchronized void onSuccess(final String username, final String address)
    {
        byUser.remove(key(username));
        byAddress.remove(LockoutAddress.key(address));
    }

    /**
     * Lift a user's lockout and forget its failures (an operator's action).
     *
     * @param username the name.
     * @return true if the name had failures or a lockout.
     */
    public synchronized boolean unlockUser(final String username)
    {
        final boolean had = null != byUser.remove(key(username));
        LOG.info("logon lockout lifted: user={} (had failures: {})", printable(username), had);
        return had;
    }

    /**
     * Lift an address's lockout and forget its failures (an operator's action): any address of its lockout key (any
     * spelling of loopback, any address of an IPv6 /64), or the key as {@link #lockedOut} lists it.
     *
     * @param address the address.
     * @return true if the address had failures or a lockout.
     */
    public synchronized boolean unlockAddress(final String address)
    {
        final String addressKey = LockoutAddress.key(address);
        final boolean had = null != byAddress.remove(addressKey);
        LOG.info("logon lockout lifted: address={} key={} (had failures: {})", LogonGuard.printable(address),
            addressKey, had);
        return had;
    }

    /**
     * @param nowMs wall clock.
     * @return the names and addresses locked out now, for status displays ("user:NAME" / "address:KEY", the address's
     *         lockout key: {@code address:loopback}, {@code address:10.0.0.5}, {@code address:2001:db8:0:0::/64}).
     */
    public synchronized List<String> lockedOut(final long nowMs)
    {
        final List<String> locked = new ArrayList<>();
        byUser.forEach((name, r) ->
        {
            if (r.lockedUntilMs > nowMs)
            {
                locked.add("user:" + name);
            }
        });
        byAddress.forEach((address, r) ->
        {
            if (r.lockedUntilMs > nowMs)
            {
                locked.add("address:" + address);
            }
        });
        return locked;
    }

    /**
     * @return failed logons counted since start.
     */
    public long failures()
    {
        return failures.get();
    }

    /**
     * @return lockouts imposed since start.
     */
    public long lockouts()
    {
        return lockouts.get();
    }

    private void fail(
        final Map<String, Record> records,
        final String recordKey,
        final String what,
        final int maxFailures,
        final String protocol,
        final String username,
        final String address,
        final long nowMs)
    {
        Record record = live(records, recordKey, nowMs);
        if (null == record)
        {
            record = new Record();
            records.put(key(recordKey), record);
        }
        record.lastFailureMs = nowMs;
        if (++record.failures >= maxFailures)
        {
            final long lockMs = Math.min(policy.maxLockoutMs(), policy.lockoutMs() << Math.min(record.lockouts, 20));
            record.lockouts++;
            record.failures = 0;
            record.lockedUntilMs = nowMs + lockMs;
            record.refusalLogged = false;
            lockouts.incrementAndGet();
            final AtomicCounter lockoutsCounter = this.lockoutsCounter;
            if (null != lockoutsCounter)
            {
                lockoutsCounter.increment();
            }
            LOG.warn("logon lockout: {} {} locked for {} s after {} failures (protocol={} user={} address={})",
                what, "user".equals(what) ? printable(recordKey) : recordKey,
                TimeUnit.MILLISECONDS.toSeconds(lockMs), maxFailures, protocol, printable(username),
                address);
        }
    }

    private Record live(final Map<String, Record> records, final String recordKey, final long nowMs)
    {
        final String key = key(recordKey);
        final Record record = records.get(key);
        if (null != record && record.lockedUntilMs <= nowMs && nowMs - record.lastFailureMs > policy.maxLockoutMs())
        {
            records.remove(key);
            return null;
        }
        return record;
    }

    private static void refusedWhileLocked(
        final Record record, final String protocol, final String username, final String address, final String reason)
    {
        if (!record.refusalLogged)
        {
            record.refusalLogged = true;
            LOG.warn("logon refused: protocol={} user={} address={} reason={} (further refusals not logged)",
                protocol, printable(username), address, reason);
        }
    }

    private static String key(final String value)
    {
        return null == value ? "" : value;
    }

    /**
     * A name as it may appear in a log: what an attacker sends is cut short and stripped of control characters, so
     * it cannot forge log lines.
     *
     * @param text the text.
     * @return a printable form of at most 64 characters.
     */
    public static String printable(final String text)
    {
        if (null == text)
        {
            return "<none>";
        }
        final int length = Math.min(text.length(), 64);
        final StringBuilder b = new StringBuilder(length + 3);
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            b.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        if (text.length() > length)
        {
            b.append("...");
        }
        return b.toString();
    }

    private static Map<String, Record> boundedMap(final int capacity)
    {
        return new LinkedHashMap<>(16, 0.75f, true)
        {
            private static final long serialVersionUID = 1L;

            protected boolean removeEldestEntry(final Map.Entry<String, Record> eldest)
            {
                return size() > capacity;
            }
        };
    }

    private static final class Record
    {
        int failures;
        int lockouts;
        long lastFailureMs;
        long lockedUntilMs;
        boolean refusalLogged;
    }
}
