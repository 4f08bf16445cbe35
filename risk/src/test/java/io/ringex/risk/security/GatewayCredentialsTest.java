package io.ringex.risk.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;

import org.junit.jupiter.api.Test;

/**
 * The hashes the console makes are the gateways': a hash the gateway's own {@code CredentialHash} made verifies here,
 * and the hashes made here have its exact shape (so the gateway, which verifies with that class, reads them).
 */
class GatewayCredentialsTest
{
    /** Made by io.ringex.gateway.auth.CredentialHash.hash("s3cret-Pass".toCharArray(), 1000). */
    private static final String FROM_THE_GATEWAY =
        "pbkdf2-sha256:1000:mzOOQOrA1xeNjmldoIrVew==:n2wNjxFlNPIbyt7ckNZKiqkMtPnDR1t5qBB+ZFJ7xiI=";

    @Test
    void aHashTheGatewayMadeVerifies()
    {
        assertTrue(GatewayCredentials.matches("s3cret-Pass".toCharArray(), FROM_THE_GATEWAY));
        assertFalse(GatewayCredentials.matches("s3cret-pass".toCharArray(), FROM_THE_GATEWAY));
    }

    @Test
    void aHashMadeHereHasTheGatewaysShapeAndAFreshSalt()
    {
        final String hash = GatewayCredentials.hash("correct horse".toCharArray(), 1000);
        final String[] parts = hash.split(":", -1);
        assertEquals(4, parts.length);
        assertEquals("pbkdf2-sha256", parts[0]);
        assertEquals("1000", parts[1]);
        assertEquals(16, Base64.getDecoder().decode(parts[2]).length, "a 16-byte salt");
        assertEquals(32, Base64.getDecoder().decode(parts[3]).length, "a 256-bit hash");
        assertTrue(GatewayCredentials.matches("correct horse".toCharArray(), hash));
        assertNotEquals(hash, GatewayCredentials.hash("correct horse".toCharArray(), 1000), "salted");
    }

    @Test
    void malformedHashesMatchNothing()
    {
        for (final String bad : new String[] {null, "", "bcrypt:1000:a:b", "pbkdf2-sha256:x:AA==:AA==",
            "pbkdf2-sha256:1000:!!:AA==", "pbkdf2-sha256:1000:AA==:AA==", "pbkdf2-sha256:0:" +
            FROM_THE_GATEWAY.substring(19)})
        {
            assertFalse(GatewayCredentials.matches("s3cret-Pass".toCharArray(), bad), String.valueOf(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> GatewayCredentials.hash("x".toCharArray(), 0));
    }
}
