package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKeys;
import io.ringex.common.apikey.ApiKeysFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeysFileWatchTest
{
    @TempDir
    Path dir;

    private final List<ApiKeys> applied = new ArrayList<>();

    @Test
    void aKeysFileThatNoLongerReadsFailsClosed() throws IOException
    {
        final Path file = dir.resolve("api-keys");
        ApiKeysFile.create(file, "rk-alice-trading", "alice", true);
        final WebServer.KeysFileWatch watch = new WebServer.KeysFileWatch(file, applied::add);
        watch.run();
        assertTrue(applied.isEmpty(), "nothing changed");

        Files.writeString(file, "this is not a keys file\n");
        watch.run();
        assertEquals(1, applied.size());
        assertTrue(applied.get(0).keys().isEmpty(), "a malformed file accepts no key");

        ApiKeysFile.create(dir.resolve("fresh"), "rk-alice-trading", "alice", true);
        Files.move(dir.resolve("fresh"), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        watch.run();
        assertNotNull(applied.get(1).byId("rk-alice-trading"), "a file that reads again is taken");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        watch.run();
        assertTrue(applied.get(2).keys().isEmpty(), "a file others may read accepts no key");

        Files.delete(file);
        watch.run();
        assertEquals(4, applied.size());
        assertTrue(applied.get(3).keys().isEmpty(), "a deleted file accepts no key");
    }
}
