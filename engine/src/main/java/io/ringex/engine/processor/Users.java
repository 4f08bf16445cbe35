package io.ringex.engine.processor;

import io.ringex.protocol.codecs.UserRole;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The venue's users, as engine state: who may log on to a gateway (the credential hash), which accounts each may
 * trade (or, for a drop-copy role, see), its role, its FIX SenderCompID, whether its FIX sessions cancel on
 * disconnect and with what grace, its throttle, and whether it is enabled.
 * Gateways learn the users from the engine's events, so every gateway and every cluster member agree; the journal holds
 * every change with the operator who made it. Kept in creation order for deterministic walks (snapshot, hash,
 * directory answers).
 * <p>
 * Threading: single business-logic thread.
 */
public final class Users
{
    /** Longest user name. */
    public static final int MAX_USERNAME = 32;
    /** Longest FIX SenderCompID. */
    public static final int MAX_COMP_ID = 32;
    /** Longest credential hash. */
    public static final int MAX_CREDENTIAL = 160;
    /** Most accounts a user may trade. */
    public static final int MAX_ACCOUNTS = 8;

    /** One user. */
    public static final class User
    {
        final String username;
        boolean enabled;
        boolean fixCancelOnDisconnect;
        int throttleMessagesPerSecond;
        UserRole role = UserRole.TRADER;
        int cancelOnDisconnectGraceMs;
        long[] accounts;
        String fixSenderCompId;
        String credentialHash;

        User(final String username)
        {
            this.username = username;
        }

        /** @return the login name. */
        public String username()
        {
            return username;
        }

        /** @return whether it may log on. */
        public boolean enabled()
        {
            return enabled;
        }

        /** @return whether its FIX sessions cancel their orders on disconnect. */
        public boolean fixCancelOnDisconnect()
        {
            return fixCancelOnDisconnect;
        }

        /** @return messages per second per session, 0 for the gateway's default. */
        public int throttleMessagesPerSecond()
        {
            return throttleMessagesPerSecond;
        }

        /** @return what its sessions are for: trading, or a drop copy of its accounts or of the venue. */
        public UserRole role()
        {
            return role;
        }

        /**
         * @return how long a session of this user that asked for cancel-on-disconnect keeps its orders after it goes
         * away, waiting for it to log on again, in ms (0: cancelled at once).
         */
        public int cancelOnDisconnectGraceMs()
        {
            return cancelOnDisconnectGraceMs;
        }

        /** @return the accounts it may trade, the default first (do not modify). */
        public long[] accounts()
        {
            return accounts;
        }

        /** @return its FIX SenderCompID, empty for no FIX access. */
        public String fixSenderCompId()
        {
            return fixSenderCompId;
        }

        /** @return its credential hash, empty until set. */
        public String credentialHash()
        {
            return credentialHash;
        }
    }

    private final HashMap<String, User> byName = new HashMap<>();
    private final ArrayList<User> inOrder = new ArrayList<>();

    /**
     * @param username a name.
     * @return the user, or null.
     */
    public User user(final String username)
    {
        return byName.get(username);
    }

    /**
     * @param fixSenderCompId a CompID.
     * @return the user holding it, or null.
     */
    User bySenderCompId(final String fixSenderCompId)
    {
        for (final User user : inOrder)
        {
            if (user.fixSenderCompId.equals(fixSenderCompId))
            {
                return user;
            }
        }
        return null;
    }

    /**
     * @return every user, in creation order (do not modify).
     */
    public List<User> all()
    {
        return inOrder;
    }

    /**
     * @param username a new name.
     * @return the user, created disabled without credential or accounts.
     */
    User create(final String username)
    {
        final User user = new User(username);
        user.accounts = new long[0];
        user.fixSenderCompId = "";
        user.credentialHash = "";
        byName.put(username, user);
        inOrder.add(user);
        return user;
    }
}
