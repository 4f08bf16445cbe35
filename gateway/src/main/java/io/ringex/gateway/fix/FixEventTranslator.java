package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.fix.codecs.builder.BusinessMessageRejectEncoder;
import io.ringex.gateway.fix.codecs.builder.ExecutionReportEncoder;
import io.ringex.gateway.fix.codecs.builder.OrderCancelRejectEncoder;
import io.ringex.gateway.fix.codecs.builder.RejectEncoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.gateway.fix.codecs.builder.RingexMassCancelReportEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.DirectBuffer;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.fields.UtcTimestampEncoder;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

/**
 * Builds the FIX 4.4 messages the gateway sends: engine events translated (ExecutionReport 8, OrderCancelReject 9,
 * BusinessMessageReject j, OrderMassCancelReport r) and the gateway's own answers to messages it refused before they
 * reached the engine. The mapping is docs/client.md's ("FIX 4.4").
 * <p>
 * Total: any event, whatever its values, becomes a message Artio encodes and FIX 4.4 accepts; what FIX cannot carry is
 * fitted by {@link FixWireValues} and said so in Text(58) ({@link #issues()}), and what this gateway does not know
 * becomes a BusinessMessageReject.
 * <p>
 * Thread safety: single-threaded; encoders are reused and must be sent before the next call.
 */
public final class FixEventTranslator
{
    private static final ExecType[] EXEC_TYPES = valuesBut(ExecType.values(), ExecType.NULL_VAL);
    private static final OrderStatus[] ORDER_STATUSES = valuesBut(OrderStatus.values(), OrderStatus.NULL_VAL);
    private static final Side[] SIDES = valuesBut(Side.values(), Side.NULL_VAL);
    private static final OrderType[] ORDER_TYPES = valuesBut(OrderType.values(), OrderType.NULL_VAL);
    private static final TimeInForce[] TIMES_IN_FORCE = valuesBut(TimeInForce.values(), TimeInForce.NULL_VAL);
    private static final RejectReason[] REJECT_REASONS = valuesBut(RejectReason.values(), RejectReason.NULL_VAL);
    /** NULL_VAL included: a report of a schema before the cancel reason carries it, and means no reason. */
    private static final CancelReason[] CANCEL_REASONS = CancelReason.values();
    private static final CancelRejectResponseTo[] RESPONSES_TO =
        valuesBut(CancelRejectResponseTo.values(), CancelRejectResponseTo.NULL_VAL);
    private static final int MAX_FAILURE_TEXT = 160;
    /**
     * Follows {@code MAX_ORDER_QUANTITY} in Text(58): an account whose limits were never set has a maximum of 0, so
     * every order of it is refused so.
     */
    static final String NO_LIMITS_HINT = ": OrderQty(38) is above the account's maximum order quantity; an " +
        "account the venue has set no limits for has a maximum of 0 and refuses every order";

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ExecutionReportDecoder executionReportDecoder = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelRejectDecoder = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessRejectDecoder = new BusinessRejectDecoder();
    private final OrderStatusReportDecoder orderStatusReportDecoder = new OrderStatusReportDecoder();
    private final MassCancelReportDecoder massCancelReportDecoder = new MassCancelReportDecoder();
    private final RingexMassCancelReportEncoder massCancelReport = new RingexMassCancelReportEncoder();
    private final ExecutionReportEncoder executionReport = new ExecutionReportEncoder();
    private final OrderCancelRejectEncoder cancelReject = new OrderCancelRejectEncoder();
    private final BusinessMessageRejectEncoder businessReject = new BusinessMessageRejectEncoder();
    private final RejectEncoder sessionReject = new RejectEncoder();
    private final UtcTimestampEncoder timestampEncoder = new UtcTimestampEncoder();
    private final FixWireValues values = new FixWireValues();
    private final StringBuilder text = new StringBuilder(256);
    private final StringBuilder id = new StringBuilder(24);
    private final StringBuilder origId = new StringBuilder(24);
    private final StringBuilder account = new StringBuilder(24);
    private final StringBuilder symbol = new StringBuilder(24);
    private final StringBuilder scratch = new StringBuilder(64);
    private final FixQuoteReports quoteReports = new FixQuoteReports();
    private final MassQuoteAckDecoder massQuoteAckDecoder = new MassQuoteAckDecoder();
    private final QuoteCancelReportDecoder quoteCancelReportDecoder = new QuoteCancelReportDecoder();
    private final MarketMakerProtectionEventDecoder protectionEventDecoder = new MarketMakerProtectionEventDecoder();
    private long gatewayExecIds;

