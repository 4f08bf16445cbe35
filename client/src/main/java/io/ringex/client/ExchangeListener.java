package io.ringex.client;

import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.DropCopyStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;

/**
 * What an {@link ExchangeClient} delivers. Each callback gets the SBE decoder flyweight wrapped over the received
 * fragment: read what you need during the callback; the flyweight is reused for the next message and nothing is
 * allocated per message.
 * <p>
 * Threading: called on the thread that calls {@link ExchangeClient#poll()}.
 */
public interface ExchangeListener
{
    /**
     * The gateway's answer to Logon.
     *
     * @param response ACCEPTED with the session id, default account and epoch, or REJECTED with the reason.
     */
    void onLogonResponse(LogonResponseDecoder response);

    /**
     * An execution report for one of this session's orders.
     *
     * @param report the report.
     */
    void onExecutionReport(ExecutionReportDecoder report);

    /**
     * A cancel or replace that could not be done.
     *
     * @param reject the reject.
     */
    void onCancelReject(CancelRejectDecoder reject);

    /**
     * A message refused before it reached the book: by the gateway (throttled, not authorised, malformed, engine
     * busy) or by the engine.
     *
     * @param reject the reject.
     */
    void onBusinessReject(BusinessRejectDecoder reject);

    /**
     * An answer to {@link ExchangeClient#orderStatus} or {@link ExchangeClient#massStatus}: one open order's state
     * (reportNumber 1 to totalReports), or, with totalReports 0, no order: the empty answer of a mass status
     * (rejectReason NONE) or a refusal (its reason). {@code statusRequestId} is the request's.
     *
     * @param report the report.
     */
    default void onOrderStatusReport(final OrderStatusReportDecoder report)
    {
    }

    /**
     * How many orders a {@link ExchangeClient#massCancel} cancelled (0 included), after their execution reports.
     *
     * @param report the report.
     */
    default void onMassCancelReport(final MassCancelReportDecoder report)
    {
    }

    /**
     * The gateway closed the session (logout answered, or heartbeat timeout).
     *
     * @param logout the logout.
     */
    default void onLogout(final LogoutDecoder logout)
    {
    }

    /**
     * The gateway's heartbeat.
     *
     * @param timestampNs the gateway's clock.
     */
    default void onHeartbeat(final long timestampNs)
    {
    }

    /**
     * A trade bust copied to a drop-copy session ({@link DropCopyClient}); a trading session never gets one.
     *
     * @param bust the bust.
     */
    default void onTradeBusted(final TradeBustedDecoder bust)
    {
    }

    /**
     * A drop-copy notice ({@link DropCopyClient}): the replay is complete, a gap, or the subscription refused.
     *
     * @param status the notice.
     */
    default void onDropCopyStatus(final DropCopyStatusDecoder status)
    {
    }

    /**
     * The answer to {@link ExchangeClient#massQuote}: the message's verdict and one entry per quote entry, in order
     * (read the {@code entries()} group during the callback). It comes after the ExecutionReports of what the quote
     * did to its orders.
     *
     * @param ack the acknowledgement.
     */
    default void onMassQuoteAck(final MassQuoteAckDecoder ack)
    {
    }

    /**
     * The answer to {@link ExchangeClient#quoteCancel}: how many quote sides it cancelled, or why it did nothing.
     *
     * @param report the report.
     */
    default void onQuoteCancelReport(final QuoteCancelReportDecoder report)
    {
    }

    /**
     * The account's market-maker protection in a group after something happened to it that this session caused: a
     * fill of one of its quotes reached a limit (BREACHED: the group's quotes were cancelled, their ExecutionReports
     * came first, and new quotes are refused QUOTE_FROZEN), or it reset the group (RESET).
     *
     * @param event the group's whole state.
     */
    default void onMarketMakerProtectionEvent(final MarketMakerProtectionEventDecoder event)
    {
    }

    /**
     * The session's dead man's switch: ARMED, DISARMED or REJECTED (the answer to
     * {@link ExchangeClient#cancelAllAfter}), or TRIGGERED after its cancels when it ran out.
     *
     * @param report the report.
     */
    default void onCancelAllAfterReport(final CancelAllAfterReportDecoder report)
    {
    }
}
