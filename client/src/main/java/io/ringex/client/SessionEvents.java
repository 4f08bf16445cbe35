package io.ringex.client;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.DropCopyStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.DirectBuffer;

import java.util.concurrent.TimeUnit;

/**
 * The receiving half of {@link ExchangeClient}: decodes what the gateway sends the client, hands it to the
 * {@link ExchangeListener}, and keeps the session state the LogonResponse and Logout set (session id, account,
 * logged-on flag, heartbeat interval). Only the LogonResponse that answers this client's own Logon (its
 * logonRequestId) is taken: one answering somebody else's Logon that named this client's channel is ignored.
 * <p>
 * Thread safety: {@link #onFragment} on the polling thread; the state getters from any thread (volatile fields).
 */
final class SessionEvents implements FragmentHandler
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final ExchangeListener listener;
    private final MessageValidator validator = new MessageValidator(4096);
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final LogonResponseDecoder logonResponseDecoder = new LogonResponseDecoder();
    private final ExecutionReportDecoder executionReportDecoder = new ExecutionReportDecoder();
    private final CancelRejectDecoder cancelRejectDecoder = new CancelRejectDecoder();
    private final BusinessRejectDecoder businessRejectDecoder = new BusinessRejectDecoder();
    private final LogoutDecoder logoutDecoder = new LogoutDecoder();
    private final OrderStatusReportDecoder orderStatusReportDecoder = new OrderStatusReportDecoder();
    private final MassCancelReportDecoder massCancelReportDecoder = new MassCancelReportDecoder();
    private final HeartbeatDecoder heartbeatDecoder = new HeartbeatDecoder();
    private final TradeBustedDecoder tradeBustedDecoder = new TradeBustedDecoder();
    private final DropCopyStatusDecoder dropCopyStatusDecoder = new DropCopyStatusDecoder();

    private volatile long sessionId;
    private volatile long accountId;
    private volatile boolean loggedOn;
    private volatile RejectReason logonRejectReason = RejectReason.NONE;
    private volatile long heartbeatIntervalNs = TimeUnit.SECONDS.toNanos(1);
    private volatile long logonRequestId;
    private volatile boolean logonSent;
    private long foreignLogonResponses;

    SessionEvents(final ExchangeListener listener)
    {
        this.listener = listener;
    }

    long sessionId()
    {
        return sessionId;
    }

    long accountId()
    {
        return accountId;
    }

    boolean isLoggedOn()
    {
        return loggedOn;
    }

    void loggedOff()
    {
        loggedOn = false;
    }

    RejectReason logonRejectReason()
    {
        return logonRejectReason;
    }

    long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    void heartbeatIntervalNs(final long intervalNs)
    {
        heartbeatIntervalNs = intervalNs;
    }

    void expectLogonResponse(final long logonRequestId)
    {
        this.logonRequestId = logonRequestId;
        this.logonSent = true;
    }

    long foreignLogonResponses()
    {
        return foreignLogonResponses;
    }

    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        final int bodyOffset = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                listener.onExecutionReport(executionReportDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                listener.onCancelReject(cancelRejectDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                listener.onBusinessReject(businessRejectDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case OrderStatusReportDecoder.TEMPLATE_ID:
                listener.onOrderStatusReport(
                    orderStatusReportDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case MassCancelReportDecoder.TEMPLATE_ID:
                listener.onMassCancelReport(massCancelReportDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                listener.onTradeBusted(tradeBustedDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case DropCopyStatusDecoder.TEMPLATE_ID:
                listener.onDropCopyStatus(dropCopyStatusDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            case HeartbeatDecoder.TEMPLATE_ID:
                listener.onHeartbeat(heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version).timestampNs());
                break;
            case LogonResponseDecoder.TEMPLATE_ID:
                onLogonResponse(buffer, bodyOffset, blockLength, version);
                break;
            case LogoutDecoder.TEMPLATE_ID:
                loggedOn = false;
                listener.onLogout(logoutDecoder.wrap(buffer, bodyOffset, blockLength, version));
                break;
            default:
                break;
        }
    }

    private void onLogonResponse(final DirectBuffer buffer, final int bodyOffset, final int blockLength,
        final int version)
    {
        logonResponseDecoder.wrap(buffer, bodyOffset, blockLength, version);
        if (!logonSent || logonResponseDecoder.logonRequestId() != logonRequestId)
        {
            // Not the answer to this client's Logon (someone else's Logon named this client's channel): ignore it.
            foreignLogonResponses++;
            return;
        }
        if (logonResponseDecoder.status() == LogonStatus.ACCEPTED)
        {
            sessionId = logonResponseDecoder.sessionId();
            accountId = logonResponseDecoder.accountId();
            final long intervalMs = logonResponseDecoder.heartbeatIntervalMs();
            if (intervalMs > 0)
            {
                heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
            }
            logonRejectReason = RejectReason.NONE;
            loggedOn = true;
        }
        else
        {
            logonRejectReason = logonResponseDecoder.rejectReason();
            loggedOn = false;
        }
        logonResponseDecoder.sbeRewind();
        listener.onLogonResponse(logonResponseDecoder);
    }
}