    /**
     * Translate a client-bound engine event: an ExecutionReport, a CancelReject, an OrderStatusReport, a
     * MassCancelReport, a BusinessReject, or a market maker's MassQuoteAck, QuoteCancelReport or
     * MarketMakerProtectionEvent ({@link FixQuoteReports}); any other template is read as a BusinessReject.
     * Total: whatever the event's values, the result encodes as a valid FIX 4.4 message; values FIX cannot carry are
     * fitted and noted in Text(58) ({@link #issues()} says which kinds), and an event that cannot be translated at
     * all (an enum value this gateway does not know) becomes a BusinessMessageReject saying so.
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
            case OrderStatusReportDecoder.TEMPLATE_ID ->
                orderStatusReport(orderStatusReportDecoder.wrap(buffer, body, blockLength, version), instruments);
            case MassCancelReportDecoder.TEMPLATE_ID ->
                massCancelReport(massCancelReportDecoder.wrap(buffer, body, blockLength, version), instruments);
            case MassQuoteAckDecoder.TEMPLATE_ID ->
                quoteReports.massQuoteAck(massQuoteAckDecoder.wrap(buffer, body, blockLength, version), instruments);
            case QuoteCancelReportDecoder.TEMPLATE_ID ->
                quoteReports.quoteCancelReport(quoteCancelReportDecoder.wrap(buffer, body, blockLength, version));
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID ->
                quoteReports.protectionEvent(protectionEventDecoder.wrap(buffer, body, blockLength, version));
            case CancelAllAfterReportDecoder.TEMPLATE_ID ->
                throw new IllegalArgumentException("a FIX session has no cancel-all-after");
            default -> businessReject(businessRejectDecoder.wrap(buffer, body, blockLength, version));
        };
    }

    /**
     * Translate an engine ExecutionReport into the copy a drop-copy session gets: the report as its own session got
     * it (Account(1), ExecID(17) and the rest the same), with the session that entered the order named in the header:
     * OnBehalfOfSubID(116) is its Ringex session id (gateway id and session number, as the engine's journal and
     * events carry it), and OnBehalfOfCompID(115) its FIX SenderCompID when it is a FIX session of this gateway.
     * CopyMsgIndicator(797) is not in the FIX 4.4 standard header (Artio's header encoder has no such field); a
     * drop-copy session carries nothing but copies.
     *
     * @param buffer          the engine ExecutionReport, SBE header first.
     * @param offset          where it starts.
     * @param instruments     price scales and symbols.
     * @param originSessionId the session the report is for.
     * @param originCompId    that session's SenderCompID, or null when it is not a FIX session of this gateway.
     * @return the encoder, filled (reused: valid until the next call).
     */
    public Encoder dropCopy(
        final DirectBuffer buffer,
        final int offset,
        final InstrumentDirectory instruments,
        final long originSessionId,
        final CharSequence originCompId)
    {
        final Encoder encoder = engineEvent(buffer, offset, instruments);
        if (encoder == executionReport)
        {
            scratch.setLength(0);
            scratch.append(originSessionId);
            executionReport.header().onBehalfOfSubID(scratch);
            if (null != originCompId && originCompId.length() > 0)
            {
                executionReport.header().onBehalfOfCompID(originCompId);
            }
        }
        return encoder;
    }

    /**
     * @return what the last translation had to change to fit FIX: a combination of {@link FixWireValues} kinds, 0
     * if nothing.
     */
    public int issues()
    {
        return values.kinds();
    }

    /**
     * @return the last translation's notes on what it changed (also in the message's Text), empty if none.
     */
    public CharSequence issueNotes()
    {
        return values.notes();
    }

