package io.ringex.gateway.auth;

import java.util.Arrays;

/**
 * One logon on its way through the {@link LogonAuthenticator}: what the caller gave, then the verdict. A protocol
 * subclasses it for its own checks ({@link #prepare()}, {@link #permits(User)}) and for delivering the answer
 * ({@link #onVerdict()}).
 * <p>
 * Threading: built on the protocol's thread; {@link #prepare()}, {@link #permits(User)} and {@link #onVerdict()} run on
 * the authenticator's worker thread; the verdict is published to the protocol's thread by whatever
 * {@link #onVerdict()} hands it to (a concurrent queue, or Artio's authentication proxy).
 */
public abstract class LogonAttempt
{
    /** The outcome. */
    public enum Verdict
    {
        /** Not decided yet. */
        PENDING,
        /** Credentials right and every check passed. */
        ACCEPTED,
        /** Wrong or unknown credentials, or a check failed. */
        REFUSED,
        /**
         * The password was right but the user is disabled: the only refusal whose cause the caller is told, since the
         * password shows it knows the user exists.
         */
        DISABLED,
        /** The user name or the address is locked out after failed logons. */
        LOCKED,
        /** Too many logons being checked at once. */
        BUSY
    }

    private final String protocol;
    private final String username;
    private final String address;
    private final long receivedAtMs;
    private char[] password;
    private Verdict verdict = Verdict.PENDING;
    private String refusal;
    private User user;

    /**
     * @param protocol     "FIX" or "SBE", for logs.
     * @param username     the name given; may be null.
     * @param password     the password given; copied, and wiped once checked.
     * @param address      the caller's address (host, no port).
     * @param receivedAtMs wall clock when the logon arrived.
     */
    protected LogonAttempt(
        final String protocol,
        final String username,
        final CharSequence password,
        final String address,
        final long receivedAtMs)
    {
        this.protocol = protocol;
        this.username = username;
        this.address = address;
        this.receivedAtMs = receivedAtMs;
        final int length = null == password ? 0 : password.length();
        this.password = new char[length];
        for (int i = 0; i < length; i++)
        {
            this.password[i] = password.charAt(i);
        }
    }

    /**
     * Work the protocol needs done off its own thread before the verdict, whatever it will be (e.g. resolve where an
     * answer may be sent). Runs on the worker thread.
     */
    protected void prepare()
    {
    }

    /**
     * A protocol's own check of a user whose password matched. Runs on the worker thread.
     *
     * @param user the authenticated user.
     * @return null if the user may log on this way, else why not (for the log).
     */
    protected String permits(final User user)
    {
        return null;
    }

    /**
     * The verdict is in ({@link #verdict()}): deliver it. Runs on the worker thread; a refusal comes
     * {@link LogonPolicy#failureDelayMs()} after the logon arrived.
     */
    protected abstract void onVerdict();

    /**
     * @return "FIX" or "SBE".
     */
    public final String protocol()
    {
        return protocol;
    }

    /**
     * @return the name given.
     */
    public final String username()
    {
        return username;
    }

    /**
     * @return the caller's address.
     */
    public final String address()
    {
        return address;
    }

    /**
     * @return wall clock when the logon arrived.
     */
    public final long receivedAtMs()
    {
        return receivedAtMs;
    }

    /**
     * @return the outcome.
     */
    public final Verdict verdict()
    {
        return verdict;
    }

    /**
     * @return why it was refused (for logs, never for the caller), or null.
     */
    public final String refusal()
    {
        return refusal;
    }

    /**
     * @return the user when accepted, else null.
     */
    public final User user()
    {
        return user;
    }

    final char[] password()
    {
        return password;
    }

    final void wipePassword()
    {
        Arrays.fill(password, '\0');
        password = new char[0];
    }

    final void decide(final Verdict verdict, final User user, final String refusal)
    {
        this.verdict = verdict;
        this.user = user;
        this.refusal = refusal;
    }
}
