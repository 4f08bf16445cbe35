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
 * @param maxPending     logons being checked at once (the credential hash is deliberately slow); beyond, a logon is
 *                       refused at once.
 * @param maxTracked     user names and addresses remembered, each; the least recently seen is forgotten first.
 */
public record LogonPolicy(
    int maxFailures,
    int maxAddressFailures,
    long lockoutMs,
    long maxLockoutMs,
    long failureDelayMs,
    int maxPending,
    int maxTracked)
{
    /** The defaults: 5 failures a name, 20 an address, 60 s doubling to 15 min, answers after 1 s, 64 pending. */
    public static final LogonPolicy DEFAULT = new LogonPolicy(5, 20, 60_000, 900_000, 1_000, 64, 10_000);

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
        if (maxPending < 1 || maxTracked < 1)
        {
            throw new IllegalArgumentException("maxPending and maxTracked must be >= 1");
        }
    }
}
