package io.ringex.risk.config;

import java.util.List;
import java.util.Objects;

/**
 * How the service reaches one engine node: its ingress (admin commands), its risk, market-data and egress streams (the
 * egress for the user directory only), and its control stream (promotion requests). {@link #of(RiskProperties)} turns
 * the configuration into the list of nodes, one ({@code ringex.risk.streams.*}) or a pair (plus
 * {@code ringex.risk.standby.*}), and refuses at start-up, naming the key, what cannot work.
 * <p>
 * Thread safety: immutable.
 *
 * @param name               how the configuration names the node ("streams" or "standby"), for logs and views.
 * @param ingressChannel     where admin commands are published to it.
 * @param ingressStreamId    its ingress stream.
 * @param riskChannel        where it publishes its risk stream.
 * @param riskStreamId       its risk stream.
 * @param marketDataChannel  where it publishes market data.
 * @param marketDataStreamId its market-data stream.
 * @param egressChannel      where it publishes its egress (the gateways' stream, which carries the user directory).
 * @param egressStreamId     its egress stream.
 * @param controlChannel     where promotion requests for it go.
 * @param controlStreamId    its control stream.
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
    int egressStreamId,
    String controlChannel,
    int controlStreamId)
{
    private static final String STREAMS = "ringex.risk.streams.";
    private static final String STANDBY = "ringex.risk.standby.";

    /**
     * @param properties the bound configuration.
     * @return the first node, then the standby if one is configured.
     * @throws IllegalStateException naming the key, for a missing or malformed channel, a stream id that is not
     *                               positive, or a standby sharing a stream with the first node.
     */
    public static List<EngineEndpoints> of(final RiskProperties properties)
    {
        final RiskProperties.Streams s = properties.streams();
        final String firstRisk = channel(STREAMS + "risk-channel", s.riskChannel());
        final EngineEndpoints first = new EngineEndpoints("streams",
            channel(STREAMS + "ingress-channel", s.ingressChannel()), stream(STREAMS + "ingress-stream-id",
            s.ingressStreamId()), firstRisk,
            stream(STREAMS + "risk-stream-id", s.riskStreamId()),
            channel(STREAMS + "market-data-channel", s.marketDataChannel()),
            stream(STREAMS + "market-data-stream-id", s.marketDataStreamId()),
            s.egressChannel().isEmpty() ? firstRisk : channel(STREAMS + "egress-channel", s.egressChannel()),
            stream(STREAMS + "egress-stream-id", s.egressStreamId()),
            channel(STREAMS + "control-channel", s.controlChannel()),
            stream(STREAMS + "control-stream-id", s.controlStreamId()));
        final RiskProperties.Standby b = properties.standby();
        if (b == null || !b.anySet())
        {
            return List.of(first);
        }
        require(!b.ingressChannel().isEmpty(), STANDBY + "ingress-channel",
            "is required when any ringex.risk.standby.* key is set (the standby's ingress)");
        require(!b.riskChannel().isEmpty(), STANDBY + "risk-channel",
            "is required with a standby: its EngineStatus tells the dashboard which node is primary");
        require(!b.controlChannel().isEmpty(), STANDBY + "control-channel",
            "is required with a standby: where its promotion request goes");
        final String riskChannel = channel(STANDBY + "risk-channel", b.riskChannel());
        final EngineEndpoints second = new EngineEndpoints("standby",
            channel(STANDBY + "ingress-channel", b.ingressChannel()),
            stream(STANDBY + "ingress-stream-id", or(b.ingressStreamId(), s.ingressStreamId())),
            riskChannel,
            stream(STANDBY + "risk-stream-id", or(b.riskStreamId(), s.riskStreamId())),
            b.marketDataChannel().isEmpty() ? riskChannel :
                channel(STANDBY + "market-data-channel", b.marketDataChannel()),
            stream(STANDBY + "market-data-stream-id", or(b.marketDataStreamId(), s.marketDataStreamId())),
            b.egressChannel().isEmpty() ? riskChannel : channel(STANDBY + "egress-channel", b.egressChannel()),
            stream(STANDBY + "egress-stream-id", or(b.egressStreamId(), s.egressStreamId())),
            channel(STANDBY + "control-channel", b.controlChannel()),
            stream(STANDBY + "control-stream-id", or(b.controlStreamId(), s.controlStreamId())));
        distinct("ingress", first.ingressChannel(), first.ingressStreamId(), second.ingressChannel(),
            second.ingressStreamId());
        distinct("risk", first.riskChannel(), first.riskStreamId(), second.riskChannel(), second.riskStreamId());
        distinct("market-data", first.marketDataChannel(), first.marketDataStreamId(), second.marketDataChannel(),
            second.marketDataStreamId());
        distinct("egress", first.egressChannel(), first.egressStreamId(), second.egressChannel(),
            second.egressStreamId());
        distinct("control", first.controlChannel(), first.controlStreamId(), second.controlChannel(),
            second.controlStreamId());
        return List.of(first, second);
    }

    private static void distinct(
        final String what,
        final String firstChannel,
        final int firstStream,
        final String secondChannel,
        final int secondStream)
    {
        // Two MDC subscriptions may share an endpoint of port 0: their control address tells the nodes apart.
        require(!(Objects.equals(firstChannel, secondChannel) && firstStream == secondStream),
            STANDBY + what + "-channel",
            "and its stream id must differ from " + STREAMS + what + "-*: the two nodes cannot share one " + what +
            " stream (was " + secondChannel + " stream " + secondStream + " for both; with a pair, " + STREAMS +
            "control-* is the first node's own control stream)");
    }

    private static int or(final Integer value, final int fallback)
    {
        return value == null ? fallback : value;
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
