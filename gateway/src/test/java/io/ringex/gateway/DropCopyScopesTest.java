package io.ringex.gateway;

import io.ringex.gateway.auth.User;
import io.ringex.protocol.codecs.UserRole;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which drop-copy sessions see an account: a DROP_COPY user's its accounts group, a CLEARING user's every account, a
 * TRADER's none; and how the table follows logons, logouts and the engine's changes to users.
 */
class DropCopyScopesTest
{
    private static final long AUDIT_SESSION = 0x1_0000_0001L;
    private static final long AUDIT_SECOND_SESSION = 0x1_4000_0002L;
    private static final long CLEARING_SESSION = 0x2_0000_0003L;

    private static User user(final String name, final UserRole role, final boolean enabled, final long... accounts)
    {
        return new User(name, "", accounts, null, "RINGEX", false, enabled, 0, role);
    }

    private final DropCopyScopes scopes = new DropCopyScopes();

    private List<Long> seeing(final long accountId)
    {
        final List<Long> sessions = new ArrayList<>();
        final int count = scopes.forEachSeeing(accountId, (sessionId, user) -> sessions.add(sessionId));
        assertEquals(sessions.size(), count);
        return sessions;
    }

    @Test
    void aDropCopySeesItsAccountsAClearingSessionEveryAccount()
    {
        assertTrue(scopes.add(AUDIT_SESSION, user("audit", UserRole.DROP_COPY, true, 100, 101)));
        assertTrue(scopes.add(CLEARING_SESSION, user("clear", UserRole.CLEARING, true, 900)));

        assertEquals(List.of(AUDIT_SESSION, CLEARING_SESSION), seeing(100));
        assertEquals(List.of(AUDIT_SESSION, CLEARING_SESSION), seeing(101));
        assertEquals(List.of(CLEARING_SESSION), seeing(102), "an account outside the group: clearing only");
        assertEquals(List.of(CLEARING_SESSION), seeing(900), "a clearing user's own accounts do not narrow it");
    }

    @Test
    void aTraderOrADisabledUserIsNeverADropCopySession()
    {
        assertFalse(scopes.add(AUDIT_SESSION, user("alice", UserRole.TRADER, true, 100)));
        assertFalse(scopes.add(AUDIT_SESSION, user("audit", UserRole.DROP_COPY, false, 100)));
        assertFalse(scopes.add(AUDIT_SESSION, null));
        assertEquals(0, scopes.size());
        assertEquals(List.of(), seeing(100));
    }

    @Test
    void sessionsComeAndGoAndEachUserMayHaveSeveral()
    {
        final User audit = user("audit", UserRole.DROP_COPY, true, 100);
        scopes.add(AUDIT_SESSION, audit);
        scopes.add(AUDIT_SECOND_SESSION, audit);
        assertTrue(scopes.add(AUDIT_SESSION, audit), "adding again keeps one entry");
        assertEquals(2, scopes.size());
        assertSame(audit, scopes.userOf(AUDIT_SESSION));
        assertEquals(List.of(AUDIT_SESSION, AUDIT_SECOND_SESSION), seeing(100));

        assertTrue(scopes.remove(AUDIT_SESSION));
        assertFalse(scopes.remove(AUDIT_SESSION));
        assertFalse(scopes.contains(AUDIT_SESSION));
        assertNull(scopes.userOf(AUDIT_SESSION));
        assertEquals(List.of(AUDIT_SECOND_SESSION), seeing(100));
    }

    @Test
    void theEnginesChangesToAUserReachItsSessions()
    {
        scopes.add(AUDIT_SESSION, user("audit", UserRole.DROP_COPY, true, 100));
        scopes.add(AUDIT_SECOND_SESSION, user("audit", UserRole.DROP_COPY, true, 100));
        scopes.add(CLEARING_SESSION, user("clear", UserRole.CLEARING, true, 900));

        assertEquals(0, scopes.userChanged("audit", user("audit", UserRole.DROP_COPY, true, 101)));
        assertEquals(List.of(CLEARING_SESSION), seeing(100), "the account left the group");
        assertEquals(List.of(AUDIT_SESSION, AUDIT_SECOND_SESSION, CLEARING_SESSION), seeing(101));

        assertEquals(0, scopes.userChanged("audit", user("audit", UserRole.CLEARING, true, 101)));
        assertEquals(List.of(AUDIT_SESSION, AUDIT_SECOND_SESSION, CLEARING_SESSION), seeing(5), "now clearing");

        assertEquals(2, scopes.userChanged("audit", user("audit", UserRole.TRADER, true, 101)), "a trader now");
        assertEquals(List.of(CLEARING_SESSION), seeing(101));

        assertEquals(1, scopes.userChanged("clear", user("clear", UserRole.CLEARING, false, 900)), "disabled");
        assertEquals(0, scopes.size());
        assertEquals(0, scopes.userChanged("nobody", null));
    }

    @Test
    void theTableGrowsPastItsFirstSize()
    {
        final User clearing = user("clear", UserRole.CLEARING, true, 900);
        for (long session = 1; session <= 20; session++)
        {
            scopes.add(session, clearing);
        }
        assertEquals(20, scopes.size());
        assertEquals(20, seeing(1).size());
        assertEquals(1L, seeing(1).get(0));
        assertEquals(20L, seeing(1).get(19));
    }
}
