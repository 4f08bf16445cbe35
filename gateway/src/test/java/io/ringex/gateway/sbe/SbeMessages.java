package io.ringex.gateway.sbe;

import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;

/** Valid client messages for checker tests and as fuzz seeds. */
public final class SbeMessages
{
    private SbeMessages()
    {
    }

    public static int newOrder(final UnsafeBuffer buffer, final long account, final long price, final long quantity)
    {
        final NewOrderEncoder e = new NewOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(0).accountId(account).clientOrderId("N1").instrumentId(1).side(Side.BUY)
            .orderType(OrderType.LIMIT).timeInForce(TimeInForce.GTC).postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT).price(price).quantity(quantity);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    public static int cancel(final UnsafeBuffer buffer, final long account, final String orig, final long orderId)
    {
        final CancelOrderEncoder e = new CancelOrderEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(0).accountId(account).clientOrderId("C1").origClientOrderId(orig).orderId(orderId)
            .instrumentId(1);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    public static int replace(final UnsafeBuffer buffer, final long account, final long price, final long quantity)
    {
        final ReplaceOrderEncoder e = new ReplaceOrderEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(0).accountId(account).clientOrderId("R2").origClientOrderId("R1").orderId(0)
            .instrumentId(1).price(price).quantity(quantity);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    public static int massCancel(final UnsafeBuffer buffer, final long account)
    {
        final MassCancelEncoder e = new MassCancelEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sessionId(0).accountId(account).clientRequestId("M1").scope(MassCancelScope.SESSION).instrumentId(0)
            .cancelOnDisconnect(BooleanType.FALSE);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }
}
