package io.ringex.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChildProcessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path dir;

    private ChildProcess.Builder child(final String... args)
    {
        return ChildProcess.builder("echo child")
            .java(System.getProperty("java.class.path"), ChildMain.class.getName())
            .args(args)
            .log(dir.resolve("child.log"));
    }

    @Test
    void stdoutAndStderrGoToTheLogFileAndTheExitStatusIsReported() throws Exception
    {
        final ChildProcess process = children.start(child("to stderr", "to stdout", "exit=3"));
        assertEquals(3, process.awaitExit(TIMEOUT));
        final List<String> lines = Files.readAllLines(dir.resolve("child.log"));
        assertTrue(lines.get(0).startsWith("# ") && lines.get(0).contains(ChildMain.class.getName()), lines::toString);
        assertTrue(lines.contains("to stderr"), lines::toString);
        assertTrue(lines.contains("to stdout"), lines::toString);
        assertEquals(lines, process.lines());
    }

    @Test
    void aLineThatComesIsAwaitedAndOneThatDoesNotFailsWithTheLogsTail()
    {
        final ChildProcess lingering = children.start(child("starting", "READY", "linger"));
        lingering.awaitLine("the ready line", TIMEOUT, (line) -> line.equals("READY"));
        assertTrue(lingering.isAlive());

        final ChildProcess exiting = children.start(child("starting", "gave up: bad key", "exit=2")
            .log(dir.resolve("exiting.log")));
        final AssertionError error = assertThrows(AssertionError.class,
            () -> exiting.awaitLine("the ready line", TIMEOUT, (line) -> line.equals("READY")));
        assertTrue(error.getMessage().contains("exited before the ready line"), error::getMessage);
        assertTrue(error.getMessage().contains("gave up: bad key"), error::getMessage);
        assertTrue(error.getMessage().contains("exited 2"), error::getMessage);
    }

    @Test
    void closeStopsAProcessWithSigtermAndKillStopsItWithSigkill()
    {
        final ChildProcess terminated = children.start(child("x", "linger"));
        terminated.awaitLine("started", TIMEOUT, (line) -> line.equals("x"));
        terminated.close();
        assertFalse(terminated.isAlive());
        assertEquals(143, terminated.awaitExit(TIMEOUT), "128 + SIGTERM");

        final ChildProcess killed = children.start(child("x", "linger").log(dir.resolve("killed.log")));
        killed.awaitLine("started", TIMEOUT, (line) -> line.equals("x"));
        killed.kill();
        assertEquals(137, killed.awaitExit(TIMEOUT), "128 + SIGKILL");
    }

    @Test
    void aRunningProcessThatDoesNotExitInTimeFailsNamingIt()
    {
        final ChildProcess lingering = children.start(child("x", "linger"));
        final AssertionError error = assertThrows(AssertionError.class, () -> lingering.awaitExit(Duration.ZERO));
        assertTrue(error.getMessage().startsWith("echo child still running"), error::getMessage);
        assertTrue(error.getMessage().contains("---- echo child (pid " + lingering.pid() + ", running)"),
            error::getMessage);
    }

    @Test
    void theTailHoldsTheLastLinesOnly()
    {
        final ChildProcess process = children.start(child("first", "second", "third", "fourth"));
        process.awaitExit(TIMEOUT);
        final String tail = process.tail(2);
        assertTrue(tail.contains("last 2 of 5 lines"), tail);
        assertTrue(tail.contains("third\nfourth\n"), tail);
        assertFalse(tail.contains("second"), tail);
    }

    @Test
    void aCommandAndAJavaMainClassAreExclusive()
    {
        assertThrows(IllegalStateException.class,
            () -> child("x").command(List.of("/bin/true")).commandLine());
        assertThrows(IllegalStateException.class, () -> ChildProcess.builder("nothing").commandLine());
    }

    @Test
    void aFailedTestGetsEachChildsLogTailPrintedAndEveryChildIsStoppedAfterTheTest()
    {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final ChildProcesses inner = new ChildProcesses(new PrintStream(printed, true, StandardCharsets.UTF_8));
        final ChildProcess lingering = inner.start(child("the venue said why", "linger"));
        lingering.awaitLine("its line", TIMEOUT, (line) -> line.equals("the venue said why"));

        inner.afterTestExecution(context(null));
        assertEquals("", printed.toString(StandardCharsets.UTF_8), "a passing test prints nothing");

        inner.afterTestExecution(context(new AssertionError("the fill never came")));
        final String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("inner() failed; ---- echo child (pid " + lingering.pid() + ", running)"), text);
        assertTrue(text.contains("\nthe venue said why\n"), text);

        inner.afterEach(context(null));
        assertFalse(lingering.isAlive());
        assertTrue(inner.started().isEmpty());
    }

    /** The two things the extension asks of JUnit's context. */
    private static ExtensionContext context(final Throwable failure)
    {
        return (ExtensionContext)Proxy.newProxyInstance(ExtensionContext.class.getClassLoader(),
            new Class<?>[]{ ExtensionContext.class }, (proxy, method, args) ->
            {
                switch (method.getName())
                {
                    case "getExecutionException":
                        return Optional.ofNullable(failure);
                    case "getDisplayName":
                        return "inner()";
                    default:
                        throw new UnsupportedOperationException(method.getName());
                }
            });
    }
}
