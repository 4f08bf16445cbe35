package io.ringex.app;

import java.nio.file.Path;
import java.util.List;

import io.ringex.common.config.CommandLineOptions.UsageException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator's command line ({@code ./ringex loadgen ...}), read strictly: a bad option or value stops it
 * naming the option, where the old reader ran SBE for {@code --transport udp}, IOC orders for {@code --orders limit},
 * dropped a last option without its value and ended a malformed number in a stack trace.
 */
class LoadGeneratorOptionsTest
{
    @Test
    void defaultsAndEveryOption()
    {
        final LoadGenerator.Options defaults = LoadGenerator.Options.parse(new String[0]);
        assertEquals("sbe", defaults.transport());
        assertEquals("cross", defaults.orders());
        assertEquals(2_000, defaults.rate());
        assertEquals(10, defaults.durationS());
        assertEquals(2, defaults.accounts());
        assertNull(defaults.timeline());

        final LoadGenerator.Options options = LoadGenerator.Options.parse(new String[]{ "--transport", "fix",
            "--rate", "500", "--duration", "3", "--warmup", "1", "--instruments", "3", "--accounts", "1", "--orders",
            "ioc", "--host", "venue", "--sbe-port", "40300", "--fix-port", "9999", "--timeline", "t.csv" });
        assertEquals(new LoadGenerator.Options("fix", "ioc", 500, 3, 1, 3, 1, "venue", 40300, 9999, 8480, null,
            "t.csv", DemoData.Venue.DEMO), options);
        final LoadGenerator.Options rest = LoadGenerator.Options.parse(new String[]{ "--transport", "rest",
            "--web-port", "8481", "--api-keys", "data/api-keys" });
        assertEquals("rest", rest.transport());
        assertEquals(8481, rest.webPort());
        assertEquals("data/api-keys", rest.apiKeys());
    }

    @Test
    void aBadOptionOrValueIsRefusedNamingTheOption()
    {
        assertEquals("--rate: must be an integer (was 'fast')", refused("--rate", "fast"));
        assertEquals("--rate: must be at least 1 (was '0')", refused("--rate", "0"));
        assertTrue(refused("--rat", "100").startsWith("--rat: unknown option for loadgen"), refused("--rat", "100"));
        assertEquals("--transport: must be sbe or fix or rest or rest-ws (was 'udp')", refused("--transport", "udp"));
        assertEquals("--api-keys: required with --transport rest and rest-ws (the users' API keys file)",
            refused("--transport", "rest"));
        assertEquals("--api-keys: only with --transport rest and rest-ws", refused("--api-keys", "data/api-keys"));
        assertEquals("--orders quotes needs --transport sbe", refused("--orders", "quotes", "--transport", "rest",
            "--api-keys", "k"));
        assertEquals("--orders: must be cross or ioc or quotes (was 'limit')", refused("--orders", "limit"));
        assertEquals("--orders quotes needs --transport sbe", refused("--orders", "quotes", "--transport", "fix"));
        assertTrue(refused("--reference-data", "/nonexistent.yml").startsWith("--reference-data: "),
            refused("--reference-data", "/nonexistent.yml"));
        assertEquals("--sbe-port: must be a port, 1..65535 (was '70000')", refused("--sbe-port", "70000"));
        assertEquals("--instruments: the venue has 3 (was '4')", refused("--instruments", "4"));
        assertEquals("--accounts: the venue has 5 demo accounts (was '6')", refused("--accounts", "6"));
        assertEquals("--orders cross needs --accounts 2 or more", refused("--accounts", "1"));
        assertEquals("--rate: given twice", refused("--rate", "1", "--rate", "2"));
        assertEquals("--duration: needs a value", refused("--duration"));
        assertTrue(refused("100").contains("not also [100]"), refused("100"));
    }

    @Test
    void quotesComeFromTheMarketMakersOnlyAndAnotherFileSetsTheInstruments() throws Exception
    {
        final LoadGenerator.Options quotes = LoadGenerator.Options.parse(new String[]{ "--orders", "quotes",
            "--accounts", "5" });
        assertEquals(List.of("maker1", "maker2"), quotes.users().stream().map(DemoData.Account::user).toList());
        assertEquals(List.of("trader1", "trader2", "fixtrader", "maker1"), LoadGenerator.Options.parse(
            new String[]{ "--accounts", "4" }).users().stream().map(DemoData.Account::user).toList());

        final Path file = Path.of("..", "bench", "reference-data", "quotes.yml");
        final LoadGenerator.Options tenInstruments = LoadGenerator.Options.parse(new String[]{ "--orders", "quotes",
            "--instruments", "10", "--reference-data", file.toString() });
        assertEquals(10, tenInstruments.venue().instruments().size());
        assertEquals("--instruments: the venue has 10 (was '11')", refused("--instruments", "11",
            "--reference-data", file.toString()));
    }

    private static String refused(final String... args)
    {
        return assertThrows(UsageException.class, () -> LoadGenerator.Options.parse(args)).getMessage();
    }
}
