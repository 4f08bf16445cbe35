package io.ringex.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex gateway} as an operator runs it (a child JVM on {@link GatewayMain}): a typo'd key in its file and a
 * malformed value on its command line each stop the process before the gateway starts, with exit status 2 and one
 * line naming the key; no FIX log or archive directory is created.
 */
class GatewayMainIT
{
    @TempDir
    Path dir;

    @Test
    void aTypoedKeyInTheFileStopsTheProcessNamingTheKey() throws Exception
    {
        final Path file = dir.resolve("gateway.properties");
        Files.writeString(file, directories() + "ringex.gateway.embedded.driver=true\n" +
            "ringex.gateway.heartbeat.interval.ms=1000\n");
        final List<String> output = run(Map.of(), file.toString());
        assertEquals(List.of("ringex gateway: ERROR - ringex.gateway.heartbeat.interval.ms: unknown key " +
            "(did you mean ringex.gateway.heartbeat.interval?)"), output.subList(1, output.size()),
            String.join("\n", output));
        assertNothingStarted();
    }

    @Test
    void aMalformedValueOnTheCommandLineStopsTheProcessNamingTheKey() throws Exception
    {
        final Path file = dir.resolve("gateway.properties");
        Files.writeString(file, directories() + "ringex.gateway.embedded.driver=true\n");
        final List<String> output = run(Map.of("ringex.gateway.sbe.response.term.length", "4mb"), file.toString());
        assertEquals(List.of("ringex gateway: ERROR - ringex.gateway.sbe.response.term.length: must be a size: a " +
            "number of bytes, or with k, m or g (was '4mb')"), output.subList(1, output.size()),
            String.join("\n", output));
        assertNothingStarted();
    }

    private String directories()
    {
        return "ringex.gateway.fix.log.dir=" + dir.resolve("fix") + "\n" +
            "ringex.gateway.archive.dir=" + dir.resolve("archive") + "\n" +
            "ringex.gateway.aeron.dir=" + dir.resolve("aeron") + "\n";
    }

    private void assertNothingStarted()
    {
        assertFalse(Files.exists(dir.resolve("fix")), "no gateway started");
        assertFalse(Files.exists(dir.resolve("archive")), "no archive started");
        assertFalse(Files.exists(dir.resolve("aeron")), "no media driver started");
    }

    /**
     * @return the first line is the exit status; then the process's output, one line per element.
     */
    private static List<String> run(final Map<String, String> properties, final String... files) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("ringex.jvm.flags", "").trim().split("\\s+")));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(GatewayMain.class.getName());
        command.addAll(Arrays.asList(files));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running: " + out);
            final List<String> lines = new ArrayList<>();
            lines.add(Integer.toString(process.exitValue()));
            out.lines().filter((line) -> !line.isBlank()).forEach(lines::add);
            assertEquals(Integer.toString(GatewayMain.CONFIGURATION_ERROR_STATUS), lines.get(0), out);
            return lines;
        }
        catch (final IOException ex)
        {
            process.destroyForcibly();
            throw ex;
        }
    }
}
