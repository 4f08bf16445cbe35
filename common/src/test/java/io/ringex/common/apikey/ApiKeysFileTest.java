package io.ringex.common.apikey;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiKeysFileTest
{
    @TempDir
    Path dir;

    @Test
    void createsKeysTheGatewayReadsInAnOwnerOnlyFile() throws IOException
    {
        final Path file = dir.resolve("api-keys");
        final ApiKey trading = ApiKeysFile.create(file, "rk-alice-trading", "alice", true);
        final ApiKey watching = ApiKeysFile.create(file, "rk-alice-watching", "alice", false);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(32, trading.secret().length);
        assertFalse(java.util.Arrays.equals(trading.secret(), watching.secret()));

        final ApiKeys keys = ApiKeys.load(file);
        assertEquals(1, keys.byId("rk-alice-trading").number());
        assertArrayEquals(trading.secret(), keys.byId("rk-alice-trading").secret());
        assertEquals(2, keys.byId("rk-alice-watching").number());
        assertFalse(keys.byId("rk-alice-watching").mayTrade());
        assertEquals(List.of("1 rk-alice-trading alice read,trade", "2 rk-alice-watching alice read"),
            ApiKeysFile.list(file));
        final String secret = Base64.getEncoder().encodeToString(trading.secret());
        assertTrue(ApiKeysFile.list(file).stream().noneMatch(line -> line.contains(secret)));
    }

    @Test
    void aRevokedKeysNumberIsNeverGivenAgain()
    {
        final Path file = dir.resolve("api-keys");
        ApiKeysFile.create(file, "rk-first-key", "alice", true);
        ApiKeysFile.create(file, "rk-second-key", "bob", true);
        assertEquals(2, ApiKeysFile.revoke(file, "rk-second-key").number());
        assertNull(ApiKeys.load(file).byId("rk-second-key"));
        assertEquals(List.of("1 rk-first-key alice read,trade"), ApiKeysFile.list(file));
        assertEquals(3, ApiKeysFile.create(file, "rk-third-key", "bob", true).number());
    }

    @Test
    void refusesATakenIdABadIdAndAnUnknownKey()
    {
        final Path file = dir.resolve("api-keys");
        ApiKeysFile.create(file, "rk-first-key", "alice", true);
        assertThrows(IllegalArgumentException.class, () -> ApiKeysFile.create(file, "rk-first-key", "bob", true));
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> ApiKeysFile.create(file, "short", "bob", true));
        assertTrue(bad.getMessage().contains("key id") && bad.getMessage().startsWith(file.toString()),
            bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ApiKeysFile.revoke(file, "rk-nobody-here"));
        assertEquals(1, ApiKeys.load(file).keys().size());
    }
}
