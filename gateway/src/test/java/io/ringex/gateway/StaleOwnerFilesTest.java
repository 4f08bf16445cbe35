package io.ringex.gateway;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.codecs.mark.MarkFileHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import uk.co.real_logic.artio.storage.messages.EngineInformationEncoder;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StaleOwnerFilesTest
{
    @TempDir
    Path dir;

    @Test
    void removesTheArchiveMarkFileOfADeadProcessOnly() throws Exception
    {
        final File markFile = dir.resolve(ArchiveMarkFile.FILENAME).toFile();

        final long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        writeArchiveMarkFile(markFile, ProcessHandle.current().pid(), System.currentTimeMillis());
        assertFalse(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()), "our own");
        assertTrue(markFile.exists());
        writeArchiveMarkFile(markFile, ProcessHandle.current().pid(), jvmStartMs - 1_000);
        assertTrue(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()),
            "our pid, written before we started: a dead predecessor's (a restarted container)");

        final Process alive = new ProcessBuilder("sleep", "30").start();
        try
        {
            writeArchiveMarkFile(markFile, alive.pid(), System.currentTimeMillis());
            assertFalse(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()), "a live process's");
            assertTrue(markFile.exists());
        }
        finally
        {
            alive.destroyForcibly().waitFor();
        }

        // A clean stop (SIGTERM, close) leaves the file marked terminated: Aeron reuses it, nothing to remove or log.
        writeArchiveMarkFile(markFile, deadPid(), System.currentTimeMillis(), -1);
        assertFalse(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()), "cleanly terminated");
        assertTrue(markFile.exists());

        writeArchiveMarkFile(markFile, deadPid(), System.currentTimeMillis());
        assertTrue(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()));
        assertFalse(markFile.exists());
        assertFalse(StaleOwnerFiles.removeArchiveMarkFileIfOwnerGone(dir.toFile()), "nothing left to remove");
    }

    @Test
    void removesArtiosEngineInfoOfADeadProcessOnThisHostOnly() throws Exception
    {
        final File info = dir.resolve(StaleOwnerFiles.ARTIO_ENGINE_INFO).toFile();
        final String host = ManagementFactory.getRuntimeMXBean().getName().replaceFirst("^[0-9]+", "");

        writeEngineInfo(info, ProcessHandle.current().pid() + host);
        assertFalse(StaleOwnerFiles.removeArtioEngineInfoIfOwnerGone(dir.toString()), "our own");

        final long dead = deadPid();
        writeEngineInfo(info, dead + "@another-host");
        assertFalse(StaleOwnerFiles.removeArtioEngineInfoIfOwnerGone(dir.toString()), "another host's engine");
        assertTrue(info.exists());

        writeEngineInfo(info, dead + host);
        assertTrue(StaleOwnerFiles.removeArtioEngineInfoIfOwnerGone(dir.toString()));
        assertFalse(info.exists());
    }

    private static long deadPid() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }

    private static void writeArchiveMarkFile(final File file, final long pid, final long startMs) throws IOException
    {
        writeArchiveMarkFile(file, pid, startMs, System.currentTimeMillis());
    }

    private static void writeArchiveMarkFile(
        final File file, final long pid, final long startMs, final long activityMs) throws IOException
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        new MarkFileHeaderEncoder().wrapAndApplyHeader(buffer, 0,
            new io.aeron.archive.codecs.mark.MessageHeaderEncoder())
            .activityTimestamp(activityMs).startTimestamp(startMs).pid(pid);
        Files.write(file.toPath(), buffer.byteArray());
    }

    private static void writeEngineInfo(final File file, final String runtimeName) throws IOException
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        new EngineInformationEncoder().wrapAndApplyHeader(buffer, 0,
            new uk.co.real_logic.artio.storage.messages.MessageHeaderEncoder())
            .heartbeatTimeInMs(System.currentTimeMillis()).runtimeName(runtimeName);
        Files.write(file.toPath(), buffer.byteArray());
    }
}
