package io.ringex.risk.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringex.common.net.LockoutAddress;
import io.ringex.risk.config.RiskProperties;

/**
 * Failed logins, per user name and per remote address ({@link LockoutAddress#key lockout key}), and the locks they earn
 * ({@link RiskProperties.Lockout}). Unknown names are tracked like known ones, so a lock says nothing about whether a
 * user exists; a successful login clears its name, never its address.
 * <p>
 * Thread-safe: every method takes this object's monitor, once per login attempt, after (never during) the password
 * check.
 */
public final class LoginLockout
{
    /** What a key names. */
    public enum Kind
    {
        /** A user name, lower-cased as the user store looks it up. */
        USER,
        /** A remote address's lockout key ({@link LockoutAddress#key}). */
        ADDRESS
    }

    /**
     * A key locked now.
     *
     * @param kind               user name or address.
     * @param key                the user name (lower case) or the address's lockout key.
     * @param lockedUntilMs      when the lock ends, epoch milliseconds.
     * @param locks              locks in a row for this key (the next is twice as long, up to the longest).
     * @param refusedWhileLocked attempts refused during this lock.
     */
    public record Lock(Kind kind, String key, long lockedUntilMs, int locks, long refusedWhileLocked)
    {
    }

    /**
     * A login refused because its user name or address is locked.
     *
     * @param userLocked    the user name is locked.
     * @param addressLocked the address is locked.
     * @param lockedUntilMs the later end of the two locks.
     * @param first         the first attempt refused during this lock (the caller logs it; later ones are counted).
     */
    public record Refusal(boolean userLocked, boolean addressLocked, long lockedUntilMs, boolean first)
    {
    }

    /**
     * A failed login, recorded.
     *
     * @param userFailures    failures in a row of the user name (0 when this one locked it).
     * @param addressFailures failures in a row from the address (0 when this one locked it).
     * @param userLockMs      the lock this failure put on the user name, or 0.
     * @param addressLockMs   the lock this failure put on the address, or 0.
     */
    public record Failure(int userFailures, int addressFailures, long userLockMs, long addressLockMs)
    {
    }

    private static final int MAX_KEY_LENGTH = 128;

    private final Table users;
    private final Table addresses;

    /**
     * @param settings {@code ringex.risk.security.lockout.*}.
     */
    public LoginLockout(final RiskProperties.Lockout settings)
    {
        final long lockMs = settings.lockDuration().toMillis();
        final long maxLockMs = settings.maxLockDuration().toMillis();
        final long resetAfterMs = settings.resetAfter().toMillis();
        users = new Table(Kind.USER, settings.userFailures(), lockMs, maxLockMs, resetAfterMs, settings.trackedKeys());
        addresses = new Table(Kind.ADDRESS, settings.addressFailures(), lockMs, maxLockMs, resetAfterMs,
            settings.trackedKeys());
    }

    /**
     * @param username the user name as typed.
     * @return the key it is tracked under: lower case (the user store is case-insensitive), at most 128 characters.
     */
    public static String userKey(final String username)
    {
        final String lower = (username == null ? "" : username).toLowerCase(Locale.ROOT);
        return lower.length() > MAX_KEY_LENGTH ? lower.substring(0, MAX_KEY_LENGTH) : lower;
    }

    /**
     * Call before checking the password.
     *
     * @param username the user name as typed.
     * @param address  the remote address.
     * @param nowMs    now, epoch milliseconds.
     * @return the refusal when the user name or the address is locked now (the attempt is counted on the lock, not
     *         as a failure: attempts during a lock do not lengthen it); null when the login may be tried.
     */
    public synchronized Refusal refuse(final String username, final String address, final long nowMs)
    {
        final Entry user = users.lockedEntry(userKey(username), nowMs);
        final Entry from = addresses.lockedEntry(LockoutAddress.key(address), nowMs);
        if (user == null && from == null)
        {
            return null;
        }
        boolean first = false;
        long until = 0;
        for (final Entry e : new Entry[]{user, from})
        {
            if (e != null)
            {
                first |= e.refusedWhileLocked == 0;
                e.refusedWhileLocked++;
                until = Math.max(until, e.lockedUntilMs);
            }
        }
        return new Refusal(user != null, from != null, until, first);
    }

    /**
     * Record a failed password check.
     *
     * @param username the user name as typed.
     * @param address  the remote address.
     * @param nowMs    now, epoch milliseconds.
     * @return the failure counts and any lock this failure imposed.
     */
    public synchronized Failure onFailure(final String username, final String address, final long nowMs)
    {
        final Entry user = users.fail(userKey(username), nowMs);
        final Entry from = addresses.fail(LockoutAddress.key(address), nowMs);
        return new Failure(
            user == null ? 0 : user.failures, from == null ? 0 : from.failures,
            user == null ? 0 : user.imposedMs, from == null ? 0 : from.imposedMs);
    }

