package io.ringex.gateway.auth;

import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.UserRoles;
import io.ringex.protocol.codecs.UserRole;

import java.util.Arrays;
import java.util.Objects;

/**
 * A user who may log on to the gateway: the credential hash, the accounts the user may trade (the first is the
 * default), the FIX CompIDs the user's FIX sessions must use, and its role: a TRADER sends orders; a DROP_COPY user's
 * sessions receive a copy of every execution report of its accounts, a CLEARING user's of every account, and neither
 * may send an order. A user's cancel-on-disconnect grace is how long a session of it that asked for
 * cancel-on-disconnect keeps its orders after it disconnects, waiting for it to log on again (0: cancelled at once).
 * <p>
 * Immutable; any thread. {@link #toString()} never shows the credential.
 */
public final class User
{
    private final String username;
    private final String credentialHash;
    private final long[] accounts;
    private final String fixSenderCompId;
    private final String fixTargetCompId;
    private final boolean fixCancelOnDisconnect;
    private final boolean enabled;
    private final int throttleMessagesPerSecond;
    private final UserRole role;
    private final int cancelOnDisconnectGraceMs;

    /**
     * @param username        login name.
     * @param credentialHash  a {@link CredentialHash} string.
     * @param accounts        accounts the user may trade, the default first; at least one.
     * @param fixSenderCompId the SenderCompID of the user's FIX session, or null for no FIX access.
     * @param fixTargetCompId the TargetCompID the user's FIX session must address (the gateway's CompID).
     */
    public User(
        final String username,
        final String credentialHash,
        final long[] accounts,
        final String fixSenderCompId,
        final String fixTargetCompId)
    {
        this(username, credentialHash, accounts, fixSenderCompId, fixTargetCompId, false);
    }

    /**
     * @param username              login name.
     * @param credentialHash        a {@link CredentialHash} string.
     * @param accounts              accounts the user may trade, the default first; at least one.
     * @param fixSenderCompId       the SenderCompID of the user's FIX session, or null for no FIX access.
     * @param fixTargetCompId       the TargetCompID the user's FIX session must address (the gateway's CompID).
     * @param fixCancelOnDisconnect cancel the FIX session's orders when it disconnects (FIX 4.4 Logon has no flag
     *                              for it, so it is configuration).
     */
    public User(
        final String username,
        final String credentialHash,
        final long[] accounts,
        final String fixSenderCompId,
        final String fixTargetCompId,
        final boolean fixCancelOnDisconnect)
    {
        this(username, credentialHash, accounts, fixSenderCompId, fixTargetCompId, fixCancelOnDisconnect, true, 0);
    }

    /**
     * @param username                  login name.
     * @param credentialHash            a {@link CredentialHash} string, or empty while the user has none (no logon).
     * @param accounts                  accounts the user may trade, the default first; at least one.
     * @param fixSenderCompId           the SenderCompID of the user's FIX session, or null for no FIX access.
     * @param fixTargetCompId           the TargetCompID the user's FIX session must address (the gateway's CompID).
     * @param fixCancelOnDisconnect     cancel the FIX session's orders when it disconnects.
     * @param enabled                   whether the user may log on.
     * @param throttleMessagesPerSecond the user's sessions' message rate, or 0 for the gateway's.
     */
    public User(
        final String username,
        final String credentialHash,
        final long[] accounts,
        final String fixSenderCompId,
        final String fixTargetCompId,
        final boolean fixCancelOnDisconnect,
        final boolean enabled,
        final int throttleMessagesPerSecond)
    {
        this(username, credentialHash, accounts, fixSenderCompId, fixTargetCompId, fixCancelOnDisconnect, enabled,
            throttleMessagesPerSecond, UserRole.TRADER);
    }

    /**
     * @param username                  login name.
     * @param credentialHash            a {@link CredentialHash} string, or empty while the user has none (no logon).
     * @param accounts                  accounts the user may trade (a drop copy: sees), the default first; at least
     *                                  one.
     * @param fixSenderCompId           the SenderCompID of the user's FIX session, or null for no FIX access.
     * @param fixTargetCompId           the TargetCompID the user's FIX session must address (the gateway's CompID).
     * @param fixCancelOnDisconnect     cancel the FIX session's orders when it disconnects.
     * @param enabled                   whether the user may log on.
     * @param throttleMessagesPerSecond the user's sessions' message rate, or 0 for the gateway's.
     * @param role                      TRADER, DROP_COPY or CLEARING.
     */
    public User(
        final String username,
        final String credentialHash,
        final long[] accounts,
        final String fixSenderCompId,
        final String fixTargetCompId,
        final boolean fixCancelOnDisconnect,
        final boolean enabled,
        final int throttleMessagesPerSecond,
        final UserRole role)
    {
        this(username, credentialHash, accounts, fixSenderCompId, fixTargetCompId, fixCancelOnDisconnect, enabled,
            throttleMessagesPerSecond, role, 0);
    }

