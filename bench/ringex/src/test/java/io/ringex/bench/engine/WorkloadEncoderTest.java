package io.ringex.bench.engine;

import io.ringex.bench.workload.WorkloadCommand;
import io.ringex.bench.workload.WorkloadCommandType;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.bench.workload.WorkloadFileDescriptor;
import io.ringex.bench.workload.WorkloadGenerator;
import io.ringex.bench.workload.WorkloadSpec;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadEncoderTest
{
    private final WorkloadEncoder encoder = new WorkloadEncoder();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    @TempDir
    Path dir;

    @Test
    void gtcIsALimitGtcNewOrderWithTheRecordsFields()
    {
        final int length = encoder.encode(record(WorkloadCommandType.PLACE_GTC, Side.BUY, 3, 17, 42, 0, 10_050, 7,
            0, 0));
        final NewOrderDecoder order = new NewOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(NewOrderDecoder.TEMPLATE_ID, encoder.templateId());
        assertEquals(MessageHeaderDecoder.ENCODED_LENGTH + NewOrderDecoder.BLOCK_LENGTH, length);
        assertEquals(WorkloadEncoder.SESSION_ID, order.sessionId());
        assertEquals(17, order.accountId());
        assertEquals("42", order.clientOrderId());
        assertEquals(3, order.instrumentId());
        assertEquals(Side.BUY, order.side());
        assertEquals(OrderType.LIMIT, order.orderType());
        assertEquals(TimeInForce.GTC, order.timeInForce());
        assertEquals(SelfTradePrevention.ACCOUNT_DEFAULT, order.selfTradePrevention());
        assertEquals(10_050, order.price());
        assertEquals(7, order.quantity());
    }

    @Test
    void iocIsALimitIocNewOrder()
    {
        encoder.encode(record(WorkloadCommandType.PLACE_IOC, Side.SELL, 1, 2, 5, 0, 6_000, 126, 0, 0));
        final NewOrderDecoder order = new NewOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(Side.SELL, order.side());
        assertEquals(OrderType.LIMIT, order.orderType());
        assertEquals(TimeInForce.IOC, order.timeInForce());
        assertEquals(6_000, order.price());
        assertEquals(126, order.quantity());
    }

    @Test
    void cancelIsACancelOrderByOrigClientOrderId()
    {
        encoder.encode(record(WorkloadCommandType.CANCEL, Side.BUY, 2, 9, 77, 55, 10_000, 3, 0, 0));
        final CancelOrderDecoder cancel = new CancelOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(CancelOrderDecoder.TEMPLATE_ID, encoder.templateId());
        assertEquals(WorkloadEncoder.SESSION_ID, cancel.sessionId());
        assertEquals(9, cancel.accountId());
        assertEquals("77", cancel.clientOrderId());
        assertEquals("55", cancel.origClientOrderId());
        assertEquals(0, cancel.orderId());
        assertEquals(2, cancel.instrumentId());
    }

    @Test
    void moveIsAReplaceToTheNewPriceWithTheSameTotal()
    {
        encoder.encode(record(WorkloadCommandType.MOVE, Side.SELL, 1, 4, 90, 60, 10_010, 0, 10_012, 20));
        final ReplaceOrderDecoder replace = new ReplaceOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(ReplaceOrderDecoder.TEMPLATE_ID, encoder.templateId());
        assertEquals(4, replace.accountId());
        assertEquals("90", replace.clientOrderId());
        assertEquals("60", replace.origClientOrderId());
        assertEquals(0, replace.orderId());
        assertEquals(1, replace.instrumentId());
        assertEquals(10_012, replace.price());
        assertEquals(20, replace.quantity());
    }

    @Test
    void reduceIsAReplaceAtTheSamePriceWithTheNewTotal()
    {
        encoder.encode(record(WorkloadCommandType.REDUCE, Side.BUY, 1, 5, 91, 61, 9_990, 4, 9_990, 16));
        final ReplaceOrderDecoder replace = new ReplaceOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(9_990, replace.price());
        assertEquals(16, replace.quantity());
        assertEquals("91", replace.clientOrderId());
        assertEquals("61", replace.origClientOrderId());
    }

    @Test
    void aStopLimitIsAStopLimitGtcNewOrderWithItsStopPriceAndAnIcebergShowsItsDisplayQuantity()
    {
        encoder.encode(record(WorkloadCommandType.PLACE_STOP_LIMIT, Side.BUY, 1, 5, 92, 0, 9_980, 12, 10_010, 0));
        NewOrderDecoder order = new NewOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(OrderType.STOP_LIMIT, order.orderType());
        assertEquals(TimeInForce.GTC, order.timeInForce());
        assertEquals(9_980, order.price());
        assertEquals(10_010, order.stopPrice());
        assertEquals(0, order.displayQuantity());

        encoder.encode(record(WorkloadCommandType.PLACE_ICEBERG, Side.SELL, 1, 6, 93, 0, 10_020, 40, 0, 8));
        order = new NewOrderDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(OrderType.LIMIT, order.orderType());
        assertEquals(40, order.quantity());
        assertEquals(8, order.displayQuantity());
        assertEquals(0, order.stopPrice());
    }

    @Test
    void theProcessorAcceptsEveryCommandOfAGeneratedWorkload() throws IOException
    {
        replayWithoutRejects(new WorkloadSpec(20_000, 3, 50, 11, 100));
    }

    @Test
    void theProcessorAcceptsEveryCommandOfAWorkloadWithStopsAndIcebergs() throws IOException
    {
        final EventTally tally = replayWithoutRejects(new WorkloadSpec(20_000, 3, 50, 11, 100, 10, 10));
        assertTrue(tally.events(TradeDecoder.TEMPLATE_ID) > 2_000, "it trades: " + tally.events(
            TradeDecoder.TEMPLATE_ID));
    }

    private EventTally replayWithoutRejects(final WorkloadSpec spec) throws IOException
    {
        final Path file = dir.resolve("w.bin");
        WorkloadGenerator.generate(spec, file);
        final WorkloadEncoder.Encoded encoded;
        try (WorkloadFile workload = WorkloadFile.open(file))
        {
            encoded = WorkloadEncoder.encodeAll(workload);
            assertEquals(workload.prefillCount(), encoded.prefill().count());
            assertEquals(workload.commandCount(), encoded.timed().count());
        }
        final EventTally tally = new EventTally();
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(new TallyingEventSink(1 << 16, tally),
            1 << 12, (ex) -> { throw new AssertionError(ex); });
        long sequence = 0;
        for (final EncodedCommands part : new EncodedCommands[]{ encoded.preamble(), encoded.prefill(),
            encoded.timed() })
        {
            for (int frame = 0; frame < part.limit(); frame = part.next(frame))
            {
                sequence++;
                processor.onCommand(sequence, sequence, part.sourceId(frame), part.buffer(),
                    EncodedCommands.messageOffset(frame), part.length(frame));
                if ((sequence & 63) == 0)
                {
                    processor.onEndOfBatch();
                }
            }
        }
        processor.onEndOfBatch();

        assertEquals(encoded.total(), sequence);
        assertEquals(0, tally.rejects(), tally.rejectSummary());
        assertEquals(0, processor.errorCount());
        assertTrue(tally.events(ExecutionReportDecoder.TEMPLATE_ID) >= encoded.prefill().count() +
            encoded.timed().count());
        assertEquals(tally.maxCommandSequence(), sequence);
        return tally;
    }

    @Test
    void aCancelOfAnUnknownOrderIsCountedAsACancelRejectWithItsReason()
    {
        final EventTally tally = new EventTally();
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(new TallyingEventSink(1 << 16, tally),
            1 << 10, null);
        final int length = encoder.encode(record(WorkloadCommandType.CANCEL, Side.BUY, 1, 1, 2, 1, 0, 0, 0, 0));
        processor.onCommand(1, 1, WorkloadEncoder.SESSION_ID, encoder.buffer(), 0, length);

        assertEquals(1, tally.events(CancelRejectDecoder.TEMPLATE_ID));
        assertEquals(1, tally.rejects());
        assertEquals(1, tally.rejects(EventTally.CANCEL_REJECT, RejectReason.UNKNOWN_ORDER.value()),
            tally.rejectSummary());
    }

    private static WorkloadCommand record(
        final byte type, final Side side, final int instrument, final long account, final long clientId,
        final long origClientId, final long price, final long size, final long newPrice, final long newSize)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[WorkloadFileDescriptor.RECORD_LENGTH]);
        final ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        buffer.putByte(WorkloadFileDescriptor.TYPE_OFFSET, type);
        buffer.putByte(WorkloadFileDescriptor.SIDE_OFFSET, (byte)side.value());
        buffer.putInt(WorkloadFileDescriptor.INSTRUMENT_ID_OFFSET, instrument, order);
        buffer.putLong(WorkloadFileDescriptor.ACCOUNT_ID_OFFSET, account, order);
        buffer.putLong(WorkloadFileDescriptor.ORDER_ID_OFFSET, origClientId == 0 ? clientId : 1000 + origClientId,
            order);
        buffer.putLong(WorkloadFileDescriptor.CLIENT_ID_OFFSET, clientId, order);
        buffer.putLong(WorkloadFileDescriptor.ORIG_CLIENT_ID_OFFSET, origClientId, order);
        buffer.putLong(WorkloadFileDescriptor.PRICE_OFFSET, price, order);
        buffer.putLong(WorkloadFileDescriptor.SIZE_OFFSET, size, order);
        buffer.putLong(WorkloadFileDescriptor.NEW_PRICE_OFFSET, newPrice, order);
        buffer.putLong(WorkloadFileDescriptor.NEW_SIZE_OFFSET, newSize, order);
        return new WorkloadCommand().wrap(buffer, 0);
    }

    @Test
    void framesKeepLengthTemplateAndSource()
    {
        final EncodedCommands commands = EncodedCommands.forCommands(2);
        final ExpandableArrayBuffer message = new ExpandableArrayBuffer(64);
        message.putLong(0, 0x1122334455667788L);
        commands.append(7, 10, message, 0, 13);
        commands.append(0, 31, message, 0, 8);
        assertEquals(2, commands.count());
        assertEquals(13, commands.length(0));
        assertEquals(10, commands.templateId(0));
        assertEquals(7, commands.sourceId(0));
        final int second = commands.next(0);
        assertEquals(0, second % 8);
        assertEquals(8, commands.length(second));
        assertEquals(31, commands.templateId(second));
        assertEquals(0x1122334455667788L, commands.buffer().getLong(EncodedCommands.messageOffset(second)));
        assertEquals(commands.limit(), commands.next(second));
    }
}
