package io.ringex.app;

import java.util.Properties;

import io.aeron.exceptions.ConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the all-in-one checks before it starts anything ({@link RingexApplication#configure}): the dashboard's keys
 * as Spring binds them, its own and the venue's keys, from the command line and the system properties.
 */
class RingexApplicationTest
{
    private Properties saved;

    @BeforeEach
    void clearRingexKeys()
    {
        saved = (Properties)System.getProperties().clone();
        System.getProperties().stringPropertyNames().stream().filter((key) -> key.startsWith("ringex."))
            .forEach(System::clearProperty);
    }

    @AfterEach
    void restore()
    {
        System.setProperties(saved);
    }

    @Test
    void theVenuesKeysOnTheCommandLineBecomeSystemProperties()
    {
        RingexApplication.configure(new String[]{ "--ringex.gateway.throttle.messages.per.second=5000",
            "--ringex.risk.live.push-interval=100ms" });
        assertEquals("5000", System.getProperty("ringex.gateway.throttle.messages.per.second"));
    }

    @Test
    void aTypoedDashboardKeyIsRefusedInOneLineNamingIt()
    {
        final BindException ex = assertThrows(BindException.class,
            () -> RingexApplication.configure(new String[]{ "--ringex.risk.live.push-intervall=1s" }));
        final String line = RingexApplication.bindingMessage(ex);
        assertTrue(line.contains("ringex.risk.live.push-intervall") && !line.contains("\n"), line);

        System.setProperty("ringex.risk.engine.status-timout", "5s");
        final BindException property = assertThrows(BindException.class,
            () -> RingexApplication.configure(new String[0]));
        assertTrue(RingexApplication.bindingMessage(property).contains("ringex.risk.engine.status-timout"),
            RingexApplication.bindingMessage(property));
    }

    @Test
    void aMalformedDashboardValueIsRefusedNamingTheKey()
    {
        final BindException ex = assertThrows(BindException.class,
            () -> RingexApplication.configure(new String[]{ "--ringex.risk.live.push-interval=fast" }));
        assertTrue(RingexApplication.bindingMessage(ex).contains("ringex.risk.live.push-interval"),
            RingexApplication.bindingMessage(ex));
    }

    @Test
    void aTypoedVenueKeyOnTheCommandLineOrAmongTheSystemPropertiesIsRefused()
    {
        final ConfigurationException arg = assertThrows(ConfigurationException.class,
            () -> RingexApplication.configure(new String[]{ "--ringex.gateway.throtle.burst=10" }));
        assertTrue(arg.getMessage().contains("did you mean ringex.gateway.throttle.burst?"), arg.getMessage());

        System.setProperty("ringex.engine.input.ring.capacty", "64k");
        final ConfigurationException property = assertThrows(ConfigurationException.class,
            () -> RingexApplication.configure(new String[0]));
        assertTrue(property.getMessage().contains("did you mean ringex.engine.input.ring.capacity?"),
            property.getMessage());
    }

    @Test
    void aDashboardKeyTheVenueSetsIsRefusedOnTheCommandLineWhereItWouldWin()
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> RingexApplication.configure(new String[]{ "--ringex.risk.streams.risk-channel=aeron:udp?x" }));
        assertTrue(ex.getMessage().contains("ringex.risk.streams.risk-channel: the all-in-one sets this itself"),
            ex.getMessage());
    }
}
