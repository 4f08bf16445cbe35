package io.ringex.app.admin;

import io.ringex.gateway.web.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex admin apikey}: a new key's secret is printed once and is the one the gateway's keys file holds; a
 * list never shows a secret; a revoked key is gone from what the gateway reads; bad usage is refused.
 */
class AdminApiKeyTest
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
    void createsListsAndRevokesKeys() throws Exception
    {
        final Path file = dir.resolve("api-keys");
        assertEquals(0, run("apikey", "create", "--file", file.toString(), "--key-id", "rk-alice-trading",
            "--username", "alice", "--trade"), err.toString());
        final String printed = out.toString();
        final String secret = printed.substring(printed.indexOf("shown this once): ") + 18).lines().findFirst()
            .orElseThrow();
        assertArrayEquals(Base64.getDecoder().decode(secret), ApiKeys.load(file).byId("rk-alice-trading").secret());

        assertEquals(0, run("apikey", "list", "--file", file.toString()), err.toString());
        assertEquals("1 rk-alice-trading alice read,trade", out.toString().trim());
        assertFalse(out.toString().contains(secret));

        assertEquals(0, run("apikey", "revoke", "--file", file.toString(), "--key-id", "rk-alice-trading"),
            err.toString());
        assertNull(ApiKeys.load(file).byId("rk-alice-trading"));
        assertFalse(Files.readString(file).contains(secret), "a revoked key's secret is kept");

        assertEquals(1, run("apikey", "revoke", "--file", file.toString(), "--key-id", "rk-alice-trading"));
        assertTrue(err.toString().contains("no key rk-alice-trading"), err.toString());
        assertEquals(2, run("apikey", "rotate", "--file", file.toString()));
        assertEquals(2, run("apikey", "create", "--file", file.toString(), "--key-id", "rk-bob-trading"));
    }
}
