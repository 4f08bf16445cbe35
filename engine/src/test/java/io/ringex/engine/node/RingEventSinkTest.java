package io.ringex.engine.node;

import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.TradeEncoder;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RingEventSinkTest
{
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final TradeEncoder trade = new TradeEncoder();

    @Test
    void committedEventsBecomeVisibleTogetherOnPublishWithTheirCommandStamped()
    {
        try (Ring ring = ring(1024))
        {
            final RingEventSink sink = new RingEventSink(ring, new BusySpinIdleStrategy());
            sink.command(7, 70);
            write(sink, 1);
            write(sink, 2);
            assertEquals(-1, ring.sequencer().cursor(), "committed is not yet published");

            sink.publish();
            assertEquals(1, ring.sequencer().cursor());
            assertEquals(7, ring.buffer().getLong(ring.slotOffset(1) + SlotDescriptor.SOURCE_ID_OFFSET));
            assertEquals(70, ring.buffer().getLong(ring.slotOffset(1) + SlotDescriptor.TIMESTAMP_OFFSET));
            assertEquals(2, tradeId(ring, 1));

            sink.publish();
            assertEquals(1, ring.sequencer().cursor(), "nothing new: publishing again is a no-op");
        }
    }

    @Test
    void aLongRunWithoutPublishGoesOutInBoundedChunksSoItsClaimsNeverWaitOnThemselves()
    {
        // Capacity 64: the bound is half the ring. 1,000 events without a publish would deadlock a sink that only
        // published on request; here the stage below frees the slots as the chunks come.
        try (Ring ring = ring(64))
        {
            final RingEventSink sink = new RingEventSink(ring, new BusySpinIdleStrategy());
            final long[] seen = new long[1];
            final io.ringex.engine.ring.Stage reader = ring.stage("reader", (buffer, offset, sequence, end) ->
                seen[0] = sequence).build();
            for (long i = 0; i < 1000; i++)
            {
                write(sink, i);
                reader.doWork();
                assertEquals(true, ring.sequencer().cursor() >= i - 32, "published in chunks of at most 32");
            }
            sink.publish();
            reader.doWork();
            assertEquals(999, seen[0]);
            assertEquals(999, tradeId(ring, 999));
        }
    }

    @Test
    void aClaimNeverCommittedIsReusedNotPublishedUnwritten()
    {
        try (Ring ring = ring(1024))
        {
            final RingEventSink sink = new RingEventSink(ring, new BusySpinIdleStrategy());
            write(sink, 1);
            sink.claim(128);
            // the writer threw before commit: the next event takes the same slot
            write(sink, 3);
            sink.publish();
            assertEquals(1, ring.sequencer().cursor());
            assertEquals(1, tradeId(ring, 0));
            assertEquals(3, tradeId(ring, 1));
        }
    }

    private static Ring ring(final int capacity)
    {
        return Ring.builder().name("output").capacity(capacity).slotLength(256).producerType(ProducerType.SINGLE)
            .build();
    }

    private void write(final RingEventSink sink, final long tradeId)
    {
        final int at = sink.claim(128);
        trade.wrapAndApplyHeader(sink.buffer(), at, header).tradeId(tradeId);
        sink.commit(MessageHeaderEncoder.ENCODED_LENGTH + TradeEncoder.BLOCK_LENGTH);
    }

    private static long tradeId(final Ring ring, final long sequence)
    {
        return new TradeDecoder().wrap(ring.buffer(), ring.slotOffset(sequence) + SlotDescriptor.PAYLOAD_OFFSET +
            MessageHeaderEncoder.ENCODED_LENGTH, TradeEncoder.BLOCK_LENGTH, TradeEncoder.SCHEMA_VERSION).tradeId();
    }
}
