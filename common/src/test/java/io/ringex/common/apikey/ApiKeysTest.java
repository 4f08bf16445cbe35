package io.ringex.common.apikey;

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
            "1 rk-alice-trade alice read,trade " + SECRET + " gateway.example.com",
            "1 rk-alice-trade alice read,trade " + SECRET + " 10.0.0.0/33",
            "1 rk-alice-trade alice read,trade " + SECRET + " 10.0.0.1,,10.0.0.2",
            "1 rk-alice-trade alice read,trade " + SECRET + " 2001:db8::/129",
            "1 rk-alice-trade alice read,trade " + SECRET + " 10.0.0.1/x",
            "1 rk-alice-trade alice read,trade " + SECRET + " 10.0.0.1 extra",
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

    @Test
    void aKeyWithAddressesIsUsableFromThoseOnlyHoweverTheCallerIsSpelled() throws IOException
    {
        final ApiKeys keys = ApiKeys.load(file("rw-------",
            "1 rk-alice-trade alice read,trade " + SECRET + " 203.0.113.7,10.0.0.0/8,2001:db8::/32\n" +
            "2 rk-alice-watch alice read " + SECRET + "\n"));
        final ApiKey limited = keys.byNumber(1);
        assertEquals(java.util.List.of("203.0.113.7", "10.0.0.0/8", "2001:db8::/32"), limited.addresses());
        for (final String allowed : new String[]{ "203.0.113.7", "10.1.2.3", "::ffff:10.1.2.3", "2001:db8:1::5" })
        {
            assertTrue(limited.allows(allowed), allowed);
        }
        for (final String refused : new String[]{ "203.0.113.8", "11.0.0.1", "::ffff:11.0.0.1", "2001:db9::1",
            "127.0.0.1", "localhost", "", null })
        {
            assertFalse(limited.allows(refused), String.valueOf(refused));
        }
        assertTrue(keys.byNumber(2).allows("198.51.100.1"));
        assertEquals("1 rk-alice-trade alice read,trade " + SECRET + " 203.0.113.7,10.0.0.0/8,2001:db8::/32",
            ApiKeys.line(limited));
        assertTrue(limited.toString().endsWith(" 203.0.113.7,10.0.0.0/8,2001:db8::/32"), limited.toString());
        assertFalse(limited.sameAs(new ApiKey(1, "rk-alice-trade", "alice", true, new byte[32])),
            "a key whose addresses changed is not the same key: its streams are closed");
    }
}
