package io.ringex.client;

import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;

/**
 * The terms of one order to enter, set fluently and sent by {@link ExchangeClient#newOrder(NewOrder)} (or
 * {@link #send()} when it came from {@link ExchangeClient#order()}); reusable, and nothing on the way allocates.
 * <p>
 * Each send takes the terms as they are then: set what differs and send again, or {@link #reset()} first. Not for
 * sharing between threads.
 * <pre>{@code
 * client.order().clientOrderId(17).instrument(1).buy().limit(10125).quantity(10).send();
 * }</pre>
 */
public final class NewOrder
{
    private static final int MAX_ID_LENGTH = NewOrderEncoder.clientOrderIdLength();

    private final ExchangeClient client;
    private final StringBuilder clientOrderId = new StringBuilder(MAX_ID_LENGTH);
    private long accountId;
    private int instrumentId;
    private Side side;
    private OrderType orderType;
    private TimeInForce timeInForce;
    private boolean postOnly;
    private SelfTradePrevention selfTradePrevention;
    private long price;
    private long quantity;
    private long stopPrice;
    private long displayQuantity;
    private long minQuantity;
    private long expireTimeNs;

    /**
     * Terms to pass to {@link ExchangeClient#newOrder(NewOrder)}.
     */
    public NewOrder()
    {
        this(null);
    }

    NewOrder(final ExchangeClient client)
    {
        this.client = client;
        reset();
    }

    /**
     * Back to no terms: GTC, self-trade prevention as the account's, not post-only, the session's default account.
     *
     * @return this.
     */
    public NewOrder reset()
    {
        clientOrderId.setLength(0);
        accountId = 0;
        instrumentId = 0;
        side = null;
        orderType = null;
        timeInForce = TimeInForce.GTC;
        postOnly = false;
        selfTradePrevention = SelfTradePrevention.ACCOUNT_DEFAULT;
        price = 0;
        quantity = 0;
        stopPrice = 0;
        displayQuantity = 0;
        minQuantity = 0;
        expireTimeNs = 0;
        return this;
    }

    /**
     * @param accountId one of the user's accounts; 0 (the default) for the user's default account, from the logon.
     * @return this.
     */
    public NewOrder account(final long accountId)
    {
        this.accountId = accountId;
        return this;
    }

    /**
     * @param id 1 to 20 ASCII characters, unique among the account's open orders (copied: reusable at once).
     * @return this.
     * @throws IllegalArgumentException if empty, longer than 20 or not printable ASCII.
     */
    public NewOrder clientOrderId(final CharSequence id)
    {
        final int length = id.length();
        if (length == 0 || length > MAX_ID_LENGTH)
        {
            throw new IllegalArgumentException("clientOrderId: 1 to " + MAX_ID_LENGTH + " characters, not " + length);
        }
        for (int i = 0; i < length; i++)
        {
            final char c = id.charAt(i);
            if (c <= ' ' || c > '~')
            {
                throw new IllegalArgumentException("clientOrderId: printable ASCII only, not code " + (int)c +
                    " at " + i);
            }
        }
        clientOrderId.setLength(0);
        clientOrderId.append(id);
        return this;
    }

    /**
     * @param id a number, sent as its decimal text.
     * @return this.
     */
    public NewOrder clientOrderId(final long id)
    {
        clientOrderId.setLength(0);
        clientOrderId.append(id);
        return this;
    }

    /**
     * @param instrumentId the instrument's id.
     * @return this.
     */
    public NewOrder instrument(final int instrumentId)
    {
        this.instrumentId = instrumentId;
        return this;
    }

    /**
     * @param side BUY or SELL.
     * @return this.
     */
    public NewOrder side(final Side side)
    {
        this.side = side;
        return this;
    }

    /**
     * @return this, buying.
     */
    public NewOrder buy()
    {
        return side(Side.BUY);
    }

    /**
     * @return this, selling.
     */
    public NewOrder sell()
    {
        return side(Side.SELL);
    }

    /**
     * A limit order.
     *
     * @param price fixed point at the instrument's price scale.
     * @return this.
     */
    public NewOrder limit(final long price)
    {
        this.orderType = OrderType.LIMIT;
        this.price = price;
        this.stopPrice = 0;
        return this;
    }

    /**
     * A market order (IOC or FOK: set {@link #timeInForce}).
     *
     * @return this.
     */
    public NewOrder market()
    {
        this.orderType = OrderType.MARKET;
        this.price = 0;
        this.stopPrice = 0;
        return this;
    }

    /**
     * A stop: a market order once a trade reaches the stop price.
     *
     * @param stopPrice fixed point.
     * @return this.
     */
    public NewOrder stop(final long stopPrice)
    {
        this.orderType = OrderType.STOP;
        this.price = 0;
        this.stopPrice = stopPrice;
        return this;
    }

    /**
     * A stop-limit: a limit order at {@code price} once a trade reaches the stop price.
     *
     * @param stopPrice fixed point.
     * @param price     fixed point.
     * @return this.
     */
    public NewOrder stopLimit(final long stopPrice, final long price)
    {
        this.orderType = OrderType.STOP_LIMIT;
        this.price = price;
        this.stopPrice = stopPrice;
        return this;
    }

