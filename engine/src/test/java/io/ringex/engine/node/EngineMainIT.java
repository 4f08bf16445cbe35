package io.ringex.engine.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex engine} as an operator runs it (a child JVM on {@link EngineMain}): a typo'd key in its file and a
 * malformed value on its command line each stop the process before any node starts, with exit status 2 and one
 * line naming the key; no journal is created.
 */
class EngineMainIT
{
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @Test
    void aTypoedKeyInTheFileStopsTheProcessNamingTheKey() throws IOException
    {
        final Path file = dir.resolve("engine.properties");
        Files.writeString(file, "ringex.engine.journal.dir=" + dir.resolve("journal") + "\n" +
            "ringex.engine.replication.mod=SYNC\n");
        final ChildProcess engine = children.start(ChildEngine.builder(Map.of(), file.toString())
            .log(dir.resolve("engine.log")));
        assertEquals(EngineMain.CONFIGURATION_ERROR_STATUS, engine.awaitExit(EXIT_TIMEOUT), engine::tail);
        assertTrue(engine.hasLine((line) -> line.contains("ringex engine: ERROR - " +
            "ringex.engine.replication.mod: unknown key (did you mean ringex.engine.replication.mode?)")),
            engine::tail);
        assertFalse(Files.exists(dir.resolve("journal")), "no node started");
    }

    @Test
    void aMalformedValueOnTheCommandLineStopsTheProcessNamingTheKey()
    {
        final ChildProcess engine = children.start(ChildEngine.builder(Map.of(
            "ringex.engine.journal.dir", dir.resolve("journal").toString(),
            "ringex.engine.input.ring.capacity", "16kb")).log(dir.resolve("engine.log")));
        assertEquals(EngineMain.CONFIGURATION_ERROR_STATUS, engine.awaitExit(EXIT_TIMEOUT), engine::tail);
        assertTrue(engine.hasLine((line) -> line.contains(
            "ringex.engine.input.ring.capacity: must be a size: a number of bytes, or with k, m or g (was '16kb')")),
            engine::tail);
        assertFalse(Files.exists(dir.resolve("journal")), "no node started");
    }
}
