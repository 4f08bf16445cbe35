package io.ringex.engine.node;

import io.aeron.Publication;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.TradeDecoder;

/**
 * The output ring's consumer: one stage that offers each event on the egress, market-data or risk publication it
 * belongs on ({@link FanOutHandler} of three {@link OutboundStage}s), so the ring is read once per event. The risk
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
            UserDirectoryEndDecoder.TEMPLATE_ID },
            false, Long.MAX_VALUE, ctx.newIdleStrategy(), resources.dropped);
        final OutboundStage marketDataHandler = new OutboundStage(marketData, new int[]{
            InstrumentDefinitionDecoder.TEMPLATE_ID, BookLevelUpdateDecoder.TEMPLATE_ID,
            BestBidOfferDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID, BookSnapshotDecoder.TEMPLATE_ID,
            AuctionIndicativeDecoder.TEMPLATE_ID },
            true, 1000, ctx.newIdleStrategy(), resources.dropped);
        final OutboundStage riskHandler = new OutboundStage(risk, new int[]{
            AccountRiskUpdateDecoder.TEMPLATE_ID, AdminResponseDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID,
            InstrumentDefinitionDecoder.TEMPLATE_ID }, false, Long.MAX_VALUE, ctx.newIdleStrategy(), resources.dropped);
        stage = resources.outputRing.stage("publishers",
            new FanOutHandler(egressHandler, marketDataHandler, riskHandler))
            .errorPolicy(StageErrorPolicy.SKIP).errorHandler(resources.stageErrors("output/publishers")).build();
    }
}
