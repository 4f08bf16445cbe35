package io.ringex.risk.aeron;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import io.ringex.client.AdminKeys;
import io.ringex.risk.actions.ActionUnavailableException;
import io.ringex.risk.config.RiskProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard's admin key ({@code ringex.risk.actions.admin-key-file} and {@code admin-key}): none configured, the
 * service sends no admin command (503 NO_ADMIN_KEY); a file it cannot use stops it naming the keys and never a secret.
 */
class AdminKeySettingsTest
{
    @TempDir
    Path dir;

    private static RiskProperties.Actions actions(final String file, final String key)
    {
        return new RiskProperties.Actions(file, key, Duration.ofMillis(250), Duration.ofSeconds(10), 200);
    }

    @Test
    void theKeyIsTheOneNamedOrTheFilesFirst() throws Exception
    {
        final Path file = dir.resolve("admin.keys");
        AdminKeys.generate("operator", "risk-service").writeTo(file);
        assertEquals("AdminKey[1 operator]", AeronConnection.signer(actions(file.toString(), "")).key().toString());
        assertEquals(2, AeronConnection.signer(actions(file.toString(), "risk-service")).key().id());
    }

    @Test
    void withoutAKeyNothingIsSentAndAFileItCannotUseStopsTheService() throws Exception
    {
        assertNull(AeronConnection.signer(actions("", "")));
        assertEquals("No admin key is configured (ringex.risk.actions.admin-key-file): the engine takes no admin " +
            "command without one; nothing was sent",
            new ActionUnavailableException(OfferOutcome.NO_ADMIN_KEY).getMessage());

        final Path file = dir.resolve("admin.keys");
        final String secret = Base64.getEncoder().encodeToString(new byte[16]);
        Files.writeString(file, "1 operator " + secret + "\n");
        final IllegalStateException tooShort = assertThrows(IllegalStateException.class,
            () -> AeronConnection.signer(actions(file.toString(), "")));
        assertTrue(tooShort.getMessage().startsWith("ringex.risk.actions.admin-key-file / admin-key: " + file +
            ": line 1: admin key operator: its secret must be 32 to 64 bytes"), tooShort.getMessage());
        assertFalse(tooShort.getMessage().contains(secret));

        AdminKeys.generate("operator").writeTo(dir.resolve("good.keys"));
        final IllegalStateException unknown = assertThrows(IllegalStateException.class,
            () -> AeronConnection.signer(actions(dir.resolve("good.keys").toString(), "dashboard")));
        assertTrue(unknown.getMessage().contains("no admin key named dashboard (the file holds 1 operator)"),
            unknown.getMessage());
        assertThrows(IllegalStateException.class, () -> AeronConnection.signer(actions(dir.resolve("absent")
            .toString(), "")));
    }
}
