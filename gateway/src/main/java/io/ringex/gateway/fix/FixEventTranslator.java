package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.fix.codecs.builder.BusinessMessageRejectEncoder;
import io.ringex.gateway.fix.codecs.builder.ExecutionReportEncoder;
import io.ringex.gateway.fix.codecs.builder.OrderCancelRejectEncoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.DirectBuffer;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.fields.UtcTimestampEncoder;

import java.util.concurrent.TimeUnit;

/**
 * Builds the FIX 4.4 messages the gateway sends: engine events translated (ExecutionReport 8, OrderCancelReject 9,
 * BusinessMessageReject j) and the gateway's own answers to messages it refused before they reached the engine.
 * <table>
 * <caption>SBE ExecutionReport to FIX</caption>
 * <tr><th>SBE</th><th>FIX</th></tr>
 * <tr><td>execType NEW, PARTIAL_FILL, FILL, CANCELED, REPLACED, REJECTED, EXPIRED</td>
 * <td>ExecType(150) 0, F, F, 4, 5, 8, C</td></tr>
 * <tr><td>orderStatus NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED</td>
 * <td>OrdStatus(39) 0, 1, 2, 4, 8, C</td></tr>
 * <tr><td>price, averagePrice, lastPrice (fixed point)</td><td>Price(44), AvgPx(6), LastPx(31), exact decimals at
 * the instrument's price scale</td></tr>
 * <tr><td>quantity, leavesQuantity, cumulativeQuantity, lastQuantity</td>
 * <td>OrderQty(38), LeavesQty(151), CumQty(14), LastQty(32)</td></tr>
 * <tr><td>rejectReason</td><td>OrdRejReason(103) (FIX 4.4 values; 99 Other otherwise) and Text(58) = the reason
 * name</td></tr>
 * </table>
 * ExecID(17) is {@code epoch-commandSequence-orderId-tradeId-execType}: unique per report.
 * <p>
 * No OrderMassCancelReport (r) is sent: Artio 0.175's generated encoder demands the required fields of the optional
 * Instrument and UnderlyingInstrument components, so a cancel-all report cannot be encoded without inventing a
 * Symbol. A mass cancel is answered by one ExecutionReport (ExecType 4, Text MASS_CANCEL) per cancelled order, or
 * a BusinessMessageReject if refused.
 * <p>
 * Thread safety: single-threaded; encoders are reused and must be sent before the next call.
 */
public final class FixEventTranslator
{
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder executionReportDecoder = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelRejectDecoder = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessRejectDecoder = new BusinessRejectDecoder();
    private final ExecutionReportEncoder executionReport = new ExecutionReportEncoder();
    private final OrderCancelRejectEncoder cancelReject = new OrderCancelRejectEncoder();
    private final BusinessMessageRejectEncoder businessReject = new BusinessMessageRejectEncoder();
    private final UtcTimestampEncoder timestampEncoder = new UtcTimestampEncoder();
    private final StringBuilder text = new StringBuilder(64);
    private final StringBuilder id = new StringBuilder(24);
    private final StringBuilder origId = new StringBuilder(24);
    private final StringBuilder account = new StringBuilder(24);
    private long gatewayExecIds;

