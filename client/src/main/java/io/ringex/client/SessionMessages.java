package io.ringex.client;

import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelAllAfterEncoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.LogonEncoder;
import io.ringex.protocol.codecs.LogoutEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassQuoteEncoder;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.QuoteCancelEncoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The sending half of {@link ExchangeClient}: encodes each client message into one reused buffer and returns its
 * whole length; the client offers {@link #buffer()} from 0. Numeric client order ids are written as decimal text
 * through reused builders, so sending allocates nothing.
 * <p>
 * Thread safety: one sending thread at a time (one buffer).
 */
final class SessionMessages
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final LogonEncoder logonEncoder = new LogonEncoder();
    private final LogoutEncoder logoutEncoder = new LogoutEncoder();
    private final NewOrderEncoder newOrderEncoder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrderEncoder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrderEncoder = new ReplaceOrderEncoder();
    private final MassCancelEncoder massCancelEncoder = new MassCancelEncoder();
    private final OrderStatusRequestEncoder orderStatusEncoder = new OrderStatusRequestEncoder();
    private final OrderMassStatusRequestEncoder massStatusEncoder = new OrderMassStatusRequestEncoder();
    private final MassQuoteEncoder massQuoteEncoder = new MassQuoteEncoder();
    private final QuoteCancelEncoder quoteCancelEncoder = new QuoteCancelEncoder();
    private final ResetMarketMakerProtectionEncoder resetEncoder = new ResetMarketMakerProtectionEncoder();
    private final CancelAllAfterEncoder cancelAllAfterEncoder = new CancelAllAfterEncoder();
    private final StringBuilder idBuilder = new StringBuilder(20);
    private final StringBuilder origIdBuilder = new StringBuilder(20);

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int logon(
        final String username,
        final CharSequence password,
        final boolean cancelOnDisconnect,
        final int heartbeatIntervalMs,
        final String responseChannel,
        final int responseStreamId,
        final long logonRequestId)
    {
        logonEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .heartbeatIntervalMs(heartbeatIntervalMs)
            .cancelOnDisconnect(cancelOnDisconnect ? BooleanType.TRUE : BooleanType.FALSE)
            .responseStreamId(responseStreamId)
            .logonRequestId(logonRequestId)
            .username(username)
            .credential(password.toString())
            .responseChannel(responseChannel);
        return HEADER_LENGTH + logonEncoder.encodedLength();
    }

    int logout(final long sessionId)
    {
        logoutEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .reason(RejectReason.NONE)
            .text("");
        return HEADER_LENGTH + logoutEncoder.encodedLength();
    }

    int newOrder(
        final long sessionId,
        final long accountId,
        final CharSequence clientOrderId,
        final int instrumentId,
        final Side side,
        final OrderType orderType,
        final TimeInForce timeInForce,
        final long price,
        final long quantity,
        final long stopPrice,
        final long displayQuantity,
        final long minQuantity,
        final long expireTimeNs)
    {
        checkId(clientOrderId);
        newOrderEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .instrumentId(instrumentId)
            .side(side)
            .orderType(orderType)
            .timeInForce(timeInForce)
            .postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice)
            .displayQuantity(displayQuantity)
            .minQuantity(minQuantity)
            .expireTimeNs(expireTimeNs);
        return HEADER_LENGTH + newOrderEncoder.encodedLength();
    }

    int newOrder(final long sessionId, final long defaultAccountId, final NewOrder order)
    {
        newOrderEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder);
        order.encode(newOrderEncoder, sessionId, defaultAccountId);
        return HEADER_LENGTH + newOrderEncoder.encodedLength();
    }

    int cancel(
        final long sessionId,
        final long accountId,
        final CharSequence clientOrderId,
        final CharSequence origClientOrderId,
        final long orderId,
        final int instrumentId)
    {
        checkId(clientOrderId);
        checkId(origClientOrderId);
        cancelOrderEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .origClientOrderId(origClientOrderId)
            .orderId(orderId)
            .instrumentId(instrumentId);
        return HEADER_LENGTH + cancelOrderEncoder.encodedLength();
    }

    int replace(
        final long sessionId,
        final long accountId,
        final CharSequence clientOrderId,
        final CharSequence origClientOrderId,
        final long orderId,
        final int instrumentId,
        final long price,
        final long quantity,
        final long stopPrice)
    {
        checkId(clientOrderId);
        checkId(origClientOrderId);
        replaceOrderEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(clientOrderId)
            .origClientOrderId(origClientOrderId)
            .orderId(orderId)
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice);
        return HEADER_LENGTH + replaceOrderEncoder.encodedLength();
    }

    int massCancel(
        final long sessionId,
        final long accountId,
        final CharSequence requestId,
        final MassCancelScope scope,
        final int instrumentId)
    {
        checkId(requestId);
        massCancelEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientRequestId(requestId)
            .scope(scope)
            .instrumentId(instrumentId)
            .cancelOnDisconnect(BooleanType.FALSE);
        return HEADER_LENGTH + massCancelEncoder.encodedLength();
    }

    int orderStatus(
        final long sessionId,
        final long accountId,
        final CharSequence statusRequestId,
        final long orderId,
        final CharSequence clientOrderId)
    {
        checkId(statusRequestId);
        checkId(clientOrderId);
        orderStatusEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .statusRequestId(statusRequestId)
            .orderId(orderId)
            .clientOrderId(clientOrderId);
        return HEADER_LENGTH + orderStatusEncoder.encodedLength();
    }

    int massStatus(
        final long sessionId,
        final long accountId,
        final CharSequence statusRequestId,
        final MassStatusScope scope,
        final int instrumentId)
    {
        checkId(statusRequestId);
        massStatusEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .statusRequestId(statusRequestId)
            .scope(scope)
            .instrumentId(instrumentId)
            .accountsCount(0);
        return HEADER_LENGTH + massStatusEncoder.encodedLength();
    }

    int massQuote(
        final long sessionId,
        final long accountId,
        final CharSequence quoteId,
        final SelfTradePrevention selfTradePrevention,
        final QuoteEntries entries)
    {
        checkId(quoteId);
        massQuoteEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .quoteId(quoteId)
            .selfTradePrevention(selfTradePrevention);
        entries.writeTo(massQuoteEncoder);
        return HEADER_LENGTH + massQuoteEncoder.encodedLength();
    }

    int quoteCancel(
        final long sessionId,
        final long accountId,
        final CharSequence requestId,
        final QuoteCancelScope scope,
        final int instrumentId,
        final int quoteSetId)
    {
        checkId(requestId);
        quoteCancelEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .quoteId(requestId)
            .scope(scope)
            .instrumentId(instrumentId)
            .quoteSetId(quoteSetId);
        return HEADER_LENGTH + quoteCancelEncoder.encodedLength();
    }

    int resetMarketMakerProtection(final long sessionId, final long accountId, final int groupId)
    {
        resetEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .mmpGroupId(groupId);
        return HEADER_LENGTH + resetEncoder.encodedLength();
    }

    int cancelAllAfter(final long sessionId, final long timeoutMs)
    {
        cancelAllAfterEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(sessionId)
            .timeoutMs(timeoutMs);
        return HEADER_LENGTH + cancelAllAfterEncoder.encodedLength();
    }

    CharSequence id(final long value)
    {
        return decimal(idBuilder, value);
    }

    CharSequence origId(final long value)
    {
        return decimal(origIdBuilder, value);
    }

    private static void checkId(final CharSequence id)
    {
        if (id != null && id.length() > NewOrderEncoder.clientOrderIdLength())
        {
            throw new IllegalArgumentException("client order ids are at most 20 characters: " + id);
        }
    }

    private static CharSequence decimal(final StringBuilder builder, final long value)
    {
        builder.setLength(0);
        return builder.append(value);
    }
}
