package io.ringex.systemtests;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;

/**
 * The all-in-one venue ({@code ./ringex demo}: media driver, engine, gateway and dashboard in one JVM) in a child
 * process, started from the project directory as the README says, its output in a log file.
 */
final class DemoVenue
{
    /** The project's root: the build passes it; {@code ..} from this module otherwise. */
    static final Path PROJECT = Path.of(System.getProperty("ringex.project.dir", "..")).toAbsolutePath().normalize();

    /** The gateway's SBE client stream in the all-in-one. */
    static final int CLIENT_STREAM = 2001;

    /** A cold start (Spring Boot, the archive, Artio) on a loaded 2-core machine. */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private DemoVenue()
    {
    }

    /**
     * @param children the test's child processes.
     * @param log      where its output goes.
     * @param args     {@code ./ringex demo}'s options.
     * @return the running venue, once it printed its ready line.
     */
    static ChildProcess start(final ChildProcesses children, final Path log, final List<String> args)
    {
        final List<String> command = new ArrayList<>();
        command.add(PROJECT.resolve("ringex").toString());
        command.add("demo");
        final List<String> options = new ArrayList<>(args);
        if (options.stream().noneMatch(option -> option.startsWith("--web-port=")))
        {
            options.add("--web-port=0"); // any free port: tests run beside each other and beside a demo
        }
        final ChildProcess venue = children.start(ChildProcess.builder("venue (./ringex demo)")
            .command(command).args(options).directory(PROJECT).log(log));
        venue.awaitLine("RINGEX READY", READY_TIMEOUT, (line) -> line.startsWith("RINGEX READY"));
        return venue;
    }
}
