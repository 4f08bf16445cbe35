package io.ringex.gateway.auth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialHashTest
{
    @Test
    void verifiesTheRightPasswordOnly()
    {
        final String hash = CredentialHash.hash("s3cret".toCharArray(), 1000);
        assertTrue(hash.startsWith("pbkdf2-sha256:1000:"));
        assertTrue(CredentialHash.verify("s3cret", hash));
        assertFalse(CredentialHash.verify("s3cret ", hash));
        assertFalse(CredentialHash.verify("", hash));
        assertFalse(CredentialHash.verify((CharSequence)null, hash));
        assertFalse(hash.contains("s3cret"));
    }

    @Test
    void saltsEveryHash()
    {
        assertNotEquals(CredentialHash.hash("pw".toCharArray(), 10), CredentialHash.hash("pw".toCharArray(), 10));
    }

    @Test
    void malformedHashesNeverVerify()
    {
        for (final String bad : new String[]{ null, "", "plain", "pbkdf2-sha256:x:AA==:AA==", "md5:1:AA==:AA==",
            "pbkdf2-sha256:10:!!:AA==", "pbkdf2-sha256:10:AAAA:AAAA" })
        {
            assertFalse(CredentialHash.isWellFormed(bad), bad);
            assertFalse(CredentialHash.verify("pw", bad), bad);
        }
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
