package io.ringex.app.admin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ringex.app.Venue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ./ringex admin} says before it reaches a venue: where it looked when it finds none (and the two options
 * that point it elsewhere), and the usage errors of the trading-status command, of the limits {@code account open}
 * takes and of a role's spelling, each naming the option, exit 2, nothing sent (there is no venue to send to).
 */
class AdminCliTest
{
    @TempDir
    Path dir;

    @Test
    void withNoVenueItSaysWhereItLookedAndWhichOptionsPointElsewhere()
    {
        final Path data = dir.resolve("elsewhere");
        final Result status = run("status", "--data", data.toString());
        assertEquals(1, status.code(), status.toString());
        assertTrue(status.err().contains("no venue found: no media driver at " + Venue.aeronDirectoryFor(data) +
            " (the all-in-one's media driver for data directory " + data.toAbsolutePath().normalize() +
            ", from --data)"), status.toString());
        assertTrue(status.err().contains("A venue started on another data directory: --data DIR (that data " +
            "directory); an engine with a media driver of its own: --aeron-dir DIR (that driver's directory)"),
            status.toString());

        final Result named = run("account", "open", "--id", "7", "--operator", "ops1", "--aeron-dir",
            dir.resolve("no-driver").toString());
        assertEquals(1, named.code(), named.toString());
        assertTrue(named.err().contains("no venue found: no media driver at " + dir.resolve("no-driver") +
            " (the directory --aeron-dir names)"), named.toString());
        assertTrue(named.err().contains("--data DIR") && named.err().contains("--aeron-dir DIR"), named.toString());
    }

    @Test
    void theTradingStatusCommandsOptionsAreStrict()
    {
        expectUsage("trading halt takes --symbol S (one instrument) or --all (every instrument not delisted), one " +
            "of the two", "trading", "halt", "--operator", "ops1");
        expectUsage("trading resume takes --symbol S (one instrument) or --all", "trading", "resume", "--symbol",
            "RGX-USD", "--all", "--operator", "ops1");
        expectUsage("--auction-seconds: unknown option for trading halt", "trading", "halt", "--symbol", "RGX-USD",
            "--auction-seconds", "60", "--operator", "ops1");
        expectUsage("--auction-seconds: must be at least 1 (was '0')", "trading", "pre-open", "--symbol", "RGX-USD",
            "--auction-seconds", "0", "--operator", "ops1");
        expectUsage("--auction-seconds: 1 to 86400 (a day), was 86401", "trading", "pre-open", "--all",
            "--auction-seconds", "86401", "--operator", "ops1");
        expectUsage("--auction-seconds: must be an integer (was '5m')", "trading", "pre-open", "--all",
            "--auction-seconds", "5m", "--operator", "ops1");
        expectUsage("--operator is required", "trading", "close", "--symbol", "RGX-USD");
        expectUsage("trading takes one of close, halt, pre-open, resume (not 'open')", "trading", "open", "--symbol",
            "RGX-USD", "--operator", "ops1");
        expectUsage("--symbol: 1 to 16 printable characters without spaces", "trading", "halt", "--symbol",
            "A VERY LONG SYMBOL", "--operator", "ops1");
    }

    @Test
    void accountOpenTakesTheFiveLimitsTogetherOrNone()
    {
        expectUsage("account open takes the five limits together (--max-order-quantity --max-order-notional " +
            "--credit-limit --position-limit --max-open-orders, or none): missing --credit-limit, --position-limit, " +
            "--max-open-orders", "account", "open", "--id", "7", "--max-order-quantity", "100",
            "--max-order-notional", "1000", "--operator", "ops1");
        expectUsage("account open: --allow-short and --instrument-limits come with the five limits", "account",
            "open", "--id", "7", "--allow-short", "--operator", "ops1");
        expectUsage("--credit-limit: must be an amount of zero or more", "account", "open", "--id", "7",
            "--max-order-quantity", "100", "--max-order-notional", "1000", "--credit-limit", "-1",
            "--position-limit", "10", "--max-open-orders", "5", "--operator", "ops1");
        expectUsage("account limits takes the five limits together (--max-order-quantity --max-order-notional " +
            "--credit-limit --position-limit --max-open-orders): missing --max-open-orders", "account", "limits",
            "--id", "7", "--max-order-quantity", "100", "--max-order-notional", "1000", "--credit-limit", "0",
            "--position-limit", "10", "--operator", "ops1");
    }

    @Test
    void aRoleIsSpeltOneWayWithDropUnderscoreCopyReadToo()
    {
        expectUsage("--role: trader, drop-copy (or drop_copy) or clearing, not 'auditor'", "user", "role",
            "--username", "carol", "--role", "auditor", "--operator", "ops1");
        expectUsage("--role: trader, drop-copy (or drop_copy) or clearing, not 'dropcopy'", "user", "add",
            "--username", "carol", "--accounts", "1", "--role", "dropcopy", "--operator", "ops1");
    }

    private void expectUsage(final String message, final String... args)
    {
        final Result result = run(args);
        assertEquals(2, result.code(), result.toString());
        assertTrue(result.err().contains(message), "expected '" + message + "' in " + result);
    }

    private Result run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = new AdminCli(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0])).run(args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A run's exit code and what it printed. */
    private record Result(int code, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }
}
