package io.ringex.app.admin;

import io.ringex.common.apikey.ApiKeys;
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

    @Test
    void aKeyLimitedToAddressesKeepsThemAndABadAddressWritesNothing() throws Exception
    {
        final Path file = dir.resolve("api-keys");
        assertEquals(0, run("apikey", "create", "--file", file.toString(), "--key-id", "rk-alice-office",
            "--username", "alice", "--trade", "--allow", "203.0.113.7,10.0.0.0/8"), err.toString());
        assertTrue(ApiKeys.load(file).byId("rk-alice-office").allows("10.9.8.7"));
        assertFalse(ApiKeys.load(file).byId("rk-alice-office").allows("192.0.2.1"));
        assertEquals(0, run("apikey", "list", "--file", file.toString()), err.toString());
        assertEquals("1 rk-alice-office alice read,trade 203.0.113.7,10.0.0.0/8", out.toString().trim());

        final String before = Files.readString(file);
        assertEquals(1, run("apikey", "create", "--file", file.toString(), "--key-id", "rk-alice-named",
            "--username", "alice", "--allow", "office.example.com"));
        assertTrue(err.toString().contains("office.example.com is not an IPv4 or IPv6 address literal"),
            err.toString());
        assertEquals(1, run("apikey", "create", "--file", file.toString(), "--key-id", "rk-alice-wide",
            "--username", "alice", "--allow", "10.0.0.0/40"));
        assertTrue(err.toString().contains("the prefix must be 0..32"), err.toString());
        assertEquals(before, Files.readString(file), "nothing written for a refused address");
    }
}
