package io.ringex.risk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The engine nodes as bound from configuration by Spring's own binder: one engine from {@code ringex.risk.streams.*}
 * with nothing set, the members of a cluster from {@code ringex.risk.members[n]} on the shared stream ids, and
 * start-up refusals that name the key.
 */
class EngineEndpointsTest
{
    private static final String OUTBOUND = "aeron:udp?endpoint=risk:0|control=engine-%d:40101|control-mode=dynamic";

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

    /** Three members, each with its ingress and outbound channel, on hosts engine-1..3. */
    private static Map<String, String> threeMembers()
    {
        final Map<String, String> keys = new HashMap<>();
        for (int i = 0; i < 3; i++)
        {
            keys.put("ringex.risk.members[" + i + "].ingress-channel", "aeron:udp?endpoint=engine-" + (i + 1) +
                ":40100");
            keys.put("ringex.risk.members[" + i + "].risk-channel", String.format(OUTBOUND, i + 1));
        }
        return keys;
    }

    @Test
    void withNothingSetThereIsOneLocalEngine()
    {
        final List<EngineEndpoints> engines = bind(Map.of());
        assertEquals(1, engines.size());
        final EngineEndpoints engine = engines.get(0);
        assertEquals("streams", engine.name());
        assertEquals("aeron:udp?endpoint=localhost:40100", engine.ingressChannel());
        assertEquals(RiskProperties.ENGINE_OUTBOUND, engine.riskChannel());
        assertEquals(1004, engine.riskStreamId());
        assertEquals(engine.riskChannel(), engine.marketDataChannel());
        assertEquals(1003, engine.marketDataStreamId());
        assertEquals(engine.riskChannel(), engine.egressChannel(),
            "the engine publishes its outbound streams on one channel: the egress defaults to the risk channel");
        assertEquals(1002, engine.egressStreamId());
        final EngineEndpoints allInOne = bind(Map.of("ringex.risk.streams.ingress-channel", "aeron:ipc",
            "ringex.risk.streams.risk-channel", "aeron:ipc", "ringex.risk.streams.market-data-channel", "aeron:ipc"))
            .get(0);
        assertEquals("aeron:ipc", allInOne.egressChannel(), "as the all-in-one sets it");
        assertEquals("aeron:ipc", allInOne.ingressChannel());
    }

    @Test
    void threeMembersEachWithTheirOwnChannelsOnTheSharedStreamIds()
    {
        final Map<String, String> keys = threeMembers();
        keys.put("ringex.risk.streams.ingress-stream-id", "2001");
        keys.put("ringex.risk.members[2].market-data-channel", "aeron:udp?endpoint=risk:0|control=engine-3:40102");
        final List<EngineEndpoints> members = bind(keys);
        assertEquals(3, members.size());
        for (int i = 0; i < 3; i++)
        {
            final EngineEndpoints member = members.get(i);
            assertEquals("members[" + i + "]", member.name());
            assertEquals("aeron:udp?endpoint=engine-" + (i + 1) + ":40100", member.ingressChannel());
            assertEquals(2001, member.ingressStreamId(), "every member's ingress stream is streams.ingress-stream-id");
            assertEquals(String.format(OUTBOUND, i + 1), member.riskChannel());
            assertEquals(1004, member.riskStreamId());
            assertEquals(member.riskChannel(), member.egressChannel(), "a member's egress: its risk channel");
        }
        assertEquals(String.format(OUTBOUND, 1), members.get(0).marketDataChannel());
        assertEquals("aeron:udp?endpoint=risk:0|control=engine-3:40102", members.get(2).marketDataChannel());
    }

    @Test
    void aMemberWithoutItsChannelsOrWithAMalformedOneIsRefusedNamingTheKey()
    {
        final Map<String, String> noIngress = threeMembers();
        noIngress.remove("ringex.risk.members[1].ingress-channel");
        assertTrue(refusal(noIngress).startsWith("ringex.risk.members[1].ingress-channel is required"),
            refusal(noIngress));

        final Map<String, String> noRisk = threeMembers();
        noRisk.remove("ringex.risk.members[2].risk-channel");
        assertTrue(refusal(noRisk).startsWith("ringex.risk.members[2].risk-channel is required"), refusal(noRisk));

        final Map<String, String> malformed = threeMembers();
        malformed.put("ringex.risk.members[0].ingress-channel", "engine-1:40100");
        assertTrue(refusal(malformed).startsWith("ringex.risk.members[0].ingress-channel must be an Aeron channel"),
            refusal(malformed));

        final Map<String, String> malformedEgress = threeMembers();
        malformedEgress.put("ringex.risk.members[1].egress-channel", "udp://engine-2");
        assertTrue(refusal(malformedEgress).startsWith("ringex.risk.members[1].egress-channel must be an Aeron " +
            "channel"), refusal(malformedEgress));

        assertTrue(refusal(Map.of("ringex.risk.streams.risk-stream-id", "0"))
            .startsWith("ringex.risk.streams.risk-stream-id must be a positive stream id"));
    }

    @Test
    void twoMembersSharingAChannelAreRefusedNamingTheLaterOne()
    {
        final Map<String, String> sameIngress = threeMembers();
        sameIngress.put("ringex.risk.members[2].ingress-channel", "aeron:udp?endpoint=engine-1:40100");
        final String ingress = refusal(sameIngress);
        assertTrue(ingress.startsWith("ringex.risk.members[2].ingress-channel must differ from " +
            "ringex.risk.members[0].ingress-channel"), ingress);

        final Map<String, String> sameRisk = threeMembers();
        sameRisk.put("ringex.risk.members[1].risk-channel", String.format(OUTBOUND, 1));
        final String risk = refusal(sameRisk);
        assertTrue(risk.startsWith("ringex.risk.members[1].risk-channel must differ from " +
            "ringex.risk.members[0].risk-channel"), risk);

        // IPC for every member: one stream id on one driver would be one stream for all of them
        final Map<String, String> ipc = new HashMap<>();
        for (int i = 0; i < 2; i++)
        {
            ipc.put("ringex.risk.members[" + i + "].ingress-channel", "aeron:ipc");
            ipc.put("ringex.risk.members[" + i + "].risk-channel", "aeron:ipc");
        }
        assertTrue(refusal(ipc).startsWith("ringex.risk.members[1].ingress-channel must differ"), refusal(ipc));
    }

    @Test
    void aSingleEnginesChannelBesideTheMembersIsRefusedRatherThanIgnored()
    {
        for (final String key : List.of("ingress-channel", "risk-channel", "market-data-channel", "egress-channel"))
        {
            final Map<String, String> keys = threeMembers();
            keys.put("ringex.risk.streams." + key, "aeron:udp?endpoint=engine-1:40100");
            final String message = refusal(keys);
            assertTrue(message.startsWith("ringex.risk.streams." + key + " names a single engine's channel"),
                message);
        }
    }
}
