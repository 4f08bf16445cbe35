package io.ringex.risk.config;

import java.util.ArrayList;
import java.util.List;

/**
 * How the service reaches one engine node: its ingress (admin commands) and its risk, market-data and egress streams
 * (the egress for the user directory only). {@link #of(RiskProperties)} turns the configuration into the list of
 * nodes: a single engine ({@code ringex.risk.streams.*}) or the members of a cluster ({@code ringex.risk.members[n]},
 * on the stream ids of {@code ringex.risk.streams.*}), and refuses at start-up, naming the key, what cannot work.
 * Which node leads is never configured: the members' EngineStatus tells.
 * <p>
 * Thread safety: immutable.
 *
 * @param name               how the configuration names the node ("streams", or "members[n]"), for logs and views.
 * @param ingressChannel     where admin commands are published to it.
 * @param ingressStreamId    its ingress stream.
 * @param riskChannel        where it publishes its risk stream.
 * @param riskStreamId       its risk stream.
 * @param marketDataChannel  where it publishes market data.
 * @param marketDataStreamId its market-data stream.
 * @param egressChannel      where it publishes its egress (the gateways' stream, which carries the user directory).
 * @param egressStreamId     its egress stream.
 */
public record EngineEndpoints(
    String name,
    String ingressChannel,
    int ingressStreamId,
    String riskChannel,
    int riskStreamId,
    String marketDataChannel,
    int marketDataStreamId,
    String egressChannel,
    int egressStreamId)
{
    private static final String STREAMS = "ringex.risk.streams.";
    private static final String MEMBERS = "ringex.risk.members";

    /**
     * @param properties the bound configuration.
     * @return the single engine, or the cluster's members in configuration order.
     * @throws IllegalStateException naming the key, for a malformed channel, a stream id that is not positive, a
     *                               member without its ingress or risk channel, two members sharing a channel, or a
     *                               single engine's channel set beside the members.
     */
    public static List<EngineEndpoints> of(final RiskProperties properties)
    {
        final RiskProperties.Streams s = properties.streams();
        final int ingressStreamId = stream(STREAMS + "ingress-stream-id", s.ingressStreamId());
        final int riskStreamId = stream(STREAMS + "risk-stream-id", s.riskStreamId());
        final int marketDataStreamId = stream(STREAMS + "market-data-stream-id", s.marketDataStreamId());
        final int egressStreamId = stream(STREAMS + "egress-stream-id", s.egressStreamId());
        final List<RiskProperties.Member> members = properties.members();
        if (members.isEmpty())
        {
            final String risk = s.riskChannel().isEmpty() ? RiskProperties.ENGINE_OUTBOUND :
                channel(STREAMS + "risk-channel", s.riskChannel());
            return List.of(new EngineEndpoints("streams",
                s.ingressChannel().isEmpty() ? RiskProperties.ENGINE_INGRESS :
                    channel(STREAMS + "ingress-channel", s.ingressChannel()), ingressStreamId,
                risk, riskStreamId,
                s.marketDataChannel().isEmpty() ? risk : channel(STREAMS + "market-data-channel",
                    s.marketDataChannel()), marketDataStreamId,
                s.egressChannel().isEmpty() ? risk : channel(STREAMS + "egress-channel", s.egressChannel()),
                egressStreamId));
        }

        final String single = "names a single engine's channel: with " + MEMBERS + "[n] set, each member names its " +
            "own (" + MEMBERS + "[n].*-channel), so this one would be ignored: remove it";
        require(s.ingressChannel().isEmpty(), STREAMS + "ingress-channel", single);
        require(s.riskChannel().isEmpty(), STREAMS + "risk-channel", single);
        require(s.marketDataChannel().isEmpty(), STREAMS + "market-data-channel", single);
        require(s.egressChannel().isEmpty(), STREAMS + "egress-channel", single);

        final List<EngineEndpoints> out = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++)
        {
            final RiskProperties.Member m = members.get(i);
            final String name = MEMBERS + "[" + i + "]";
            require(!m.ingressChannel().isEmpty(), name + ".ingress-channel",
                "is required: where admin commands reach the member while it leads");
            require(!m.riskChannel().isEmpty(), name + ".risk-channel",
                "is required: the member's outbound channel, whose EngineStatus tells which member leads");
            final String risk = channel(name + ".risk-channel", m.riskChannel());
            final EngineEndpoints member = new EngineEndpoints(name.substring("ringex.risk.".length()),
                channel(name + ".ingress-channel", m.ingressChannel()), ingressStreamId,
                risk, riskStreamId,
                m.marketDataChannel().isEmpty() ? risk : channel(name + ".market-data-channel",
                    m.marketDataChannel()), marketDataStreamId,
                m.egressChannel().isEmpty() ? risk : channel(name + ".egress-channel", m.egressChannel()),
                egressStreamId);
            for (int j = 0; j < i; j++)
            {
                final EngineEndpoints other = out.get(j);
                distinct(name, "ingress-channel", member.ingressChannel(), other.ingressChannel(), j);
                distinct(name, "risk-channel", member.riskChannel(), other.riskChannel(), j);
                distinct(name, "market-data-channel", member.marketDataChannel(), other.marketDataChannel(), j);
                distinct(name, "egress-channel", member.egressChannel(), other.egressChannel(), j);
            }
            out.add(member);
        }
        return List.copyOf(out);
    }

    private static void distinct(
        final String name,
        final String key,
        final String channel,
        final String otherChannel,
        final int other)
    {
        // The members share the stream ids, so one channel would be one stream for two members. Two multi-destination
        // subscriptions may share an endpoint of port 0: their control address tells the members apart.
        require(!channel.equals(otherChannel), name + "." + key, "must differ from " + MEMBERS + "[" + other + "]." +
            key + ": two members cannot share one stream (was " + channel + " for both; the stream ids are " +
            STREAMS + "*'s, the same for every member)");
    }

    private static String channel(final String key, final String value)
    {
        require(value != null && value.startsWith("aeron:"), key, "must be an Aeron channel (aeron:udp?... or " +
            "aeron:ipc), was '" + value + "'");
        return value;
    }

    private static int stream(final String key, final int value)
    {
        require(value > 0, key, "must be a positive stream id, was " + value);
        return value;
    }

    private static void require(final boolean condition, final String key, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException(key + " " + message);
        }
    }
}
