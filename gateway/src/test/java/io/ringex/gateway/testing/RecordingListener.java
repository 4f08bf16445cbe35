package io.ringex.gateway.testing;

import io.ringex.client.ExchangeListener;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Test listener: copies each event into a small immutable record (tests may allocate) so assertions can look back.
 */
public final class RecordingListener implements ExchangeListener
{
    /** Copy of an ExecutionReport. */
    public record Report(long sessionId, long accountId, long orderId, String clientOrderId, String origClientOrderId,
        String execType, String orderStatus, long price, long quantity, long leaves, long cumulative, long lastPrice,
        long lastQuantity, String cancelReason, String rejectReason)
    {
    }

    /** Copy of a CancelReject. */
    public record CancelRej(long orderId, String clientOrderId, String origClientOrderId, String reason)
    {
    }

    /** Copy of a BusinessReject. */
    public record BusinessRej(int refTemplateId, String refClientOrderId, String reason, String text)
    {
    }

    /** Copy of a LogonResponse. */
    public record Logon(long sessionId, String status, String reason, long accountId, long epoch)
    {
    }

    /** An OrderStatusReport: one open order's state, or (total 0) an empty answer or a refusal. */
    public record StatusReport(long sessionId, String statusRequestId, boolean mass, int reportNumber,
        int totalReports, String reason, long accountId, int instrumentId, long orderId, String clientOrderId,
        String orderStatus, long price, long quantity, long leaves, long cumulative, long averagePrice)
    {
    }

    /** One entry of a MassQuoteAck. */
    public record QuoteEntryAck(long quoteEntryId, int quoteSetId, int instrumentId, String status, String reason,
        long bidOrderId, long offerOrderId)
    {
    }

    /** Copy of a MassQuoteAck. */
    public record QuoteAck(String quoteId, String status, String reason, List<QuoteEntryAck> entries)
    {
    }

    /** Copy of a QuoteCancelReport. */
    public record QuoteCancel(String quoteId, String scope, String reason, int sidesCanceled)
    {
    }

    /** Copy of a MarketMakerProtectionEvent. */
    public record ProtectionEvent(long accountId, int groupId, String eventType, String limitReached, int fills,
        boolean frozen, int quotesCanceled, int ordersCanceled)
    {
    }

    /** Copy of a CancelAllAfterReport. */
    public record CancelAllAfter(String status, String reason, long timeoutMs, long deadlineNs, int ordersCanceled)
    {
    }

    public final List<QuoteAck> quoteAcks = new CopyOnWriteArrayList<>();
    public final List<QuoteCancel> quoteCancels = new CopyOnWriteArrayList<>();
    public final List<ProtectionEvent> protectionEvents = new CopyOnWriteArrayList<>();
    public final List<CancelAllAfter> cancelAllAfters = new CopyOnWriteArrayList<>();
    public final List<StatusReport> statusReports = new CopyOnWriteArrayList<>();
    public final List<Report> reports = new CopyOnWriteArrayList<>();
    public final List<CancelRej> cancelRejects = new CopyOnWriteArrayList<>();
    public final List<BusinessRej> businessRejects = new CopyOnWriteArrayList<>();
    public final List<Logon> logons = new CopyOnWriteArrayList<>();
    public final List<String> logouts = new CopyOnWriteArrayList<>();

    /**
     * {@inheritDoc}
     */
    public void onLogonResponse(final LogonResponseDecoder r)
    {
        logons.add(new Logon(r.sessionId(), r.status().name(), r.rejectReason().name(), r.accountId(), r.epoch()));
    }

    /**
     * {@inheritDoc}
     */
    public void onExecutionReport(final ExecutionReportDecoder r)
    {
        reports.add(new Report(r.sessionId(), r.accountId(), r.orderId(), r.clientOrderId(), r.origClientOrderId(),
            r.execType().name(), r.orderStatus().name(), r.price(), r.quantity(), r.leavesQuantity(),
            r.cumulativeQuantity(), r.lastPrice(), r.lastQuantity(), r.cancelReason().name(),
            r.rejectReason().name()));
    }

