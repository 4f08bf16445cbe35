package io.ringex.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.SystemPropertiesGuard;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ./ringex gateway file.properties} does with its configuration before the gateway starts
 * ({@link GatewayMain#configure}): a typo'd key, a key renamed since, a malformed value and an out-of-range one each
 * stop it naming the key; durations and sizes take their units; the command line wins over the files, and a later
 * file over an earlier one.
 */
class GatewayMainTest
{
    @RegisterExtension
    final SystemPropertiesGuard guard = new SystemPropertiesGuard();

    @TempDir
    Path dir;

    @Test
    void aTypoedKeyStopsTheGatewayNamingTheKeyAndTheOneMeant() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.gateway.throtle.burst=10"));
        assertTrue(ex.getMessage().contains(
            "ringex.gateway.throtle.burst: unknown key (did you mean ringex.gateway.throttle.burst?)"),
            ex.getMessage());
    }

    @Test
    void aTypoInAFamilyIsRefusedNamingTheFamily() throws IOException
    {
        final ConfigurationException user = refused(file("ringex.gateway.user.alice.acounts=1"));
        assertTrue(user.getMessage().contains("did you mean ringex.gateway.user.<name>.accounts?"), user.getMessage());

        final ConfigurationException engine = refused(file("ringex.gateway.engine.2.egress.chanel=aeron:ipc"));
        assertTrue(engine.getMessage().contains("did you mean ringex.gateway.engine.<n>.egress.channel?"),
            engine.getMessage());
    }

    @Test
    void theKeysRenamedToTakeDurationsAreRefusedNamingTheirNewNames() throws IOException
    {
        for (final String renamed : new String[]{ "heartbeat.interval", "backpressure.timeout", "slow.client.timeout",
            "logon.timeout", "engine.status.timeout", "logon.lockout", "logon.max.lockout", "logon.failure.delay" })
        {
            final ConfigurationException ex = refused(file("ringex.gateway." + renamed + ".ms=1000"));
            assertTrue(ex.getMessage().contains("did you mean ringex.gateway." + renamed + "?"), ex.getMessage());
        }
    }

    @Test
    void aMalformedValueStopsTheGatewayNamingTheKeyAndTheValue() throws IOException
    {
        final ConfigurationException size = refused(file("ringex.gateway.sbe.response.term.length=4mb"));
        assertTrue(size.getMessage().contains("ringex.gateway.sbe.response.term.length: must be a size") &&
            size.getMessage().contains("'4mb'"), size.getMessage());

        final ConfigurationException duration = refused(file("ringex.gateway.heartbeat.interval=1 second"));
        assertTrue(duration.getMessage().contains("ringex.gateway.heartbeat.interval: must be a duration"),
            duration.getMessage());

        final ConfigurationException number = refused(file("ringex.gateway.fix.port=98800x"));
        assertTrue(number.getMessage().contains("ringex.gateway.fix.port: must be an integer (was '98800x')"),
            number.getMessage());

        final ConfigurationException bool = refused(file("ringex.gateway.fix.enabled=yes"));
        assertTrue(bool.getMessage().contains("ringex.gateway.fix.enabled: must be true or false"),
            bool.getMessage());

        final ConfigurationException idle = refused(file("ringex.gateway.idle.strategy=busyspin"));
        assertTrue(idle.getMessage().contains("ringex.gateway.idle.strategy: must be backoff, spin, yield"),
            idle.getMessage());
    }

    @Test
    void aDurationWithoutAUnitIsNanosecondsSoAnOldMillisecondValueIsRefused() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.gateway.backpressure.timeout=100"));
        assertTrue(ex.getMessage().endsWith("ringex.gateway.backpressure.timeout: must be whole milliseconds, e.g. " +
            "100ms or 2s (a number without a unit is nanoseconds) (was '100')"), ex.getMessage());
    }

    @Test
    void aValueOutOfRangeStopsTheGatewayNamingTheKey() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.gateway.heartbeat.interval=20m"));
        assertTrue(ex.getMessage().contains("ringex.gateway.heartbeat.interval"), ex.getMessage());

        final ConfigurationException slow = refused(file("ringex.gateway.heartbeat.interval=5ms"));
        assertTrue(slow.getMessage().endsWith("ringex.gateway.heartbeat.interval: must be 10ms..600s (was '5ms')"),
            slow.getMessage());
    }

    @Test
    void durationsSizesAndIdleStrategiesTakeTheirUnitsAndAgronasNames() throws IOException
    {
        try (GatewayContext ctx = GatewayMain.configure(file(
            "ringex.gateway.heartbeat.interval=2s",
            "ringex.gateway.backpressure.timeout=250ms",
            "ringex.gateway.slow.client.timeout=0",
            "ringex.gateway.logon.timeout=3s",
            "ringex.gateway.engine.status.timeout=1500ms",
            "ringex.gateway.logon.lockout=30s",
            "ringex.gateway.logon.max.lockout=600s",
            "ringex.gateway.logon.failure.delay=500ms",
            "ringex.gateway.max.message.length=2k",
            "ringex.gateway.fix.offline.hold.bytes=4m",
            "ringex.gateway.sbe.response.term.length=1m",
            "ringex.gateway.idle.strategy=spin")))
        {
            assertEquals(TimeUnit.SECONDS.toNanos(2), ctx.heartbeatIntervalNs());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(250), ctx.backPressureTimeoutNs());
            assertEquals(0, ctx.slowClientTimeoutNs());
            assertEquals(TimeUnit.SECONDS.toNanos(3), ctx.logonTimeoutNs());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(1500), ctx.engineStatusTimeoutNs());
            assertEquals(30_000, ctx.logonPolicy().lockoutMs());
            assertEquals(600_000, ctx.logonPolicy().maxLockoutMs());
            assertEquals(500, ctx.logonPolicy().failureDelayMs());
            assertEquals(2048, ctx.maxMessageLength());
            assertEquals(4 << 20, ctx.fixOfflineHoldBytes());
            assertEquals(1 << 20, ctx.sbeResponseTermLength());
            assertInstanceOf(BusySpinIdleStrategy.class, ctx.idleStrategy());
        }
        System.setProperty("ringex.gateway.idle.strategy", "sleep-ms");
        try (GatewayContext ctx = GatewayMain.configure())
        {
            assertInstanceOf(SleepingMillisIdleStrategy.class, ctx.idleStrategy());
        }
    }

    @Test
    void theCommandLineWinsOverTheFilesAndALaterFileOverAnEarlierOne() throws IOException
    {
        final String hash = CredentialHash.hash("pw".toCharArray(), 10);
        final String gateway = file("ringex.gateway.id=1", "ringex.gateway.fix.port=9881",
            "ringex.gateway.throttle.burst=5");
        final String users = file("ringex.gateway.throttle.burst=7", "ringex.gateway.user.alice.credential=" + hash,
            "ringex.gateway.user.alice.accounts=100");
        System.setProperty("ringex.gateway.id", "4");
        try (GatewayContext ctx = GatewayMain.configure(gateway, users))
        {
            assertEquals(4, ctx.gatewayId(), "-D wins over every file");
            assertEquals(9881, ctx.fixPort());
            assertEquals(7, ctx.throttleBurst(), "the later file wins");
            assertEquals(100, ctx.users().user("alice").defaultAccount());
        }
    }

    @Test
    void aMissingFileIsRefusedRatherThanStartingOnDefaults()
    {
        final String missing = dir.resolve("gatewya.properties").toString();
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> GatewayMain.configure(missing));
        assertTrue(ex.getMessage().contains(missing), ex.getMessage());
    }

    @Test
    void aKeySetOnTheCommandLineIsCheckedToo()
    {
        System.setProperty("ringex.gateway.fix.prot", "9880");
        final ConfigurationException ex = assertThrows(ConfigurationException.class, GatewayMain::configure);
        assertTrue(ex.getMessage().contains("did you mean ringex.gateway.fix.port?"), ex.getMessage());
    }

    @Test
    void anEngineKeyIsNotAGatewayKey()
    {
        System.setProperty("ringex.engine.idle.strategy", "spin");
        assertThrows(ConfigurationException.class, GatewayMain::configure);
    }

    /** Each refusal on its own: the files' keys stay in the system properties, as they would in the process. */
    private ConfigurationException refused(final String file)
    {
        final Properties before = (Properties)System.getProperties().clone();
        try
        {
            return assertThrows(ConfigurationException.class, () -> GatewayMain.configure(file).close());
        }
        finally
        {
            System.setProperties(before);
        }
    }

    private String file(final String... lines) throws IOException
    {
        final Path file = Files.createTempFile(dir, "gateway", ".properties");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file.toString();
    }
}