    /**
     * Translate an engine ExecutionReport.
     *
     * @param d           the event.
     * @param instruments symbols and price scales.
     * @return the ExecutionReport encoder, ready to send; or a BusinessMessageReject if the event's execType,
     * orderStatus or side is a value this gateway does not know.
     */
    public Encoder executionReport(final ExecutionReportDecoder d, final InstrumentDirectory instruments)
    {
        values.reset();
        final ExecType execType = decode(EXEC_TYPES, ExecType::value, d.execTypeRaw());
        final OrderStatus orderStatus = decode(ORDER_STATUSES, OrderStatus::value, d.orderStatusRaw());
        final Side side = decode(SIDES, Side::value, d.sideRaw());
        final long orderId = d.orderId();
        id.setLength(0);
        d.getClientOrderId(id);
        values.printable(id, scratch, "ClOrdID(11)");
        id.setLength(0);
        id.append(scratch);
        if (execType == null || orderStatus == null || side == null)
        {
            values.note(FixWireValues.ENUM).append("ExecutionReport with execType ").append(d.execTypeRaw())
                .append(", orderStatus ").append(d.orderStatusRaw()).append(", side ").append(d.sideRaw());
            return untranslatable("8", "ExecutionReport", id, orderId);
        }

        final ExecutionReportEncoder e = executionReport;
        e.reset();
        final int instrumentId = d.instrumentId();
        final int scale = scaleOf(instruments, instrumentId);
        final char execTypeChar = execType(execType);

        setDecimal(scratch, orderId);
        e.orderID(orderId == 0 ? "NONE" : scratch);
        scratch.setLength(0);
        scratch.append('E').append(d.epoch()).append('-').append(d.commandSequence()).append('-').append(orderId)
            .append('-').append(d.tradeId()).append('-').append(execTypeChar);
        e.execID(scratch);
        if (id.length() > 0)
        {
            e.clOrdID(id);
        }
        scratch.setLength(0);
        d.getOrigClientOrderId(scratch);
        if (scratch.length() > 0)
        {
            e.origClOrdID(values.printable(scratch, origId, "OrigClOrdID(41)"));
        }
        setDecimal(account, d.accountId());
        e.account(account);
        e.execType(execTypeChar);
        e.ordStatus(ordStatus(orderStatus));
        e.instrument().symbol(symbol(instruments, instrumentId));
        e.side(side == Side.SELL ? '2' : '1');
        final OrderType orderType = decode(ORDER_TYPES, OrderType::value, d.orderTypeRaw());
        if (orderType != null)
        {
            e.ordType(ordType(orderType));
        }
        else
        {
            values.note(FixWireValues.ENUM).append("OrdType(40) left out: engine orderType ").append(d.orderTypeRaw());
        }
        final TimeInForce timeInForce = decode(TIMES_IN_FORCE, TimeInForce::value, d.timeInForceRaw());
        final char tif = timeInForce == null ? 0 : timeInForce(timeInForce);
        if (tif != 0)
        {
            e.timeInForce(tif);
        }
        if (orderType != OrderType.MARKET && orderType != OrderType.STOP)
        {
            values.fit(d.price(), scale, "Price(44)");
            e.price(values.decimal());
        }
        if (d.stopPrice() > 0)
        {
            values.fit(d.stopPrice(), scale, "StopPx(99)");
            e.stopPx(values.decimal());
        }
        if (d.displayQuantity() > 0)
        {
            values.fit(d.displayQuantity(), 0, "MaxFloor(111)");
            e.maxFloor(values.decimal());
        }
        values.fit(d.quantity(), 0, "OrderQty(38)");
        e.orderQtyData().orderQty(values.decimal());
        values.fit(d.leavesQuantity(), 0, "LeavesQty(151)");
        e.leavesQty(values.decimal());
        values.fit(d.cumulativeQuantity(), 0, "CumQty(14)");
        e.cumQty(values.decimal());
        values.fit(d.averagePrice(), scale, "AvgPx(6)");
        e.avgPx(values.decimal());
        if (d.lastQuantity() != 0)
        {
            values.fit(d.lastPrice(), scale, "LastPx(31)");
            e.lastPx(values.decimal());
            values.fit(d.lastQuantity(), 0, "LastQty(32)");
            e.lastQty(values.decimal());
        }

        text.setLength(0);
        if (execType == ExecType.TRIGGERED)
        {
            e.execRestatementReason(99);
            text.append("TRIGGERED");
        }
        if (execType == ExecType.REJECTED)
        {
            final RejectReason rejectReason = decode(REJECT_REASONS, RejectReason::value, d.rejectReasonRaw());
            e.ordRejReason(rejectReason == null ? 99 : ordRejReason(rejectReason));
            appendReason(text, rejectReason, d.rejectReasonRaw());
            if (rejectReason == RejectReason.MAX_ORDER_QUANTITY)
            {
                // The one reject an account nobody set limits for gives every order: say so, plainly.
                text.append(NO_LIMITS_HINT);
            }
        }
        else
        {
            final CancelReason cancelReason = decode(CANCEL_REASONS, CancelReason::value, d.cancelReasonRaw());
            if (cancelReason == null)
            {
                values.note(FixWireValues.ENUM).append("engine cancelReason ").append(d.cancelReasonRaw());
            }
            else if (cancelReason != CancelReason.NONE && cancelReason != CancelReason.NULL_VAL)
            {
                text.append(cancelReason.name());
                final RejectReason detail = decode(REJECT_REASONS, RejectReason::value, d.rejectReasonRaw());
                if (detail != null && detail != RejectReason.NONE)
                {
                    text.append(": ").append(detail.name());
                }
            }
        }
        appendNotes(text);
        if (text.length() > 0)
        {
            e.text(text);
        }
        final int length = timestampEncoder.encodeFrom(d.transactTimeNs(), TimeUnit.NANOSECONDS);
        e.transactTime(timestampEncoder.buffer(), length);
        return e;
    }

