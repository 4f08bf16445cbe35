package io.ringex.gateway.sbe;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who may take back a session id in its cancel-on-disconnect grace, and how many are kept: the same user for the same
 * account, before the grace runs out, once; the oldest first; never more than the bounds.
 */
class SessionsInGraceTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void onlyTheSameUserForTheSameAccountTakesTheIdBackAndOnlyOnce()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(16, 4);
        inGrace.add("alice", 100, 7, 10 * SECOND);

        assertNull(inGrace.reclaim("bob", 100, SECOND), "another user");
        assertNull(inGrace.reclaim("alice", 101, SECOND), "another account of the same user");
        assertNull(inGrace.reclaim("Alice", 100, SECOND), "names are exact");
        assertTrue(inGrace.holds(7), "not given to anyone else meanwhile");

        final SessionsInGrace.Released back = inGrace.reclaim("alice", 100, SECOND);
        assertEquals(7, back.sessionNumber());
        assertEquals(10 * SECOND, back.expiresNs());
        assertNull(inGrace.reclaim("alice", 100, SECOND), "a second logon of the same user gets a new id");
        assertFalse(inGrace.holds(7));
    }

    @Test
    void anIdIsNotTakenBackOnceItsGraceRanOutAndIsThenForgotten()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(16, 4);
        inGrace.add("alice", 100, 7, 10 * SECOND);
        inGrace.add("alice", 100, 8, 30 * SECOND);

        assertEquals(0, inGrace.expire(10 * SECOND - 1));
        assertEquals(2, inGrace.size());
        assertEquals(1, inGrace.expire(10 * SECOND), "the grace runs out at its end");
        assertFalse(inGrace.holds(7));
        assertNull(inGrace.reclaim("alice", 100, 30 * SECOND), "the end of a grace is too late, even before expire");
        assertEquals(8, inGrace.reclaim("alice", 100, 30 * SECOND - 1).sessionNumber());
        assertEquals(0, inGrace.size());
        assertEquals(0, inGrace.expire(60 * SECOND));
    }

    @Test
    void theSessionThatWentFirstIsTakenBackFirst()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(16, 4);
        inGrace.add("alice", 100, 7, 50 * SECOND);
        inGrace.add("alice", 100, 8, 20 * SECOND);

        assertEquals(7, inGrace.reclaim("alice", 100, SECOND).sessionNumber());
        assertEquals(8, inGrace.reclaim("alice", 100, SECOND).sessionNumber());
    }

    @Test
    void aUsersIdsAndAllIdsAreBoundedTheOldestGoingFirst()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(3, 2);
        inGrace.add("alice", 100, 1, 10 * SECOND);
        inGrace.add("alice", 100, 2, 10 * SECOND);
        inGrace.add("alice", 100, 3, 10 * SECOND);
        assertEquals(2, inGrace.size(), "at most two of one user");
        assertFalse(inGrace.holds(1), "the oldest went");

        inGrace.add("bob", 200, 4, 10 * SECOND);
        inGrace.add("carol", 300, 5, 10 * SECOND);
        assertEquals(3, inGrace.size(), "at most three in all");
        assertFalse(inGrace.holds(2));
        assertTrue(inGrace.holds(3) && inGrace.holds(4) && inGrace.holds(5));
    }

    @Test
    void aUsersIdsAreForgottenWhenItChanges()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(16, 4);
        inGrace.add("alice", 100, 7, 10 * SECOND);
        inGrace.add("bob", 200, 8, 10 * SECOND);

        inGrace.forget("alice");
        assertNull(inGrace.reclaim("alice", 100, SECOND));
        assertEquals(8, inGrace.reclaim("bob", 200, SECOND).sessionNumber());
    }

    @Test
    void expiryWorksAcrossTheClocksWrap()
    {
        final SessionsInGrace inGrace = new SessionsInGrace(16, 4);
        final long now = Long.MAX_VALUE - SECOND;
        inGrace.add("alice", 100, 7, now + 2 * SECOND);

        assertEquals(0, inGrace.expire(now + SECOND));
        assertEquals(7, inGrace.reclaim("alice", 100, now + SECOND).sessionNumber());
        inGrace.add("alice", 100, 7, now + 2 * SECOND);
        assertEquals(1, inGrace.expire(now + 3 * SECOND));
    }
}