    /**
     * @param username                  login name.
     * @param credentialHash            a {@link CredentialHash} string, or empty while the user has none (no logon).
     * @param accounts                  accounts the user may trade (a drop copy: sees), the default first; at least
     *                                  one.
     * @param fixSenderCompId           the SenderCompID of the user's FIX session, or null for no FIX access.
     * @param fixTargetCompId           the TargetCompID the user's FIX session must address (the gateway's CompID).
     * @param fixCancelOnDisconnect     cancel the FIX session's orders when it disconnects.
     * @param enabled                   whether the user may log on.
     * @param throttleMessagesPerSecond the user's sessions' message rate, or 0 for the gateway's.
     * @param role                      TRADER, DROP_COPY or CLEARING.
     * @param cancelOnDisconnectGraceMs how long a disconnected session of the user that asked for cancel-on-disconnect
     *                                  keeps its orders, waiting for it to log on again: 0 (cancelled at once) to
     *                                  {@link MessageCatalog#MAX_CANCEL_ON_DISCONNECT_GRACE_MS}.
     */
    public User(
        final String username,
        final String credentialHash,
        final long[] accounts,
        final String fixSenderCompId,
        final String fixTargetCompId,
        final boolean fixCancelOnDisconnect,
        final boolean enabled,
        final int throttleMessagesPerSecond,
        final UserRole role,
        final int cancelOnDisconnectGraceMs)
    {
        if (accounts.length == 0)
        {
            throw new IllegalArgumentException("a user needs at least one account: " + username);
        }
        if (null == role || role == UserRole.NULL_VAL)
        {
            throw new IllegalArgumentException("a user needs a role: " + username);
        }
        final int maxGraceMs = MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS;
        if (cancelOnDisconnectGraceMs < 0 || cancelOnDisconnectGraceMs > maxGraceMs)
        {
            throw new IllegalArgumentException("a cancel-on-disconnect grace is 0 to " + maxGraceMs + " ms: " +
                username);
        }
        this.cancelOnDisconnectGraceMs = cancelOnDisconnectGraceMs;
        this.role = role;
        this.fixCancelOnDisconnect = fixCancelOnDisconnect;
        this.username = username;
        this.credentialHash = credentialHash;
        this.accounts = accounts.clone();
        this.fixSenderCompId = fixSenderCompId;
        this.fixTargetCompId = fixTargetCompId;
        this.enabled = enabled;
        this.throttleMessagesPerSecond = throttleMessagesPerSecond;
    }

    /**
     * @return login name.
     */
    public String username()
    {
        return username;
    }

    /**
     * @return the stored credential hash.
     */
    public String credentialHash()
    {
        return credentialHash;
    }

    /**
     * @return the default account.
     */
    public long defaultAccount()
    {
        return accounts[0];
    }

    /**
     * @return how many accounts the user may trade.
     */
    public int accountCount()
    {
        return accounts.length;
    }

    /**
     * @param index 0..accountCount()-1.
     * @return the account at the index.
     */
    public long account(final int index)
    {
        return accounts[index];
    }