    /**
     * @param orderType LIMIT, MARKET, STOP or STOP_LIMIT; {@link #limit}, {@link #market}, {@link #stop} and
     *                  {@link #stopLimit} set it with its prices.
     * @return this.
     */
    public NewOrder orderType(final OrderType orderType)
    {
        this.orderType = orderType;
        return this;
    }

    /**
     * @param price fixed point at the instrument's price scale; for LIMIT and STOP_LIMIT.
     * @return this.
     */
    public NewOrder price(final long price)
    {
        this.price = price;
        return this;
    }

    /**
     * @param stopPrice the price a trade must reach to trigger a STOP or STOP_LIMIT, fixed point; else 0.
     * @return this.
     */
    public NewOrder stopPrice(final long stopPrice)
    {
        this.stopPrice = stopPrice;
        return this;
    }

    /**
     * @param expireTimeNs a GTD order's expiry, nanoseconds since the epoch on the engine's clock; else 0.
     * @return this.
     */
    public NewOrder expireTimeNs(final long expireTimeNs)
    {
        this.expireTimeNs = expireTimeNs;
        return this;
    }

    /**
     * @param quantity whole units.
     * @return this.
     */
    public NewOrder quantity(final long quantity)
    {
        this.quantity = quantity;
        return this;
    }

    /**
     * @param timeInForce GTC (the default), IOC, FOK or DAY; GTD through {@link #goodTill(long)}.
     * @return this.
     */
    public NewOrder timeInForce(final TimeInForce timeInForce)
    {
        this.timeInForce = timeInForce;
        if (timeInForce != TimeInForce.GTD)
        {
            this.expireTimeNs = 0;
        }
        return this;
    }

    /**
     * Good till a time: GTD.
     *
     * @param expireTimeNs nanoseconds since the epoch, on the engine's clock.
     * @return this.
     */
    public NewOrder goodTill(final long expireTimeNs)
    {
        this.timeInForce = TimeInForce.GTD;
        this.expireTimeNs = expireTimeNs;
        return this;
    }

    /**
     * @param displayQuantity an iceberg's visible part; 0 (the default) shows all.
     * @return this.
     */
    public NewOrder displayQuantity(final long displayQuantity)
    {
        this.displayQuantity = displayQuantity;
        return this;
    }

    /**
     * @param minQuantity the least it must trade if it trades on entry; 0 (the default) for none.
     * @return this.
     */
    public NewOrder minQuantity(final long minQuantity)
    {
        this.minQuantity = minQuantity;
        return this;
    }

    /**
     * @param postOnly rejected rather than take liquidity on entry.
     * @return this.
     */
    public NewOrder postOnly(final boolean postOnly)
    {
        this.postOnly = postOnly;
        return this;
    }

    /**
     * @param selfTradePrevention when it would trade with the account's own order; ACCOUNT_DEFAULT (the default) for
     *                            the account's setting.
     * @return this.
     */
    public NewOrder selfTradePrevention(final SelfTradePrevention selfTradePrevention)
    {
        this.selfTradePrevention = selfTradePrevention;
        return this;
    }

    /**
     * Send through the client this came from ({@link ExchangeClient#order()}).
     *
     * @return what {@link ExchangeClient#newOrder(NewOrder)} returns.
     * @throws IllegalStateException if made with {@code new}: pass it to {@link ExchangeClient#newOrder(NewOrder)}.
     */
    public long send()
    {
        if (null == client)
        {
            throw new IllegalStateException("this NewOrder belongs to no client: pass it to ExchangeClient.newOrder");
        }
        return client.newOrder(this);
    }

    /**
     * Write the terms into {@code encoder}, wrapped at its message.
     *
     * @param encoder          the message's encoder.
     * @param sessionId        the session's id.
     * @param defaultAccountId used when no account was set.
     * @throws IllegalStateException if the client order id, the instrument, the side or the order type is missing.
     */
    void encode(final NewOrderEncoder encoder, final long sessionId, final long defaultAccountId)
    {
        if (clientOrderId.length() == 0 || instrumentId == 0 || null == side || null == orderType)
        {
            throw new IllegalStateException("an order needs a clientOrderId, an instrument, a side and a type: " +
                this);
        }
        encoder
            .sessionId(sessionId)
            .accountId(accountId == 0 ? defaultAccountId : accountId)
            .clientOrderId(clientOrderId)
            .instrumentId(instrumentId)
            .side(side)
            .orderType(orderType)
            .timeInForce(timeInForce)
            .postOnly(postOnly ? BooleanType.TRUE : BooleanType.FALSE)
            .selfTradePrevention(selfTradePrevention)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice)
            .displayQuantity(displayQuantity)
            .minQuantity(minQuantity)
            .expireTimeNs(expireTimeNs);
    }

    /**
     * @return the terms, for messages and logs (allocates).
     */
    public String toString()
    {
        return "NewOrder{clientOrderId=" + clientOrderId + ", account=" + accountId + ", instrument=" + instrumentId +
            ", " + side + " " + orderType + " " + timeInForce + ", price=" + price + ", quantity=" + quantity +
            ", stopPrice=" + stopPrice + ", displayQuantity=" + displayQuantity + ", minQuantity=" + minQuantity +
            ", expireTimeNs=" + expireTimeNs + ", postOnly=" + postOnly + ", " + selfTradePrevention + "}";
    }
}