    /**
     * Translate an engine OrderStatusReport: an ExecutionReport with ExecType(150) I (order status). An order's report
     * carries its OrdStatus, LeavesQty, CumQty and AvgPx; an answer to H echoes OrdStatusReqID(790) when the request
     * had one, an answer to AF carries MassStatusReqID(584), TotNumReports(911) and LastRptRequested(912)=Y on the
     * last report. A report without an order (an unknown order, an unknown instrument, or the empty answer of a mass
     * status) has OrderID(37) NONE, OrdStatus(39) 8, Side(54) 7 (undisclosed), Symbol(55) [N/A] and, for a refusal,
     * OrdRejReason(103) and Text(58) with the reason; the empty answer has TotNumReports 0 and Text "no open orders".
     *
     * @param d           the event.
     * @param instruments symbols and price scales.
     * @return the ExecutionReport encoder, ready to send; or a BusinessMessageReject if a value is one this gateway
     * does not know.
     */
    public Encoder orderStatusReport(final OrderStatusReportDecoder d, final InstrumentDirectory instruments)
    {
        values.reset();
        final boolean mass = d.massStatusRaw() == 1;
        final int total = d.totalReports();
        final int number = d.reportNumber();
        final long orderId = d.orderId();
        final RejectReason reason = decode(REJECT_REASONS, RejectReason::value, d.rejectReasonRaw());
        id.setLength(0);
        d.getClientOrderId(id);
        values.printable(id, scratch, "ClOrdID(11)");
        id.setLength(0);
        id.append(scratch);
        final boolean hasOrder = orderId != 0 && total > 0;
        final OrderStatus orderStatus =
            hasOrder ? decode(ORDER_STATUSES, OrderStatus::value, d.orderStatusRaw()) : OrderStatus.REJECTED;
        final Side side = hasOrder ? decode(SIDES, Side::value, d.sideRaw()) : Side.NULL_VAL;
        if (orderStatus == null || side == null || reason == null)
        {
            values.note(FixWireValues.ENUM).append("OrderStatusReport with orderStatus ").append(d.orderStatusRaw())
                .append(", side ").append(d.sideRaw()).append(", rejectReason ").append(d.rejectReasonRaw());
            return untranslatable("8", "ExecutionReport (order status)", id, orderId);
        }

        final ExecutionReportEncoder e = executionReport;
        e.reset();
        final int instrumentId = d.instrumentId();
        setDecimal(scratch, orderId);
        e.orderID(hasOrder ? scratch : "NONE");
        scratch.setLength(0);
        scratch.append('S').append(d.epoch()).append('-').append(d.commandSequence()).append('-').append(number);
        e.execID(scratch);
        if (id.length() > 0)
        {
            e.clOrdID(id);
        }
        scratch.setLength(0);
        d.getStatusRequestId(scratch);
        if (scratch.length() > 0)
        {
            values.printable(scratch, origId, mass ? "MassStatusReqID(584)" : "OrdStatusReqID(790)");
            if (mass)
            {
                e.massStatusReqID(origId);
            }
            else
            {
                e.ordStatusReqID(origId);
            }
        }
        if (mass)
        {
            e.totNumReports(total);
            e.lastRptRequested(number >= total);
        }
        if (d.accountId() != 0)
        {
            setDecimal(account, d.accountId());
            e.account(account);
        }
        e.execType('I');
        e.ordStatus(ordStatus(orderStatus));
        text.setLength(0);
        if (hasOrder)
        {
            final int scale = scaleOf(instruments, instrumentId);
            e.instrument().symbol(symbol(instruments, instrumentId));
            e.side(side == Side.SELL ? '2' : '1');
            final OrderType orderType = decode(ORDER_TYPES, OrderType::value, d.orderTypeRaw());
            if (orderType != null)
            {
                e.ordType(orderType == OrderType.MARKET ? '1' : '2');
            }
            final TimeInForce timeInForce = decode(TIMES_IN_FORCE, TimeInForce::value, d.timeInForceRaw());
            if (timeInForce != null)
            {
                e.timeInForce(timeInForce(timeInForce));
            }
            if (orderType != OrderType.MARKET)
            {
                values.fit(d.price(), scale, "Price(44)");
                e.price(values.decimal());
            }
            values.fit(d.quantity(), 0, "OrderQty(38)");
            e.orderQtyData().orderQty(values.decimal());
            values.fit(d.leavesQuantity(), 0, "LeavesQty(151)");
            e.leavesQty(values.decimal());
            values.fit(d.cumulativeQuantity(), 0, "CumQty(14)");
            e.cumQty(values.decimal());
            values.fit(d.averagePrice(), scale, "AvgPx(6)");
            e.avgPx(values.decimal());
        }
        else
        {
            e.instrument().symbol(reason == RejectReason.UNKNOWN_INSTRUMENT && instrumentId != 0 &&
                instruments.symbol(instrumentId) != null ? symbol(instruments, instrumentId) : "[N/A]");
            e.side('7');
            e.leavesQty(0, 0);
            e.cumQty(0, 0);
            e.avgPx(0, 0);
            if (reason != RejectReason.NONE)
            {
                e.ordRejReason(ordRejReason(reason));
                appendReason(text, reason, d.rejectReasonRaw());
            }
            else
            {
                text.append("no open orders");
            }
        }
        appendNotes(text);
        if (text.length() > 0)
        {
            e.text(text);
        }
        final int length = timestampEncoder.encodeFrom(d.transactTimeNs(), TimeUnit.NANOSECONDS);
        e.transactTime(timestampEncoder.buffer(), length);
        return e;
    }

