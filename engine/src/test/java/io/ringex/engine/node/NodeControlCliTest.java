package io.ringex.engine.node;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ringex node} refuses a command line it cannot run as meant (exit 2, the option named, the usage shown),
 * before it starts a media driver or sends anything: a typo'd option would otherwise be ignored and a malformed
 * number end in a stack trace.
 */
class NodeControlCliTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final NodeControlCli cli = new NodeControlCli(
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void aTypoedOptionIsRefusedNamingItAndTheOptionsTheCommandTakes()
    {
        assertEquals(2, cli.run(new String[]{ "promote", "--node", "2", "--contrl", "standby:40120" }));
        assertTrue(text(err).contains("--contrl: unknown option for promote (it takes --aeron-dir, --control, " +
            "--control-stream, --epoch, --node, --outbound, --risk-stream, --timeout-ms)"), text(err));
        assertTrue(text(err).contains("usage: node status"), text(err));
        assertEquals("", text(out), "nothing was sent");

        // an option of the other command
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "standby:40201", "--node", "2" }));
        assertTrue(text(err).contains("--node: unknown option for status"), text(err));
    }

    @Test
    void aMalformedValueIsRefusedNamingTheOption()
    {
        assertEquals(2, cli.run(new String[]{ "promote", "--node", "two" }));
        assertTrue(text(err).contains("--node: must be an integer (was 'two')"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "standby:40201", "--count", "0" }));
        assertTrue(text(err).contains("--count: must be at least 1 (was '0')"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "standby:40201", "--timeout-ms", "10s" }));
        assertTrue(text(err).contains("--timeout-ms: must be an integer (was '10s')"), text(err));
    }

    @Test
    void badUsageIsRefusedWithTheUsage()
    {
        assertEquals(2, cli.run(new String[]{ "promote" }));
        assertTrue(text(err).contains("--node is required"), text(err));
        assertEquals(2, cli.run(new String[]{ "promote", "--node" }));
        assertTrue(text(err).contains("--node: needs a value"), text(err));
        assertEquals(2, cli.run(new String[]{ "restart", "--node", "2" }));
        assertEquals(2, cli.run(new String[]{ "status", "outbound", "x" }));
        assertTrue(text(err).contains("status takes options only, not also [outbound, x]"), text(err));
        assertEquals(2, cli.run(new String[]{ "promote", "--node", "1", "--node", "2" }));
        assertTrue(text(err).contains("--node: given twice"), text(err));
        assertEquals(2, cli.run(new String[]{ "promote", "--epoch", "1" }));
        assertTrue(text(err).contains("usage: node status"), text(err));
    }

    private static String text(final ByteArrayOutputStream stream)
    {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
