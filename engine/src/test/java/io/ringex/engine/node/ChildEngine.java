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
 * properties and the project's JVM flags), so a test can kill it with SIGKILL, pause it with SIGSTOP, and start it
 * again.
 */
public final class ChildEngine implements AutoCloseable
{
    private final Process process;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * @param properties {@code ringex.engine.*} (and Aeron) system properties for the child; its output is kept in
     *                   memory ({@link #output()}) and shown when it fails to start.
     * @param files      properties files given to {@link EngineMain} as arguments.
     */
    public ChildEngine(final Map<String, String> properties, final String... files)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the JVM flags, and the engine's own (its collector), as ./ringex engine runs it (the build passes both under
        // ringex.jvm.*, which no process takes as configuration)
        final String flags = System.getProperty("ringex.jvm.flags", "") + " " +
            System.getProperty("ringex.jvm.engine.flags", "");
        command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        command.add("-Xmx512m");
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        // The build's threading profile for the system tests (-Dringex.it.threading, the parent pom), unless the
        // test chose one: the drills run in every profile.
        final String threading = System.getProperty("ringex.engine.threading");
        if (null != threading && !properties.containsKey("ringex.engine.threading"))
        {
            command.add("-Dringex.engine.threading=" + threading);
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EngineMain.class.getName());
        command.addAll(Arrays.asList(files));
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

    /**
     * Wait (up to 60 s) for the node to print its ready line.
     */
    public void awaitReady()
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

    /**
     * Wait (up to 60 s) for the process to exit by itself, as it does when it refuses its configuration.
     *
     * @return its exit status.
     */
    public int awaitExit()
    {
        try
        {
            if (!process.waitFor(60, TimeUnit.SECONDS))
            {
                throw new AssertionError("child engine still running: " + String.join("\n", output));
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /** SIGKILL: no shutdown hook, no flush, nothing. */
    public void kill()
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

    /** SIGSTOP: the process is frozen as a long GC pause or a hung machine would freeze it. */
    public void pause()
    {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume()
    {
        signal("CONT");
    }

    /**
     * @return true until the process exits.
     */
    public boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * @return the child's output so far, one line per element.
     */
    public List<String> output()
    {
        return output;
    }

    private void signal(final String name)
    {
        try
        {
            final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0)
            {
                throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
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
