package io.ringex.gateway.auth;

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
     * Authenticate.
     *
     * @param username login name.
     * @param password candidate password.
     * @return the user if the password matches, else null (unknown users cost the same hashing time as known ones
     * would not, so the caller should not reveal which failed).
     */
    public User authenticate(final String username, final CharSequence password)
    {
        final User user = username == null ? null : byUsername.get(username);
        if (user == null)
        {
            return null;
        }
        return user.verify(password) ? user : null;
    }

    /**
     * @return every user, in the order added.
     */
    public Collection<User> users()
    {
        return Collections.unmodifiableCollection(byUsername.values());
    }
}
