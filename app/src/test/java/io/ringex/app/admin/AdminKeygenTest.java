package io.ringex.app.admin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import io.ringex.client.AdminKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex admin keygen}: a new admin key in a new file its owner alone may read, its secret printed nowhere;
 * an existing file is never overwritten, a bad name or number is bad usage.
 */
class AdminKeygenTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        out.reset();
        err.reset();
        return new AdminCli(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0])).run(args);
    }

    @Test
    void writesANewKeyForItsOwnerOnlyAndNeverOverwrites() throws Exception
    {
        final Path file = dir.resolve("alice.keys");
        assertEquals(0, run("keygen", "--file", file.toString(), "--name", "alice", "--id", "3"), err.toString());
        final AdminKeys keys = AdminKeys.load(file);
        assertEquals(1, keys.keys().size());
        assertEquals(3, keys.select("").id());
        assertEquals("alice", keys.select("").name());
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix"))
        {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
        final String secret = Files.readAllLines(file).stream().filter((l) -> l.startsWith("3 ")).findFirst()
            .orElseThrow().split(" ")[2];
        assertEquals(32, Base64.getDecoder().decode(secret).length);
        assertTrue(out.toString().contains("wrote admin key 3 alice to " + file), out.toString());
        assertFalse(out.toString().contains(secret) || err.toString().contains(secret), "the secret is printed");

        final byte[] before = Files.readAllBytes(file);
        assertEquals(1, run("keygen", "--file", file.toString(), "--name", "bob"));
        assertTrue(err.toString().contains("exists: a key file is never overwritten"), err.toString());
        assertEquals(new String(before, StandardCharsets.US_ASCII),
            new String(Files.readAllBytes(file), StandardCharsets.US_ASCII));
    }

    @Test
    void aBadNameOrNumberIsBadUsage()
    {
        assertEquals(2, run("keygen", "--file", dir.resolve("a").toString(), "--name", "al ice"));
        assertTrue(err.toString().contains("--name: 1 to 32 characters"), err.toString());
        assertEquals(2, run("keygen", "--file", dir.resolve("a").toString(), "--name", "alice", "--id", "0"));
        assertEquals(2, run("keygen", "--name", "alice"));
        assertFalse(Files.exists(dir.resolve("a")));
    }
}