    /**
     * {@inheritDoc}
     */
    public void onCancelReject(final CancelRejectDecoder r)
    {
        cancelRejects.add(new CancelRej(r.orderId(), r.clientOrderId(), r.origClientOrderId(),
            r.rejectReason().name()));
    }

    /**
     * {@inheritDoc}
     */
    public void onBusinessReject(final BusinessRejectDecoder r)
    {
        businessRejects.add(new BusinessRej(r.refTemplateId(), r.refClientOrderId(), r.rejectReason().name(),
            r.text()));
    }

    /**
     * {@inheritDoc}
     */
    public void onOrderStatusReport(final OrderStatusReportDecoder r)
    {
        statusReports.add(new StatusReport(r.sessionId(), r.statusRequestId(),
            r.massStatus() == io.ringex.protocol.codecs.BooleanType.TRUE, r.reportNumber(), r.totalReports(),
            r.rejectReason().name(), r.accountId(), r.instrumentId(), r.orderId(), r.clientOrderId(),
            r.orderStatus().name(), r.price(), r.quantity(), r.leavesQuantity(), r.cumulativeQuantity(),
            r.averagePrice()));
    }

    /**
     * The complete answer to a status request, once every report of it has arrived.
     *
     * @param statusRequestId the request's id.
     * @return its reports in arrival order, or null while incomplete.
     */
    public List<StatusReport> statusAnswer(final String statusRequestId)
    {
        final List<StatusReport> answer = statusReports.stream()
            .filter(r -> r.statusRequestId().equals(statusRequestId)).toList();
        if (answer.isEmpty())
        {
            return null;
        }
        final int total = answer.get(0).totalReports();
        return answer.size() >= Math.max(1, total) ? answer : null;
    }

    /**
     * {@inheritDoc}
     */
    public void onLogout(final LogoutDecoder logout)
    {
        logouts.add(logout.reason().name());
    }

    /**
     * @param predicate test.
     * @return the first matching report or null.
     */
    public Report report(final Predicate<Report> predicate)
    {
        return reports.stream().filter(predicate).findFirst().orElse(null);
    }

    /**
     * {@inheritDoc}
     */
    public void onMassQuoteAck(final MassQuoteAckDecoder ack)
    {
        final String quoteId = ack.quoteId();
        final String status = ack.quoteStatus().name();
        final String reason = ack.rejectReason().name();
        final List<QuoteEntryAck> entries = new ArrayList<>();
        for (final MassQuoteAckDecoder.EntriesDecoder e : ack.entries())
        {
            entries.add(new QuoteEntryAck(e.quoteEntryId(), e.quoteSetId(), e.instrumentId(), e.entryStatus().name(),
                e.rejectReason().name(), e.bidOrderId(), e.offerOrderId()));
        }
        quoteAcks.add(new QuoteAck(quoteId, status, reason, List.copyOf(entries)));
    }

    /**
     * {@inheritDoc}
     */
    public void onQuoteCancelReport(final QuoteCancelReportDecoder r)
    {
        quoteCancels.add(new QuoteCancel(r.quoteId(), r.scope().name(), r.rejectReason().name(), r.sidesCanceled()));
    }

    /**
     * {@inheritDoc}
     */
    public void onMarketMakerProtectionEvent(final MarketMakerProtectionEventDecoder e)
    {
        protectionEvents.add(new ProtectionEvent(e.accountId(), e.mmpGroupId(), e.eventType().name(),
            e.limitReached().name(), e.fills(), e.frozen() == io.ringex.protocol.codecs.BooleanType.TRUE,
            e.quotesCanceled(), e.ordersCanceled()));
    }

    /**
     * {@inheritDoc}
     */
    public void onCancelAllAfterReport(final CancelAllAfterReportDecoder r)
    {
        cancelAllAfters.add(new CancelAllAfter(r.status().name(), r.rejectReason().name(), r.timeoutMs(),
            r.deadlineNs(), r.ordersCanceled()));
    }

    /**
     * @param quoteId a mass quote's id.
     * @return its acknowledgement, or null before it came.
     */
    public QuoteAck quoteAck(final String quoteId)
    {
        return quoteAcks.stream().filter(a -> a.quoteId().equals(quoteId)).findFirst().orElse(null);
    }
}
