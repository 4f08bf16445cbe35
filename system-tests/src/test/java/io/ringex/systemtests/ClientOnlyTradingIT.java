package io.ringex.systemtests;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.testing.ChildProcess;
import io.ringex.testing.ChildProcesses;
import io.ringex.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A project that depends on the client module alone can log on and trade: the trading program in
 * {@code src/client-app/java} is compiled here against {@code ringex-client} and its runtime dependencies only (the
 * module's runtime classpath, checked to hold nothing else), then run in a JVM of its own on that classpath against
 * a real venue ({@code ./ringex demo}). If the program needed anything else (the engine, the gateway, a media driver
 * class) it would not compile, or it would fail to load it at run time.
 */
class ClientOnlyTradingIT
{
    /** What the client module may bring: its jar or classes, the protocol, the Aeron client, Agrona. */
    private static final Pattern ALLOWED = Pattern.compile(
        ".*/((ringex-client|ringex-protocol|aeron-client|aeron-annotations|agrona)-[^/]+\\.jar|" +
        "(client|protocol)/target/classes)");

    @RegisterExtension
    final ChildProcesses children = new ChildProcesses();

    @TempDir
    Path dir;

    @Test
    void aProgramBuiltOnTheClientModuleAloneLogsOnTwoUsersRestsAnOfferAndTradesIt() throws Exception
    {
        final List<String> classpath = clientClasspath();
        final Path classes = compileTheClientProgram(classpath);

        final int sbePort = FreePorts.tcpAndUdp();
        DemoVenue.start(children, dir.resolve("venue.log"), List.of("--data=" + dir.resolve("data"),
            "--server.port=" + FreePorts.tcp(), "--fix-port=" + FreePorts.tcp(), "--sbe-port=" + sbePort));

        // The program's Aeron client needs a media driver, as any Aeron client does: it is the test's, not the
        // program's, and it is not on the program's classpath.
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.generateRandomDirName())
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)))
        {
            final ChildProcess trader = children.start(ChildProcess.builder("client-only trader")
                .java(classes + File.pathSeparator + String.join(File.pathSeparator, classpath),
                    "io.ringex.systemtests.clientapp.ClientOnlyTrader")
                .jvmArgs(ChildProcess.jvmFlagsFromSystemProperty("ringex.jvm.flags"))
                .args(driver.aeronDirectoryName(), "aeron:udp?endpoint=localhost:" + sbePort,
                    Integer.toString(DemoVenue.CLIENT_STREAM), Integer.toString(FreePorts.udp()),
                    Integer.toString(FreePorts.udp()))
                .log(dir.resolve("trader.log")));

            assertEquals(0, trader.awaitExit(Duration.ofMinutes(2)), trader::tail);
            final List<String> lines = trader.lines();
            for (final String expected : List.of(
                "LOGGED ON maker1 account 1001",
                "LOGGED ON trader1 account 1003",
                "RESTING offer-1 SELL 7 @ 10250 account 1001",
                "bid-1 FILL 4 @ 10250 leaves 0",
                "offer-1 PARTIAL_FILL 4 @ 10250 leaves 3",
                "DONE"))
            {
                assertTrue(lines.contains(expected), () -> "missing '" + expected + "'\n" + trader.tail());
            }
        }
    }

    /** The client module's runtime classpath, as the build wrote it, checked to hold the client and its deps only. */
    private static List<String> clientClasspath() throws Exception
    {
        final Path file = Path.of(System.getProperty("ringex.systemtests.client.classpath.file",
            "target/client-classpath.txt"));
        final List<String> classpath = Arrays.stream(Files.readString(file).trim().split(File.pathSeparator))
            .filter((entry) -> !entry.isBlank()).collect(Collectors.toList());
        for (final String entry : classpath)
        {
            assertTrue(ALLOWED.matcher(entry.replace(File.separatorChar, '/')).matches(),
                () -> "not the client module or its dependencies: " + entry + " in " + classpath);
        }
        for (final String needed : List.of("client", "protocol", "aeron-client", "agrona"))
        {
            assertTrue(classpath.stream().anyMatch((entry) -> entry.contains(needed)),
                () -> needed + " missing from " + classpath);
        }
        return classpath;
    }

    private Path compileTheClientProgram(final List<String> classpath) throws Exception
    {
        final Path sources = Path.of(System.getProperty("ringex.systemtests.client.sources", "src/client-app/java"));
        final List<String> files;
        try (Stream<Path> walk = Files.walk(sources))
        {
            files = walk.filter((p) -> p.toString().endsWith(".java")).map(Path::toString).collect(Collectors.toList());
        }
        assertTrue(!files.isEmpty(), "no sources under " + sources);

        final Path classes = Files.createDirectories(dir.resolve("client-app-classes"));
        final List<String> arguments = new ArrayList<>(List.of("--release", "17", "-Xlint:all", "-d",
            classes.toString(), "-cp", String.join(File.pathSeparator, classpath)));
        arguments.addAll(files);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int status = javac.run(null, out, out, arguments.toArray(new String[0]));
        assertEquals(0, status, () -> "the client-only program does not compile against the client module alone:\n" +
            out.toString(StandardCharsets.UTF_8));
        return classes;
    }
}
