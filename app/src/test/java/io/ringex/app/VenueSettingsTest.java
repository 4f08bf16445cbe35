package io.ringex.app;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.ringex.common.config.CommandLineOptions.UsageException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The all-in-one's command line ({@code ./ringex demo ...}): its own options, the keys it passes on, and what it
 * refuses, naming the option.
 */
class VenueSettingsTest
{
    @Test
    void defaultsAndItsOwnOptions()
    {
        final VenueSettings defaults = VenueSettings.parse(new String[0]);
        assertEquals(Path.of("data").toAbsolutePath(), defaults.dataDirectory());
        assertEquals(9880, defaults.fixPort());
        assertEquals(40200, defaults.sbePort());
        assertEquals(8080, defaults.httpPort());
        assertFalse(defaults.demoFlow());

        final VenueSettings settings = VenueSettings.parse(new String[]{ "--data=/tmp/venue", "--fix-port=9999",
            "--sbe-port=40300", "--server.port=0", "--demo-flow" });
        assertEquals(Path.of("/tmp/venue"), settings.dataDirectory());
        assertEquals(9999, settings.fixPort());
        assertEquals(40300, settings.sbePort());
        assertEquals(0, settings.httpPort());
        assertTrue(settings.demoFlow());
        assertEquals(List.of("--server.port=0"), settings.springArgs(), "the dashboard's port is Spring's too");
    }

    @Test
    void ringexKeysAreTheVenuesAndSpringsOwnKeysPassToSpring()
    {
        final VenueSettings settings = VenueSettings.parse(new String[]{
            "--ringex.gateway.throttle.messages.per.second=5000", "--ringex.engine.idle.strategy=yield",
            "--ringex.risk.live.push-interval=100ms", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
            "--management.endpoints.web.exposure.include=health", "--debug" });
        assertEquals(Map.of("ringex.gateway.throttle.messages.per.second", "5000",
            "ringex.engine.idle.strategy", "yield"), settings.ringexKeys());
        assertEquals(List.of("--ringex.risk.live.push-interval=100ms", "--spring.main.banner-mode=off",
            "--logging.level.root=WARN", "--management.endpoints.web.exposure.include=health", "--debug"),
            settings.springArgs());
    }

    @Test
    void aMalformedPortNamesTheOption()
    {
        assertEquals("--fix-port: must be a port, 1..65535 (was 'abc')", refused("--fix-port=abc"));
        assertEquals("--sbe-port: must be a port, 1..65535 (was '70000')", refused("--sbe-port=70000"));
        assertEquals("--server.port: must be a port, 0..65535 (was '80a')", refused("--server.port=80a"));
        assertEquals("--fix-port: needs a value (--fix-port=...)", refused("--fix-port"));
        assertEquals("--data: needs a value (--data=...)", refused("--data="));
        assertEquals("--demo-flow: takes no value (was 'yes')", refused("--demo-flow=yes"));
    }

    @Test
    void anUnknownOptionIsRefusedNamingTheClosest()
    {
        assertTrue(refused("--fix-prot=9880").startsWith("--fix-prot: unknown option of ringex demo (did you " +
            "mean --fix-port?)"), refused("--fix-prot=9880"));
        assertTrue(refused("--demoflow").contains("did you mean --demo-flow?"), refused("--demoflow"));
        assertTrue(refused("--color=red").startsWith("--color: unknown option of ringex demo; it takes"),
            refused("--color=red"));
        assertTrue(refused("data").startsWith("'data': not an option of ringex demo"), refused("data"));
    }

    @Test
    void anOptionGivenTwiceIsRefused()
    {
        assertEquals("--fix-port: given twice", refused("--fix-port=1", "--fix-port=2"));
        assertEquals("--ringex.gateway.id: given twice", refused("--ringex.gateway.id=1", "--ringex.gateway.id=2"));
    }

    private static String refused(final String... args)
    {
        return assertThrows(UsageException.class, () -> VenueSettings.parse(args)).getMessage();
    }
}
