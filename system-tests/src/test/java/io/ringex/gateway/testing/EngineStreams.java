package io.ringex.gateway.testing;

/**
 * Where an engine under test listens and publishes, and what it trades.
 *
 * @param aeronDirectoryName the media driver.
 * @param ingressChannel     engine ingress channel.
 * @param ingressStreamId    engine ingress stream.
 * @param egressChannel      engine egress channel.
 * @param egressStreamId     engine egress stream.
 * @param marketDataChannel  market-data channel.
 * @param marketDataStreamId market-data stream.
 * @param instruments        instruments to define: id, symbol, price scale.
 */
public record EngineStreams(
    String aeronDirectoryName,
    String ingressChannel,
    int ingressStreamId,
    String egressChannel,
    int egressStreamId,
    String marketDataChannel,
    int marketDataStreamId,
    TestInstrument... instruments)
{
    /**
     * An instrument the engine defines.
     *
     * @param instrumentId id.
     * @param symbol       symbol.
     * @param priceScale   scale.
     */
    public record TestInstrument(int instrumentId, String symbol, int priceScale)
    {
    }
}
