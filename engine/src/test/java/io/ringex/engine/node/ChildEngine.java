package io.ringex.engine.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An engine node in a child JVM, started as an operator would ({@link EngineMain} with {@code ringex.engine.*}
 * properties and the project's JVM flags), so a test can kill it with SIGKILL and start it again.
 */
final class ChildEngine implements AutoCloseable
{
    private final Process process;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());

    ChildEngine(final Map<String, String> properties, final Path logFile)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final String flags = System.getProperty("ringex.jvm.flags", "");
        command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        command.add("-Xmx512m");
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EngineMain.class.getName());
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    output.add(line);
                    if (line.startsWith("RINGEX ENGINE READY"))
                    {
                        ready.countDown();
                    }
                }
            }
            catch (final IOException ignore)
            {
                // the process died: that is what the test does
            }
        }, "child-engine-output");
        reader.setDaemon(true);
        reader.start();
    }

    void awaitReady()
    {
        try
        {
            if (!ready.await(60, TimeUnit.SECONDS) || !process.isAlive())
            {
                throw new AssertionError("child engine did not become ready: " + String.join("\n", output));
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /** SIGKILL: no shutdown hook, no flush, nothing. */
    void kill()
    {
        process.destroyForcibly();
        try
        {
            process.waitFor(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    List<String> output()
    {
        return output;
    }

    public void close()
    {
        if (process.isAlive())
        {
            process.destroy();
            try
            {
                if (!process.waitFor(20, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
