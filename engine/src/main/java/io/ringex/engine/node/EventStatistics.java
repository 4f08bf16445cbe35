package io.ringex.engine.node;

import java.util.concurrent.atomic.AtomicLongArray;

import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeDecoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Counts what the processor decided: orders accepted, trades, rejects in all and by reason. The last handler of the
 * output ring's publishers' stage ({@link FanOutHandler}); it reads two fields of each event in place and allocates
 * nothing.
 * <p>
 * Thread safety: counts are written by the stage's thread and read by anyone.
 */
final class EventStatistics implements SlotHandler
{
    private static final int EXEC_TYPE_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH +
        ExecutionReportDecoder.execTypeEncodingOffset();
    private static final int REJECT_REASON_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH +
        ExecutionReportDecoder.rejectReasonEncodingOffset();

    private final AtomicCounter accepted;
    private final AtomicCounter trades;
    private final AtomicCounter rejects;
    private final AtomicLongArray rejectsByReason = new AtomicLongArray(RejectReason.values().length);

    EventStatistics(final AtomicCounter accepted, final AtomicCounter trades, final AtomicCounter rejects)
    {
        this.accepted = accepted;
        this.trades = trades;
        this.rejects = rejects;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        final int templateId = buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET);
        final int payload = slotOffset + SlotDescriptor.PAYLOAD_OFFSET;
        if (templateId == TradeDecoder.TEMPLATE_ID)
        {
            trades.incrementRelease();
        }
        else if (templateId == ExecutionReportDecoder.TEMPLATE_ID)
        {
            final short execType = (short)(buffer.getByte(payload + EXEC_TYPE_OFFSET) & 0xFF);
            if (execType == ExecType.NEW.value())
            {
                accepted.incrementRelease();
            }
            else if (execType == ExecType.REJECTED.value())
            {
                rejects.incrementRelease();
                final int reason = buffer.getShort(payload + REJECT_REASON_OFFSET, MessageHeaderDecoder.BYTE_ORDER) &
                    0xFFFF;
                final RejectReason rejectReason = RejectReason.get(reason);
                if (rejectReason != RejectReason.NULL_VAL)
                {
                    rejectsByReason.incrementAndGet(rejectReason.ordinal());
                }
            }
        }
    }

    /**
     * @param reason a reject reason.
     * @return rejects for it so far.
     */
    long rejects(final RejectReason reason)
    {
        return rejectsByReason.get(reason.ordinal());
    }
}
