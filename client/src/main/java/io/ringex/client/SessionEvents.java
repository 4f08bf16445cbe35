package io.ringex.client;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelAllAfterReportDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.DropCopyStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.HeartbeatDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MassCancelReportDecoder;
import io.ringex.protocol.codecs.MassQuoteAckDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import io.ringex.protocol.codecs.QuoteCancelReportDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.DirectBuffer;

import java.util.concurrent.TimeUnit;

/**
 * The receiving half of {@link ExchangeClient}: decodes what the gateway sends the client, hands it to the {@link
 * ExchangeListener}, and keeps the session state the LogonResponse and Logout set.
 * <p>
 * It takes only what is this session's: the LogonResponse to its own Logon, then messages carrying its session id (a
 * drop copy's copies, {@link #dropCopies}, aside) and only from the Aeron image that LogonResponse came on; anything
 * else reaching its channel is ignored and counted, so it can neither log the session out nor pass for its reports.
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
    private final MassQuoteAckDecoder massQuoteAckDecoder = new MassQuoteAckDecoder();
    private final QuoteCancelReportDecoder quoteCancelReportDecoder = new QuoteCancelReportDecoder();
    private final MarketMakerProtectionEventDecoder protectionEventDecoder = new MarketMakerProtectionEventDecoder();
    private final CancelAllAfterReportDecoder cancelAllAfterReportDecoder = new CancelAllAfterReportDecoder();

    private volatile long sessionId;
    private volatile long accountId;
    private volatile boolean loggedOn;
    private volatile RejectReason logonRejectReason = RejectReason.NONE;
    private volatile String logonRejectText = "";
    private volatile boolean logonAnswered;
    private volatile long heartbeatIntervalNs = TimeUnit.SECONDS.toNanos(1);
    private volatile long logonRequestId;
    private volatile boolean logonSent;
    private long foreignLogonResponses;
    private volatile boolean dropCopies;
    private volatile long foreignSessionMessages;
    /** The Aeron session id of the image the taken LogonResponse came on; meaningful once {@link #imagePinned}. */
    private int sessionImage;
    private boolean imagePinned;
    /** The image of the fragment being handled (polling thread). */
    private int fragmentImage;

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

    /** The text of the last refused LogonResponse (allocated on a refusal only), empty if none. */
    String logonRejectText()
    {
        return logonRejectText;
    }

    /** True once the current Logon (the last {@link #expectLogonResponse}) was answered, either way. */
    boolean logonAnswered()
    {
        return logonAnswered;
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
        this.logonAnswered = false;
        this.logonSent = true;
    }

    long foreignLogonResponses()
    {
        return foreignLogonResponses;
    }

    /**
     * @param dropCopies whether this is a drop-copy session, whose channel carries copies of other sessions'
     *                   ExecutionReports (and TradeBusted).
     */
    void dropCopies(final boolean dropCopies)
    {
        this.dropCopies = dropCopies;
    }

    /**
     * @return session messages ignored because they carried another session's id (polling thread's count).
     */
    long foreignSessionMessages()
    {
        return foreignSessionMessages;
    }

    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            return;
        }
        headerDecoder.wrap(buffer, offset);
        fragmentImage = null == header ? 0 : header.sessionId();
        final int bodyOffset = offset + HEADER_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        switch (headerDecoder.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                executionReportDecoder.wrap(buffer, bodyOffset, blockLength, version);
                if (dropCopies ? fromSessionImage() : isOwn(executionReportDecoder.sessionId()))
                {
                    listener.onExecutionReport(executionReportDecoder);
                }
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                if (isOwn(cancelRejectDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onCancelReject(cancelRejectDecoder);
                }
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                if (isOwn(businessRejectDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onBusinessReject(businessRejectDecoder);
                }
                break;
            case OrderStatusReportDecoder.TEMPLATE_ID:
                if (isOwn(orderStatusReportDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onOrderStatusReport(orderStatusReportDecoder);
                }
                break;
            case MassCancelReportDecoder.TEMPLATE_ID:
                if (isOwn(massCancelReportDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onMassCancelReport(massCancelReportDecoder);
                }
                break;
            case MassQuoteAckDecoder.TEMPLATE_ID:
                if (isOwn(massQuoteAckDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onMassQuoteAck(massQuoteAckDecoder);
                }
                break;
            case QuoteCancelReportDecoder.TEMPLATE_ID:
                if (isOwn(quoteCancelReportDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onQuoteCancelReport(quoteCancelReportDecoder);
                }
                break;
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID:
                if (isOwn(protectionEventDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onMarketMakerProtectionEvent(protectionEventDecoder);
                }
                break;
            case CancelAllAfterReportDecoder.TEMPLATE_ID:
                if (isOwn(cancelAllAfterReportDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onCancelAllAfterReport(cancelAllAfterReportDecoder);
                }
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                if (dropCopies && fromSessionImage())
                {
                    listener.onTradeBusted(tradeBustedDecoder.wrap(buffer, bodyOffset, blockLength, version));
                }
                else if (!dropCopies)
                {
                    foreignSessionMessages++;
                }
                break;
            case DropCopyStatusDecoder.TEMPLATE_ID:
                if (isOwn(dropCopyStatusDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onDropCopyStatus(dropCopyStatusDecoder);
                }
                break;
            case HeartbeatDecoder.TEMPLATE_ID:
                if (isOwn(heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    listener.onHeartbeat(heartbeatDecoder.timestampNs());
                }
                break;
            case LogonResponseDecoder.TEMPLATE_ID:
                onLogonResponse(buffer, bodyOffset, blockLength, version);
                break;
            case LogoutDecoder.TEMPLATE_ID:
                if (isOwn(logoutDecoder.wrap(buffer, bodyOffset, blockLength, version).sessionId()))
                {
                    loggedOn = false;
                    listener.onLogout(logoutDecoder);
                }
                break;
            default:
                break;
        }
    }

    /**
     * Whether a session message is this session's: its session id, on the image the LogonResponse came on; counts it
     * when it is not. Before a Logon is accepted no message is (the session id is 0 until then).
     */
    private boolean isOwn(final long messageSessionId)
    {
        final long own = sessionId;
        if (own != 0 && messageSessionId == own)
        {
            return fromSessionImage();
        }
        foreignSessionMessages++;
        return false;
    }

    /** Whether the fragment came on the image of the taken LogonResponse (none taken yet: no); counts it if not. */
    private boolean fromSessionImage()
    {
        if (imagePinned && fragmentImage == sessionImage)
        {
            return true;
        }
        foreignSessionMessages++;
        return false;
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
            sessionImage = fragmentImage;
            imagePinned = true;
            sessionId = logonResponseDecoder.sessionId();
            accountId = logonResponseDecoder.accountId();
            final long intervalMs = logonResponseDecoder.heartbeatIntervalMs();
            if (intervalMs > 0)
            {
                heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
            }
            logonRejectReason = RejectReason.NONE;
            logonRejectText = "";
            loggedOn = true;
        }
        else
        {
            logonRejectReason = logonResponseDecoder.rejectReason();
            logonRejectText = logonResponseDecoder.text();
            loggedOn = false;
        }
        logonAnswered = true;
        logonResponseDecoder.sbeRewind();
        listener.onLogonResponse(logonResponseDecoder);
    }
}
