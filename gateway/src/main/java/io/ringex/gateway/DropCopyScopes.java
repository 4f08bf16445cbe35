package io.ringex.gateway;

import io.ringex.gateway.auth.User;

import java.util.Arrays;

/**
 * The gateway's drop-copy sessions and what each may see, whatever its protocol: given the account of an execution
 * report, which sessions get a copy. A session of a DROP_COPY user sees the accounts of the user's accounts group, one
 * of a CLEARING user every account; a TRADER's session is never a drop-copy session ({@link #add} refuses it).
 * <p>
 * A protocol side adds a session when it starts serving it as a drop copy (a logon; for FIX also an offline session
 * Artio keeps for a client that is away, so its copies are stored for it) and removes it when it stops. When the engine
 * changes a user, {@link #userChanged} gives every session of that user the new definition, or removes them if the
 * user is gone, disabled or no longer has a drop-copy role. Sessions are kept in the order added, so copies of one
 * report go out in a stable order.
 * <p>
 * Threading: the gateway agent's thread only (the SBE and FIX agents share it). Allocation happens when the table
 * grows, not per report.
 */
public final class DropCopyScopes
{
    /**
     * Receives each drop-copy session that sees an account.
     */
    @FunctionalInterface
    public interface SessionVisitor
    {
        /**
         * @param sessionId the session (gateway id and session number, as the engine's events carry it).
         * @param user      its user (DROP_COPY or CLEARING).
         */
        void onSession(long sessionId, User user);
    }

    private long[] sessionIds = new long[8];
    private User[] users = new User[8];
    private int count;

    /**
     * Start copying to a session.
     *
     * @param sessionId the session.
     * @param user      its user; a TRADER or disabled user is refused.
     * @return true if it is a drop-copy session now (added, or already there: its user is replaced).
     */
    public boolean add(final long sessionId, final User user)
    {
        if (null == user || !user.isDropCopy() || !user.enabled())
        {
            return false;
        }
        final int index = indexOf(sessionId);
        if (index >= 0)
        {
            users[index] = user;
            return true;
        }
        if (count == sessionIds.length)
        {
            sessionIds = Arrays.copyOf(sessionIds, count * 2);
            users = Arrays.copyOf(users, count * 2);
        }
        sessionIds[count] = sessionId;
        users[count] = user;
        count++;
        return true;
    }

    /**
     * Stop copying to a session.
     *
     * @param sessionId the session.
     * @return true if it was a drop-copy session.
     */
    public boolean remove(final long sessionId)
    {
        final int index = indexOf(sessionId);
        if (index < 0)
        {
            return false;
        }
        removeAt(index);
        return true;
    }

    /**
     * @param sessionId a session.
     * @return whether it is a drop-copy session.
     */
    public boolean contains(final long sessionId)
    {
        return indexOf(sessionId) >= 0;
    }

    /**
     * @param sessionId a session.
     * @return its user, or null if it is not a drop-copy session.
     */
    public User userOf(final long sessionId)
    {
        final int index = indexOf(sessionId);
        return index < 0 ? null : users[index];
    }

    /**
     * The engine changed a user: its drop-copy sessions see what the new definition allows, or are removed when the
     * user is gone, disabled or is a TRADER now.
     *
     * @param username the user.
     * @param user     its new definition, or null if it is gone.
     * @return how many sessions were removed.
     */
    public int userChanged(final String username, final User user)
    {
        final boolean keep = null != user && user.isDropCopy() && user.enabled();
        int removed = 0;
        for (int i = count - 1; i >= 0; i--)
        {
            if (users[i].username().equals(username))
            {
                if (keep)
                {
                    users[i] = user;
                }
                else
                {
                    removeAt(i);
                    removed++;
                }
            }
        }
        return removed;
    }

    /**
     * Visit every drop-copy session that must see a report of an account, in the order the sessions were added.
     *
     * @param accountId the report's account.
     * @param visitor   told of each.
     * @return how many were visited.
     */
    public int forEachSeeing(final long accountId, final SessionVisitor visitor)
    {
        int seen = 0;
        for (int i = 0; i < count; i++)
        {
            final User user = users[i];
            if (user.copies(accountId))
            {
                visitor.onSession(sessionIds[i], user);
                seen++;
            }
        }
        return seen;
    }

    /**
     * @return how many drop-copy sessions there are.
     */
    public int size()
    {
        return count;
    }

    private int indexOf(final long sessionId)
    {
        for (int i = 0; i < count; i++)
        {
            if (sessionIds[i] == sessionId)
            {
                return i;
            }
        }
        return -1;
    }

    private void removeAt(final int index)
    {
        final int tail = count - index - 1;
        System.arraycopy(sessionIds, index + 1, sessionIds, index, tail);
        System.arraycopy(users, index + 1, users, index, tail);
        count--;
        users[count] = null;
    }
}