    /**
     * Translate a client-bound engine event: an ExecutionReport, a CancelReject or (any other template) a
     * BusinessReject.
     *
     * @param buffer      the engine message, SBE header first.
     * @param offset      where it starts.
     * @param instruments price scales and symbols.
     * @return the FIX encoder, filled (reused: valid until the next call).
     */
    public Encoder engineEvent(final DirectBuffer buffer, final int offset, final InstrumentDirectory instruments)
    {
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.wrap(buffer, offset).blockLength();
        final int version = headerDecoder.version();
        return switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID ->
                executionReport(executionReportDecoder.wrap(buffer, body, blockLength, version), instruments);
            case CancelRejectDecoder.TEMPLATE_ID ->
                cancelReject(cancelRejectDecoder.wrap(buffer, body, blockLength, version));
            default -> businessReject(businessRejectDecoder.wrap(buffer, body, blockLength, version));
        };
    }

    /**
     * Translate an engine ExecutionReport.
     *
     * @param d           the event.
     * @param instruments symbols and price scales.
     * @return the encoder, ready to send.
     */
    public ExecutionReportEncoder executionReport(final ExecutionReportDecoder d, final InstrumentDirectory instruments)
    {
        final ExecutionReportEncoder e = executionReport;
        e.reset();
        final int instrumentId = d.instrumentId();
        final int scale = Math.max(0, instruments.priceScale(instrumentId));
        final ExecType execType = d.execType();
        final char execTypeChar = execType(execType);
        final long orderId = d.orderId();

        setDecimal(id, orderId);
        e.orderID(orderId == 0 ? "NONE" : id);
        id.setLength(0);
        id.append('E').append(d.epoch()).append('-').append(d.commandSequence()).append('-').append(orderId)
            .append('-').append(d.tradeId()).append('-').append(execTypeChar);
        e.execID(id);
        id.setLength(0);
        d.getClientOrderId(id);
        e.clOrdID(id);
        origId.setLength(0);
        d.getOrigClientOrderId(origId);
        if (origId.length() > 0)
        {
            e.origClOrdID(origId);
        }
        setDecimal(account, d.accountId());
        e.account(account);
        e.execType(execTypeChar);
        e.ordStatus(ordStatus(d.orderStatus()));
        e.instrument().symbol(symbol(instruments, instrumentId));
        e.side(side(d.side()));
        e.ordType(d.orderType() == OrderType.MARKET ? '1' : '2');
        final char tif = timeInForce(d.timeInForce());
        if (tif != 0)
        {
            e.timeInForce(tif);
        }
        if (d.orderType() != OrderType.MARKET)
        {
            e.price(d.price(), scale);
        }
        e.orderQtyData().orderQty(d.quantity(), 0);
        e.leavesQty(d.leavesQuantity(), 0);
        e.cumQty(d.cumulativeQuantity(), 0);
        e.avgPx(d.averagePrice(), scale);
        if (d.lastQuantity() > 0)
        {
            e.lastPx(d.lastPrice(), scale);
            e.lastQty(d.lastQuantity(), 0);
        }
        final RejectReason rejectReason = d.rejectReason();
        final CancelReason cancelReason = d.cancelReason();
        if (execType == ExecType.REJECTED)
        {
            e.ordRejReason(ordRejReason(rejectReason));
            e.text(rejectReason.name());
        }
        else if (cancelReason != CancelReason.NONE && cancelReason != CancelReason.NULL_VAL)
        {
            e.text(cancelReason.name());
        }
        final int length = timestampEncoder.encodeFrom(d.transactTimeNs(), TimeUnit.NANOSECONDS);
        e.transactTime(timestampEncoder.buffer(), length);
        return e;
    }

    /**
     * Translate an engine CancelReject.
     *
     * @param d the event.
     * @return the encoder, ready to send.
     */
    public OrderCancelRejectEncoder cancelReject(final CancelRejectDecoder d)
    {
        final OrderCancelRejectEncoder e = cancelReject;
        e.reset();
        final long orderId = d.orderId();
        setDecimal(id, orderId);
        e.orderID(orderId == 0 ? "NONE" : id);
        id.setLength(0);
        d.getClientOrderId(id);
        e.clOrdID(id);
        origId.setLength(0);
        d.getOrigClientOrderId(origId);
        e.origClOrdID(origId.length() == 0 ? "NONE" : origId);
        e.ordStatus('8');
        setDecimal(account, d.accountId());
        e.account(account);
        e.cxlRejResponseTo(d.responseTo() == CancelRejectResponseTo.REPLACE ? '2' : '1');
        final RejectReason reason = d.rejectReason();
        e.cxlRejReason(cxlRejReason(reason));
        e.text(reason.name());
        return e;
    }

    /**
     * Translate an engine BusinessReject.
     *
     * @param d the event.
     * @return the encoder, ready to send.
     */
    public BusinessMessageRejectEncoder businessReject(final BusinessRejectDecoder d)
    {
        final BusinessMessageRejectEncoder e = businessReject;
        e.reset();
        e.refMsgType(refMsgType(d.refTemplateId()));
        id.setLength(0);
        d.getRefClientOrderId(id);
        if (id.length() > 0)
        {
            e.businessRejectRefID(id);
        }
        final RejectReason reason = d.rejectReason();
        e.businessRejectReason(businessRejectReason(reason));
        e.text(reason.name());
        return e;
    }

    /**
     * The gateway's own refusal of a FIX message (bad field, not authorised, throttled, engine busy).
     * NewOrderSingle gets an ExecutionReport Rejected, cancel and replace an OrderCancelReject, anything else a
     * BusinessMessageReject.
     *
     * @param fields    the refused message.
     * @param msgType   its MsgType.
     * @param seqNum    its MsgSeqNum.
     * @param reason    why.
     * @param why       detail for Text(58), or null.
     * @param symbolFallback Symbol to echo when the message has none.
     * @return the encoder, ready to send.
     */
    public uk.co.real_logic.artio.builder.Encoder reject(
        final FixFields fields,
        final char msgType,
        final int seqNum,
        final RejectReason reason,
        final String why,
        final String symbolFallback)
    {
        text.setLength(0);
        text.append(reason.name());
        if (why != null && !why.isEmpty())
        {
            text.append(": ").append(why);
        }
        final boolean orderIdsUsable = fields.isWellFormed() && fields.length(FixFields.CL_ORD_ID) > 0 &&
            fields.length(FixFields.CL_ORD_ID) <= 64;
        if (msgType == 'D' && orderIdsUsable && reason != RejectReason.THROTTLED &&
            reason != RejectReason.ENGINE_BUSY)
        {
            final ExecutionReportEncoder e = executionReport;
            e.reset();
            e.orderID("NONE");
            id.setLength(0);
            id.append('G').append(++gatewayExecIds);
            e.execID(id);
            e.clOrdID(fields.value(FixFields.CL_ORD_ID));
            e.execType('8');
            e.ordStatus('8');
            e.ordRejReason(ordRejReason(reason));
            final CharSequence symbol = fields.value(FixFields.SYMBOL);
            e.instrument().symbol(symbol.length() > 0 ? symbol : symbolFallback);
            final char side = fields.firstChar(FixFields.SIDE);
            e.side(side == '1' || side == '2' ? side : '1');
            e.leavesQty(0, 0);
            e.cumQty(0, 0);
            e.avgPx(0, 0);
            e.text(text);
            return e;
        }
        if ((msgType == 'F' || msgType == 'G') && orderIdsUsable && reason != RejectReason.THROTTLED &&
            reason != RejectReason.ENGINE_BUSY)
        {
            final OrderCancelRejectEncoder e = cancelReject;
            e.reset();
            e.orderID(fields.length(FixFields.ORDER_ID) > 0 && fields.length(FixFields.ORDER_ID) <= 64 ?
                fields.value(FixFields.ORDER_ID) : "NONE");
            e.clOrdID(fields.value(FixFields.CL_ORD_ID));
            final int origLength = fields.length(FixFields.ORIG_CL_ORD_ID);
            e.origClOrdID(origLength > 0 && origLength <= 64 ? fields.value(FixFields.ORIG_CL_ORD_ID) : "NONE");
            e.ordStatus('8');
            e.cxlRejResponseTo(msgType == 'G' ? '2' : '1');
            e.cxlRejReason(cxlRejReason(reason));
            e.text(text);
            return e;
        }
        final BusinessMessageRejectEncoder e = businessReject;
        e.reset();
        if (seqNum > 0)
        {
            e.refSeqNum(seqNum);
        }
        final int msgTypeLength = fields.isWellFormed() ? fields.length(FixFields.MSG_TYPE) : 0;
        if (msgTypeLength > 0 && msgTypeLength <= 4)
        {
            e.refMsgType(fields.value(FixFields.MSG_TYPE));
        }
        else
        {
            e.refMsgType(msgTypeText(msgType));
        }
        if (orderIdsUsable)
        {
            e.businessRejectRefID(fields.value(FixFields.CL_ORD_ID));
        }
        e.businessRejectReason(businessRejectReason(reason));
        e.text(text);
        return e;
    }

    private static String msgTypeText(final char msgType)
    {
        switch (msgType)
        {
            case 'D':
                return "D";
            case 'F':
                return "F";
            case 'G':
                return "G";
            case 'q':
                return "q";
            default:
                return "?";
        }
    }

    private static String refMsgType(final int templateId)
    {
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                return "D";
            case CancelOrderDecoder.TEMPLATE_ID:
                return "F";
            case ReplaceOrderDecoder.TEMPLATE_ID:
                return "G";
            case MassCancelDecoder.TEMPLATE_ID:
                return "q";
            default:
                return "?";
        }
    }

    private static CharSequence symbol(final InstrumentDirectory instruments, final int instrumentId)
    {
        final String symbol = instruments.symbol(instrumentId);
        return symbol != null ? symbol : "UNKNOWN";
    }

    private static void setDecimal(final StringBuilder builder, final long value)
    {
        builder.setLength(0);
        builder.append(value);
    }

    static char execType(final ExecType execType)
    {
        switch (execType)
        {
            case NEW:
                return '0';
            case PARTIAL_FILL:
            case FILL:
                return 'F';
            case CANCELED:
                return '4';
            case REPLACED:
                return '5';
            case REJECTED:
                return '8';
            case EXPIRED:
                return 'C';
            default:
                return 'I';
        }
    }

    static char ordStatus(final OrderStatus status)
    {
        switch (status)
        {
            case NEW:
                return '0';
            case PARTIALLY_FILLED:
                return '1';
            case FILLED:
                return '2';
            case CANCELED:
                return '4';
            case REJECTED:
                return '8';
            case EXPIRED:
                return 'C';
            default:
                return '0';
        }
    }

    private static char side(final Side side)
    {
        return side == Side.SELL ? '2' : '1';
    }

    private static char timeInForce(final TimeInForce timeInForce)
    {
        switch (timeInForce)
        {
            case DAY:
                return '0';
            case GTC:
                return '1';
            case IOC:
                return '3';
            case FOK:
                return '4';
            default:
                return 0;
        }
    }

    static int ordRejReason(final RejectReason reason)
    {
        switch (reason)
        {
            case UNKNOWN_INSTRUMENT:
                return 1;
            case INSTRUMENT_HALTED:
            case VENUE_KILLED:
                return 2;
            case PRICE_OUTSIDE_BAND:
            case INSUFFICIENT_CREDIT:
            case POSITION_LIMIT:
            case MAX_ORDER_QUANTITY:
            case MAX_ORDER_NOTIONAL:
            case TOO_MANY_OPEN_ORDERS:
            case NOTIONAL_OVERFLOW:
            case INSUFFICIENT_POSITION:
            case ACCOUNT_KILLED:
                return 3;
            case UNKNOWN_ORDER:
                return 5;
            case DUPLICATE_CLIENT_ORDER_ID:
                return 6;
            case INVALID_ORDER_TYPE:
            case POST_ONLY_WOULD_CROSS:
            case FOK_NOT_FILLABLE:
            case NO_LIQUIDITY:
                return 11;
            case INVALID_QUANTITY:
            case INVALID_LOT:
                return 13;
            case UNKNOWN_ACCOUNT:
            case NOT_AUTHORISED:
                return 15;
            default:
                return 99;
        }
    }

    static int cxlRejReason(final RejectReason reason)
    {
        switch (reason)
        {
            case UNKNOWN_ORDER:
                return 1;
            case ORDER_NOT_OPEN:
                return 0;
            case DUPLICATE_CLIENT_ORDER_ID:
                return 6;
            default:
                return 99;
        }
    }

    static int businessRejectReason(final RejectReason reason)
    {
        switch (reason)
        {
            case UNKNOWN_ORDER:
                return 1;
            case UNKNOWN_INSTRUMENT:
                return 2;
            case UNKNOWN_MESSAGE:
                return 3;
            case ENGINE_BUSY:
            case THROTTLED:
                return 4;
            case NOT_AUTHORISED:
                return 6;
            default:
                return 0;
        }
    }
}
