package io.ringex.gateway.auth;

import java.nio.CharBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The users who may log on, by username and by FIX SenderCompID.
 * <p>
 * Built at start-up and not changed afterwards: safe to read from any thread once published.
 */
public final class UserDirectory
{
    /** Checked when the name is unknown, so an unknown name costs what a wrong password does. */
    private static final String DUMMY_CREDENTIAL = CredentialHash.hash("ringex-no-such-user".toCharArray());
    private final Map<String, User> byUsername = new LinkedHashMap<>();
    private final Map<String, User> bySenderCompId = new HashMap<>();

    /**
     * Add a user.
     *
     * @param user the user.
     * @return this.
     * @throws IllegalArgumentException if the username or FIX SenderCompID is already taken.
     */
    public UserDirectory add(final User user)
    {
        if (byUsername.containsKey(user.username()))
        {
            throw new IllegalArgumentException("duplicate user: " + user.username());
        }
        if (user.fixSenderCompId() != null && bySenderCompId.containsKey(user.fixSenderCompId()))
        {
            throw new IllegalArgumentException("duplicate FIX SenderCompID: " + user.fixSenderCompId());
        }
        byUsername.put(user.username(), user);
        if (user.fixSenderCompId() != null)
        {
            bySenderCompId.put(user.fixSenderCompId(), user);
        }
        return this;
    }

    /**
     * @param username login name.
     * @return the user or null.
     */
    public User user(final String username)
    {
        return byUsername.get(username);
    }

    /**
     * @param senderCompId the client's SenderCompID.
     * @return the user whose FIX session it is, or null.
     */
    public User userBySenderCompId(final String senderCompId)
    {
        return bySenderCompId.get(senderCompId);
    }

    /**
     * Authenticate in the time a wrong password takes, whether the name exists or not: an unknown name is checked
     * against a dummy hash of the default strength, so timing does not tell which names exist.
     *
     * @param username login name.
     * @param password candidate password.
     * @return the user if the password matches, else null.
     */
    public User authenticate(final String username, final CharSequence password)
    {
        final User user = username == null ? null : byUsername.get(username);
        if (user == null)
        {
            CredentialHash.verify(password == null ? "" : password, DUMMY_CREDENTIAL);
            return null;
        }
        return user.verify(password) ? user : null;
    }

    /**
     * As {@link #authenticate(String, CharSequence)}, for a password held in a char array (wiped by the caller).
     *
     * @param username login name.
     * @param password candidate password.
     * @return the user if the password matches, else null.
     */
    public User authenticate(final String username, final char[] password)
    {
        return authenticate(username, CharBuffer.wrap(password));
    }

    /**
     * @return every user, in the order added.
     */
    public Collection<User> users()
    {
        return Collections.unmodifiableCollection(byUsername.values());
    }
}
