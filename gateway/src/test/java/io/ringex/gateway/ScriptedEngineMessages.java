package io.ringex.gateway;

import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.EngineStatusEncoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.MutableDirectBuffer;

/**
 * What a scripted engine node sends the {@link EngineRouter} tests: an EngineStatus and a NEW ExecutionReport,
 * encoded at offset 0 of the caller's buffer.
 * <p>
 * Thread safety: stateless; the caller owns the buffer.
 */
final class ScriptedEngineMessages
{
    private ScriptedEngineMessages()
    {
    }

    /**
     * @return the length of the EngineStatus written.
     */
    static int status(
        final MutableDirectBuffer buffer, final int nodeId, final NodeRole role, final long epoch,
        final long epochStartSequence, final long ingressSequence)
    {
        final EngineStatusEncoder encoder = new EngineStatusEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .epoch(epoch).nodeId(nodeId).role(role).epochStartSequence(epochStartSequence)
            .ingressSequence(ingressSequence);
        encoder.countersCount(0);
        encoder.rejectsCount(0);
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /**
     * @return the length of the ExecutionReport (NEW, account 100, instrument 1, order id = the sequence) written.
     */
    static int newReport(
        final MutableDirectBuffer buffer, final long sessionId, final String clientOrderId, final long sequence,
        final long epoch)
    {
        final ExecutionReportEncoder encoder = new ExecutionReportEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .epoch(epoch)
            .sessionId(sessionId)
            .accountId(100)
            .instrumentId(1)
            .orderId(sequence)
            .clientOrderId(clientOrderId)
            .origClientOrderId("")
            .execType(ExecType.NEW)
            .orderStatus(OrderStatus.NEW)
            .side(Side.BUY)
            .orderType(OrderType.LIMIT)
            .timeInForce(TimeInForce.GTC)
            .price(100)
            .quantity(1)
            .leavesQuantity(1)
            .cumulativeQuantity(0)
            .lastPrice(0)
            .lastQuantity(0)
            .averagePrice(0)
            .tradeId(0)
            .rejectReason(RejectReason.NONE)
            .cancelReason(CancelReason.NONE)
            .transactTimeNs(0)
            .commandSequence(sequence);
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }
}