    /**
     * Whether the user may trade an account; a linear scan, as users have a handful of accounts.
     *
     * @param accountId the account.
     * @return true if allowed.
     */
    public boolean mayTrade(final long accountId)
    {
        for (final long account : accounts)
        {
            if (account == accountId)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return SenderCompID of the user's FIX session, or null.
     */
    public String fixSenderCompId()
    {
        return fixSenderCompId;
    }

    /**
     * @return TargetCompID the user's FIX session addresses.
     */
    public String fixTargetCompId()
    {
        return fixTargetCompId;
    }

    /**
     * @return whether the user's FIX session cancels its orders on disconnect.
     */
    public boolean fixCancelOnDisconnect()
    {
        return fixCancelOnDisconnect;
    }

    /**
     * @return how long, in ms, a disconnected session of the user that asked for cancel-on-disconnect keeps its orders,
     * waiting for it to log on again; 0: they are cancelled at once.
     */
    public int cancelOnDisconnectGraceMs()
    {
        return cancelOnDisconnectGraceMs;
    }

    /**
     * @param hash a credential hash.
     * @return this user with that credential.
     */
    public User withCredential(final String hash)
    {
        return new User(username, hash, accounts, fixSenderCompId, fixTargetCompId, fixCancelOnDisconnect, enabled,
            throttleMessagesPerSecond, role, cancelOnDisconnectGraceMs);
    }

    /**
     * @return TRADER, DROP_COPY or CLEARING.
     */
    public UserRole role()
    {
        return role;
    }

    /**
     * @return whether the user's sessions are drop-copy sessions (DROP_COPY or CLEARING): they receive copies of
     * execution reports and may not send orders.
     */
    public boolean isDropCopy()
    {
        return role != UserRole.TRADER;
    }

    /**
     * Whether a drop-copy session of this user sees an account's reports: a CLEARING user sees every account, a
     * DROP_COPY user those of its accounts group, a TRADER none (its own sessions' reports reach it as a trader).
     *
     * @param accountId the account.
     * @return true if its drop-copy sessions get a copy.
     */
    public boolean copies(final long accountId)
    {
        return role == UserRole.CLEARING || (role == UserRole.DROP_COPY && mayTrade(accountId));
    }

    /**
     * @return whether the user may log on (an operator disables a user in the engine).
     */
    public boolean enabled()
    {
        return enabled;
    }

    /**
     * @param gatewayDefault the gateway's own rate.
     * @return the message rate of the user's sessions.
     */
    public long throttleMessagesPerSecond(final long gatewayDefault)
    {
        return throttleMessagesPerSecond > 0 ? throttleMessagesPerSecond : gatewayDefault;
    }

    /**
     * Whether a change from this definition to another one must end the user's live sessions: the user was
     * disabled, or may trade other accounts, or logs on over FIX under another CompID, or has another role (a session
     * is a drop-copy session or not from its logon). A new password does not end the sessions it let in.
     *
     * @param next the user's new definition.
     * @return true if the user's sessions must be logged out.
     */
    public boolean endsSessionsOnChangeTo(final User next)
    {
        return null != sessionEndingChange(next);
    }

    /**
     * What of a change from this definition to another one ends the user's live sessions, in the words their Logout
     * gives the client: {@code user disabled}, or the rest that changed ({@code role changed to drop-copy},
     * {@code accounts changed}, {@code FIX CompIDs changed}, comma separated).
     *
     * @param next the user's new definition, or null when the user is gone.
     * @return the words, or null when the sessions may go on ({@link #endsSessionsOnChangeTo}).
     */
    public String sessionEndingChange(final User next)
    {
        if (null == next || !next.enabled)
        {
            return "user disabled";
        }
        final StringBuilder change = new StringBuilder();
        if (role != next.role)
        {
            change.append("role changed to ").append(UserRoles.name(next.role));
        }
        if (!Arrays.equals(accounts, next.accounts))
        {
            change.append(change.length() == 0 ? "" : ", ").append("accounts changed");
        }
        if (!Objects.equals(fixSenderCompId, next.fixSenderCompId) ||
            !Objects.equals(fixTargetCompId, next.fixTargetCompId))
        {
            change.append(change.length() == 0 ? "" : ", ").append("FIX CompIDs changed");
        }
        return change.length() == 0 ? null : change.toString();
    }

    /**
     * Check a password.
     *
     * @param password candidate.
     * @return true if it matches the stored hash.
     */
    public boolean verify(final CharSequence password)
    {
        return !credentialHash.isEmpty() && CredentialHash.verify(password, credentialHash);
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "User{username=" + username + ", accounts=" + Arrays.toString(accounts) +
            ", fixSenderCompId=" + fixSenderCompId + ", fixTargetCompId=" + fixTargetCompId +
            ", fixCancelOnDisconnect=" + fixCancelOnDisconnect + ", enabled=" + enabled +
            ", throttleMessagesPerSecond=" + throttleMessagesPerSecond + ", role=" + role +
            ", cancelOnDisconnectGraceMs=" + cancelOnDisconnectGraceMs +
            ", credential=***}";
    }
}