    /**
     * Translate an engine MassCancelReport into OrderMassCancelReport (r): ClOrdID(11) the request's,
     * OrderID(37) {@code M<epoch>-<commandSequence>}, MassCancelRequestType(530) and MassCancelResponse(531) 1 (an
     * instrument, with its Symbol) or 7 (all orders), TotalAffectedOrders(533), TransactTime(60). It follows the
     * ExecutionReports of the orders cancelled. ({@link RingexMassCancelReportEncoder} says why not Artio's encoder.)
     *
     * @param d           the event.
     * @param instruments symbols.
     * @return the encoder, ready to send.
     */
    public Encoder massCancelReport(final MassCancelReportDecoder d, final InstrumentDirectory instruments)
    {
        values.reset();
        id.setLength(0);
        d.getClientRequestId(id);
        values.printable(id, scratch, "ClOrdID(11)");
        id.setLength(0);
        id.append(scratch);
        final boolean instrument = d.scopeRaw() == MassCancelScope.INSTRUMENT.value();
        final char type = instrument ? '1' : '7';
        scratch.setLength(0);
        scratch.append('M').append(d.epoch()).append('-').append(d.commandSequence());
        final CharSequence symbolText = instrument ? symbol(instruments, d.instrumentId()) : "";
        final int length = timestampEncoder.encodeFrom(d.transactTimeNs(), TimeUnit.NANOSECONDS);
        text.setLength(0);
        appendNotes(text);
        massCancelReport.reset();
        return massCancelReport.report(id, scratch, type, type, d.totalAffectedOrders(), symbolText,
            timestampEncoder.buffer(), length, text);
    }

    /**
     * Translate an engine CancelReject.
     *
     * @param d the event.
     * @return the OrderCancelReject encoder, ready to send; or a BusinessMessageReject if the event's responseTo is a
     * value this gateway does not know.
     */
    public Encoder cancelReject(final CancelRejectDecoder d)
    {
        values.reset();
        final long orderId = d.orderId();
        id.setLength(0);
        d.getClientOrderId(id);
        values.printable(id, scratch, "ClOrdID(11)");
        id.setLength(0);
        id.append(scratch);
        final CancelRejectResponseTo responseTo =
            decode(RESPONSES_TO, CancelRejectResponseTo::value, d.responseToRaw());
        if (responseTo == null)
        {
            values.note(FixWireValues.ENUM).append("CancelReject with responseTo ").append(d.responseToRaw());
            return untranslatable("9", "OrderCancelReject", id, orderId);
        }
        final OrderCancelRejectEncoder e = cancelReject;
        e.reset();
        setDecimal(scratch, orderId);
        e.orderID(orderId == 0 ? "NONE" : scratch);
        e.clOrdID(id.length() == 0 ? "NONE" : id);
        scratch.setLength(0);
        d.getOrigClientOrderId(scratch);
        e.origClOrdID(scratch.length() == 0 ? "NONE" : values.printable(scratch, origId, "OrigClOrdID(41)"));
        e.ordStatus('8');
        setDecimal(account, d.accountId());
        e.account(account);
        e.cxlRejResponseTo(responseTo == CancelRejectResponseTo.REPLACE ? '2' : '1');
        final RejectReason reason = decode(REJECT_REASONS, RejectReason::value, d.rejectReasonRaw());
        e.cxlRejReason(reason == null ? 99 : cxlRejReason(reason));
        text.setLength(0);
        appendReason(text, reason, d.rejectReasonRaw());
        appendNotes(text);
        e.text(text);
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
        values.reset();
        final BusinessMessageRejectEncoder e = businessReject;
        e.reset();
        e.refMsgType(refMsgType(d.refTemplateId()));
        id.setLength(0);
        d.getRefClientOrderId(id);
        if (id.length() > 0)
        {
            e.businessRejectRefID(values.printable(id, scratch, "BusinessRejectRefID(379)"));
        }
        final RejectReason reason = decode(REJECT_REASONS, RejectReason::value, d.rejectReasonRaw());
        e.businessRejectReason(reason == null ? 0 : businessRejectReason(reason));
        text.setLength(0);
        appendReason(text, reason, d.rejectReasonRaw());
        appendNotes(text);
        e.text(text);
        return e;
    }

