package io.ringex.risk.actions;

import org.agrona.concurrent.UnsafeBuffer;

import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.risk.aeron.AdminCommandSink;
import io.ringex.risk.aeron.OfferOutcome;

/**
 * The default promotion: an SBE NewEpoch{requestId, epoch, nodeId} offered on the chosen node's control stream, which
 * a standby node subscribes to. The standby journals its own NewEpoch when it takes over (docs/protocol.md).
 * <p>
 * Thread safety: stateless; called from HTTP threads.
 */
public final class AeronNewEpochPromotionHook implements PromotionHook
{
    private final AdminCommandSink sink;

    /**
     * @param sink where the request goes.
     */
    public AeronNewEpochPromotionHook(final AdminCommandSink sink)
    {
        this.sink = sink;
    }

    @Override
    public OfferOutcome promote(final long requestId, final long epoch, final int nodeId, final int engine)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final NewEpochEncoder encoder = new NewEpochEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .requestId(requestId)
            .epoch(epoch)
            .nodeId(nodeId);
        return sink.offerControl(engine, buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());
    }
}
