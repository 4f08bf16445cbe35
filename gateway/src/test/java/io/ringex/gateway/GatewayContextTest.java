package io.ringex.gateway;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.codecs.UserRole;
import io.ringex.testing.SystemPropertiesGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GatewayContext} as the system properties configure it: its defaults, the user, instrument and engine
 * families, and {@code conclude()} naming the bad key.
 */
class GatewayContextTest
{
    @RegisterExtension
    final SystemPropertiesGuard guard = new SystemPropertiesGuard();

    @Test
    void defaultsMatchTheArchitecture()
    {
        try (GatewayContext ctx = new GatewayContext().conclude())
        {
            assertEquals("aeron:udp?endpoint=localhost:40200", ctx.clientChannel());
            assertEquals(2001, ctx.clientStreamId());
            assertEquals("aeron:udp?endpoint=localhost:40100", ctx.engineIngressChannel());
            assertEquals(1001, ctx.engineIngressStreamId());
            assertEquals("aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic",
                ctx.engineEgressChannel());
            assertEquals(1002, ctx.engineEgressStreamId());
            assertEquals(ctx.engineEgressChannel(), ctx.marketDataChannel());
            assertEquals(1003, ctx.marketDataStreamId());
            assertEquals(ctx.throttleMessagesPerSecond(), ctx.throttleBurst());
            assertEquals(TimeUnit.SECONDS.toNanos(1), ctx.heartbeatIntervalNs());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(100), ctx.backPressureTimeoutNs());
            assertEquals(4 << 20, ctx.sbeResponseTermLength());
            assertNotNull(ctx.idleStrategy());
        }
    }

    @Test
    void readsUsersAndInstruments()
    {
        final String hash = CredentialHash.hash("pw".toCharArray(), 10);
        set("ringex.gateway.id", "9",
            "ringex.gateway.throttle.messages.per.second", "50",
            "ringex.gateway.user.alice.credential", hash,
            "ringex.gateway.user.alice.accounts", "100, 101",
            "ringex.gateway.user.alice.fix.sender.comp.id", "ALICE",
            "ringex.gateway.user.alice.fix.cancel.on.disconnect", "true",
            "ringex.gateway.user.alice.cancel.on.disconnect.grace.ms", "600000",
            "ringex.gateway.user.bob.credential", hash,
            "ringex.gateway.user.bob.accounts", "200",
            "ringex.gateway.user.bob.fix.target.comp.id", "VENUE",
            "ringex.gateway.user.bob.role", "Drop_Copy",
            "ringex.gateway.user.carl.credential", hash,
            "ringex.gateway.user.carl.accounts", "300",
            "ringex.gateway.user.carl.role", "drop-copy",
            "ringex.gateway.instrument.1", "BTC-USD,2");
        try (GatewayContext ctx = new GatewayContext().conclude())
        {
            assertEquals(9, ctx.gatewayId());
            assertEquals(50, ctx.throttleMessagesPerSecond());
            assertEquals(100, ctx.users().user("alice").defaultAccount());
            assertTrue(ctx.users().user("alice").mayTrade(101));
            assertTrue(ctx.users().user("alice").fixCancelOnDisconnect());
            assertEquals(600_000, ctx.users().user("alice").cancelOnDisconnectGraceMs());
            assertEquals(0, ctx.users().user("bob").cancelOnDisconnectGraceMs(), "no grace unless said otherwise");
            assertEquals("RINGEX", ctx.users().user("alice").fixTargetCompId());
            assertEquals(ctx.users().user("alice"), ctx.users().userBySenderCompId("ALICE"));
            assertFalse(ctx.users().user("bob").fixCancelOnDisconnect());
            assertEquals("VENUE", ctx.users().user("bob").fixTargetCompId());
            assertEquals(UserRole.TRADER, ctx.users().user("alice").role(), "trader unless said otherwise");
            assertEquals(UserRole.DROP_COPY, ctx.users().user("bob").role(), "drop_copy, the alias");
            assertEquals(UserRole.DROP_COPY, ctx.users().user("carl").role(), "drop-copy, the spelling documented");
            final InstrumentDirectory instruments = new InstrumentDirectory();
            ctx.populate(instruments);
            assertEquals(1, instruments.instrumentId("BTC-USD"));
            assertEquals(2, instruments.priceScale(1));
        }
    }

    @Test
    void artiosMonitoringFilesLiveInADirectoryOfTheGatewaysOwnThatARestartReuses(@TempDir final Path dir)
    {
        try (GatewayContext first = withFixLogDir(dir.resolve("gw1/fix"));
            GatewayContext restarted = withFixLogDir(dir.resolve("gw1/../gw1/fix"));
            GatewayContext other = withFixLogDir(dir.resolve("gw2/fix")))
        {
            assertEquals(first.fixMonitoringDir(), restarted.fixMonitoringDir(), "the same gateway, the same files");
            assertNotEquals(first.fixMonitoringDir(), other.fixMonitoringDir(), "another gateway, other files");
            assertEquals(Path.of(first.aeronDirectoryName()).toAbsolutePath().getParent(),
                first.fixMonitoringDir().getParent(), "next to the Aeron directory, memory-backed");
        }
    }

    private static GatewayContext withFixLogDir(final Path logDir)
    {
        System.setProperty(GatewayContext.Configuration.FIX_LOG_DIR_PROP_NAME, logDir.toString());
        return new GatewayContext().conclude();
    }

    @Test
    void concludeNamesTheBadKey()
    {
        assertBad("ringex.gateway.throttle.messages.per.second", "ringex.gateway.throttle.messages.per.second", "0");
        assertBad("ringex.gateway.id", "ringex.gateway.id", "70000");
        assertBad("ringex.gateway.client.channel", "ringex.gateway.client.channel", "udp://x");
        assertBad("ringex.gateway.fix.port", "ringex.gateway.fix.port", "abc");
        assertBad("ringex.gateway.fix.offline.hold.bytes", "ringex.gateway.fix.offline.hold.bytes", "5000");
        assertBad("ringex.gateway.idle.strategy", "ringex.gateway.idle.strategy", "spinny");
        assertBad("ringex.gateway.heartbeat.interval", "ringex.gateway.heartbeat.interval", "5ms");
        assertBad("ringex.gateway.logon.max.lockout", "ringex.gateway.logon.lockout", "10s",
            "ringex.gateway.logon.max.lockout", "5s");
        assertBad("ringex.gateway.logon.failure.delay", "ringex.gateway.logon.failure.delay", "31s");
        assertBad("ringex.gateway.sbe.response.term.length", "ringex.gateway.sbe.response.term.length", "3m");
        assertBad("ringex.gateway.logon.max.pending.per.address", "ringex.gateway.logon.max.pending.per.address", "0");
        assertBad("ringex.gateway.logon.max.pending.per.address", "ringex.gateway.logon.max.pending.per.address",
            "eight");
        assertBad("ringex.gateway.sbe.max.sessions.per.user", "ringex.gateway.sbe.max.sessions.per.user", "0");
        assertBad("ringex.gateway.sbe.max.sessions.per.user", "ringex.gateway.sbe.max.sessions.per.user", "1025");
        assertBad("ringex.gateway.fix.heartbeat.min", "ringex.gateway.fix.heartbeat.min", "0s");
        assertBad("ringex.gateway.fix.heartbeat.min", "ringex.gateway.fix.heartbeat.min", "1500ms");
        assertBad("ringex.gateway.fix.heartbeat.max", "ringex.gateway.fix.heartbeat.max", "3601s");
        assertBad("ringex.gateway.fix.heartbeat.max", "ringex.gateway.fix.heartbeat.min", "30s",
            "ringex.gateway.fix.heartbeat.max", "10s");
        assertBad("ringex.gateway.user.eve.credential", "ringex.gateway.user.eve.credential", "plaintext",
            "ringex.gateway.user.eve.accounts", "1");
        assertBad("ringex.gateway.user.eve.accounts", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10));
        assertBad("ringex.gateway.user.eve.accounts", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1,two");
        assertBad("ringex.gateway.user.eve.fix.cancel.on.disconnect", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.fix.cancel.on.disconnect", "yes");
        assertBad("ringex.gateway.user.eve.credentials", "ringex.gateway.user.eve.credentials", "plaintext");
        assertBad("ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "600001");
        assertBad("ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "-1");
        assertBad("ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.cancel.on.disconnect.grace.ms", "5s");
        assertBad("ringex.gateway.user.eve.cancel.on.disconnect.grace", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.cancel.on.disconnect.grace", "5000");
        assertBad("ringex.gateway.user.eve.role", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.role", "null_val");
        assertBad("ringex.gateway.user.eve.role", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10), "ringex.gateway.user.eve.accounts", "1",
            "ringex.gateway.user.eve.role", "auditor");
        assertBad("ringex.gateway.instrument.3", "ringex.gateway.instrument.3", "ETH,12");
        assertBad("ringex.gateway.instrument.4", "ringex.gateway.instrument.4", "ETH");
        assertBad("ringex.gateway.instrument.ETH", "ringex.gateway.instrument.ETH", "ETH,2");
    }

    @Test
    void durationsSetInCodeAreNanosecondsAndARefusedOneIsShownInAReadableUnit()
    {
        try (GatewayContext ctx = new GatewayContext().heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(2))
            .fixHeartbeatRangeNs(TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(60)).conclude())
        {
            assertEquals(TimeUnit.SECONDS.toNanos(2), ctx.heartbeatIntervalNs());
            assertEquals(TimeUnit.SECONDS.toNanos(5), ctx.fixHeartbeatMinNs());
        }

        final ConfigurationException tooShort = assertThrows(ConfigurationException.class,
            () -> new GatewayContext().heartbeatIntervalNs(TimeUnit.MICROSECONDS.toNanos(1500)).conclude().close());
        assertTrue(tooShort.getMessage().endsWith(
            "ringex.gateway.heartbeat.interval: must be 10ms..600s (was '1500us')"), tooShort.getMessage());

        final GatewayContext partSecondRange = new GatewayContext()
            .fixHeartbeatRangeNs(TimeUnit.MILLISECONDS.toNanos(1500), TimeUnit.SECONDS.toNanos(60));
        final ConfigurationException partSecond = assertThrows(ConfigurationException.class,
            partSecondRange::conclude);
        assertTrue(partSecond.getMessage().endsWith(
            "ringex.gateway.fix.heartbeat.min: must be whole seconds (HeartBtInt is) (was '1500ms')"),
            partSecond.getMessage());

        final ConfigurationException negative = assertThrows(ConfigurationException.class,
            () -> new GatewayContext().backPressureTimeoutNs(-1).conclude().close());
        assertTrue(negative.getMessage().endsWith(
            "ringex.gateway.backpressure.timeout: must be at least 0ms (was '-1ns')"), negative.getMessage());
    }

    @Test
    void aUserAddedInCodeIsCheckedToo()
    {
        try (GatewayContext ctx = new GatewayContext().addUser(new User("eve", "plaintext",
            new long[]{ 1 }, null, "RINGEX")))
        {
            final ConfigurationException ex = assertThrows(ConfigurationException.class, ctx::conclude);
            assertTrue(ex.getMessage().contains("ringex.gateway.user.eve.credential"), ex.getMessage());
            assertFalse(ex.getMessage().contains("plaintext"), ex.getMessage());
        }
    }

    @Test
    void theSingleEngineKeysAreEngineOneAndNumberedKeysAddItsPeer()
    {
        set("ringex.gateway.engine.ingress.channel", "aeron:udp?endpoint=a:1");
        try (GatewayContext one = new GatewayContext().conclude())
        {
            assertEquals(1, one.engines().size());
            assertEquals("aeron:udp?endpoint=a:1", one.engines().get(0).ingressChannel());
            assertEquals(1004, one.engines().get(0).statusStreamId());
            assertEquals(one.engineEgressChannel(), one.engines().get(0).statusChannel());
        }

        set("ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1",
            "ringex.gateway.engine.2.egress.channel", "aeron:udp?control=b:2",
            "ringex.gateway.engine.2.marketdata.request.channel", "aeron:udp?endpoint=b:3",
            "ringex.gateway.engine.2.status.stream", "3004");
        try (GatewayContext two = new GatewayContext().conclude())
        {
            assertEquals(2, two.engines().size());
            assertEquals(GatewayContext.Configuration.ENGINE_MARKETDATA_REQUEST_CHANNEL_DEFAULT,
                two.engines().get(0).marketDataRequestChannel());
            final EngineEndpoint second = two.engines().get(1);
            assertEquals("aeron:udp?endpoint=b:3", second.marketDataRequestChannel());
            assertEquals("aeron:udp?endpoint=b:1", second.ingressChannel());
            assertEquals(1001, second.ingressStreamId());
            assertEquals("aeron:udp?control=b:2", second.egressChannel());
            assertEquals("aeron:udp?control=b:2", second.marketDataChannel());
            assertEquals("aeron:udp?control=b:2", second.statusChannel());
            assertEquals(3004, second.statusStreamId());
        }
    }

    @Test
    void badEngineListsNameTheKey()
    {
        assertBad("ringex.gateway.engine.2.egress.channel",
            "ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1");
        assertBad("ringex.gateway.engine.<n>",
            "ringex.gateway.engine.3.ingress.channel", "aeron:udp?endpoint=b:1",
            "ringex.gateway.engine.3.egress.channel", "aeron:udp?endpoint=b:2");
        assertBad("ringex.gateway.engine.2.ingress.channel",
            "ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=localhost:40100",
            "ringex.gateway.engine.2.egress.channel", "aeron:udp?endpoint=b:2");
        assertBad("ringex.gateway.engine.2.egress.strem",
            "ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1",
            "ringex.gateway.engine.2.egress.channel", "aeron:udp?endpoint=b:2",
            "ringex.gateway.engine.2.egress.strem", "5");
        assertBad("ringex.gateway.engine.2.status.stream",
            "ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1",
            "ringex.gateway.engine.2.egress.channel", "aeron:udp?endpoint=b:2",
            "ringex.gateway.engine.2.status.stream", "x");
        assertBad("ringex.gateway.engine.9.ingress.channel", "ringex.gateway.engine.9.ingress.channel",
            "aeron:udp?endpoint=b:1");
        assertBad("ringex.gateway.engine.0.ingress.channel", "ringex.gateway.engine.0.ingress.channel",
            "aeron:udp?endpoint=b:1");
        assertBad("ringex.gateway.engine.status.timeout", "ringex.gateway.engine.status.timeout", "0");
        // FIX market data recovers from each engine's recovery service: the gateway must know where it is
        assertBad("ringex.gateway.engine.2.marketdata.request.channel",
            "ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1",
            "ringex.gateway.engine.2.egress.channel", "aeron:udp?endpoint=b:2");
        assertBad("ringex.gateway.marketdata.recovery.channel",
            "ringex.gateway.marketdata.recovery.channel", "udp://gateway:0");
    }

    private static void set(final String... keyValues)
    {
        for (int i = 0; i < keyValues.length; i += 2)
        {
            System.setProperty(keyValues[i], keyValues[i + 1]);
        }
    }

    /** The keys set, the context is built and concluded: refused naming the key, never showing a credential. */
    private static void assertBad(final String key, final String... keyValues)
    {
        System.getProperties().stringPropertyNames().stream().filter((name) -> name.startsWith("ringex."))
            .forEach(System::clearProperty);
        set(keyValues);
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> new GatewayContext().conclude().close());
        assertTrue(ex.getMessage().contains(key), ex.getMessage());
        assertFalse(ex.getMessage().contains("plaintext"), "credentials never echoed: " + ex.getMessage());
        assertFalse(ex.getMessage().contains("pbkdf2"), "credentials never echoed: " + ex.getMessage());
    }
}
