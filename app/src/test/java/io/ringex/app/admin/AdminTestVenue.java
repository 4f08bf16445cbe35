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
import org.agrona.CloseHelper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The empty venue the admin tool's ITs start: an embedded media driver, and an engine node on IPC that takes admin
 * commands signed with the venue's key (written to a key file for the tool); each test sets how often the engine
 * refreshes its reference data. The tool runs in-process ({@link #admin}), as the launcher runs it.
 */
final class AdminTestVenue implements AutoCloseable
{
    static final String IPC = "aeron:ipc";

    private final Path keyFile;
    private final MediaDriver driver;
    private final TestNode engine;

    /**
     * @param keyFile          where the venue's admin key ({@code ops-desk}) is written, for the tool.
     * @param statusIntervalNs the engine's status interval: its reference-data refresh runs every 5 of them.
     */
    AdminTestVenue(final Path keyFile, final long statusIntervalNs)
    {
        this.keyFile = keyFile;
        final AdminKeys keys = AdminKeys.generate("ops-desk");
        keys.writeTo(keyFile);
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.generateRandomDirName())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(1024 * 1024));
        try
        {
            engine = TestNode.launch((ctx) -> ctx
                .aeronDirectoryName(driver.aeronDirectoryName())
                .ingressChannel(IPC)
                .outboundChannel(IPC)
                .adminKeys(keys)
                .replicationMode(EngineContext.ReplicationMode.OFF)
                .inputRingCapacity(4096)
                .outputRingCapacity(4096)
                .statusIntervalNs(statusIntervalNs));
        }
        catch (final RuntimeException ex)
        {
            driver.close();
            throw ex;
        }
    }

    /**
     * @return the engine node, its journal in a directory of its own.
     */
    TestNode engine()
    {
        return engine;
    }

    /**
     * Run {@code ./ringex admin} in-process on the venue.
     *
     * @param input what the tool reads from its standard input.
     * @param args  the tool's arguments; the venue's key file unless they name one.
     * @return its exit code and what it printed.
     */
    Result admin(final String input, final List<String> args)
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

    /**
     * @return the venue's media driver, for the tool's {@code --aeron-dir} and the test's own clients.
     */
    String aeronDirectoryName()
    {
        return driver.aeronDirectoryName();
    }

    public void close()
    {
        CloseHelper.quietCloseAll(engine, driver);
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
