package io.ringex.gateway.auth;

/**
 * The limits on logons that keep password guessing slow and visible (docs/security.md, "Logons").
 *
 * @param maxFailures        failed logons in a row that lock a user name out.
 * @param maxAddressFailures failed logons in a row from one remote address that lock it out (higher: many users
 *                           may share an address behind a NAT, or this machine's).
 * @param lockoutMs          the first lockout; each further one doubles, up to {@code maxLockoutMs}.
 * @param maxLockoutMs   the longest lockout; also how long failures are remembered.
 * @param failureDelayMs a refused logon is answered this long after it arrived, whatever the reason, so neither the
 *                       answer's timing nor its text tells an unknown user from a wrong password or a lockout.
 * @param maxPending     logons in hand at once (being checked: the credential hash is deliberately slow; or refused
 *                       and waiting out the failure delay); beyond, a logon is refused at once. A logon of a locked
 *                       name or address takes none of these: it is answered from a pool of its own of the same size.
 * @param maxPendingPerAddress of those, logons from one remote address ({@link io.ringex.common.net.LockoutAddress}):
 *                       one address cannot take every slot.
 * @param maxTracked     user names and addresses remembered, each; the least recently seen is forgotten first.
 */
public record LogonPolicy(
    int maxFailures,
    int maxAddressFailures,
    long lockoutMs,
    long maxLockoutMs,
    long failureDelayMs,
    int maxPending,
    int maxPendingPerAddress,
    int maxTracked)
{
    /** Logons in hand from one address by default. */
    public static final int MAX_PENDING_PER_ADDRESS_DEFAULT = 8;
    /**
     * The defaults: 5 failures a name, 20 an address, 60 s doubling to 15 min, answers after 1 s, 64 pending, 8 of
     * them from one address.
     */
    public static final LogonPolicy DEFAULT =
        new LogonPolicy(5, 20, 60_000, 900_000, 1_000, 64, MAX_PENDING_PER_ADDRESS_DEFAULT, 10_000);

    /**
     * The limits with the default share of one address ({@link #MAX_PENDING_PER_ADDRESS_DEFAULT}, or every slot when
     * there are fewer).
     *
     * @param maxFailures        failed logons in a row that lock a user name out.
     * @param maxAddressFailures failed logons in a row from one remote address that lock it out.
     * @param lockoutMs          the first lockout.
     * @param maxLockoutMs       the longest lockout.
     * @param failureDelayMs     a refused logon is answered this long after it arrived.
     * @param maxPending         logons in hand at once.
     * @param maxTracked         user names and addresses remembered, each.
     */
    public LogonPolicy(
        final int maxFailures,
        final int maxAddressFailures,
        final long lockoutMs,
        final long maxLockoutMs,
        final long failureDelayMs,
        final int maxPending,
        final int maxTracked)
    {
        this(maxFailures, maxAddressFailures, lockoutMs, maxLockoutMs, failureDelayMs, maxPending,
            Math.min(maxPending, MAX_PENDING_PER_ADDRESS_DEFAULT), maxTracked);
    }

    /**
     * @throws IllegalArgumentException naming the first limit out of range.
     */
    public LogonPolicy
    {
        if (maxFailures < 1 || maxAddressFailures < 1)
        {
            throw new IllegalArgumentException("maxFailures and maxAddressFailures must be >= 1");
        }
        if (lockoutMs < 0 || maxLockoutMs < lockoutMs)
        {
            throw new IllegalArgumentException("need 0 <= lockoutMs <= maxLockoutMs: " + lockoutMs + ", " +
                maxLockoutMs);
        }
        if (failureDelayMs < 0 || failureDelayMs > 30_000)
        {
            throw new IllegalArgumentException("failureDelayMs must be 0..30000: " + failureDelayMs);
        }
        if (maxPending < 1 || maxPendingPerAddress < 1 || maxTracked < 1)
        {
            throw new IllegalArgumentException("maxPending, maxPendingPerAddress and maxTracked must be >= 1");
        }
    }
}
