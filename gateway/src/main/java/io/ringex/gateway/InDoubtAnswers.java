package io.ringex.gateway;

import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The gateway's own answer to a command in doubt that it cannot safely re-submit: the reject the engine would have
 * sent, with reason OUTCOME_UNKNOWN (an ExecutionReport REJECTED for a NewOrder, a CancelReject for a CancelOrder or
 * ReplaceOrder), so each protocol translates it as it translates the engine's. Its command sequence is negative (the
 * gateway's, not a journal's: -1, -2, ... so FIX ExecIDs stay unique) and its order id 0 unless the command named one.
 * <p>
 * Thread safety: one thread (the gateway agent's).
 */
final class InDoubtAnswers
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int ID_LENGTH = 20;

    private final InFlightCommands inFlight;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MessageHeaderDecoder commandHeader = new MessageHeaderDecoder();
    private final ExecutionReportEncoder report = new ExecutionReportEncoder();
    private final CancelRejectEncoder cancelReject = new CancelRejectEncoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final CancelOrderDecoder cancel = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replace = new ReplaceOrderDecoder();
    private int templateId;
    private long answers;

    InDoubtAnswers(final InFlightCommands inFlight)
    {
        this.inFlight = inFlight;
    }

    /**
     * Encode the answer to a kept command into {@link #buffer()} at 0.
     *
     * @param slot  the command's slot.
     * @param epoch stamped on the answer.
     * @return the answer's length.
     */
    int encode(final int slot, final long epoch)
    {
        final DirectBuffer commands = inFlight.commands();
        final int offset = inFlight.commandOffset(slot);
        commandHeader.wrap(commands, offset);
        final int body = offset + HEADER_LENGTH;
        final int blockLength = commandHeader.blockLength();
        final int version = commandHeader.version();
        final long sequence = -(++answers);
        final long nowNs = System.currentTimeMillis() * 1_000_000L;
        if (commandHeader.templateId() == NewOrderDecoder.TEMPLATE_ID)
        {
            newOrder.wrap(commands, body, blockLength, version);
            report.wrapAndApplyHeader(buffer, 0, header)
                .epoch(epoch)
                .sessionId(newOrder.sessionId())
                .accountId(newOrder.accountId())
                .instrumentId(newOrder.instrumentId())
                .orderId(0)
                .execType(ExecType.REJECTED)
                .orderStatus(OrderStatus.REJECTED)
                .side(newOrder.side())
                .orderType(newOrder.orderType())
                .timeInForce(newOrder.timeInForce())
                .price(newOrder.price())
                .quantity(newOrder.quantity())
                .leavesQuantity(0)
                .cumulativeQuantity(0)
                .lastPrice(0)
                .lastQuantity(0)
                .averagePrice(0)
                .tradeId(0)
                .rejectReason(RejectReason.OUTCOME_UNKNOWN)
                .cancelReason(CancelReason.NONE)
                .transactTimeNs(nowNs)
                .commandSequence(sequence);
            copyId(body + NewOrderDecoder.clientOrderIdEncodingOffset(),
                HEADER_LENGTH + ExecutionReportEncoder.clientOrderIdEncodingOffset());
            buffer.setMemory(HEADER_LENGTH + ExecutionReportEncoder.origClientOrderIdEncodingOffset(), ID_LENGTH,
                (byte)0);
            templateId = ExecutionReportEncoder.TEMPLATE_ID;
            return HEADER_LENGTH + ExecutionReportEncoder.BLOCK_LENGTH;
        }

        final boolean isCancel = commandHeader.templateId() == CancelOrderDecoder.TEMPLATE_ID;
        final long sessionId;
        final long accountId;
        final int instrumentId;
        final long orderId;
        final int idOffset;
        final int origIdOffset;
        if (isCancel)
        {
            cancel.wrap(commands, body, blockLength, version);
            sessionId = cancel.sessionId();
            accountId = cancel.accountId();
            instrumentId = cancel.instrumentId();
            orderId = cancel.orderId();
            idOffset = body + CancelOrderDecoder.clientOrderIdEncodingOffset();
            origIdOffset = body + CancelOrderDecoder.origClientOrderIdEncodingOffset();
        }
        else
        {
            replace.wrap(commands, body, blockLength, version);
            sessionId = replace.sessionId();
            accountId = replace.accountId();
            instrumentId = replace.instrumentId();
            orderId = replace.orderId();
            idOffset = body + ReplaceOrderDecoder.clientOrderIdEncodingOffset();
            origIdOffset = body + ReplaceOrderDecoder.origClientOrderIdEncodingOffset();
        }
        cancelReject.wrapAndApplyHeader(buffer, 0, header)
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(accountId)
            .instrumentId(instrumentId)
            .orderId(orderId)
            .responseTo(isCancel ? CancelRejectResponseTo.CANCEL : CancelRejectResponseTo.REPLACE)
            .rejectReason(RejectReason.OUTCOME_UNKNOWN)
            .transactTimeNs(nowNs)
            .commandSequence(sequence);
        copyId(idOffset, HEADER_LENGTH + CancelRejectEncoder.clientOrderIdEncodingOffset());
        copyId(origIdOffset, HEADER_LENGTH + CancelRejectEncoder.origClientOrderIdEncodingOffset());
        templateId = CancelRejectEncoder.TEMPLATE_ID;
        return HEADER_LENGTH + CancelRejectEncoder.BLOCK_LENGTH;
    }

    /**
     * @return the buffer the last answer was encoded into.
     */
    DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the last answer's template id.
     */
    int templateId()
    {
        return templateId;
    }

    private void copyId(final int from, final int to)
    {
        buffer.putBytes(to, inFlight.commands(), from, ID_LENGTH);
    }
}
