package io.ringex.risk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The engine nodes as bound from configuration by Spring's own binder: one engine unchanged, a pair with defaults
 * taken from the first node, and start-up refusals that name the key.
 */
class EngineEndpointsTest
{
    private static List<EngineEndpoints> bind(final Map<String, String> keys)
    {
        final RiskProperties properties = new Binder(new MapConfigurationPropertySource(keys))
            .bindOrCreate("ringex.risk", RiskProperties.class);
        return EngineEndpoints.of(properties);
    }

    private static String refusal(final Map<String, String> keys)
    {
        return assertThrows(IllegalStateException.class, () -> bind(keys)).getMessage();
    }

    @Test
    void withoutStandbyKeysThereIsOneEngineAsBefore()
    {
        final List<EngineEndpoints> engines = bind(Map.of());
        assertEquals(1, engines.size());
        assertEquals("aeron:udp?endpoint=localhost:40100", engines.get(0).ingressChannel());
        assertEquals(1004, engines.get(0).riskStreamId());
        assertEquals(engines.get(0).riskChannel(), engines.get(0).egressChannel(),
            "the engine publishes its outbound streams on one channel: the egress defaults to the risk channel");
        assertEquals(1002, engines.get(0).egressStreamId());
        assertEquals("aeron:ipc", bind(Map.of("ringex.risk.streams.risk-channel", "aeron:ipc")).get(0)
            .egressChannel(), "as the all-in-one sets it");
    }

    @Test
    void theEgressOfEachNodeIsConfigurableAndTheTwoMustDiffer()
    {
        final List<EngineEndpoints> engines = bind(Map.of(
            "ringex.risk.streams.egress-channel", "aeron:udp?endpoint=risk:0|control=engine-a:40101",
            "ringex.risk.streams.egress-stream-id", "2002",
            "ringex.risk.standby.ingress-channel", "aeron:udp?endpoint=engine-b:40100",
            "ringex.risk.standby.risk-channel", "aeron:udp?endpoint=risk:0|control=engine-b:40101",
            "ringex.risk.standby.control-channel", "aeron:udp?endpoint=engine-b:40120"));
        assertEquals("aeron:udp?endpoint=risk:0|control=engine-a:40101", engines.get(0).egressChannel());
        assertEquals(2002, engines.get(0).egressStreamId());
        assertEquals("aeron:udp?endpoint=risk:0|control=engine-b:40101", engines.get(1).egressChannel(),
            "the standby's egress: its risk channel unless set");
        assertEquals(2002, engines.get(1).egressStreamId(), "the first node's stream id unless set");

        assertTrue(refusal(Map.of("ringex.risk.streams.egress-channel", "udp://engine:40101"))
            .startsWith("ringex.risk.streams.egress-channel must be an Aeron channel"));
        assertTrue(refusal(Map.of("ringex.risk.streams.egress-stream-id", "-1"))
            .startsWith("ringex.risk.streams.egress-stream-id must be a positive stream id"));
        final String shared = refusal(Map.of(
            "ringex.risk.streams.risk-channel", "aeron:ipc",
            "ringex.risk.streams.control-channel", "aeron:ipc",
            "ringex.risk.standby.ingress-channel", "aeron:ipc",
            "ringex.risk.standby.ingress-stream-id", "2001",
            "ringex.risk.standby.risk-channel", "aeron:ipc",
            "ringex.risk.standby.risk-stream-id", "2004",
            "ringex.risk.standby.market-data-stream-id", "2003",
            "ringex.risk.standby.control-channel", "aeron:ipc",
            "ringex.risk.standby.control-stream-id", "2020"));
        assertTrue(shared.startsWith("ringex.risk.standby.egress-channel and its stream id must differ"), shared);
    }

    @Test
    void aStandbyTakesTheFirstNodesStreamIdsAndItsRiskChannelForMarketData()
    {
        final String outbound = "aeron:udp?endpoint=risk:0|control=engine-standby:40101|control-mode=dynamic";
        final List<EngineEndpoints> engines = bind(Map.of(
            "ringex.risk.standby.ingress-channel", "aeron:udp?endpoint=engine-standby:40100",
            "ringex.risk.standby.risk-channel", outbound,
            "ringex.risk.standby.control-channel", "aeron:udp?endpoint=engine-standby:40120"));
        assertEquals(2, engines.size());
        final EngineEndpoints standby = engines.get(1);
        assertEquals("standby", standby.name());
        assertEquals(1001, standby.ingressStreamId());
        assertEquals(outbound, standby.marketDataChannel());
        assertEquals(1003, standby.marketDataStreamId());
        assertEquals(1020, standby.controlStreamId());
    }

    @Test
    void aStandbyWithoutItsRequiredChannelsIsRefusedNamingTheKey()
    {
        assertTrue(refusal(Map.of("ringex.risk.standby.risk-stream-id", "3004"))
            .startsWith("ringex.risk.standby.ingress-channel is required"));
        assertTrue(refusal(Map.of("ringex.risk.standby.ingress-channel", "aeron:ipc"))
            .startsWith("ringex.risk.standby.risk-channel is required"));
        assertTrue(refusal(Map.of("ringex.risk.standby.ingress-channel", "aeron:ipc",
            "ringex.risk.standby.risk-channel", "aeron:ipc")).startsWith("ringex.risk.standby.control-channel"));
        assertTrue(refusal(Map.of("ringex.risk.standby.ingress-channel", "localhost:40100",
            "ringex.risk.standby.risk-channel", "aeron:ipc", "ringex.risk.standby.control-channel", "aeron:ipc"))
            .startsWith("ringex.risk.standby.ingress-channel must be an Aeron channel"));
        assertTrue(refusal(Map.of("ringex.risk.streams.risk-stream-id", "0"))
            .startsWith("ringex.risk.streams.risk-stream-id must be a positive stream id"));
    }

    @Test
    void twoNodesSharingAStreamAreRefused()
    {
        // the old single-engine habit: streams.control-* pointing at the standby's control stream
        final String message = refusal(Map.of(
            "ringex.risk.standby.ingress-channel", "aeron:udp?endpoint=engine-standby:40100",
            "ringex.risk.standby.risk-channel", "aeron:udp?endpoint=risk:0|control=engine-standby:40101",
            "ringex.risk.standby.control-channel", "aeron:udp?endpoint=localhost:40120"));
        assertTrue(message.startsWith("ringex.risk.standby.control-channel and its stream id must differ"), message);
    }
}
