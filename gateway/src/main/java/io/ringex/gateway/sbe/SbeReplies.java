package io.ringex.gateway.sbe;

import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.OlderVersions;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.HeartbeatEncoder;
import io.ringex.protocol.codecs.LogonResponseEncoder;
import io.ringex.protocol.codecs.LogonStatus;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.concurrent.TimeUnit;

/**
 * What the SBE gateway itself says to a client (as opposed to the engine's events it forwards): LogonResponse,
 * Heartbeat, Logout and BusinessReject, encoded into one reused buffer and offered on the session's publication,
 * rewritten at the schema version the client logged on with when that is older ({@link OlderVersions}).
 * Each is encoded by an {@code encode...} method (a seam for tests) and then sent. Every field takes any value its
 * source can hold: a heartbeat interval beyond the schema's uint32 is sent as the largest it can carry, not
 * truncated into another number.
 * <p>
 * Thread safety: the {@link SbeGatewayAgent} thread only.
 */
final class SbeReplies
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final LogonResponseEncoder logonResponseEncoder = new LogonResponseEncoder();
    private final HeartbeatEncoder heartbeatEncoder = new HeartbeatEncoder();
    private final LogoutEncoder logoutEncoder = new LogoutEncoder();
    private final BusinessRejectEncoder businessRejectEncoder = new BusinessRejectEncoder();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[512]);
    private final UnsafeBuffer olderBuffer = new UnsafeBuffer(new byte[512]);
    private final AtomicCounter rejects;
    private final AtomicCounter dropped;

    SbeReplies(final AtomicCounter rejects, final AtomicCounter dropped)
    {
        this.rejects = rejects;
        this.dropped = dropped;
    }

    boolean logonResponse(final ClientSession session, final long epoch, final long nowNs)
    {
        return send(session, encodeLogonResponse(session, epoch), nowNs);
    }

    int encodeLogonResponse(final ClientSession session, final long epoch)
    {
        final boolean accepted = session.state == ClientSession.State.AWAITING_CONNECTION;
        final long heartbeatMs = Math.min(Math.max(0, TimeUnit.NANOSECONDS.toMillis(session.heartbeatIntervalNs)),
            LogonResponseEncoder.heartbeatIntervalMsMaxValue());
        logonResponseEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(accepted ? session.sessionId : 0)
            .status(accepted ? LogonStatus.ACCEPTED : LogonStatus.REJECTED)
            .rejectReason(accepted ? RejectReason.NONE : session.logonRejectReason)
            .heartbeatIntervalMs(accepted ? heartbeatMs : 0)
            .accountId(session.accountId())
            .epoch(epoch)
            .logonRequestId(session.logonRequestId)
            .text(accepted ? "" : session.logonRejectText);
        return HEADER_LENGTH + logonResponseEncoder.encodedLength();
    }

    void heartbeat(final ClientSession session, final long nowNs)
    {
        send(session, encodeHeartbeat(session, nowNs), nowNs);
    }

    int encodeHeartbeat(final ClientSession session, final long nowNs)
    {
        heartbeatEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(session.sessionId)
            .timestampNs(nowNs);
        return HEADER_LENGTH + heartbeatEncoder.encodedLength();
    }

    void logout(final ClientSession session, final RejectReason reason, final long nowNs)
    {
        logout(session, reason, null, nowNs);
    }

    void logout(final ClientSession session, final RejectReason reason, final String text, final long nowNs)
    {
        send(session, encodeLogout(session, reason, text), nowNs);
    }

    int encodeLogout(final ClientSession session, final RejectReason reason)
    {
        return encodeLogout(session, reason, null);
    }

    int encodeLogout(final ClientSession session, final RejectReason reason, final String text)
    {
        logoutEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .sessionId(session.sessionId)
            .reason(reason)
            .text(null == text ? logoutText(reason) : text);
        return HEADER_LENGTH + logoutEncoder.encodedLength();
    }

    private static String logoutText(final RejectReason reason)
    {
        switch (reason)
        {
            case NONE:
                return "logout";
            case USER_DISABLED:
                return "user disabled";
            case NOT_AUTHORISED:
                return "the user's accounts or rights changed: log on again";
            default:
                return "heartbeat timeout";
        }
    }

    /**
     * @return the buffer the {@code encode...} methods write to (valid until the next one).
     */
    UnsafeBuffer sendBuffer()
    {
        return sendBuffer;
    }

    /**
     * Refuse a client message with a BusinessReject naming it (and its client order id when it has one).
     *
     * @param session       the client.
     * @param refTemplateId the message refused.
     * @param message       the message, or null when its content must not be read (invalid).
     * @param messageOffset of its header.
     * @param reason        why.
     * @param text          or null for the reason's name.
     * @param epoch         the gateway's newest epoch.
     * @param nowNs         the clock.
     */
    void reject(
        final ClientSession session,
        final int refTemplateId,
        final DirectBuffer message,
        final int messageOffset,
        final RejectReason reason,
        final String text,
        final long epoch,
        final long nowNs)
    {
        rejects.increment();
        if (!send(session, encodeReject(session, refTemplateId, message, messageOffset, reason, text, epoch), nowNs))
        {
            dropped.increment();
        }
    }

    int encodeReject(
        final ClientSession session,
        final int refTemplateId,
        final DirectBuffer message,
        final int messageOffset,
        final RejectReason reason,
        final String text,
        final long epoch)
    {
        businessRejectEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(epoch)
            .sessionId(session.sessionId)
            .refTemplateId(refTemplateId & 0xFFFF)
            .refClientOrderId("");
        final int idOffset = message == null ? -1 : clientOrderIdOffset(refTemplateId);
        if (idOffset >= 0)
        {
            sendBuffer.putBytes(
                HEADER_LENGTH + BusinessRejectEncoder.refClientOrderIdEncodingOffset(),
                message, messageOffset + HEADER_LENGTH + idOffset, BusinessRejectEncoder.refClientOrderIdLength());
        }
        businessRejectEncoder.rejectReason(reason);
        businessRejectEncoder.text(text == null ? reason.name() : text);
        return HEADER_LENGTH + businessRejectEncoder.encodedLength();
    }

    /** Offset of the client order id in a validated order-entry root block, or -1. */
    private static int clientOrderIdOffset(final int templateId)
    {
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                return NewOrderDecoder.clientOrderIdEncodingOffset();
            case CancelOrderDecoder.TEMPLATE_ID:
                return CancelOrderDecoder.clientOrderIdEncodingOffset();
            case ReplaceOrderDecoder.TEMPLATE_ID:
                return ReplaceOrderDecoder.clientOrderIdEncodingOffset();
            case MassCancelDecoder.TEMPLATE_ID:
                return MassCancelDecoder.clientRequestIdEncodingOffset();
            case io.ringex.protocol.codecs.OrderStatusRequestDecoder.TEMPLATE_ID:
                return io.ringex.protocol.codecs.OrderStatusRequestDecoder.statusRequestIdEncodingOffset();
            case io.ringex.protocol.codecs.OrderMassStatusRequestDecoder.TEMPLATE_ID:
                return io.ringex.protocol.codecs.OrderMassStatusRequestDecoder.statusRequestIdEncodingOffset();
            case MassQuoteDecoder.TEMPLATE_ID:
                return MassQuoteDecoder.quoteIdEncodingOffset();
            case QuoteCancelDecoder.TEMPLATE_ID:
                return QuoteCancelDecoder.quoteIdEncodingOffset();
            default:
                return -1;
        }
    }

    private boolean send(final ClientSession session, final int length, final long nowNs)
    {
        final long result = session.schemaVersion >= MessageValidator.SCHEMA_VERSION ?
            session.publication.offer(sendBuffer, 0, length) :
            session.publication.offer(olderBuffer, 0,
                OlderVersions.copyAs(sendBuffer, 0, length, session.schemaVersion, olderBuffer, 0));
        if (result > 0)
        {
            session.lastSentNs = nowNs;
            return true;
        }
        return false;
    }
}
