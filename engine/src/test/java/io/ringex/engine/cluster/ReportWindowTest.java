package io.ringex.engine.cluster;

import java.util.ArrayList;
import java.util.List;

import io.ringex.engine.node.RingEventSink;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.TradeEncoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReportWindowTest
{
    @Test
    void keepsOnlyClientBoundEventsAndTheMostRecentOnesAcrossTheWrapAndRepublishesThemUnderTheNewEpoch()
    {
        try (Ring ring = Ring.builder().name("output").capacity(1024).slotLength(256)
            .producerType(ProducerType.SINGLE).build())
        {
            final RingEventSink ringSink = new RingEventSink(ring, new BusySpinIdleStrategy());
            final ReportWindow window = new ReportWindow(4096, ring.maxPayloadLength());
            final MessageHeaderEncoder header = new MessageHeaderEncoder();
            for (long command = 1; command <= 200; command++)
            {
                window.command(command, command * 10);
                // A trade (market data), a business reject (no commandSequence: gateways could not dedupe a re-sent
                // one) and a report per command: only the report is kept.
                final int tradeAt = window.claim(128);
                new TradeEncoder().wrapAndApplyHeader(window.buffer(), tradeAt, header).tradeId(command);
                window.commit(MessageHeaderEncoder.ENCODED_LENGTH + TradeEncoder.BLOCK_LENGTH);
                final int rejectAt = window.claim(128);
                new BusinessRejectEncoder().wrapAndApplyHeader(window.buffer(), rejectAt, header);
                window.commit(MessageHeaderEncoder.ENCODED_LENGTH + BusinessRejectEncoder.BLOCK_LENGTH);
                final int at = window.claim(ring.maxPayloadLength());
                final ExecutionReportEncoder report = new ExecutionReportEncoder()
                    .wrapAndApplyHeader(window.buffer(), at, header).epoch(3).orderId(command)
                    .commandSequence(command);
                window.commit(MessageHeaderEncoder.ENCODED_LENGTH + report.encodedLength());
            }
            final int kept = window.size();
            // 4096 bytes of records of 32 + the report, aligned: the window holds the most recent few dozen.
            final int recordLength = org.agrona.BitUtil.align(ReportWindow.HEADER_LENGTH +
                MessageHeaderEncoder.ENCODED_LENGTH + ExecutionReportEncoder.BLOCK_LENGTH, ReportWindow.ALIGNMENT);
            assertEquals(true, kept > 0 && kept <= 4096 / recordLength && kept >= 4096 / recordLength - 1,
                "kept " + kept);
            assertEquals(200 - kept + 1, window.oldestCommandSequence());

            assertEquals(kept, window.republish(ringSink, 9));
            ringSink.publish();
            assertEquals(0, window.size());
            final List<long[]> out = new ArrayList<>();
            final AtomicBuffer slots = ring.buffer();
            final ExecutionReportDecoder decoder = new ExecutionReportDecoder();
            for (long sequence = 0; sequence < kept; sequence++)
            {
                final int slot = ring.slotOffset(sequence);
                decoder.wrapAndApplyHeader(slots, slot + SlotDescriptor.PAYLOAD_OFFSET,
                    new io.ringex.protocol.codecs.MessageHeaderDecoder());
                out.add(new long[]{ slots.getLong(slot + SlotDescriptor.SOURCE_ID_OFFSET), decoder.orderId(),
                    decoder.commandSequence(), decoder.epoch(),
                    slots.getInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET) });
            }
            for (int i = 0; i < kept; i++)
            {
                final long command = 200 - kept + 1 + i;
                assertEquals(command, out.get(i)[0], "slot stamped with its own command");
                assertEquals(command, out.get(i)[1]);
                assertEquals(command, out.get(i)[2]);
                assertEquals(9, out.get(i)[3], "re-sent under the new epoch");
                assertEquals(ExecutionReportEncoder.TEMPLATE_ID, out.get(i)[4]);
            }
        }
    }
}
