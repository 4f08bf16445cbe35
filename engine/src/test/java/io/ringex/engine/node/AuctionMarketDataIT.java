package io.ringex.engine.node;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.protocol.codecs.AuctionIndicativeDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A call phase as a market-data subscriber sees it, on the node's market-data stream alone: the phase change (the
 * instrument's definition), the auction indicative while orders arrive, the uncrossing's trade marked as an auction
 * trade, and the return to continuous trading.
 */
class AuctionMarketDataIT
{
    private static final String IPC = "aeron:ipc";

    @RegisterExtension
    final NodeTestResources env = new NodeTestResources();

    @TempDir
    Path dir;

    @Test
    void phasesIndicativesAndTheAuctionTradeAreOnTheMarketDataStream()
    {
        final EngineContext ctx = NodeTestSupport.forTest(new EngineContext())
            .aeronDirectoryName(env.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .journalDirectory(dir.resolve("journal"))
            .snapshotDirectory(dir.resolve("snapshots"))
            .inputRingCapacity(1024)
            .outputRingCapacity(1024);
        env.closing(EngineNode.launch(ctx));
        final EngineTestClient client = env.closing(new EngineTestClient(env.aeronDirectoryName(), ctx, IPC));
        final Aeron aeron = env.closing(Aeron.connect(new Aeron.Context().aeronDirectoryName(
            env.aeronDirectoryName())));
        final Subscription marketData = aeron.addSubscription(IPC, ctx.marketDataStreamId());
        client.awaitConnected();
        client.await(marketData::isConnected, "the market-data stream");

        client.setUpMarket(1, 2);
        client.send(client.commands.setTradingStatus(100, EngineTestClient.INSTRUMENT, TradingStatus.PRE_OPEN));
        client.limit(1, 1, Side.BUY, 10_100, 10);
        client.limit(2, 2, Side.SELL, 10_000, 4);
        client.send(client.commands.setTradingStatus(101, EngineTestClient.INSTRUMENT, TradingStatus.OPEN));

        final List<String> seen = new ArrayList<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
        final AuctionIndicativeDecoder indicative = new AuctionIndicativeDecoder();
        final TradeDecoder trade = new TradeDecoder();
        final FragmentHandler onMarketData = (buffer, offset, length, h) ->
        {
            header.wrap(buffer, offset);
            final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
            switch (header.templateId())
            {
                case InstrumentDefinitionDecoder.TEMPLATE_ID ->
                {
                    definition.wrap(buffer, body, header.blockLength(), header.version());
                    seen.add("definition " + definition.status());
                }
                case AuctionIndicativeDecoder.TEMPLATE_ID ->
                {
                    indicative.wrap(buffer, body, header.blockLength(), header.version());
                    seen.add("indicative " + indicative.status() + " " +
                        (indicative.price() == AuctionIndicativeDecoder.priceNullValue() ? "none" :
                        indicative.price()) + " x " + indicative.matchedQuantity() + " imbalance " +
                        indicative.imbalanceQuantity());
                }
                case TradeDecoder.TEMPLATE_ID ->
                {
                    trade.wrap(buffer, body, header.blockLength(), header.version());
                    seen.add("trade " + trade.price() + " x " + trade.quantity() +
                        (trade.auction() == BooleanType.TRUE ? " auction" : " continuous"));
                }
                default ->
                {
                }
            }
        };
        Await.until("the auction's trade and the reopening", Duration.ofSeconds(30), () -> reopenedAfterTrade(seen),
            () ->
            {
                client.poll();
                marketData.poll(onMarketData, 64);
            },
            () -> seen);

        // The indicative is published when the phase starts (nothing crosses) and again only when it changes: the buy
        // alone crosses nothing; with the sell, 4 execute at any price from 100.00 to 101.00 with 6 left to buy, so
        // the market pressure takes the highest, 101.00. The uncrossing's trade is marked, then trading reopens.
        assertEquals(List.of("definition OPEN", "definition PRE_OPEN", "indicative PRE_OPEN none x 0 imbalance 0",
            "indicative PRE_OPEN 10100 x 4 imbalance 6", "trade 10100 x 4 auction", "definition OPEN"),
            normalise(seen), seen.toString());
    }

    private static boolean reopenedAfterTrade(final List<String> seen)
    {
        final int trade = seen.indexOf("trade 10100 x 4 auction");
        return trade >= 0 && seen.subList(trade, seen.size()).contains("definition OPEN");
    }

    /** Drop the periodic refresh's definitions between the ones the commands caused (they repeat the status). */
    private static List<String> normalise(final List<String> seen)
    {
        final List<String> out = new ArrayList<>();
        for (final String s : seen)
        {
            if (!(s.startsWith("definition") && !out.isEmpty() && out.get(out.size() - 1).equals(s)))
            {
                out.add(s);
            }
        }
        return out;
    }
}
