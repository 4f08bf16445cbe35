package io.ringex.logging;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * logback.xml as a runnable loads it (Logback configures itself at the first logger): one line per event in UTC
 * ISO-8601 with level, thread and logger, java.util.logging in the same format, levels from logging.level.*.
 */
class LogFormatTest
{
    private static final Pattern LINE = Pattern.compile(
        "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR) \\[[^\\]]+] \\S+ - .*");

    static
    {
        // before the first logger, as -D on a runnable's command line
        System.setProperty("logging.level.io.ringex.test.quiet", "warn");
        System.setProperty("logging.level.net.openhft", "INFO");
    }

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream stderr = System.err;
    private LoggerContext context;

    @BeforeEach
    void captureStderr()
    {
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        context = (LoggerContext)LoggerFactory.getILoggerFactory();
    }

    @AfterEach
    void release()
    {
        System.setErr(stderr);
    }

    @Test
    void everyEventIsOneLineInUtcWithLevelThreadAndLogger()
    {
        context.getLogger("io.ringex.test.Format").info("order {} accepted", 42);
        context.getLogger("io.ringex.test.Format").warn("user name\nFORGED 2026-01-01T00:00:00.000Z ERROR line");

        final List<String> lines = lines();
        assertEquals(2, lines.size(), lines::toString);
        lines.forEach((line) -> assertTrue(LINE.matcher(line).matches(), line));
        assertTrue(lines.get(0).endsWith(" INFO  [" + Thread.currentThread().getName() +
            "] io.ringex.test.Format - order 42 accepted"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - user name\\nFORGED 2026-01-01T00:00:00.000Z ERROR line"), lines.get(1));
    }

    @Test
    void javaUtilLoggingGoesThroughTheSameFormatOnce()
    {
        java.util.logging.Logger.getLogger("io.ringex.test.Jul").info("from java.util.logging");

        final List<String> lines = lines();
        assertEquals(1, lines.size(), lines::toString);
        assertTrue(LINE.matcher(lines.get(0)).matches(), lines.get(0));
        assertTrue(lines.get(0).endsWith("io.ringex.test.Jul - from java.util.logging"), lines.get(0));
    }

    @Test
    void aSystemPropertySetsALoggersLevelOverLogbackXmls()
    {
        assertEquals(Level.INFO, context.getLogger("net.openhft").getLevel(), "logback.xml says WARN");
        assertEquals(Level.WARN, context.getLogger("io.ringex.test.quiet").getLevel());
        context.getLogger("io.ringex.test.quiet.Child").info("not written");
        context.getLogger("io.ringex.test.quiet.Child").warn("written");

        final List<String> lines = lines();
        assertEquals(1, lines.size(), lines::toString);
        assertTrue(lines.get(0).endsWith(" - written"), lines.get(0));
    }

    @Test
    void levelsAreReadFromLoggingLevelKeysAndAMalformedOneIsNamed()
    {
        final Properties properties = new Properties();
        properties.setProperty("logging.level.root", "warn");
        properties.setProperty("logging.level.io.ringex.engine", " DEBUG ");
        properties.setProperty("ringex.engine.node.id", "1");
        assertEquals(Map.of("ROOT", Level.WARN, "io.ringex.engine", Level.DEBUG),
            SystemPropertyLevels.levels(properties));

        properties.setProperty("logging.level.io.ringex.gateway", "DEBG");
        final IllegalArgumentException malformed =
            assertThrows(IllegalArgumentException.class, () -> SystemPropertyLevels.levels(properties));
        assertTrue(malformed.getMessage().startsWith("logging.level.io.ringex.gateway=DEBG: not a level"),
            malformed.getMessage());

        final Properties unnamed = new Properties();
        unnamed.setProperty("logging.level.", "INFO");
        assertThrows(IllegalArgumentException.class, () -> SystemPropertyLevels.levels(unnamed));
    }

    private List<String> lines()
    {
        final String text = err.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
