package io.ringex.gateway.sbe;

import java.util.ArrayList;

/**
 * The SBE session ids in their cancel-on-disconnect grace: a session that asked for cancel-on-disconnect, of a user
 * with a grace, leaves its id here when it goes, and the engine keeps its orders until the grace runs out. A logon of
 * the same user for the same account within the grace takes the id back (the one that went first, if several did),
 * so its orders and their reports are its own again; nobody else is ever given it, and once taken it is no longer
 * here, so two logons never share it. An id is forgotten when its grace runs out ({@link #expire}); at most
 * {@code maxPerUser} ids of a user (more than the sessions it may hold at once only if its account changed) and
 * {@code capacity} in all are kept, the oldest going first: a forgotten id cannot be taken back, and the engine
 * cancels its orders when the grace runs out, as it would had nobody come back.
 * <p>
 * Threading: the {@link SbeGatewayAgent} thread only.
 */
final class SessionsInGrace
{
    /** Most ids kept in all. */
    static final int CAPACITY = 4096;

    /** One session in its grace. */
    static final class Released
    {
        private final String username;
        private final long accountId;
        private final int sessionNumber;
        private final long expiresNs;

        Released(final String username, final long accountId, final int sessionNumber, final long expiresNs)
        {
            this.username = username;
            this.accountId = accountId;
            this.sessionNumber = sessionNumber;
            this.expiresNs = expiresNs;
        }

        int sessionNumber()
        {
            return sessionNumber;
        }

        long expiresNs()
        {
            return expiresNs;
        }
    }

    private final int capacity;
    private final int maxPerUser;
    /** In the order the sessions went. */
    private final ArrayList<Released> released = new ArrayList<>();
    /** The earliest grace end held, or earlier; meaningless while none is held. */
    private long nextExpiryNs;

    /**
     * @param capacity   most ids kept in all.
     * @param maxPerUser most ids of one user kept.
     */
    SessionsInGrace(final int capacity, final int maxPerUser)
    {
        if (capacity < 1 || maxPerUser < 1)
        {
            throw new IllegalArgumentException("capacity and maxPerUser must be at least 1");
        }
        this.capacity = capacity;
        this.maxPerUser = maxPerUser;
    }

    /**
     * A session went in its grace.
     *
     * @param username      its user (as authenticated at its logon).
     * @param accountId     its account.
     * @param sessionNumber its number.
     * @param expiresNs     when its grace runs out, on the agent's clock.
     */
    void add(final String username, final long accountId, final int sessionNumber, final long expiresNs)
    {
        int ofUser = 0;
        for (int i = released.size() - 1; i >= 0; i--)
        {
            if (released.get(i).username.equals(username) && ++ofUser >= maxPerUser)
            {
                released.remove(i);
                ofUser--;
            }
        }
        if (released.size() >= capacity)
        {
            released.remove(0);
        }
        released.add(new Released(username, accountId, sessionNumber, expiresNs));
        if (released.size() == 1 || expiresNs - nextExpiryNs < 0)
        {
            nextExpiryNs = expiresNs;
        }
    }

    /**
     * Take back the id of a session of this user and account whose grace has not run out.
     *
     * @param username  the user logging on (authenticated).
     * @param accountId the account it logs on to.
     * @param nowNs     the agent's clock.
     * @return the session, no longer held here, or null for none.
     */
    Released reclaim(final String username, final long accountId, final long nowNs)
    {
        for (int i = 0, size = released.size(); i < size; i++)
        {
            final Released session = released.get(i);
            if (session.username.equals(username) && session.accountId == accountId && nowNs - session.expiresNs < 0)
            {
                released.remove(i);
                return session;
            }
        }
        return null;
    }

    /**
     * @param sessionNumber a session number.
     * @return whether it is held here: it must not be given to a new session.
     */
    boolean holds(final int sessionNumber)
    {
        for (int i = 0, size = released.size(); i < size; i++)
        {
            if (released.get(i).sessionNumber == sessionNumber)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Forget a user's ids (its definition changed: the sessions it had are not to come back as they were).
     *
     * @param username the user.
     */
    void forget(final String username)
    {
        released.removeIf((session) -> session.username.equals(username));
    }

    /**
     * Forget the ids whose grace has run out; cheap until the first of them does.
     *
     * @param nowNs the agent's clock.
     * @return how many were forgotten.
     */
    int expire(final long nowNs)
    {
        // nextExpiryNs may be earlier than any held (one taken back or pushed out): then this looks once for nothing.
        if (released.isEmpty() || nowNs - nextExpiryNs < 0)
        {
            return 0;
        }
        final int before = released.size();
        released.removeIf((session) -> nowNs - session.expiresNs >= 0);
        for (int i = 0, size = released.size(); i < size; i++)
        {
            final long expiresNs = released.get(i).expiresNs;
            if (i == 0 || expiresNs - nextExpiryNs < 0)
            {
                nextExpiryNs = expiresNs;
            }
        }
        return before - released.size();
    }

    /**
     * @return ids held now.
     */
    int size()
    {
        return released.size();
    }
}