    /**
     * Record a successful login: the user name starts over.
     *
     * @param username the user name as typed.
     */
    public synchronized void onSuccess(final String username)
    {
        users.entries.remove(userKey(username));
    }

    /**
     * @param nowMs now, epoch milliseconds.
     * @return the keys locked now, users first, each table's least recently touched first.
     */
    public synchronized List<Lock> locks(final long nowMs)
    {
        final List<Lock> locks = new ArrayList<>();
        users.addLocks(nowMs, locks);
        addresses.addLocks(nowMs, locks);
        return locks;
    }

    /**
     * @param nowMs now, epoch milliseconds.
     * @return how many keys are locked now.
     */
    public synchronized int lockedCount(final long nowMs)
    {
        final List<Lock> locks = new ArrayList<>();
        users.addLocks(nowMs, locks);
        addresses.addLocks(nowMs, locks);
        return locks.size();
    }

    /**
     * Forget a user name: its lock, its failures and its doublings (an operator's unlock).
     *
     * @param username the user name, any case.
     * @return true when it was tracked.
     */
    public synchronized boolean unlockUser(final String username)
    {
        return users.entries.remove(userKey(username)) != null;
    }

    /**
     * Forget an address: its lock, its failures and its doublings (an operator's unlock).
     *
     * @param address the key as listed, or any address of it.
     * @return true when it was tracked.
     */
    public synchronized boolean unlockAddress(final String address)
    {
        return addresses.entries.remove(LockoutAddress.key(address)) != null;
    }

    private static final class Entry
    {
        private int failures;
        private int locks;
        private long lastFailureMs;
        private long lockedUntilMs;
        private long refusedWhileLocked;
        private long imposedMs;
    }

    private static final class Table
    {
        private final Kind kind;
        private final int threshold;
        private final long lockMs;
        private final long maxLockMs;
        private final long resetAfterMs;
        private final int maxKeys;
        // access order: the least recently touched key comes first, and is the first forgotten
        private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);

        private Table(
            final Kind kind,
            final int threshold,
            final long lockMs,
            final long maxLockMs,
            final long resetAfterMs,
            final int maxKeys)
        {
            this.kind = kind;
            this.threshold = threshold;
            this.lockMs = lockMs;
            this.maxLockMs = maxLockMs;
            this.resetAfterMs = resetAfterMs;
            this.maxKeys = maxKeys;
        }

        private Entry lockedEntry(final String key, final long nowMs)
        {
            if (threshold == 0)
            {
                return null;
            }
            final Entry e = entries.get(key);
            return e != null && e.lockedUntilMs > nowMs ? e : null;
        }

        private Entry fail(final String key, final long nowMs)
        {
            if (threshold == 0)
            {
                return null;
            }
            Entry e = entries.get(key);
            if (e == null)
            {
                e = new Entry();
                entries.put(key, e);
                forgetBeyondCapacity(key, nowMs);
            }
            else if (nowMs - Math.max(e.lastFailureMs, e.lockedUntilMs) >= resetAfterMs)
            {
                e.failures = 0;
                e.locks = 0;
            }
            e.failures++;
            e.lastFailureMs = nowMs;
            e.imposedMs = 0;
            // the first lock takes the configured count; once a key has been locked, one more failure locks it
            if (e.failures >= (e.locks == 0 ? threshold : 1))
            {
                long duration = lockMs;
                for (int i = 0; i < e.locks && duration < maxLockMs; i++)
                {
                    duration *= 2;
                }
                duration = Math.min(duration, maxLockMs);
                e.lockedUntilMs = nowMs + duration;
                e.imposedMs = duration;
                e.locks++;
                e.failures = 0;
                e.refusedWhileLocked = 0;
            }
            return e;
        }

        private void forgetBeyondCapacity(final String added, final long nowMs)
        {
            if (entries.size() <= maxKeys)
            {
                return;
            }
            String victim = null;
            for (final Map.Entry<String, Entry> e : entries.entrySet())
            {
                if (!e.getKey().equals(added) && (victim == null || e.getValue().lockedUntilMs <= nowMs))
                {
                    // the least recently touched unlocked key; failing that (every key locked), the least recently
                    // touched one all the same: memory is the harder limit
                    victim = e.getKey();
                    if (e.getValue().lockedUntilMs <= nowMs)
                    {
                        break;
                    }
                }
            }
            entries.remove(victim);
        }

        private void addLocks(final long nowMs, final List<Lock> locks)
        {
            for (final Map.Entry<String, Entry> e : entries.entrySet())
            {
                final Entry v = e.getValue();
                if (v.lockedUntilMs > nowMs)
                {
                    locks.add(new Lock(kind, e.getKey(), v.lockedUntilMs, v.locks, v.refusedWhileLocked));
                }
            }
        }
    }
}
