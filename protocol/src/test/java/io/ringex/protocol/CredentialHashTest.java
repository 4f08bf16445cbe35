package io.ringex.protocol;

import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialHashTest
{
    /**
     * Made by the gateway's own hashing before it moved here, with its default iterations:
     * {@code hash("old-gateway-pw".toCharArray())}. Stored credentials like it must go on verifying.
     */
    private static final String STORED_DEFAULT =
        "pbkdf2-sha256:20000:ceSSZ77+OUUyB/Hpo3aovw==:J73YiweR5mdzcIC/MKe4OGckTP7q95WuT7Mzzahp4BM=";

    /** Made by the gateway's hashing before it moved here: {@code hash("s3cret-Pass".toCharArray(), 1000)}. */
    private static final String STORED_1000 =
        "pbkdf2-sha256:1000:mzOOQOrA1xeNjmldoIrVew==:n2wNjxFlNPIbyt7ckNZKiqkMtPnDR1t5qBB+ZFJ7xiI=";

    @Test
    void hashesMadeBeforeTheMoveStillVerify()
    {
        assertTrue(CredentialHash.isWellFormed(STORED_DEFAULT));
        assertTrue(CredentialHash.verify("old-gateway-pw", STORED_DEFAULT));
        assertFalse(CredentialHash.verify("old-gateway-pW", STORED_DEFAULT));

        assertTrue(CredentialHash.verify("s3cret-Pass".toCharArray(), STORED_1000));
        assertTrue(CredentialHash.verify("s3cret-Pass", STORED_1000));
        assertFalse(CredentialHash.verify("s3cret-pass".toCharArray(), STORED_1000));
    }

    @Test
    void verifiesTheRightPasswordOnly()
    {
        final String hash = CredentialHash.hash("s3cret".toCharArray(), 1000);
        assertTrue(hash.startsWith("pbkdf2-sha256:1000:"));
        assertTrue(CredentialHash.verify("s3cret", hash));
        assertFalse(CredentialHash.verify("s3cret ", hash));
        assertFalse(CredentialHash.verify("", hash));
        assertFalse(CredentialHash.verify((CharSequence)null, hash));
        assertFalse(CredentialHash.verify((char[])null, hash));
        assertFalse(hash.contains("s3cret"));
    }

    @Test
    void aHashHasTheFormatsShapeAndAFreshSalt()
    {
        final String hash = CredentialHash.hash("correct horse".toCharArray(), 1000);
        final String[] parts = hash.split(":", -1);
        assertEquals(4, parts.length);
        assertEquals(CredentialHash.SCHEME, parts[0]);
        assertEquals("1000", parts[1]);
        assertEquals(16, Base64.getDecoder().decode(parts[2]).length, "a 16-byte salt");
        assertEquals(32, Base64.getDecoder().decode(parts[3]).length, "a 256-bit hash");
        assertTrue(CredentialHash.verify("correct horse".toCharArray(), hash));
        assertNotEquals(hash, CredentialHash.hash("correct horse".toCharArray(), 1000), "salted");
        assertTrue(CredentialHash.hash("pw".toCharArray()).startsWith("pbkdf2-sha256:" +
            CredentialHash.DEFAULT_ITERATIONS + ":"));
    }

    @Test
    void malformedHashesNeverVerify()
    {
        for (final String bad : new String[]{ null, "", "plain", "pbkdf2-sha256:x:AA==:AA==", "md5:1:AA==:AA==",
            "bcrypt:1000:a:b", "pbkdf2-sha256:10:!!:AA==", "pbkdf2-sha256:10:AAAA:AAAA",
            "pbkdf2-sha256:1000:AA==:AA==", "pbkdf2-sha256:0:" + STORED_1000.substring(19),
            "pbkdf2-sha256:-1:" + STORED_1000.substring(19), "pbkdf2-sha256:1000:" + STORED_1000.substring(43),
            STORED_1000.substring(0, 44) })
        {
            assertFalse(CredentialHash.isWellFormed(bad), bad);
            assertFalse(CredentialHash.verify("s3cret-Pass", bad), bad);
            assertFalse(CredentialHash.verify("s3cret-Pass".toCharArray(), bad), bad);
        }
    }

    @Test
    void iterationsMustBePositive()
    {
        assertThrows(IllegalArgumentException.class, () -> CredentialHash.hash("x".toCharArray(), 0));
    }
}
