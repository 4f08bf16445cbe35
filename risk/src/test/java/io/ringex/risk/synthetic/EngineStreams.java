package io.ringex.risk.synthetic;

/**
 * The engine node's Aeron streams as a test sees them.
 *
 * @param ingressChannel     engine ingress.
 * @param ingressStreamId    1001 by default.
 * @param riskChannel        risk stream's channel.
 * @param riskStreamId       1004 by default.
 * @param marketDataChannel  market-data channel.
 * @param marketDataStreamId 1003 by default.
 */
public record EngineStreams(
    String ingressChannel,
    int ingressStreamId,
    String riskChannel,
    int riskStreamId,
    String marketDataChannel,
    int marketDataStreamId)
{
    /** @return every stream on IPC, default ids: engine and risk service in one media driver. */
    public static EngineStreams ipc()
    {
        return new EngineStreams("aeron:ipc", 1001, "aeron:ipc", 1004, "aeron:ipc", 1003);
    }
}
