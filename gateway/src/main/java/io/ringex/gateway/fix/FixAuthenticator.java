package io.ringex.gateway.fix;

import io.ringex.gateway.auth.User;
import io.ringex.gateway.auth.UserDirectory;
import io.ringex.gateway.fix.codecs.decoder.LogonDecoder;
import uk.co.real_logic.artio.decoder.AbstractLogonDecoder;
import uk.co.real_logic.artio.decoder.SessionHeaderDecoder;
import uk.co.real_logic.artio.validation.AuthenticationStrategy;

/**
 * Artio authentication for the FIX acceptor: Username(553) and Password(554) must match a configured user, and the
 * Logon's SenderCompID/TargetCompID must be that user's. Anything else refuses the logon.
 * <p>
 * Threading: called by Artio on its framer thread. Hashing costs a few milliseconds per logon there; move to
 * {@code authenticateAsync} with a worker if logon storms ever matter.
 */
public final class FixAuthenticator implements AuthenticationStrategy
{
    private final UserDirectory users;

    /**
     * @param users who may log on.
     */
    public FixAuthenticator(final UserDirectory users)
    {
        this.users = users;
    }

    /**
     * {@inheritDoc}
     */
    public boolean authenticate(final AbstractLogonDecoder logon)
    {
        if (!logon.hasUsername() || !logon.hasPassword())
        {
            return false;
        }
        final User user = users.authenticate(logon.usernameAsString(), logon.passwordAsString());
        if (user == null || user.fixSenderCompId() == null)
        {
            return false;
        }
        if (!(logon instanceof LogonDecoder))
        {
            return false;
        }
        final SessionHeaderDecoder header = ((LogonDecoder)logon).header();
        return user.fixSenderCompId().equals(header.senderCompIDAsString()) &&
            user.fixTargetCompId().equals(header.targetCompIDAsString());
    }
}
