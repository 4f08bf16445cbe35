package io.ringex.gateway.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiKeysTest
{
    private static final String SECRET = Base64.getEncoder().encodeToString(new byte[32]);

    @TempDir
    Path dir;

    private Path file(final String permissions, final String text) throws IOException
    {
        final Path file = dir.resolve("keys-" + permissions);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)));
        Files.writeString(file, text);
        return file;
    }

    @Test
    void readsKeysWithTheirUsersAndPermissions() throws IOException
    {
        final ApiKeys keys = ApiKeys.load(file("rw-------", "# comment\n\n1 rk-alice-trade alice read,trade " +
            SECRET + "\n2 rk-alice-watch alice read " + SECRET + "\n"));
        assertEquals(2, keys.keys().size());
        assertTrue(keys.byId("rk-alice-trade").mayTrade());
        assertFalse(keys.byId("rk-alice-watch").mayTrade());
        assertEquals("alice", keys.byNumber(2).username());
        assertNull(keys.byId("rk-nobody"));
        assertEquals("1 rk-alice-trade alice read,trade " + SECRET, ApiKeys.line(keys.byNumber(1)));
    }

    @Test
    void refusesAFileOthersMayRead() throws IOException
    {
        final Path file = file("rw-r--r--", "1 rk-alice-trade alice read,trade " + SECRET + "\n");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ApiKeys.load(file));
        assertTrue(refused.getMessage().contains("readable by its owner only"), refused.getMessage());
    }

    @Test
    void refusesABrokenLineNamingItAndNeverShowingTheSecret() throws IOException
    {
        final String[] broken = {
            "0 rk-alice-trade alice read,trade " + SECRET,
            "1 short alice read,trade " + SECRET,
            "1 rk-alice-trade alice write " + SECRET,
            "1 rk-alice-trade alice read,trade not*base64",
            "1 rk-alice-trade alice read,trade " + Base64.getEncoder().encodeToString(new byte[8]),
            "1 rk-alice-trade alice read,trade",
            "1 rk-alice-trade alice read,trade " + SECRET + "\n1 rk-alice-other alice read " + SECRET,
        };
        for (final String text : broken)
        {
            final Path file = file("rw-------", "# keys\n" + text + "\n");
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ApiKeys.load(file), text);
            assertTrue(refused.getMessage().startsWith(file.toString()), refused.getMessage());
            assertFalse(refused.getMessage().contains(SECRET), refused.getMessage());
            Files.delete(file);
        }
    }
}
