package io.ringex.gateway;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.gateway.auth.CredentialHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatewayContextTest
{
    @Test
    void defaultsMatchTheArchitecture()
    {
        final GatewayContext ctx = GatewayContext.fromProperties(new Properties()).conclude();
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
        assertNotNull(ctx.idleStrategy());
    }

    @Test
    void loadsUsersAndInstrumentsFromAFile(@TempDir final Path dir) throws Exception
    {
        final String hash = CredentialHash.hash("pw".toCharArray(), 10);
        final Path file = dir.resolve("gateway.properties");
        Files.writeString(file, String.join("\n",
            "ringex.gateway.id=9",
            "ringex.gateway.throttle.messages.per.second=50",
            "ringex.gateway.user.alice.credential=" + hash,
            "ringex.gateway.user.alice.accounts=100, 101",
            "ringex.gateway.user.alice.fix.sender.comp.id=ALICE",
            "ringex.gateway.user.alice.fix.cancel.on.disconnect=true",
            "ringex.gateway.user.bob.credential=" + hash,
            "ringex.gateway.user.bob.accounts=200",
            "ringex.gateway.instrument.1=BTC-USD,2"));
        final GatewayContext ctx = GatewayContext.load(file).conclude();
        assertEquals(9, ctx.gatewayId());
        assertEquals(50, ctx.throttleMessagesPerSecond());
        assertEquals(100, ctx.users().user("alice").defaultAccount());
        assertTrue(ctx.users().user("alice").mayTrade(101));
        assertTrue(ctx.users().user("alice").fixCancelOnDisconnect());
        assertEquals("RINGEX", ctx.users().user("alice").fixTargetCompId());
        assertEquals(ctx.users().user("alice"), ctx.users().userBySenderCompId("ALICE"));
        assertFalse(ctx.users().user("bob").fixCancelOnDisconnect());
        final InstrumentDirectory instruments = new InstrumentDirectory();
        ctx.populate(instruments);
        assertEquals(1, instruments.instrumentId("BTC-USD"));
        assertEquals(2, instruments.priceScale(1));
    }

    @Test
    void artiosMonitoringFilesLiveInADirectoryOfTheGatewaysOwnThatARestartReuses(@TempDir final Path dir)
    {
        final GatewayContext first = withFixLogDir(dir.resolve("gw1/fix"));
        final GatewayContext restarted = withFixLogDir(dir.resolve("gw1/../gw1/fix"));
        final GatewayContext other = withFixLogDir(dir.resolve("gw2/fix"));

        assertEquals(first.fixMonitoringDir(), restarted.fixMonitoringDir(), "the same gateway, the same files");
        assertNotEquals(first.fixMonitoringDir(), other.fixMonitoringDir(), "another gateway, other files");
        assertEquals(Path.of(first.aeronDirectoryName()).toAbsolutePath().getParent(),
            first.fixMonitoringDir().getParent(), "next to the Aeron directory, memory-backed");
    }

    private static GatewayContext withFixLogDir(final Path logDir)
    {
        final Properties properties = new Properties();
        properties.setProperty(GatewayContext.FIX_LOG_DIR_PROP, logDir.toString());
        return GatewayContext.fromProperties(properties).conclude();
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
        assertBad("ringex.gateway.user.eve.credential", "ringex.gateway.user.eve.credential", "plaintext",
            "ringex.gateway.user.eve.accounts", "1");
        assertBad("ringex.gateway.user.eve.accounts", "ringex.gateway.user.eve.credential",
            CredentialHash.hash("x".toCharArray(), 10));
        assertBad("ringex.gateway.instrument.3", "ringex.gateway.instrument.3", "ETH,12");
        assertBad("ringex.gateway.instrument.4", "ringex.gateway.instrument.4", "ETH");
    }

    @Test
    void theSingleEngineKeysAreEngineOneAndNumberedKeysAddItsPeer()
    {
        final Properties single = new Properties();
        single.setProperty("ringex.gateway.engine.ingress.channel", "aeron:udp?endpoint=a:1");
        final GatewayContext one = GatewayContext.fromProperties(single).conclude();
        assertEquals(1, one.engines().size());
        assertEquals("aeron:udp?endpoint=a:1", one.engines().get(0).ingressChannel());
        assertEquals(1004, one.engines().get(0).statusStreamId());
        assertEquals(one.engineEgressChannel(), one.engines().get(0).statusChannel());

        final Properties pair = new Properties();
        pair.setProperty("ringex.gateway.engine.ingress.channel", "aeron:udp?endpoint=a:1");
        pair.setProperty("ringex.gateway.engine.2.ingress.channel", "aeron:udp?endpoint=b:1");
        pair.setProperty("ringex.gateway.engine.2.egress.channel", "aeron:udp?control=b:2");
        pair.setProperty("ringex.gateway.engine.2.status.stream", "3004");
        final GatewayContext two = GatewayContext.fromProperties(pair).conclude();
        assertEquals(2, two.engines().size());
        final EngineEndpoint second = two.engines().get(1);
        assertEquals("aeron:udp?endpoint=b:1", second.ingressChannel());
        assertEquals(1001, second.ingressStreamId());
        assertEquals("aeron:udp?control=b:2", second.egressChannel());
        assertEquals("aeron:udp?control=b:2", second.marketDataChannel());
        assertEquals("aeron:udp?control=b:2", second.statusChannel());
        assertEquals(3004, second.statusStreamId());
    }

    @Test
    void theComposeVenuesGatewayConfigurationConcludesWithBothEngines() throws Exception
    {
        // As the container's entrypoint does: the gateway file, then the users file (the example has none), merged.
        final Path config = Path.of(System.getProperty("ringex.project.dir", ".."), "docker", "config");
        final Properties merged = new Properties();
        for (final String file : new String[]{ "gateway.properties", "gateway-users.example.properties" })
        {
            try (java.io.Reader reader = Files.newBufferedReader(config.resolve(file)))
            {
                merged.load(reader);
            }
        }
        final GatewayContext ctx = GatewayContext.fromProperties(merged).conclude();
        assertEquals(2, ctx.engines().size());
        assertTrue(ctx.engines().get(1).ingressChannel().contains("engine-standby"));
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
        assertBad("ringex.gateway.engine.status.timeout.ms", "ringex.gateway.engine.status.timeout.ms", "0");
    }

    private static void assertBad(final String key, final String... keyValues)
    {
        final Properties properties = new Properties();
        for (int i = 0; i < keyValues.length; i += 2)
        {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> GatewayContext.fromProperties(properties).conclude());
        assertTrue(ex.getMessage().contains(key), ex.getMessage());
        assertFalse(ex.getMessage().contains("plaintext"), "credentials never echoed: " + ex.getMessage());
    }
}
