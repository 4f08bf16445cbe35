package io.ringex.app;

import java.util.Properties;

import io.aeron.exceptions.ConfigurationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keys the all-in-one takes: the engine's and the gateway's it does not set itself, and the dashboard's; an
 * unknown key, a key the venue sets itself and a second engine are refused naming the key.
 */
class VenueKeysTest
{
    @Test
    void theEnginesTheGatewaysAndTheDashboardsKeysAreTaken()
    {
        VenueKeys.check(keys("ringex.engine.input.ring.capacity", "64k",
            "ringex.engine.idle.strategy", "yield",
            "ringex.gateway.throttle.messages.per.second", "1000000",
            "ringex.gateway.heartbeat.interval", "2s",
            "ringex.gateway.user.alice.accounts", "1",
            "ringex.gateway.instrument.9", "ABC-USD,2",
            "ringex.risk.live.push-interval", "100ms",
            "ringex.jvm.flags", "-Xmx1g",
            "java.version", "17"));
    }

    @Test
    void aTypoedKeyIsRefusedNamingTheClosest()
    {
        final String renamed = refused("ringex.gateway.heartbeat.interval.ms", "1000");
        assertTrue(renamed.contains("did you mean ringex.gateway.heartbeat.interval?"), renamed);
        final String engine = refused("ringex.engine.idle.strategi", "yield");
        assertTrue(engine.contains("did you mean ringex.engine.idle.strategy?"), engine);
        assertTrue(refused("ringex.gatway.id", "2").contains("ringex.gatway.id: unknown key"),
            refused("ringex.gatway.id", "2"));
    }

    @Test
    void aKeyTheVenueSetsItselfIsRefusedRatherThanOverriddenSilently()
    {
        assertTrue(refused("ringex.gateway.fix.port", "9999").endsWith(
            "ringex.gateway.fix.port: the all-in-one sets this itself (use --fix-port=N)"),
            refused("ringex.gateway.fix.port", "9999"));
        assertTrue(refused("ringex.engine.journal.dir", "/tmp/j").endsWith("(use --data=DIR)"),
            refused("ringex.engine.journal.dir", "/tmp/j"));
        assertTrue(refused("ringex.engine.replication.mode", "SYNC").contains("the all-in-one sets this itself"),
            refused("ringex.engine.replication.mode", "SYNC"));
        assertTrue(refused("ringex.risk.aeron.embeddedDriver", "true").contains("the all-in-one sets this itself"),
            refused("ringex.risk.aeron.embeddedDriver", "true"));
        // the venue's admin keys are its data directory's, for the engine and the dashboard alike
        assertTrue(refused("ringex.engine.admin.keys.file", "/tmp/k").endsWith(
            "ringex.engine.admin.keys.file: the all-in-one sets this itself (the data directory's admin.keys: use " +
            "--data=DIR)"), refused("ringex.engine.admin.keys.file", "/tmp/k"));
        assertTrue(refused("ringex.risk.actions.admin-key-file", "/tmp/k").contains("the all-in-one sets this itself"),
            refused("ringex.risk.actions.admin-key-file", "/tmp/k"));
        assertTrue(refused("ringex.engine.marketdata.request.channel", "aeron:ipc")
            .contains("the all-in-one sets this itself"), refused("ringex.engine.marketdata.request.channel", "x"));
        assertTrue(refused("ringex.gateway.engine.2.ingress.channel", "aeron:ipc").contains("runs one engine"),
            refused("ringex.gateway.engine.2.ingress.channel", "aeron:ipc"));
    }

    private static String refused(final String key, final String value)
    {
        return assertThrows(ConfigurationException.class, () -> VenueKeys.check(keys(key, value))).getMessage();
    }

    private static Properties keys(final String... keyValues)
    {
        final Properties keys = new Properties();
        for (int i = 0; i < keyValues.length; i += 2)
        {
            keys.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return keys;
    }
}
