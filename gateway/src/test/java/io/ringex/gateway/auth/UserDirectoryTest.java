package io.ringex.gateway.auth;

import java.util.Map;

import io.ringex.protocol.CredentialHash;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The directory a gateway logs users on with: the engine's users first, the configuration's for the names the engine
 * lacks, and which changes end a user's sessions.
 */
class UserDirectoryTest
{
    private static final String ALICE_HASH = CredentialHash.hash("alice-pw".toCharArray(), 1000);
    private static final String ENGINE_HASH = CredentialHash.hash("engine-pw".toCharArray(), 1000);

    private static User user(final String name, final String hash, final String compId, final boolean enabled,
        final long... accounts)
    {
        return new User(name, hash, accounts, compId, "RINGEX", false, enabled, 0);
    }

    @Test
    void theEnginesDefinitionWinsOverTheConfigurationsAndFillsNothingIn()
    {
        final UserDirectory users = new UserDirectory().add(user("alice", ALICE_HASH, "ALICE", true, 100));
        assertFalse(users.loaded(), "nobody logs on before the engine's users arrive");
        assertSame(users.configuredUser("alice"), users.user("alice"));

        users.replaceEngineUsers(Map.of("alice", user("alice", ENGINE_HASH, "ALICE2", true, 100, 101)));
        assertTrue(users.loaded());
        assertEquals(2, users.user("alice").accountCount());
        assertTrue(users.user("alice").verify("engine-pw"));
        assertFalse(users.user("alice").verify("alice-pw"));
        assertNull(users.userBySenderCompId("ALICE"), "the configuration's CompID went with its definition");
        assertEquals("alice", users.userBySenderCompId("ALICE2").username());
    }

    @Test
    void aUserTheEngineHoldsWithoutACredentialLogsOnWithTheConfigurationsUntilTheEngineHasOne()
    {
        final UserDirectory users = new UserDirectory().add(user("alice", ALICE_HASH, "ALICE", true, 100));
        users.replaceEngineUsers(Map.of("alice", user("alice", "", "ALICE", true, 100)));
        assertTrue(users.user("alice").verify("alice-pw"));
        assertEquals("", users.engineUser("alice").credentialHash());

        users.applyEngineUser(user("alice", ENGINE_HASH, "ALICE", true, 100));
        assertTrue(users.user("alice").verify("engine-pw"));
        assertFalse(users.user("alice").verify("alice-pw"));
    }

    @Test
    void aUserWithoutACredentialCannotLogOn()
    {
        final UserDirectory users = new UserDirectory();
        users.replaceEngineUsers(Map.of("dave", user("dave", "", null, true, 200)));
        assertNull(users.authenticate("dave", ""));
        assertNull(users.authenticate("dave", "anything"));
    }

    @Test
    void aConfiguredUserWhoseCompIdAnEngineUserHoldsIsLeftOut()
    {
        final UserDirectory users = new UserDirectory().add(user("alice", ALICE_HASH, "DESK", true, 100));
        users.replaceEngineUsers(Map.of("bob", user("bob", ENGINE_HASH, "DESK", true, 200)));
        assertNull(users.user("alice"));
        assertEquals("bob", users.userBySenderCompId("DESK").username());
    }

    @Test
    void changesNameTheUsersAsTheyWereAndOnlySomeEndSessions()
    {
        final UserDirectory users = new UserDirectory();
        users.replaceEngineUsers(Map.of("dave", user("dave", ENGINE_HASH, null, true, 200)));
        final User before = users.user("dave");

        final Map<String, User> newPassword = users.applyEngineUser(user("dave", ALICE_HASH, null, true, 200));
        assertSame(before, newPassword.get("dave"));
        assertFalse(before.endsSessionsOnChangeTo(users.user("dave")), "a new password leaves sessions alone");

        final User withPassword = users.user("dave");
        users.applyEngineUser(user("dave", ALICE_HASH, null, true, 200, 201));
        assertTrue(withPassword.endsSessionsOnChangeTo(users.user("dave")), "other accounts end them");
        final User withAccounts = users.user("dave");
        users.applyEngineUser(user("dave", ALICE_HASH, null, false, 200, 201));
        assertTrue(withAccounts.endsSessionsOnChangeTo(users.user("dave")), "disabling ends them");

        final User trader = new User("fay", ALICE_HASH, new long[]{ 300 }, "FAY", "RINGEX", false, true, 0);
        assertNull(trader.sessionEndingChange(new User("fay", ENGINE_HASH, new long[]{ 300 }, "FAY", "RINGEX", false,
            true, 0)), "a new password: nothing to say, nothing ended");
        assertEquals("role changed to drop-copy", trader.sessionEndingChange(new User("fay", ALICE_HASH,
            new long[]{ 300 }, "FAY", "RINGEX", false, true, 0, io.ringex.protocol.codecs.UserRole.DROP_COPY)));
        assertEquals("role changed to clearing, accounts changed, FIX CompIDs changed", trader.sessionEndingChange(
            new User("fay", ALICE_HASH, new long[]{ 301 }, "FAY2", "RINGEX", false, true, 0,
            io.ringex.protocol.codecs.UserRole.CLEARING)));
        assertEquals("user disabled", trader.sessionEndingChange(new User("fay", ALICE_HASH, new long[]{ 301 },
            "FAY", "RINGEX", false, false, 0)), "disabled says so, whatever else changed");
        assertEquals("user disabled", trader.sessionEndingChange(null));

        final Map<String, User> added = users.applyEngineUser(user("erin", ALICE_HASH, null, true, 300));
        assertTrue(added.containsKey("erin"));
        assertNull(added.get("erin"), "a new user has no earlier definition");
    }

    @Test
    void directoryAuthenticatesAndUserHidesTheHash()
    {
        final User user = new User("carol", CredentialHash.hash("pw".toCharArray(), 10), new long[]{ 5, 6 },
            "CAROL", "RINGEX");
        final UserDirectory users = new UserDirectory().add(user);
        assertSame(user, users.authenticate("carol", "pw"));
        assertNull(users.authenticate("carol", "nope"));
        assertNull(users.authenticate("dave", "pw"));
        assertNull(users.authenticate(null, "pw"));
        assertSame(user, users.userBySenderCompId("CAROL"));
        assertTrue(user.mayTrade(6));
        assertFalse(user.mayTrade(7));
        assertFalse(user.toString().contains(user.credentialHash()));
    }
}
