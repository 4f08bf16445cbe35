package io.ringex.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin keys file: read strictly, every refusal naming the file and line and never a secret; written for its
 * owner's eyes only.
 */
class AdminKeysTest
{
    private static final String SECRET = Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'q');

    @TempDir
    Path dir;

    @Test
    void readsKeysCommentsAndBlankLines()
    {
        final AdminKeys keys = AdminKeys.parse(List.of("# a comment", "", "1 risk-service " + SECRET,
            "  7   alice.b_c-d   " + SECRET + "  "), "keys");
        assertEquals(2, keys.keys().size());
        assertEquals("risk-service", keys.select("").name());
        assertEquals(7, keys.select("alice.b_c-d").id());
        assertEquals("alice.b_c-d", keys.byId(7).name());
        assertNull(keys.byId(2));
        assertEquals("1 risk-service, 7 alice.b_c-d", keys.names());
        assertFalse(keys.toString().contains(SECRET));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> keys.select("bob"));
        assertEquals("no admin key named bob (the file holds 1 risk-service, 7 alice.b_c-d)", ex.getMessage());
    }

    @Test
    void aBrokenFileIsRefusedNamingTheLineNeverTheSecret()
    {
        final String shortSecret = Base64.getEncoder().encodeToString("sixteen bytes!!!".getBytes());
        final String[][] cases = {
            { "1 alice", "keys: line 1: expected NUMBER NAME SECRET (2 fields)" },
            { "one alice " + SECRET, "keys: line 1: the key's number must be a whole number" },
            { "0 alice " + SECRET, "keys: line 1: an admin key's number must be 1 or more (was 0)" },
            { "1 al/ice " + SECRET,
              "keys: line 1: an admin key's name must be 1 to 32 characters of A-Z a-z 0-9 . _ - (key 1)" },
            { "1 alice " + shortSecret, "keys: line 1: admin key alice: its secret must be 32 to 64 bytes (was 16)" },
            { "1 alice not*base64" + SECRET, "keys: line 1: the secret is not base64" },
            { "#nothing", "keys: no admin key in the file" },
        };
        for (final String[] c : cases)
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> AdminKeys.parse(List.of(c[0]), "keys"), c[0]);
            assertEquals(c[1], ex.getMessage());
            assertFalse(ex.getMessage().contains(SECRET) || ex.getMessage().contains(shortSecret), ex.getMessage());
        }
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> AdminKeys.parse(List.of("1 alice " + SECRET, "2 alice " + SECRET), "keys"));
        assertEquals("keys: line 2: key 2 alice repeats the number or the name of key 1 alice", twice.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> AdminKeys.parse(List.of("1 alice " + SECRET, "1 bob " + SECRET), "keys"));
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> AdminKeys.load(dir.resolve("absent")));
        assertTrue(missing.getMessage().startsWith(dir.resolve("absent") + ": cannot read the admin keys file"),
            missing.getMessage());
    }

    @Test
    void generatedKeysAreWrittenForTheOwnerOnlyAndReadBackTheSame() throws Exception
    {
        final AdminKeys keys = AdminKeys.generate("operator", "dashboard");
        final Path file = dir.resolve("admin.keys");
        keys.writeTo(file);
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix"))
        {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
        final AdminKeys read = AdminKeys.load(file);
        assertEquals(keys.keys(), read.keys());
        assertEquals(1, read.select("operator").id());
        assertEquals(2, read.select("dashboard").id());
        assertFalse(keys.keys().get(0).equals(keys.keys().get(1)), "two keys, two secrets");
        assertThrows(java.io.UncheckedIOException.class, () -> keys.writeTo(file), "never overwritten");
    }
}
