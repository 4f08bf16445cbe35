package io.ringex.gateway.web;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.ringex.gateway.marketdata.MarketDataCache;
import io.ringex.protocol.codecs.BookLevelUpdateEncoder;
import io.ringex.protocol.codecs.InstrumentDefinitionEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The market streams from the gateway's copy of the market, over embedded channels: a message built once for the
 * subscribers in the same place is what each of them would have been sent alone, a subscriber that joins later gets
 * its own snapshot and then the same updates, and the depth limits what a subscriber holds.
 */
class WebMarketStreamsTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MarketDataCache cache = new MarketDataCache();
    private final WriteBatch writes = new WriteBatch();
    private final WebMarketStreams streams = new WebMarketStreams(cache, writes);
    private long sequence;

    private void level(final Side side, final long price, final long quantity)
    {
        new BookLevelUpdateEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(1).mdSequence(++sequence)
            .side(side).price(price).quantity(quantity).orderCount(quantity == 0 ? 0 : 1);
        cache.onMessage(buffer, 0);
    }

    private EmbeddedChannel subscriber(final int depth)
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        streams.open(channel);
        streams.onOp(channel, Map.of("op", "subscribe", "channel", "book", "symbol", "BTC-USD",
            "depth", new FlatJson.Number(Integer.toString(depth))));
        return channel;
    }

    /** What the channel was sent: the frames written directly, then this cycle's batch, as the event loop runs it. */
    private List<String> sent(final EmbeddedChannel channel)
    {
        writes.flush();
        channel.runPendingTasks();
        final List<String> messages = new ArrayList<>();
        TextWebSocketFrame frame;
        while (null != (frame = channel.readOutbound()))
        {
            messages.add(frame.text());
            frame.release();
        }
        return messages;
    }

    @Test
    void subscribersInTheSamePlaceShareOneMessageAndALateOneCatchesUpFromItsSnapshot()
    {
        new InstrumentDefinitionEncoder().wrapAndApplyHeader(buffer, 0, header).instrumentId(1).symbol("BTC-USD")
            .priceScale((short)2).tickSize(1).lotSize(1).referencePrice(10000).status(TradingStatus.OPEN);
        cache.onMessage(buffer, 0);
        level(Side.BUY, 9900, 5);

        final EmbeddedChannel first = subscriber(2);
        final EmbeddedChannel second = subscriber(2);
        final EmbeddedChannel shallow = subscriber(1);
        streams.publish();
        final String snapshot = "{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":true,\"seq\":1," +
            "\"bids\":[[\"99.00\",\"5\"]],\"asks\":[]}";
        final List<String> opening = List.of("{\"type\":\"connected\"}",
            "{\"type\":\"subscribed\",\"channel\":\"book\",\"symbol\":\"BTC-USD\",\"depth\":2}", snapshot);
        assertEquals(opening, sent(first));
        assertEquals(opening, sent(second));
        sent(shallow);

        level(Side.BUY, 9950, 2);
        streams.publish();
        final String update = "{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":false,\"seq\":2,\"prevSeq\":1," +
            "\"bids\":[[\"99.50\",\"2\"]],\"asks\":[]}";
        assertEquals(List.of(update), sent(first));
        assertEquals(List.of(update), sent(second));
        // Depth 1: the better bid pushed 99.00 out of what it holds.
        assertEquals(List.of("{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":false,\"seq\":2,\"prevSeq\":1," +
            "\"bids\":[[\"99.00\",\"0\"],[\"99.50\",\"2\"]],\"asks\":[]}"), sent(shallow));

        final EmbeddedChannel late = subscriber(2);
        level(Side.SELL, 10100, 3);
        streams.publish();
        final List<String> lateSent = sent(late);
        assertEquals("{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":true,\"seq\":3," +
            "\"bids\":[[\"99.50\",\"2\"],[\"99.00\",\"5\"]],\"asks\":[[\"101.00\",\"3\"]]}",
            lateSent.get(lateSent.size() - 1));
        final String next = "{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":false,\"seq\":3,\"prevSeq\":2," +
            "\"bids\":[],\"asks\":[[\"101.00\",\"3\"]]}";
        assertEquals(List.of(next), sent(first));
        assertEquals(List.of(next), sent(second));

        level(Side.BUY, 9950, 0);
        streams.publish();
        final String removed = "{\"type\":\"book\",\"symbol\":\"BTC-USD\",\"snapshot\":false,\"seq\":4,\"prevSeq\":3," +
            "\"bids\":[[\"99.50\",\"0\"]],\"asks\":[]}";
        assertEquals(List.of(removed), sent(first));
        assertEquals(List.of(removed), sent(late));
    }
}
