package io.ringex.engine.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringex.testing.ChildProcess;

/**
 * An engine node in a child JVM, started as an operator would ({@link EngineMain} with {@code ringex.engine.*}
 * properties and the project's JVM flags), so a test can kill it with SIGKILL, pause it with SIGSTOP, and start it
 * again: a {@link ChildProcess}, which a test starts through its {@link io.ringex.testing.ChildProcesses} so a
 * failure shows the node's log.
 */
public final class ChildEngine
{
    /** The line {@link EngineMain} prints once the node takes commands. */
    public static final String READY_LINE = "RINGEX ENGINE READY";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private ChildEngine()
    {
    }

    /**
     * @param properties {@code ringex.engine.*} (and Aeron) system properties for the child.
     * @param files      properties files given to {@link EngineMain} as arguments.
     * @return a builder for the child (name "engine"; give it a log file with {@link ChildProcess.Builder#log}).
     */
    public static ChildProcess.Builder builder(final Map<String, String> properties, final String... files)
    {
        // the JVM flags, and the engine's own (its collector), as ./ringex engine runs it (the build passes both under
        // ringex.jvm.*, which no process takes as configuration)
        final List<String> jvmArgs = new ArrayList<>(ChildProcess.jvmFlagsFromSystemProperty("ringex.jvm.flags"));
        jvmArgs.addAll(ChildProcess.jvmFlagsFromSystemProperty("ringex.jvm.engine.flags"));
        jvmArgs.add("-Xmx512m");
        properties.forEach((key, value) -> jvmArgs.add("-D" + key + "=" + value));
        // The build's threading profile for the system tests (-Dringex.it.threading, the parent pom), unless the
        // test chose one: the drills run in every profile.
        final String threading = System.getProperty("ringex.engine.threading");
        if (null != threading && !properties.containsKey("ringex.engine.threading"))
        {
            jvmArgs.add("-Dringex.engine.threading=" + threading);
        }
        return ChildProcess.builder("engine")
            .java(System.getProperty("java.class.path"), EngineMain.class.getName())
            .jvmArgs(jvmArgs)
            .args(files);
    }

    /**
     * Wait (up to 60 s) for the node to print its ready line, failing with its log's tail if it exits first.
     *
     * @param engine a child started from {@link #builder}.
     */
    public static void awaitReady(final ChildProcess engine)
    {
        engine.awaitLine("the ready line", READY_TIMEOUT, (line) -> line.startsWith(READY_LINE));
    }
}
