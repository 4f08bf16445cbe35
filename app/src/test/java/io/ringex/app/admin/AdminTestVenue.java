package io.ringex.app.admin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.client.AdminKeys;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.TestNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The empty venue the admin tool's ITs start: an embedded media driver, and an engine node on IPC that takes admin
 * commands signed with the test's keys; each test sets how often the engine refreshes its reference data. The tool
 * runs in-process ({@link #admin}), as the launcher runs it.
 */
final class AdminTestVenue
{
    static final String IPC = "aeron:ipc";

    private AdminTestVenue()
    {
    }

    static MediaDriver driver()
    {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.generateRandomDirName())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(1024 * 1024));
    }

    /**
     * @param driver           the venue's media driver.
     * @param keys             the admin keys the engine holds (the test's key file holds them too).
     * @param statusIntervalNs the engine's status interval: its reference-data refresh runs every 5 of them.
     * @return the running node, its journal in a directory of its own.
     */
    static TestNode engine(final MediaDriver driver, final AdminKeys keys, final long statusIntervalNs)
    {
        return TestNode.launch((ctx) -> ctx
            .aeronDirectoryName(driver.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .adminKeys(keys)
            .replicationMode(EngineContext.ReplicationMode.OFF)
            .inputRingCapacity(4096)
            .outputRingCapacity(4096)
            .statusIntervalNs(statusIntervalNs));
    }

    /**
     * Run {@code ./ringex admin} in-process on the venue.
     *
     * @param driver  the venue's media driver ({@code --aeron-dir}).
     * @param keyFile the key file, unless the arguments name one.
     * @param input   what the tool reads from its standard input.
     * @param args    the tool's arguments.
     * @return its exit code and what it printed.
     */
    static Result admin(final MediaDriver driver, final Path keyFile, final String input, final List<String> args)
    {
        final List<String> all = new ArrayList<>(args);
        all.add("--aeron-dir");
        all.add(driver.aeronDirectoryName());
        if (!all.contains("--key-file"))
        {
            all.add("--key-file");
            all.add(keyFile.toString());
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = new AdminCli(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))).run(all.toArray(new String[0]));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * @param code    the exit code the run must have.
     * @param message what it must print: on its standard output when the code is 0, on its standard error otherwise.
     * @param result  the run.
     */
    static void expect(final int code, final String message, final Result result)
    {
        assertEquals(code, result.code(), result.toString());
        assertTrue((code == 0 ? result.out() : result.err()).contains(message), "expected '" + message + "' in " +
            result);
    }

    /** A run's exit code and what it printed. */
    record Result(int code, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }
}
