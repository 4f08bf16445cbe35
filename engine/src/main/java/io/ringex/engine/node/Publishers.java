package io.ringex.engine.node;

import java.nio.ByteBuffer;

import io.aeron.Publication;
import io.ringex.engine.marketdata.MarketDataFeed;
import io.ringex.engine.marketdata.MarketDataRecovery;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.GatewayBarrierReachedDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradingScheduleDefinitionDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastBufferDescriptor;
import org.agrona.concurrent.broadcast.BroadcastReceiver;
import org.agrona.concurrent.broadcast.BroadcastTransmitter;
import org.agrona.concurrent.broadcast.CopyBroadcastReceiver;

/**
 * The output ring's consumer: one stage that offers each event on the egress, market-data or risk publication it
 * belongs on ({@link FanOutHandler} of two {@link OutboundStage}s and the {@link MarketDataFeed}), so the ring is read
 * once per event; and the market-data recovery agent, which the feed hands what it sends. The risk
 * publication also carries the node's {@code EngineStatus}.
 * <p>
 * Thread safety: built on the launching thread; the stage then runs on its agent's thread.
 */
final class Publishers
{
    /** The output ring's stage. */
    final Stage stage;
    /** The risk stream, which the status agent publishes on too. */
    final Publication risk;
    /** The market-data recovery service, an agent of its own. */
    final MarketDataRecovery recovery;

    private static final int RECOVERY_BROADCAST_BYTES = 16 * 1024 * 1024;
    private static final int MAX_RECOVERY_MESSAGE = 64 * 1024;
    private static final int RETRANSMIT_WINDOW_BYTES = 8 * 1024 * 1024;
    private static final int RETRANSMIT_WINDOW_MESSAGES = 64 * 1024;
    private static final int MAX_PENDING_REQUESTS = 64;

    /**
     * @param resources the node's Aeron client, output ring, counters and configuration.
     */
    Publishers(final NodeResources resources)
    {
        final EngineContext ctx = resources.ctx;
        final Publication egress = resources.aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId());
        final Publication marketData = resources.aeron.addPublication(ctx.outboundChannel(),
            ctx.marketDataStreamId());
        risk = resources.aeron.addPublication(ctx.outboundChannel(), ctx.riskStreamId());
        final OutboundStage egressHandler = new OutboundStage(egress, new int[]{
            ExecutionReportDecoder.TEMPLATE_ID, CancelRejectDecoder.TEMPLATE_ID, BusinessRejectDecoder.TEMPLATE_ID,
            LogonsUnlockedDecoder.TEMPLATE_ID, UserDefinitionDecoder.TEMPLATE_ID,
            UserDirectoryEndDecoder.TEMPLATE_ID, GatewayBarrierReachedDecoder.TEMPLATE_ID,
            OrderStatusReportDecoder.TEMPLATE_ID, MassCancelReportDecoder.TEMPLATE_ID,
            // for the gateways' drop-copy sessions, which receive every trade bust of their scope
            TradeBustedDecoder.TEMPLATE_ID,
            MassQuoteAckDecoder.TEMPLATE_ID, QuoteCancelReportDecoder.TEMPLATE_ID,
            MarketMakerProtectionEventDecoder.TEMPLATE_ID, CancelAllAfterReportDecoder.TEMPLATE_ID },
            Long.MAX_VALUE, ctx.newIdleStrategy(), resources.dropped, ctx.outboundBatch());
        // The feed never waits for a subscriber; the recovery agent reads what it sends from a broadcast buffer and
        // answers snapshot and retransmission requests on a thread of its own (docs/protocol.md, "Market data").
        final UnsafeBuffer broadcast = new UnsafeBuffer(
            ByteBuffer.allocateDirect(RECOVERY_BROADCAST_BYTES + BroadcastBufferDescriptor.TRAILER_LENGTH));
        final BroadcastTransmitter toRecovery = new BroadcastTransmitter(broadcast);
        final MarketDataFeed marketDataHandler = new MarketDataFeed(marketData, toRecovery,
            resources.outputRing.maxPayloadLength(), resources.counters.newCounter("marketdata-dropped"),
            resources.counters.newCounter("marketdata-channel-sequence"));
        // Requests on a channel of the service's own, never the command ingress; each answered on its requester's
        // own response channel.
        recovery = new MarketDataRecovery(
            new CopyBroadcastReceiver(new BroadcastReceiver(broadcast), MAX_RECOVERY_MESSAGE),
            resources.aeron,
            resources.aeron.addSubscription(ctx.marketDataRequestChannel(), ctx.marketDataRequestStreamId()),
            SystemEpochClock.INSTANCE, MarketDataRecovery.window(RETRANSMIT_WINDOW_BYTES, RETRANSMIT_WINDOW_MESSAGES),
            MAX_PENDING_REQUESTS,
            new MarketDataRecovery.Limits(ctx.marketDataRecoveryMaxDestinations(),
                ctx.marketDataRecoveryRequesterRate(), ctx.marketDataRecoveryTermLength()),
            new MarketDataRecovery.Counters(resources.counters.newCounter("marketdata-requests-refused"),
                resources.counters.newCounter("marketdata-recovery-lapped"),
                resources.counters.newCounter("marketdata-refusals-dropped"),
                resources.counters.newCounter("marketdata-requests-dropped"),
                resources.counters.newCounter("marketdata-response-channels")));
        final OutboundStage riskHandler = new OutboundStage(risk, new int[]{
            AccountRiskUpdateDecoder.TEMPLATE_ID, AccountDefinitionDecoder.TEMPLATE_ID,
            AdminResponseDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID, InstrumentDefinitionDecoder.TEMPLATE_ID,
            TradingScheduleDefinitionDecoder.TEMPLATE_ID, MarketMakerProtectionEventDecoder.TEMPLATE_ID },
            Long.MAX_VALUE, ctx.newIdleStrategy(), resources.dropped, ctx.outboundBatch());
        stage = resources.outputRing.stage("publishers",
            resources.trace.published(new FanOutHandler(egressHandler, marketDataHandler, riskHandler)))
            .errorPolicy(StageErrorPolicy.SKIP).errorHandler(resources.stageErrors("output/publishers")).build();
    }
}
