package io.ringex.risk.synthetic;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.Publication;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;

/**
 * Sends NewOrders straight onto the engine's ingress stream stamped as a gateway session would be: what a test needs
 * to make the engine trade or reject. Works the same against the synthetic and the real engine.
 */
public final class OrderEntryClient
{
    private final Publication ingress;
    private final long sessionId;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final NewOrderEncoder encoder = new NewOrderEncoder();
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private long clientOrderId;

    /**
     * @param ingress       the engine ingress publication.
     * @param gatewayId     the gateway this client poses as.
     * @param sessionNumber its session number.
     */
    public OrderEntryClient(final Publication ingress, final int gatewayId, final int sessionNumber)
    {
        this.ingress = ingress;
        this.sessionId = SessionIds.sessionId(gatewayId, sessionNumber);
    }

    /**
     * @param accountId    the account.
     * @param instrumentId the instrument.
     * @param side         BUY or SELL.
     * @param quantity     units.
     * @param price        limit price, 0 for a market order.
     * @return true if offered within a second.
     */
    public synchronized boolean newOrder(
        final long accountId,
        final int instrumentId,
        final Side side,
        final long quantity,
        final long price)
    {
        encoder.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId("T" + (++clientOrderId))
            .instrumentId(instrumentId)
            .side(side)
            .orderType(price == 0 ? OrderType.MARKET : OrderType.LIMIT)
            .timeInForce(price == 0 ? TimeInForce.IOC : TimeInForce.GTC)
            .postOnly(BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT)
            .price(price)
            .quantity(quantity);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        final long deadline = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            if (ingress.offer(buffer, 0, length) > 0)
            {
                return true;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return false;
    }
}
