package io.ringex.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A process a test starts (a JVM with a classpath and a main class, or a script such as {@code ./ringex demo}) whose
 * stdout and stderr go, merged, to a log file: nothing is lost when the test stops reading, the file outlives the
 * test for a look afterwards, and every failure this class raises carries the log's last lines, as Aeron's system
 * tests show the logs of the processes they ran. Start it through {@link ChildProcesses} to also get the tail printed
 * when a test fails for any other reason, and the process stopped after the test.
 * <p>
 * Used from the test's thread.
 */
public final class ChildProcess implements AutoCloseable
{
    /** Lines of the log a failure message carries. */
    public static final int TAIL_LINES = 60;

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final String name;
    private final Path log;
    private final Process process;

    private ChildProcess(final String name, final Path log, final Process process)
    {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /**
     * @param name what the process is, for messages (e.g. "venue", "client").
     * @return a builder for a process.
     */
    public static Builder builder(final String name)
    {
        return new Builder(name);
    }

    /**
     * The JVM flags a build passed to the test JVM under a system property, split into arguments.
     *
     * @param propertyName e.g. {@code ringex.jvm.flags}.
     * @return the flags; empty when the property is not set or blank.
     */
    public static List<String> jvmFlagsFromSystemProperty(final String propertyName)
    {
        final String flags = System.getProperty(propertyName, "").trim();
        return flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    }

    /**
     * @return what the process is.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the file its stdout and stderr go to.
     */
    public Path log()
    {
        return log;
    }

    /**
     * @return the process id.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * @return true until the process exits.
     */
    public boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * @return the log's lines so far.
     */
    public List<String> lines()
    {
        try
        {
            // a line being written may be cut in a multi-byte character: decode leniently, never throw
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        }
        catch (final NoSuchFileException ex)
        {
            return List.of();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param line a predicate on one line.
     * @return true if a line of the log so far matches.
     */
    public boolean hasLine(final Predicate<String> line)
    {
        return lines().stream().anyMatch(line);
    }

    /**
     * @return the last {@link #TAIL_LINES} lines of the log, headed by the process's name and log file.
     */
    public String tail()
    {
        return tail(TAIL_LINES);
    }

    /**
     * @param count how many lines.
     * @return the last {@code count} lines of the log, headed by the process's name and log file.
     */
    public String tail(final int count)
    {
        final List<String> lines = lines();
        final StringBuilder text = new StringBuilder()
            .append("---- ").append(name).append(" (pid ").append(process.pid()).append(", ")
            .append(process.isAlive() ? "running" : "exited " + process.exitValue())
            .append("), last ").append(Math.min(count, lines.size())).append(" of ").append(lines.size())
            .append(" lines of ").append(log).append(" ----\n");
        for (final String line : lines.subList(Math.max(0, lines.size() - count), lines.size()))
        {
            text.append(line).append('\n');
        }
        return text.append("---- end of ").append(name).append(" ----").toString();
    }

    /**
     * Wait for a line of the log to match, failing with the log's tail if the process exits first or the deadline
     * passes.
     *
     * @param what    what the line means, for the failure message.
     * @param timeout the deadline.
     * @param line    a predicate on one line.
     */
    public void awaitLine(final String what, final Duration timeout, final Predicate<String> line)
    {
        Await.until(what + " in the output of " + name, timeout, () -> hasLine(line) || !process.isAlive(), null,
            this::tail);
        if (!hasLine(line))
        {
            throw new AssertionError(name + " exited before " + what + "\n" + tail());
        }
    }

    /**
     * Wait for the process to exit by itself.
     *
     * @param timeout the deadline.
     * @return its exit status.
     */
    public int awaitExit(final Duration timeout)
    {
        try
        {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS))
            {
                throw new AssertionError(name + " still running after " + timeout + "\n" + tail());
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name + " to exit\n" + tail(), ex);
        }
    }

    /**
     * SIGKILL: no shutdown hook runs, as in a crash. Waits for the process to be gone.
     */
    public void kill()
    {
        process.destroyForcibly();
        waitQuietly(STOP_TIMEOUT);
    }

    /**
     * SIGSTOP: the process freezes, as in a long pause or a hung machine.
     */
    public void pause()
    {
        signal("STOP");
    }

    /**
     * SIGCONT after {@link #pause()}.
     */
    public void resume()
    {
        signal("CONT");
    }

    /**
     * SIGTERM, as an operator stops it, and wait for it to exit; if it does not within a minute, SIGKILL and fail
     * with the log's tail, since a process that ignores SIGTERM is a bug of its own.
     */
    public void close()
    {
        if (!process.isAlive())
        {
            return;
        }
        process.destroy();
        if (!waitQuietly(STOP_TIMEOUT))
        {
            process.destroyForcibly();
            waitQuietly(STOP_TIMEOUT);
            throw new AssertionError(name + " did not stop on SIGTERM within " + STOP_TIMEOUT + "\n" + tail());
        }
    }

    private boolean waitQuietly(final Duration timeout)
    {
        try
        {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void signal(final String signal)
    {
        try
        {
            final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true).start();
            final String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0)
            {
                throw new AssertionError("kill -" + signal + " " + process.pid() + " failed: " + out);
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

    /**
     * What to start: either {@link #command(Collection)} or {@link #java(String, String)}, plus arguments, a working
     * directory, environment variables and the log file.
     */
    public static final class Builder
    {
        private final String name;
        private final List<String> command = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> environment = new HashMap<>();
        private String classpath;
        private String mainClass;
        private Path directory;
        private Path log;

        private Builder(final String name)
        {
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * Run a program (e.g. a script) with its first arguments.
         *
         * @param command the program and its first arguments.
         * @return this.
         */
        public Builder command(final Collection<String> command)
        {
            this.command.addAll(command);
            return this;
        }

        /**
         * Run {@code mainClass} in a JVM of the Java the test runs on.
         *
         * @param classpath the child's classpath, entries joined by {@link File#pathSeparator}.
         * @param mainClass the main class's binary name.
         * @return this.
         */
        public Builder java(final String classpath, final String mainClass)
        {
            this.classpath = Objects.requireNonNull(classpath, "classpath");
            this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
            return this;
        }

        /**
         * @param jvmArgs JVM flags and {@code -D} properties, before the main class (with {@link #java}).
         * @return this.
         */
        public Builder jvmArgs(final Collection<String> jvmArgs)
        {
            this.jvmArgs.addAll(jvmArgs);
            return this;
        }

        /**
         * @param args the program's arguments, after the command or the main class.
         * @return this.
         */
        public Builder args(final Collection<String> args)
        {
            this.args.addAll(args);
            return this;
        }

        /**
         * @param args the program's arguments, after the command or the main class.
         * @return this.
         */
        public Builder args(final String... args)
        {
            return args(Arrays.asList(args));
        }

        /**
         * @param directory the working directory; the test's when not given.
         * @return this.
         */
        public Builder directory(final Path directory)
        {
            this.directory = directory;
            return this;
        }

        /**
         * @param key   an environment variable for the child, on top of the test's environment.
         * @param value its value.
         * @return this.
         */
        public Builder environment(final String key, final String value)
        {
            environment.put(key, value);
            return this;
        }

        /**
         * @param log the file stdout and stderr go to (appended to, so a restarted process keeps one log); a
         *            temporary file named after the process when not given.
         * @return this.
         */
        public Builder log(final Path log)
        {
            this.log = log;
            return this;
        }

        /**
         * @return the command line this builder starts.
         */
        public List<String> commandLine()
        {
            final List<String> line = new ArrayList<>();
            if (null != mainClass)
            {
                if (!command.isEmpty())
                {
                    throw new IllegalStateException(name + ": give either a command or a java main class, not both");
                }
                line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                line.addAll(jvmArgs);
                line.add("-cp");
                line.add(classpath);
                line.add(mainClass);
            }
            else
            {
                if (command.isEmpty())
                {
                    throw new IllegalStateException(name + ": no command and no java main class");
                }
                if (!jvmArgs.isEmpty())
                {
                    throw new IllegalStateException(name + ": JVM arguments go with a java main class");
                }
                line.addAll(command);
            }
            line.addAll(args);
            return line;
        }

        /**
         * @return the started process.
         */
        public ChildProcess start()
        {
            final List<String> line = commandLine();
            try
            {
                final Path logFile = null != log ?
                    log : Files.createTempFile(name.replaceAll("\\W", "_") + "-", ".log");
                Files.createDirectories(logFile.toAbsolutePath().getParent());
                Files.writeString(logFile, "# " + String.join(" ", line) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                final ProcessBuilder builder = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                if (null != directory)
                {
                    builder.directory(directory.toFile());
                }
                builder.environment().putAll(environment);
                return new ChildProcess(name, logFile, builder.start());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(name + ": could not start " + line, ex);
            }
        }
    }
}
