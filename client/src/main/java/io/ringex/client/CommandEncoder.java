package io.ringex.client;

import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.AddAccountEncoder;
import io.ringex.protocol.codecs.AddInstrumentEncoder;
import io.ringex.protocol.codecs.AdjustBalanceEncoder;
import io.ringex.protocol.codecs.AmendInstrumentEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BustTradeEncoder;
import io.ringex.protocol.codecs.CancelAllAfterEncoder;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.DelistInstrumentEncoder;
import io.ringex.protocol.codecs.EndOfDayEncoder;
import io.ringex.protocol.codecs.KillSwitchEncoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MassQuoteEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewEpochEncoder;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.QuoteCancelEncoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.ReferenceDataRequestEncoder;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.SessionStatusEncoder;
import io.ringex.protocol.codecs.SetAccountStatusEncoder;
import io.ringex.protocol.codecs.SetDynamicBandEncoder;
import io.ringex.protocol.codecs.SetLimitsEncoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionEncoder;
import io.ringex.protocol.codecs.SetTradingScheduleEncoder;
import io.ringex.protocol.codecs.SetTradingStatusEncoder;
import io.ringex.protocol.codecs.SetUserCredentialEncoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TakeSnapshotEncoder;
import io.ringex.protocol.codecs.TickEncoder;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UnlockLogonsEncoder;
import io.ringex.protocol.codecs.UpsertUserEncoder;
import io.ringex.protocol.codecs.UserDirectoryRequestEncoder;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Encodes commands for the processor (tests, benchmarks, tools): each method writes one SBE message with its header
 * at offset 0 of {@link #buffer()} and returns its length, ready for
 * {@code processor.onCommand(seq, time, source, encoder.buffer(), 0, length)}.
 * <p>
 * Client order ids may be given as numbers (written as decimal ASCII, no allocation; 0 means empty) or text.
 * <p>
 * Threading: not thread-safe; one per producing thread. The buffer is reused by the next call.
 */
public final class CommandEncoder
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final byte[] id = new byte[20];
    private final byte[] origId = new byte[20];
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancel = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replace = new ReplaceOrderEncoder();
    private final MassCancelEncoder massCancel = new MassCancelEncoder();
    private final OrderStatusRequestEncoder orderStatusRequest = new OrderStatusRequestEncoder();
    private final OrderMassStatusRequestEncoder orderMassStatusRequest = new OrderMassStatusRequestEncoder();
    private final byte[] statusId = new byte[20];
    private final AddInstrumentEncoder addInstrument = new AddInstrumentEncoder();
    private final AddAccountEncoder addAccount = new AddAccountEncoder();
    private final SetLimitsEncoder setLimits = new SetLimitsEncoder();
    private final AdjustBalanceEncoder adjustBalance = new AdjustBalanceEncoder();
    private final SetTradingStatusEncoder setTradingStatus = new SetTradingStatusEncoder();
    private final KillSwitchEncoder killSwitch = new KillSwitchEncoder();
    private final TakeSnapshotEncoder takeSnapshot = new TakeSnapshotEncoder();
    private final EndOfDayEncoder endOfDay = new EndOfDayEncoder();
    private final NewEpochEncoder newEpoch = new NewEpochEncoder();
    private final SessionStatusEncoder sessionStatus = new SessionStatusEncoder();
    private final UnlockLogonsEncoder unlockLogons = new UnlockLogonsEncoder();
    private final TickEncoder tick = new TickEncoder();
    private final SetDynamicBandEncoder setDynamicBand = new SetDynamicBandEncoder();
    private final BustTradeEncoder bustTrade = new BustTradeEncoder();
    private final AmendInstrumentEncoder amendInstrument = new AmendInstrumentEncoder();
    private final DelistInstrumentEncoder delistInstrument = new DelistInstrumentEncoder();
    private final SetAccountStatusEncoder setAccountStatus = new SetAccountStatusEncoder();
    private final UpsertUserEncoder upsertUser = new UpsertUserEncoder();
    private final SetUserCredentialEncoder setUserCredential = new SetUserCredentialEncoder();
    private final UserDirectoryRequestEncoder userDirectoryRequest = new UserDirectoryRequestEncoder();
    private final ReferenceDataRequestEncoder referenceDataRequest = new ReferenceDataRequestEncoder();
    private final SetTradingScheduleEncoder setTradingSchedule = new SetTradingScheduleEncoder();
    private final MassQuoteEncoder massQuote = new MassQuoteEncoder();
    private final QuoteCancelEncoder quoteCancel = new QuoteCancelEncoder();
    private final SetMarketMakerProtectionEncoder setProtection = new SetMarketMakerProtectionEncoder();
    private final ResetMarketMakerProtectionEncoder resetProtection = new ResetMarketMakerProtectionEncoder();
    private final CancelAllAfterEncoder cancelAllAfter = new CancelAllAfterEncoder();
    private static final byte[] NO_TEXT = new byte[0];
    private String operator = "ringex";
    private byte[] operatorBytes = operator.getBytes(StandardCharsets.US_ASCII);
    private String changeReason = "";
    private byte[] reasonBytes = NO_TEXT;

    /** @return the buffer the last command was written to, at offset 0. */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Write a client order id number as decimal ASCII, zero padded (0 = empty).
     *
     * @param value non-negative number.
     * @param dst   20 bytes.
     * @return dst.
     */
    public static byte[] clientOrderId(final long value, final byte[] dst)
    {
        java.util.Arrays.fill(dst, (byte)0);
        if (value <= 0)
        {
            return dst;
        }
        int digits = 0;
        for (long v = value; v > 0; v /= 10)
        {
            digits++;
        }
        long v = value;
        for (int i = digits - 1; i >= 0; i--)
        {
            dst[i] = (byte)('0' + v % 10);
            v /= 10;
        }
        return dst;
    }

    /**
     * @param sessionId     session.
     * @param accountId     account.
     * @param clientOrderId client order id as a number.
     * @param instrumentId  instrument.
     * @param side          side.
     * @param orderType     order type.
     * @param timeInForce   time in force.
     * @param postOnly      post-only.
     * @param stp           self-trade prevention.
     * @param price         limit price.
     * @param quantity      quantity.
     * @return length.
     */
    public int newOrder(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final int instrumentId,
        final Side side,
        final OrderType orderType,
        final TimeInForce timeInForce,
        final boolean postOnly,
        final SelfTradePrevention stp,
        final long price,
        final long quantity)
    {
        return newOrder(sessionId, accountId, clientOrderId, instrumentId, side, orderType, timeInForce, postOnly, stp,
            price, quantity, 0, 0, 0, 0);
    }

    /**
     * A new order with the terms of schema version 2 (0 leaves each unset).
     *
     * @param sessionId       session.
     * @param accountId       account.
     * @param clientOrderId   client order id as a number.
     * @param instrumentId    instrument.
     * @param side            side.
     * @param orderType       order type (STOP and STOP_LIMIT need a stop price).
     * @param timeInForce     time in force (GTD needs an expire time).
     * @param postOnly        post-only.
     * @param stp             self-trade prevention.
     * @param price           limit price.
     * @param quantity        quantity.
     * @param stopPrice       stop price, or 0.
     * @param displayQuantity iceberg display quantity, or 0.
     * @param minQuantity     minimum quantity, or 0.
     * @param expireTimeNs    GTD expiry on the engine's clock, or 0.
     * @return length.
     */
    public int newOrder(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final int instrumentId,
        final Side side,
        final OrderType orderType,
        final TimeInForce timeInForce,
        final boolean postOnly,
        final SelfTradePrevention stp,
        final long price,
        final long quantity,
        final long stopPrice,
        final long displayQuantity,
        final long minQuantity,
        final long expireTimeNs)
    {
        newOrder.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putClientOrderId(clientOrderId(clientOrderId, id), 0)
            .instrumentId(instrumentId)
            .side(side)
            .orderType(orderType)
            .timeInForce(timeInForce)
            .postOnly(postOnly ? BooleanType.TRUE : BooleanType.FALSE)
            .selfTradePrevention(stp)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice)
            .displayQuantity(displayQuantity)
            .minQuantity(minQuantity)
            .expireTimeNs(expireTimeNs);
        return HEADER + newOrder.encodedLength();
    }

    /**
     * A GTC limit order with the account's default self-trade prevention.
     *
     * @param sessionId     session.
     * @param accountId     account.
     * @param clientOrderId client order id as a number.
     * @param instrumentId  instrument.
     * @param side          side.
     * @param price         limit price.
     * @param quantity      quantity.
     * @return length.
     */
    public int limit(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final int instrumentId,
        final Side side,
        final long price,
        final long quantity)
    {
        return newOrder(sessionId, accountId, clientOrderId, instrumentId, side, OrderType.LIMIT, TimeInForce.GTC,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity);
    }

    /**
     * @param sessionId         session.
     * @param accountId         account.
     * @param clientOrderId     id of this request.
     * @param origClientOrderId order's client id (used when orderId is 0).
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @return length.
     */
    public int cancel(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final long origClientOrderId,
        final long orderId,
        final int instrumentId)
    {
        cancel.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putClientOrderId(clientOrderId(clientOrderId, id), 0)
            .putOrigClientOrderId(clientOrderId(origClientOrderId, origId), 0)
            .orderId(orderId)
            .instrumentId(instrumentId);
        return HEADER + cancel.encodedLength();
    }

    /**
     * @param sessionId         session.
     * @param accountId         account.
     * @param clientOrderId     new client order id.
     * @param origClientOrderId order's current client id (used when orderId is 0).
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @param price             new price.
     * @param quantity          new total quantity.
     * @return length.
     */
    public int replace(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final long origClientOrderId,
        final long orderId,
        final int instrumentId,
        final long price,
        final long quantity)
    {
        return replace(sessionId, accountId, clientOrderId, origClientOrderId, orderId, instrumentId, price, quantity,
            0);
    }

    /**
     * A replace that may also move a pending stop's stop price.
     *
     * @param sessionId         session.
     * @param accountId         account.
     * @param clientOrderId     new client order id.
     * @param origClientOrderId order's current client id (used when orderId is 0).
     * @param orderId           engine order id or 0.
     * @param instrumentId      instrument.
     * @param price             new price.
     * @param quantity          new total quantity.
     * @param stopPrice         a pending stop's new stop price, 0 to keep it.
     * @return length.
     */
    public int replace(
        final long sessionId,
        final long accountId,
        final long clientOrderId,
        final long origClientOrderId,
        final long orderId,
        final int instrumentId,
        final long price,
        final long quantity,
        final long stopPrice)
    {
        replace.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putClientOrderId(clientOrderId(clientOrderId, id), 0)
            .putOrigClientOrderId(clientOrderId(origClientOrderId, origId), 0)
            .orderId(orderId)
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice);
        return HEADER + replace.encodedLength();
    }

    /**
     * @param sessionId          session.
     * @param accountId          account (0 with scope INSTRUMENT from an admin source: every order).
     * @param clientRequestId    request id.
     * @param scope              scope.
     * @param instrumentId       instrument for scope INSTRUMENT.
     * @param cancelOnDisconnect set by a gateway on disconnect.
     * @return length.
     */
    public int massCancel(
        final long sessionId,
        final long accountId,
        final long clientRequestId,
        final MassCancelScope scope,
        final int instrumentId,
        final boolean cancelOnDisconnect)
    {
        massCancel.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putClientRequestId(clientOrderId(clientRequestId, id), 0)
            .scope(scope)
            .instrumentId(instrumentId)
            .cancelOnDisconnect(cancelOnDisconnect ? BooleanType.TRUE : BooleanType.FALSE);
        return HEADER + massCancel.encodedLength();
    }

    /**
     * Ask for one open order's current state.
     *
     * @param sessionId       the session (the gateway stamps its own).
     * @param accountId       the order's account.
     * @param statusRequestId echoed in the answer, as decimal digits; 0 for none.
     * @param orderId         engine order id, or 0 to name the order by its client order id.
     * @param clientOrderId   the order's client order id as decimal digits, used when orderId is 0.
     * @return length.
     */
    public int orderStatusRequest(
        final long sessionId,
        final long accountId,
        final long statusRequestId,
        final long orderId,
        final long clientOrderId)
    {
        orderStatusRequest.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putStatusRequestId(clientOrderId(statusRequestId, statusId), 0)
            .orderId(orderId)
            .putClientOrderId(clientOrderId(clientOrderId, id), 0);
        return HEADER + orderStatusRequest.encodedLength();
    }

    /**
     * Ask for the open orders of a scope. The accounts the answer may show are the gateway's to set (the user's
     * accounts, or {@code accountId}); the ones given here reach the engine only from a trusted source (tests, tools).
     *
     * @param sessionId       the session (the gateway stamps its own).
     * @param accountId       one of the user's accounts, or 0 for all of them.
     * @param statusRequestId echoed in every report, as decimal digits.
     * @param scope           SESSION, ACCOUNTS or INSTRUMENT.
     * @param instrumentId    for scope INSTRUMENT.
     * @param accounts        the accounts group (the gateway replaces it).
     * @return length.
     */
    public int orderMassStatusRequest(
        final long sessionId,
        final long accountId,
        final long statusRequestId,
        final MassStatusScope scope,
        final int instrumentId,
        final long... accounts)
    {
        orderMassStatusRequest.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putStatusRequestId(clientOrderId(statusRequestId, statusId), 0)
            .scope(scope)
            .instrumentId(instrumentId);
        final OrderMassStatusRequestEncoder.AccountsEncoder group =
            orderMassStatusRequest.accountsCount(accounts.length);
        for (final long account : accounts)
        {
            group.next().accountId(account);
        }
        return HEADER + orderMassStatusRequest.encodedLength();
    }

    /**
     * @param requestId      request id.
     * @param instrumentId   id.
     * @param symbol         up to 16 ASCII characters.
     * @param priceScale     0..8.
     * @param tickSize       tick.
     * @param lotSize        lot.
     * @param referencePrice reference price.
     * @param bandType       band type.
     * @param band           band value.
     * @return length.
     */
    public int addInstrument(
        final long requestId,
        final int instrumentId,
        final String symbol,
        final int priceScale,
        final long tickSize,
        final long lotSize,
        final long referencePrice,
        final PriceBandType bandType,
        final long band)
    {
        addInstrument.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .instrumentId(instrumentId)
            .symbol(symbol)
            .priceScale((short)priceScale)
            .tickSize(tickSize)
            .lotSize(lotSize)
            .referencePrice(referencePrice)
            .priceBandType(bandType)
            .priceBand(band)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + addInstrument.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param accountId id.
     * @param stp       default self-trade prevention.
     * @return length.
     */
    public int addAccount(final long requestId, final long accountId, final SelfTradePrevention stp)
    {
        addAccount.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .selfTradePrevention(stp)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + addAccount.encodedLength();
    }

    /**
     * @param requestId            request id.
     * @param accountId            account.
     * @param maxOrderQuantity     max order quantity.
     * @param maxOrderNotional     max order notional (money scale).
     * @param creditLimit          credit limit (money scale).
     * @param defaultPositionLimit default position limit.
     * @param maxOpenOrders        max open orders.
     * @param allowShort           allow short.
     * @param instrumentIds        per-instrument override instruments (may be empty).
     * @param positionLimits       per-instrument override limits.
     * @return length.
     */
    public int setLimits(
        final long requestId,
        final long accountId,
        final long maxOrderQuantity,
        final long maxOrderNotional,
        final long creditLimit,
        final long defaultPositionLimit,
        final int maxOpenOrders,
        final boolean allowShort,
        final int[] instrumentIds,
        final long[] positionLimits)
    {
        setLimits.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .maxOrderQuantity(maxOrderQuantity)
            .maxOrderNotional(maxOrderNotional)
            .creditLimit(creditLimit)
            .defaultPositionLimit(defaultPositionLimit)
            .maxOpenOrders(maxOpenOrders)
            .allowShort(allowShort ? BooleanType.TRUE : BooleanType.FALSE);
        final SetLimitsEncoder.PositionLimitsEncoder entries = setLimits.positionLimitsCount(instrumentIds.length);
        for (int i = 0; i < instrumentIds.length; i++)
        {
            entries.next().instrumentId(instrumentIds[i]).positionLimit(positionLimits[i]);
        }
        setLimits
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + setLimits.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param accountId account.
     * @param amount    money to add (negative to withdraw).
     * @return length.
     */
    public int adjustBalance(final long requestId, final long accountId, final long amount)
    {
        // No text to encode: allocation-free, for benchmarks and allocation tests that fund accounts in their flow.
        adjustBalance.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .amount(amount)
            .putReference(NO_TEXT, 0, 0)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(NO_TEXT, 0, 0);
        return HEADER + adjustBalance.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param accountId account.
     * @param amount    signed money amount (fixed point at 10^8).
     * @param reference the payment's reference (up to 64 printable characters).
     * @param reason    why.
     * @return length.
     */
    public int adjustBalance(
        final long requestId, final long accountId, final long amount, final String reference, final String reason)
    {
        adjustBalance.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .amount(amount)
            .reference(reference)
            .operatorName(operator)
            .reason(reason);
        return HEADER + adjustBalance.encodedLength();
    }

    /**
     * @param requestId    request id.
     * @param instrumentId instrument.
     * @param status       status.
     * @return length.
     */
    public int setTradingStatus(final long requestId, final int instrumentId, final TradingStatus status)
    {
        return setTradingStatus(requestId, instrumentId, status, 0);
    }

    /**
     * @param requestId       request id.
     * @param instrumentId    instrument.
     * @param status          status.
     * @param phaseDurationNs a call phase's length on the engine's clock (it then uncrosses), 0 for none.
     * @return length.
     */
    public int setTradingStatus(
        final long requestId, final int instrumentId, final TradingStatus status, final long phaseDurationNs)
    {
        setTradingStatus.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .instrumentId(instrumentId)
            .status(status)
            .phaseDurationNs(phaseDurationNs)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + setTradingStatus.encodedLength();
    }

    /**
     * @param requestId         request id.
     * @param instrumentId      instrument.
     * @param bandBasisPoints   band either side of the last trade price, 0 for off.
     * @param auctionDurationNs length of the volatility auction it starts.
     * @return length.
     */
    public int setDynamicBand(
        final long requestId, final int instrumentId, final int bandBasisPoints, final long auctionDurationNs)
    {
        setDynamicBand.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .instrumentId(instrumentId)
            .bandBasisPoints(bandBasisPoints)
            .auctionDurationNs(auctionDurationNs)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + setDynamicBand.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param scope     scope.
     * @param accountId account for scope ACCOUNT.
     * @param active    on or off.
     * @return length.
     */
    public int killSwitch(final long requestId, final KillSwitchScope scope, final long accountId, final boolean active)
    {
        killSwitch.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .scope(scope)
            .accountId(accountId)
            .active(active ? BooleanType.TRUE : BooleanType.FALSE)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + killSwitch.encodedLength();
    }

    /**
     * @param requestId request id.
     * @return length.
     */
    public int takeSnapshot(final long requestId)
    {
        takeSnapshot.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + takeSnapshot.encodedLength();
    }

    /**
     * @param requestId request id.
     * @return length.
     */
    public int endOfDay(final long requestId)
    {
        endOfDay.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .putOperatorName(operatorBytes, 0, operatorBytes.length)
            .putReason(reasonBytes, 0, reasonBytes.length);
        return HEADER + endOfDay.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param epoch     epoch.
     * @param nodeId    node id.
     * @return length.
     */
    public int newEpoch(final long requestId, final long epoch, final int nodeId)
    {
        newEpoch.wrapAndApplyHeader(buffer, 0, header).requestId(requestId).epoch(epoch).nodeId(nodeId);
        return HEADER + newEpoch.encodedLength();
    }

    /**
     * @param sessionId session.
     * @param accountId account.
     * @param loggedOn  logged on or off.
     * @return length.
     */
    public int sessionStatus(final long sessionId, final long accountId, final boolean loggedOn)
    {
        return sessionStatus(sessionId, accountId, loggedOn, 0);
    }

    /**
     * @param sessionId                 session.
     * @param accountId                 account.
     * @param loggedOn                  logged on or off.
     * @param cancelOnDisconnectGraceMs logged off: cancel its orders unless it logs on again within this many ms
     *                                  (0: no grace timer).
     * @return length.
     */
    public int sessionStatus(
        final long sessionId, final long accountId, final boolean loggedOn, final int cancelOnDisconnectGraceMs)
    {
        sessionStatus.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .loggedOn(loggedOn ? BooleanType.TRUE : BooleanType.FALSE)
            .cancelOnDisconnectGraceMs(cancelOnDisconnectGraceMs);
        return HEADER + sessionStatus.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param username  user name to unlock, or empty.
     * @param address   address to unlock, or empty.
     * @param operator  who asks.
     * @param reason    why.
     * @return length.
     */
    public int unlockLogons(
        final long requestId, final String username, final String address, final String operator, final String reason)
    {
        unlockLogons.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .username(username)
            .address(address)
            .operatorName(operator)
            .reason(reason);
        return HEADER + unlockLogons.encodedLength();
    }

    /**
     * @param deadlineNs the deadline that prompted it.
     * @return length.
     */
    public int tick(final long deadlineNs)
    {
        tick.wrapAndApplyHeader(buffer, 0, header).deadlineNs(deadlineNs);
        return HEADER + tick.encodedLength();
    }

    /**
     * Name the operator the admin commands encoded from now on carry (the journal's audit trail).
     *
     * @param operator 1 to 32 printable characters.
     * @return this.
     */
    public CommandEncoder operator(final String operator)
    {
        this.operator = operator;
        this.operatorBytes = operator.getBytes(StandardCharsets.US_ASCII);
        return this;
    }

    /**
     * Name the reason the changes that take none of their own carry from now on: AddInstrument, AddAccount,
     * SetLimits, SetTradingStatus, SetDynamicBand, KillSwitch, TakeSnapshot and EndOfDay (schema version 4; the
     * journal's audit trail), as {@link #operator(String)} names their operator.
     *
     * @param reason at most 64 printable characters; empty for none.
     * @return this.
     */
    public CommandEncoder reason(final String reason)
    {
        this.changeReason = reason;
        this.reasonBytes = reason.getBytes(StandardCharsets.US_ASCII);
        return this;
    }

    /**
     * @return the reason the changes without one of their own carry ({@link #reason(String)}).
     */
    public String reason()
    {
        return changeReason;
    }

    /**
     * @return the operator admin commands carry.
     */
    public String operator()
    {
        return operator;
    }

    /**
     * @param requestId    request id.
     * @param instrumentId instrument.
     * @param symbol       its symbol (up to 16 ASCII).
     * @param tickSize     tick, fixed point.
     * @param lotSize      lot.
     * @param reference    reference price.
     * @param bandType     band type.
     * @param band         band.
     * @param reason       why.
     * @return length.
     */
    public int amendInstrument(
        final long requestId,
        final int instrumentId,
        final String symbol,
        final long tickSize,
        final long lotSize,
        final long reference,
        final PriceBandType bandType,
        final long band,
        final String reason)
    {
        amendInstrument.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .instrumentId(instrumentId)
            .symbol(symbol)
            .tickSize(tickSize)
            .lotSize(lotSize)
            .referencePrice(reference)
            .priceBandType(bandType)
            .priceBand(band)
            .operatorName(operator)
            .reason(reason);
        return HEADER + amendInstrument.encodedLength();
    }

    /**
     * @param requestId    request id.
     * @param instrumentId instrument.
     * @param reason       why.
     * @return length.
     */
    public int delistInstrument(final long requestId, final int instrumentId, final String reason)
    {
        delistInstrument.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .instrumentId(instrumentId)
            .operatorName(operator)
            .reason(reason);
        return HEADER + delistInstrument.encodedLength();
    }

    /**
     * @param requestId request id.
     * @param accountId account.
     * @param status    ACTIVE, SUSPENDED or CLOSED.
     * @param reason    why.
     * @return length.
     */
    public int setAccountStatus(
        final long requestId, final long accountId, final AccountStatus status, final String reason)
    {
        setAccountStatus.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .status(status)
            .operatorName(operator)
            .reason(reason);
        return HEADER + setAccountStatus.encodedLength();
    }

    /**
     * A TRADER user: see {@link #upsertUser(long, String, boolean, long[], String, boolean, int, UserRole, String)}.
     *
     * @param requestId             request id.
     * @param username              login name.
     * @param enabled               may log on.
     * @param accounts              accounts it may trade, the default first.
     * @param fixSenderCompId       its FIX SenderCompID, or empty.
     * @param fixCancelOnDisconnect its FIX sessions cancel their orders on disconnect.
     * @param throttle              messages per second, 0 for the gateway's default.
     * @param reason                why.
     * @return length.
     */
    public int upsertUser(
        final long requestId,
        final String username,
        final boolean enabled,
        final long[] accounts,
        final String fixSenderCompId,
        final boolean fixCancelOnDisconnect,
        final int throttle,
        final String reason)
    {
        return upsertUser(
            requestId, username, enabled, accounts, fixSenderCompId, fixCancelOnDisconnect, throttle, UserRole.TRADER,
            reason);
    }

    /**
     * @param requestId             request id.
     * @param username              login name.
     * @param enabled               may log on.
     * @param accounts              accounts it may trade (a drop copy: the accounts it sees), the default first.
     * @param fixSenderCompId       its FIX SenderCompID, or empty.
     * @param fixCancelOnDisconnect its FIX sessions cancel their orders on disconnect.
     * @param throttle              messages per second, 0 for the gateway's default.
     * @param role                  TRADER, DROP_COPY or CLEARING.
     * @param reason                why.
     * @return length.
     */
    public int upsertUser(
        final long requestId,
        final String username,
        final boolean enabled,
        final long[] accounts,
        final String fixSenderCompId,
        final boolean fixCancelOnDisconnect,
        final int throttle,
        final UserRole role,
        final String reason)
    {
        return upsertUser(requestId, username, enabled, accounts, fixSenderCompId, fixCancelOnDisconnect, throttle,
            role, 0, reason);
    }

    /**
     * @param requestId                 request id.
     * @param username                  login name.
     * @param enabled                   may log on.
     * @param accounts                  accounts it may trade (a drop copy: the accounts it sees), the default first.
     * @param fixSenderCompId           its FIX SenderCompID, or empty.
     * @param fixCancelOnDisconnect     its FIX sessions cancel their orders on disconnect.
     * @param throttle                  messages per second, 0 for the gateway's default.
     * @param role                      TRADER, DROP_COPY or CLEARING.
     * @param cancelOnDisconnectGraceMs how long a disconnected session that asked for cancel-on-disconnect keeps its
     *                                  orders, waiting for it to log on again (0 to 600000 ms; 0: cancelled at once).
     * @param reason                    why.
     * @return length.
     */
    public int upsertUser(
        final long requestId,
        final String username,
        final boolean enabled,
        final long[] accounts,
        final String fixSenderCompId,
        final boolean fixCancelOnDisconnect,
        final int throttle,
        final UserRole role,
        final int cancelOnDisconnectGraceMs,
        final String reason)
    {
        upsertUser.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .enabled(enabled ? BooleanType.TRUE : BooleanType.FALSE)
            .fixCancelOnDisconnect(fixCancelOnDisconnect ? BooleanType.TRUE : BooleanType.FALSE)
            .throttleMessagesPerSecond(throttle)
            .role(role)
            .cancelOnDisconnectGraceMs(cancelOnDisconnectGraceMs);
        final UpsertUserEncoder.AccountsEncoder group = upsertUser.accountsCount(accounts.length);
        for (final long account : accounts)
        {
            group.next().accountId(account);
        }
        upsertUser.username(username)
            .fixSenderCompId(fixSenderCompId)
            .operatorName(operator)
            .reason(reason);
        return HEADER + upsertUser.encodedLength();
    }

    /**
     * @param requestId      request id.
     * @param username       login name.
     * @param credentialHash its PBKDF2 hash.
     * @param reason         why.
     * @return length.
     */
    public int setUserCredential(
        final long requestId, final String username, final String credentialHash, final String reason)
    {
        setUserCredential.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .username(username)
            .credentialHash(credentialHash)
            .operatorName(operator)
            .reason(reason);
        return HEADER + setUserCredential.encodedLength();
    }

    /**
     * The venue's trading day, by the operator named with {@link #operator(String)}.
     *
     * @param requestId      request id.
     * @param tradingDays    bit 0 Monday ... bit 6 Sunday; 0 removes the schedule.
     * @param preOpenMinute  minute of the local day of the pre-open, or -1.
     * @param openMinute     minute of the open.
     * @param closeMinute    minute of the close.
     * @param endOfDayMinute minute DAY orders expire.
     * @param holidays       closed local dates, as days since 1970-01-01.
     * @param timeZone       IANA time zone id.
     * @param reason         why.
     * @return length.
     */
    public int setTradingSchedule(
        final long requestId,
        final int tradingDays,
        final int preOpenMinute,
        final int openMinute,
        final int closeMinute,
        final int endOfDayMinute,
        final int[] holidays,
        final String timeZone,
        final String reason)
    {
        setTradingSchedule.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .tradingDays((short)tradingDays)
            .preOpenMinute((short)preOpenMinute)
            .openMinute((short)openMinute)
            .closeMinute((short)closeMinute)
            .endOfDayMinute((short)endOfDayMinute);
        final SetTradingScheduleEncoder.HolidaysEncoder group = setTradingSchedule.holidaysCount(holidays.length);
        for (final int day : holidays)
        {
            group.next().epochDay(day);
        }
        setTradingSchedule.timeZone(timeZone)
            .operatorName(operator)
            .reason(reason);
        return HEADER + setTradingSchedule.encodedLength();
    }

    /**
     * @param gatewayId the asking gateway.
     * @param requestId its request.
     * @return length.
     */
    public int userDirectoryRequest(final int gatewayId, final long requestId)
    {
        userDirectoryRequest.wrapAndApplyHeader(buffer, 0, header).gatewayId(gatewayId).requestId(requestId);
        return HEADER + userDirectoryRequest.encodedLength();
    }

    /**
     * Ask for the venue's reference data now (schema version 4): every instrument's definition, every account's
     * definition and risk, market-maker protection and the trading schedule on the risk stream, then the
     * AdminResponse to {@code requestId}. An operator's command: the engine takes it signed with an admin key only.
     *
     * @param requestId the request.
     * @return length.
     */
    public int referenceDataRequest(final long requestId)
    {
        referenceDataRequest.wrapAndApplyHeader(buffer, 0, header).requestId(requestId);
        return HEADER + referenceDataRequest.encodedLength();
    }

    /**
     * A trade bust (post-trade correction): the trade as the trade file and the audit trail show it, by the
     * operator named with {@link #operator(String)}.
     *
     * @param requestId     request id.
     * @param tradeId       the trade.
     * @param instrumentId  its instrument.
     * @param price         its price.
     * @param quantity      its quantity.
     * @param buyOrderId    the buy order.
     * @param sellOrderId   the sell order.
     * @param buyAccountId  the buying account.
     * @param sellAccountId the selling account.
     * @param reason        why.
     * @return length.
     */
    public int bustTrade(
        final long requestId,
        final long tradeId,
        final int instrumentId,
        final long price,
        final long quantity,
        final long buyOrderId,
        final long sellOrderId,
        final long buyAccountId,
        final long sellAccountId,
        final String reason)
    {
        bustTrade.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .tradeId(tradeId)
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity)
            .buyOrderId(buyOrderId)
            .sellOrderId(sellOrderId)
            .buyAccountId(buyAccountId)
            .sellAccountId(sellAccountId)
            .operatorName(operator)
            .reason(reason);
        return HEADER + bustTrade.encodedLength();
    }

    /**
     * A mass quote: the account's two-sided quotes in up to 10 instruments.
     *
     * @param sessionId session.
     * @param accountId account.
     * @param quoteId   the quote id as a number (decimal ASCII; the client order id of its orders).
     * @param stp       self-trade prevention of its orders when they take liquidity.
     * @param entries   the entries.
     * @return length.
     */
    public int massQuote(
        final long sessionId, final long accountId, final long quoteId, final SelfTradePrevention stp,
        final QuoteEntries entries)
    {
        return massQuote(sessionId, accountId, clientOrderId(quoteId, id), stp, entries);
    }

    /**
     * A mass quote with a text quote id.
     *
     * @param sessionId session.
     * @param accountId account.
     * @param quoteId   1 to 20 printable ASCII characters.
     * @param stp       self-trade prevention of its orders when they take liquidity.
     * @param entries   the entries.
     * @return length.
     */
    public int massQuote(
        final long sessionId, final long accountId, final CharSequence quoteId, final SelfTradePrevention stp,
        final QuoteEntries entries)
    {
        return massQuote(sessionId, accountId, ascii(quoteId, id), stp, entries);
    }

    private int massQuote(
        final long sessionId, final long accountId, final byte[] quoteId, final SelfTradePrevention stp,
        final QuoteEntries entries)
    {
        massQuote.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putQuoteId(quoteId, 0)
            .selfTradePrevention(stp);
        entries.writeTo(massQuote);
        return HEADER + massQuote.encodedLength();
    }

    /**
     * Cancel the account's quotes in an instrument, a quote set, or all.
     *
     * @param sessionId    session.
     * @param accountId    account.
     * @param requestId    the request's id, 1 to 20 printable ASCII characters.
     * @param scope        INSTRUMENT, QUOTE_SET or ALL.
     * @param instrumentId for scope INSTRUMENT.
     * @param quoteSetId   for scope QUOTE_SET.
     * @return length.
     */
    public int quoteCancel(
        final long sessionId,
        final long accountId,
        final CharSequence requestId,
        final QuoteCancelScope scope,
        final int instrumentId,
        final int quoteSetId)
    {
        quoteCancel.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .putQuoteId(ascii(requestId, id), 0)
            .scope(scope)
            .instrumentId(instrumentId)
            .quoteSetId(quoteSetId);
        return HEADER + quoteCancel.encodedLength();
    }

    /**
     * An account's market-maker protection in one group, by the operator named with {@link #operator(String)}.
     *
     * @param requestId     request id.
     * @param accountId     the account.
     * @param groupId       1 to 65535.
     * @param intervalNs    the rolling interval (1 ms to 24 h); 0 removes the group.
     * @param quantityLimit quantity its quotes may trade within the interval, 0 for no such limit.
     * @param notionalLimit notional (money scale) they may trade within it, 0 for no such limit.
     * @param fillLimit     fills they may have within it, 1 to 10000.
     * @param freezeNs      how long new quotes are refused after a breach; 0 until the account resets.
     * @param cancelOrders  whether a breach cancels the account's orders in the group too.
     * @param instruments   the group's instruments.
     * @param reason        why.
     * @return length.
     */
    public int setMarketMakerProtection(
        final long requestId,
        final long accountId,
        final int groupId,
        final long intervalNs,
        final long quantityLimit,
        final long notionalLimit,
        final int fillLimit,
        final long freezeNs,
        final boolean cancelOrders,
        final int[] instruments,
        final String reason)
    {
        setProtection.wrapAndApplyHeader(buffer, 0, header)
            .requestId(requestId)
            .accountId(accountId)
            .mmpGroupId(groupId)
            .intervalNs(intervalNs)
            .quantityLimit(quantityLimit)
            .notionalLimit(notionalLimit)
            .fillLimit(fillLimit)
            .freezeNs(freezeNs)
            .cancelOrders(cancelOrders ? BooleanType.TRUE : BooleanType.FALSE);
        final SetMarketMakerProtectionEncoder.InstrumentsEncoder group =
            setProtection.instrumentsCount(instruments.length);
        for (final int instrumentId : instruments)
        {
            group.next().instrumentId(instrumentId);
        }
        setProtection.operatorName(operator).reason(reason);
        return HEADER + setProtection.encodedLength();
    }

    /**
     * Reset the account's market-maker protection in a group: counters cleared, freeze lifted.
     *
     * @param sessionId session.
     * @param accountId account.
     * @param groupId   the group, or 0 for every group of the account.
     * @return length.
     */
    public int resetMarketMakerProtection(final long sessionId, final long accountId, final int groupId)
    {
        resetProtection.wrapAndApplyHeader(buffer, 0, header)
            .sessionId(sessionId)
            .accountId(accountId)
            .mmpGroupId(groupId);
        return HEADER + resetProtection.encodedLength();
    }

    /**
     * The session's dead man's switch.
     *
     * @param sessionId session.
     * @param timeoutMs 100 to 3600000; 0 turns it off.
     * @return length.
     */
    public int cancelAllAfter(final long sessionId, final long timeoutMs)
    {
        cancelAllAfter.wrapAndApplyHeader(buffer, 0, header).sessionId(sessionId).timeoutMs(timeoutMs);
        return HEADER + cancelAllAfter.encodedLength();
    }

    private static byte[] ascii(final CharSequence text, final byte[] dst)
    {
        java.util.Arrays.fill(dst, (byte)0);
        for (int i = 0, n = Math.min(text.length(), dst.length); i < n; i++)
        {
            dst[i] = (byte)text.charAt(i);
        }
        return dst;
    }
}