    /**
     * The answer when an event could not be encoded at all (Artio threw while encoding it): a BusinessMessageReject
     * naming the message the gateway failed to send, its ClOrdID and OrderID, and why. Built from the event's ids
     * and constants only, so it encodes whatever the event held.
     *
     * @param buffer  the engine event, SBE header first.
     * @param offset  where it starts.
     * @param failure what the encoder threw.
     * @return the encoder, ready to send.
     */
    public BusinessMessageRejectEncoder undeliverable(
        final DirectBuffer buffer, final int offset, final Throwable failure)
    {
        values.reset();
        final int templateId = headerDecoder.wrap(buffer, offset).templateId();
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        id.setLength(0);
        long orderId = 0;
        final String msgType;
        final String name;
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                executionReportDecoder.wrap(buffer, body, blockLength, version).getClientOrderId(id);
                orderId = executionReportDecoder.orderId();
                msgType = "8";
                name = "ExecutionReport";
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                cancelRejectDecoder.wrap(buffer, body, blockLength, version).getClientOrderId(id);
                orderId = cancelRejectDecoder.orderId();
                msgType = "9";
                name = "OrderCancelReject";
                break;
            case MassCancelReportDecoder.TEMPLATE_ID:
                massCancelReportDecoder.wrap(buffer, body, blockLength, version).getClientRequestId(id);
                msgType = "r";
                name = "OrderMassCancelReport";
                break;
            case OrderStatusReportDecoder.TEMPLATE_ID:
                orderStatusReportDecoder.wrap(buffer, body, blockLength, version).getClientOrderId(id);
                orderId = orderStatusReportDecoder.orderId();
                msgType = "8";
                name = "ExecutionReport (order status)";
                break;
            default:
                businessRejectDecoder.wrap(buffer, body, blockLength, version).getRefClientOrderId(id);
                msgType = "j";
                name = "BusinessMessageReject";
                break;
        }
        values.printable(id, scratch, "ClOrdID(11)");
        id.setLength(0);
        id.append(scratch);
        final StringBuilder note = values.note(0).append(failure.getClass().getSimpleName()).append(": ");
        final String message = String.valueOf(failure.getMessage());
        for (int i = 0, n = Math.min(message.length(), MAX_FAILURE_TEXT); i < n; i++)
        {
            final char c = message.charAt(i);
            note.append(c >= ' ' && c <= '~' ? c : '?');
        }
        return untranslatable(msgType, name, id, orderId);
    }

    /**
     * The answer to a refused client message when the proper answer could not be encoded: a BusinessMessageReject
     * with RefSeqNum, RefMsgType and a fixed Text only.
     *
     * @param fields    the refused message, scanned.
     * @param refSeqNum its MsgSeqNum.
     * @return the encoder, ready to send.
     */
    public BusinessMessageRejectEncoder minimalReject(final FixFields fields, final int refSeqNum)
    {
        values.reset();
        final BusinessMessageRejectEncoder e = businessReject;
        e.reset();
        e.refSeqNum(Math.max(0, refSeqNum));
        final int msgTypeLength = fields.isWellFormed() ? fields.length(FixFields.MSG_TYPE) : 0;
        e.refMsgType(msgTypeLength > 0 && msgTypeLength <= 4 ?
            values.printable(fields.value(FixFields.MSG_TYPE), symbol, "RefMsgType(372)") : "?");
        e.businessRejectReason(0);
        e.text("refused; the gateway could not encode the detailed answer (logged)");
        return e;
    }

    /**
     * Describe an engine event for a log line: its kind and ids.
     *
     * @param out    where to append.
     * @param buffer the event, SBE header first.
     * @param offset where it starts.
     * @return {@code out}.
     */
    public StringBuilder appendIdentity(final StringBuilder out, final DirectBuffer buffer, final int offset)
    {
        final int templateId = headerDecoder.wrap(buffer, offset).templateId();
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        out.append(templateName(buffer, offset));
        scratch.setLength(0);
        switch (templateId)
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
            {
                final ExecutionReportDecoder d = executionReportDecoder.wrap(buffer, body, blockLength, version);
                d.getClientOrderId(scratch);
                out.append(" session ").append(d.sessionId()).append(" ClOrdID ");
                appendPrintable(out, scratch);
                out.append(" OrderID ").append(d.orderId()).append(" execType ").append(d.execTypeRaw())
                    .append(" commandSequence ").append(d.commandSequence());
                break;
            }
            case CancelRejectDecoder.TEMPLATE_ID:
            {
                final CancelRejectDecoder d = cancelRejectDecoder.wrap(buffer, body, blockLength, version);
                d.getClientOrderId(scratch);
                out.append(" session ").append(d.sessionId()).append(" ClOrdID ");
                appendPrintable(out, scratch);
                out.append(" OrderID ").append(d.orderId()).append(" commandSequence ").append(d.commandSequence());
                break;
            }
            default:
            {
                final BusinessRejectDecoder d = businessRejectDecoder.wrap(buffer, body, blockLength, version);
                d.getRefClientOrderId(scratch);
                out.append(" session ").append(d.sessionId()).append(" refClientOrderId ");
                appendPrintable(out, scratch);
                out.append(" refTemplateId ").append(d.refTemplateId());
                break;
            }
        }
        return out;
    }

    /**
     * @param buffer an engine event, SBE header first.
     * @param offset where it starts.
     * @return the FIX message it becomes, for log lines.
     */
    public String templateName(final DirectBuffer buffer, final int offset)
    {
        switch (headerDecoder.wrap(buffer, offset).templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                return "ExecutionReport";
            case CancelRejectDecoder.TEMPLATE_ID:
                return "OrderCancelReject";
            default:
                return "BusinessMessageReject";
        }
    }

    private static void appendPrintable(final StringBuilder out, final CharSequence value)
    {
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            out.append(c >= ' ' && c <= '~' ? c : '?');
        }
    }

    /**
     * FIX session-level Reject(3) of a client message that is not valid FIX 4.4 (a required tag missing, a tag
     * repeated, a value in the wrong format...).
     *
     * @param fields              the refused message, scanned.
     * @param refSeqNum           its MsgSeqNum.
     * @param refTagId            the offending tag, or 0 if none in particular.
     * @param sessionRejectReason SessionRejectReason(373) (FIX 4.4: 0..17, 99).
     * @param why                 Text(58).
     * @return the encoder, ready to send.
     */
    public RejectEncoder sessionReject(
        final FixFields fields,
        final int refSeqNum,
        final int refTagId,
        final int sessionRejectReason,
        final CharSequence why)
    {
        values.reset();
        final RejectEncoder e = sessionReject;
        e.reset();
        e.refSeqNum(Math.max(0, refSeqNum));
        if (refTagId > 0)
        {
            e.refTagID(refTagId);
        }
        final int msgTypeLength = fields.isWellFormed() ? fields.length(FixFields.MSG_TYPE) : 0;
        if (msgTypeLength > 0 && msgTypeLength <= 4)
        {
            e.refMsgType(values.printable(fields.value(FixFields.MSG_TYPE), symbol, "RefMsgType(372)"));
        }
        e.sessionRejectReason(sessionRejectReason);
        e.text(values.printable(why, text, "Text(58)"));
        return e;
    }

    /**
     * The gateway's own refusal of a FIX message (bad field, not authorised, throttled, engine busy).
     * NewOrderSingle gets an ExecutionReport Rejected, cancel and replace an OrderCancelReject, anything else a
     * BusinessMessageReject. The client's ClOrdID, OrigClOrdID, OrderID and Symbol are echoed, with any character
     * FIX cannot carry as '?'.
     *
     * @param fields    the refused message.
     * @param msgType   its MsgType.
     * @param seqNum    its MsgSeqNum.
     * @param reason    why.
     * @param why       detail for Text(58), or null.
     * @param symbolFallback Symbol to echo when the message has none.
     * @return the encoder, ready to send.
     */
    public Encoder reject(
        final FixFields fields,
        final char msgType,
        final int seqNum,
        final RejectReason reason,
        final String why,
        final String symbolFallback)
    {
        values.reset();
        text.setLength(0);
        text.append(reason.name());
        if (why != null && !why.isEmpty())
        {
            text.append(": ").append(why);
        }
        final boolean orderIdsUsable = fields.isWellFormed() && fields.length(FixFields.CL_ORD_ID) > 0 &&
            fields.length(FixFields.CL_ORD_ID) <= 64;
        if (orderIdsUsable)
        {
            values.printable(fields.value(FixFields.CL_ORD_ID), id, "ClOrdID(11)");
        }
        if (msgType == 'D' && orderIdsUsable && reason != RejectReason.THROTTLED &&
            reason != RejectReason.ENGINE_BUSY)
        {
            final ExecutionReportEncoder e = executionReport;
            e.reset();
            e.orderID("NONE");
            scratch.setLength(0);
            scratch.append('G').append(++gatewayExecIds);
            e.execID(scratch);
            e.clOrdID(id);
            e.execType('8');
            e.ordStatus('8');
            e.ordRejReason(ordRejReason(reason));
            final int symbolLength = fields.length(FixFields.SYMBOL);
            if (symbolLength > 0 && symbolLength <= 64)
            {
                e.instrument().symbol(values.printable(fields.value(FixFields.SYMBOL), symbol, "Symbol(55)"));
            }
            else
            {
                e.instrument().symbol(symbolFallback);
            }
            final char side = fields.firstChar(FixFields.SIDE);
            e.side(side == '1' || side == '2' ? side : '1');
            e.leavesQty(0, 0);
            e.cumQty(0, 0);
            e.avgPx(0, 0);
            appendNotes(text);
            e.text(text);
            return e;
        }
        if ((msgType == 'F' || msgType == 'G') && orderIdsUsable && reason != RejectReason.THROTTLED &&
            reason != RejectReason.ENGINE_BUSY)
        {
            final OrderCancelRejectEncoder e = cancelReject;
            e.reset();
            final int orderIdLength = fields.length(FixFields.ORDER_ID);
            e.orderID(orderIdLength > 0 && orderIdLength <= 64 ?
                values.printable(fields.value(FixFields.ORDER_ID), scratch, "OrderID(37)") : "NONE");
            e.clOrdID(id);
            final int origLength = fields.length(FixFields.ORIG_CL_ORD_ID);
            e.origClOrdID(origLength > 0 && origLength <= 64 ?
                values.printable(fields.value(FixFields.ORIG_CL_ORD_ID), origId, "OrigClOrdID(41)") : "NONE");
            e.ordStatus('8');
            e.cxlRejResponseTo(msgType == 'G' ? '2' : '1');
            e.cxlRejReason(cxlRejReason(reason));
            appendNotes(text);
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
            e.refMsgType(values.printable(fields.value(FixFields.MSG_TYPE), symbol, "RefMsgType(372)"));
        }
        else
        {
            e.refMsgType(msgTypeText(msgType));
        }
        final int massStatusIdLength = fields.isWellFormed() ? fields.length(FixFields.MASS_STATUS_REQ_ID) : 0;
        if (msgType == FixCommandTranslator.ORDER_MASS_STATUS_REQUEST && massStatusIdLength > 0 &&
            massStatusIdLength <= 64)
        {
            // AF has no ClOrdID: its MassStatusReqID names the request refused.
            e.businessRejectRefID(values.printable(fields.value(FixFields.MASS_STATUS_REQ_ID), id,
                "BusinessRejectRefID(379)"));
        }
        else if (orderIdsUsable)
        {
            e.businessRejectRefID(id);
        }
        e.businessRejectReason(businessRejectReason(reason));
        appendNotes(text);
        e.text(text);
        return e;
    }

    private BusinessMessageRejectEncoder untranslatable(
        final String msgType, final String name, final CharSequence clOrdId, final long orderId)
    {
        final BusinessMessageRejectEncoder e = businessReject;
        e.reset();
        e.refMsgType(msgType);
        if (clOrdId.length() > 0)
        {
            e.businessRejectRefID(clOrdId);
        }
        e.businessRejectReason(0);
        text.setLength(0);
        text.append("gateway could not send ").append(name).append(" (ClOrdID ").append(clOrdId)
            .append(", OrderID ").append(orderId).append("): ").append(values.notes());
        e.text(text);
        return e;
    }

    private void appendNotes(final StringBuilder out)
    {
        final CharSequence notes = values.notes();
        if (notes.length() > 0)
        {
            if (out.length() > 0)
            {
                out.append("; ");
            }
            out.append(notes);
        }
    }

    private void appendReason(final StringBuilder out, final RejectReason reason, final int raw)
    {
        if (reason != null)
        {
            out.append(reason.name());
        }
        else
        {
            out.append("REJECT_REASON_").append(raw);
            values.note(FixWireValues.ENUM).append("engine rejectReason ").append(raw);
        }
    }

    private int scaleOf(final InstrumentDirectory instruments, final int instrumentId)
    {
        final int scale = instruments.priceScale(instrumentId);
        if (scale < 0)
        {
            values.note(FixWireValues.INSTRUMENT).append("instrument ").append(instrumentId)
                .append(" unknown to the gateway: prices are the engine's unscaled integers");
            return 0;
        }
        return scale;
    }

    private CharSequence symbol(final InstrumentDirectory instruments, final int instrumentId)
    {
        final String name = instruments.symbol(instrumentId);
        if (name == null || name.isEmpty())
        {
            return "UNKNOWN";
        }
        return values.printable(name, symbol, "Symbol(55)");
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
            case 'H':
                return "H";
            case FixCommandTranslator.ORDER_MASS_STATUS_REQUEST:
                return "AF";
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
            case io.ringex.protocol.codecs.OrderStatusRequestDecoder.TEMPLATE_ID:
                return "H";
            case io.ringex.protocol.codecs.OrderMassStatusRequestDecoder.TEMPLATE_ID:
                return "AF";
            default:
                return "?";
        }
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
            case TRIGGERED:
                return 'D';
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

    /**
     * The lookup of an engine enum read raw: an event may carry a value this gateway does not know (the generated
     * {@code get} would throw on it), which the caller reports instead.
     *
     * @param known     the constants taken, without NULL_VAL where it is no value ({@link #valuesBut}).
     * @param wireValue a constant's value on the wire.
     * @param raw       the value read.
     * @param <E>       the enum.
     * @return the constant whose value raw is, or null if none of known is.
     */
    private static <E extends Enum<E>> E decode(final E[] known, final ToIntFunction<E> wireValue, final int raw)
    {
        for (final E value : known)
        {
            if (wireValue.applyAsInt(value) == raw)
            {
                return value;
            }
        }
        return null;
    }

    private static <E extends Enum<E>> E[] valuesBut(final E[] values, final E excluded)
    {
        final E[] known = Arrays.copyOf(values, values.length - 1);
        int i = 0;
        for (final E value : values)
        {
            if (value != excluded)
            {
                known[i++] = value;
            }
        }
        return known;
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
            case GTD:
                return '6';
            default:
                return 0;
        }
    }

    private static char ordType(final OrderType orderType)
    {
        switch (orderType)
        {
            case MARKET:
                return '1';
            case STOP:
                return '3';
            case STOP_LIMIT:
                return '4';
            default:
                return '2';
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
            case MIN_QUANTITY_NOT_MET:
            case NOT_ALLOWED_IN_PHASE:
                return 11;
            case INVALID_QUANTITY:
            case INVALID_LOT:
            case INVALID_DISPLAY_QUANTITY:
            case INVALID_MIN_QUANTITY:
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
