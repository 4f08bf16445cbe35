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
        assertEquals(2, cli.run(new String[]{ "status", "--outbond", "node1:40101" }));
        assertTrue(text(err).contains("--outbond: unknown option for status (it takes --aeron-dir, --count, " +
            "--outbound, --risk-stream, --timeout-ms)"), text(err));
        assertTrue(text(err).contains("usage: node status"), text(err));
        assertEquals("", text(out), "nothing was sent");
    }

    @Test
    void aMalformedValueIsRefusedNamingTheOption()
    {
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "node1:40101", "--count", "0" }));
        assertTrue(text(err).contains("--count: must be at least 1 (was '0')"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "node1:40101", "--timeout-ms", "10s" }));
        assertTrue(text(err).contains("--timeout-ms: must be an integer (was '10s')"), text(err));
    }

    @Test
    void badUsageIsRefusedWithTheUsage()
    {
        assertEquals(2, cli.run(new String[]{ "status" }));
        assertTrue(text(err).contains("--outbound is required"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "--outbound" }));
        assertTrue(text(err).contains("--outbound: needs a value"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "outbound", "x" }));
        assertTrue(text(err).contains("status takes options only, not also [outbound, x]"), text(err));
        assertEquals(2, cli.run(new String[]{ "status", "--outbound", "a:1", "--outbound", "b:1" }));
        assertTrue(text(err).contains("--outbound: given twice"), text(err));
        // The pair's manual promotion is gone: a cluster elects its leader.
        assertEquals(2, cli.run(new String[]{ "promote", "--node", "2" }));
        assertTrue(text(err).contains("usage: node status"), text(err));
    }

    private static String text(final ByteArrayOutputStream stream)
    {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
