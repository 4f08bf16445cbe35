package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.ClientOrderIds;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelOrderEncoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.NewOrderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.MutableDirectBuffer;
import uk.co.real_logic.artio.fields.UtcTimestampDecoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

/**
 * Translates FIX 4.4 order-entry messages (D, F, G, q, H, AF) into Ringex SBE commands, or says exactly why not; the
 * tags are docs/client.md's ("FIX 4.4").
 * <p>
 * Prices are parsed with {@link FixedPoint#parse} at the instrument's price scale and refused (INVALID_PRICE), never
 * rounded, when they carry more decimals; ClOrdIDs follow {@link ClientOrderIds}, as on the SBE gateway.
 * <p>
 * Never throws on client input; never allocates. Thread safety: single-threaded, reused.
 */
public final class FixCommandTranslator
{
    /** Longest ClOrdID the SBE protocol carries. */
    public static final int MAX_CLIENT_ORDER_ID = NewOrderEncoder.clientOrderIdLength();

    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final String BAD_CL_ORD_ID = "ClOrdID(11) must be " + ClientOrderIds.RULE;
    private static final String BAD_ORIG_CL_ORD_ID = "OrigClOrdID(41) must be " + ClientOrderIds.RULE;
    private static final String BAD_ORD_STATUS_REQ_ID = "OrdStatusReqID(790) must be " + ClientOrderIds.RULE;
    private static final String BAD_MASS_STATUS_REQ_ID = "MassStatusReqID(584) must be " + ClientOrderIds.RULE;

    /**
     * The single character this translator and the dictionary check use for OrderMassStatusRequest, whose FIX MsgType
     * (AF) has two.
     */
    public static final char ORDER_MASS_STATUS_REQUEST = '\u00AF';
    private static final String BAD_PRICE = "Price(44) missing, not positive or finer than the tick scale";
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancelOrder = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replaceOrder = new ReplaceOrderEncoder();
    private final MassCancelEncoder massCancel = new MassCancelEncoder();
    private final OrderStatusRequestEncoder orderStatus = new OrderStatusRequestEncoder();
    private final OrderMassStatusRequestEncoder massStatus = new OrderMassStatusRequestEncoder();
    private final io.ringex.gateway.StatusRequests statusRequests = new io.ringex.gateway.StatusRequests();
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private String text = "";
    private int encodedLength;
    private long accountId;
    private long stopPrice;
    private long displayQuantity;
    private long minQuantity;
    private long expireTimeNs;

    /**
     * Translate one message.
     *
     * @param fields      the scanned message.
     * @param msgType     its MsgType (D, F, G, q, H, or {@link #ORDER_MASS_STATUS_REQUEST} for AF).
     * @param user        the session's user (authority over accounts).
     * @param sessionId   stamped on the command.
     * @param instruments symbols and price scales.
     * @param out         where the SBE command (header included) is written on success.
     * @return NONE on success ({@link #encodedLength()} is then set), else why not ({@link #text()} says more).
     */
    public RejectReason translate(
        final FixFields fields,
        final char msgType,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        encodedLength = 0;
        text = "";
        if (!fields.isWellFormed())
        {
            return fail(RejectReason.MALFORMED, "message does not scan as tag=value pairs");
        }
        if (fields.repeatedTag() != 0)
        {
            return fail(RejectReason.MALFORMED, "a tag appears more than once");
        }
        switch (msgType)
        {
            case 'D':
                return newOrder(fields, user, sessionId, instruments, out);
            case 'F':
                return cancel(fields, user, sessionId, instruments, out);
            case 'G':
                return replace(fields, user, sessionId, instruments, out);
            case 'q':
                return massCancel(fields, user, sessionId, instruments, out);
            case 'H':
                return orderStatus(fields, user, sessionId, out);
            case ORDER_MASS_STATUS_REQUEST:
                return massStatus(fields, user, sessionId, instruments, out);
            default:
                return fail(RejectReason.UNKNOWN_MESSAGE, "unsupported MsgType");
        }
    }

    /**
     * @return the SBE command's length after a successful translation.
     */
    public int encodedLength()
    {
        return encodedLength;
    }

    /**
     * @return a short reason text after a failed translation (a constant: no allocation).
     */
    public String text()
    {
        return text;
    }

    private RejectReason newOrder(
        final FixFields fields,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        if (!isValidId(fields, FixFields.CL_ORD_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_CL_ORD_ID);
        }
        final RejectReason accountReason = resolveAccount(fields, user);
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        final int instrumentId = instruments.instrumentId(fields.value(FixFields.SYMBOL));
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
        }
        final Side side = side(fields);
        if (side == null)
        {
            return fail(RejectReason.MALFORMED, "Side(54) must be 1 or 2");
        }
        final OrderType orderType = orderType(fields);
        if (orderType == null)
        {
            return fail(RejectReason.INVALID_ORDER_TYPE,
                "OrdType(40) must be 1 (market), 2 (limit), 3 (stop) or 4 (stop limit)");
        }
        final TimeInForce timeInForce = timeInForce(fields);
        if (timeInForce == null)
        {
            return fail(RejectReason.INVALID_ORDER_TYPE, "TimeInForce(59) must be 0, 1, 3, 4 or 6");
        }
        final long quantity = quantity(fields, FixFields.ORDER_QTY);
        if (quantity <= 0)
        {
            return fail(RejectReason.INVALID_QUANTITY, "OrderQty(38) must be a positive whole number");
        }
        final int scale = instruments.priceScale(instrumentId);
        long price = 0;
        if (orderType == OrderType.LIMIT || orderType == OrderType.STOP_LIMIT)
        {
            price = price(fields, FixFields.PRICE, scale);
            if (price <= 0)
            {
                return fail(RejectReason.INVALID_PRICE, BAD_PRICE);
            }
        }
        final RejectReason terms = readTerms(fields, orderType, timeInForce, scale);
        if (terms != RejectReason.NONE)
        {
            return terms;
        }

        newOrder.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(fields.value(FixFields.CL_ORD_ID))
            .instrumentId(instrumentId)
            .side(side)
            .orderType(orderType)
            .timeInForce(timeInForce)
            .postOnly(isPostOnly(fields) ? BooleanType.TRUE : BooleanType.FALSE)
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice)
            .displayQuantity(displayQuantity)
            .minQuantity(minQuantity)
            .expireTimeNs(expireTimeNs);
        encodedLength = HEADER_LENGTH + newOrder.encodedLength();
        return RejectReason.NONE;
    }

    /**
     * The terms of version 2: StopPx for OrdType 3 and 4 only (and required there); MaxFloor or DisplayQty (the same
     * if both); MinQty; ExpireTime or ExpireDate for TimeInForce 6 only (and one of them required there). Sets
     * {@link #stopPrice}, {@link #displayQuantity}, {@link #minQuantity} and {@link #expireTimeNs}.
     */
    private RejectReason readTerms(
        final FixFields fields, final OrderType orderType, final TimeInForce timeInForce, final int scale)
    {
        stopPrice = 0;
        displayQuantity = 0;
        minQuantity = 0;
        expireTimeNs = 0;
        final RejectReason stop = readStopPrice(fields, orderType, scale);
        if (stop != RejectReason.NONE)
        {
            return stop;
        }
        final boolean maxFloor = fields.has(FixFields.MAX_FLOOR);
        final boolean displayQty = fields.has(FixFields.DISPLAY_QTY);
        if (maxFloor || displayQty)
        {
            displayQuantity = quantity(fields, maxFloor ? FixFields.MAX_FLOOR : FixFields.DISPLAY_QTY);
            if (displayQuantity <= 0 ||
                (maxFloor && displayQty && quantity(fields, FixFields.DISPLAY_QTY) != displayQuantity))
            {
                return fail(RejectReason.INVALID_DISPLAY_QUANTITY,
                    "MaxFloor(111) / DisplayQty(1138) must be a positive whole number, the same in both");
            }
        }
        if (fields.has(FixFields.MIN_QTY))
        {
            minQuantity = quantity(fields, FixFields.MIN_QTY);
            if (minQuantity <= 0)
            {
                return fail(RejectReason.INVALID_MIN_QUANTITY, "MinQty(110) must be a positive whole number");
            }
        }
        final boolean time = fields.has(FixFields.EXPIRE_TIME);
        final boolean date = fields.has(FixFields.EXPIRE_DATE);
        if (timeInForce != TimeInForce.GTD)
        {
            return time || date ? fail(RejectReason.INVALID_EXPIRE_TIME,
                "ExpireTime(126) and ExpireDate(432) only with TimeInForce(59)=6") : RejectReason.NONE;
        }
        if (time == date)
        {
            return fail(RejectReason.INVALID_EXPIRE_TIME,
                "TimeInForce(59)=6 needs one of ExpireTime(126) and ExpireDate(432)");
        }
        expireTimeNs = time ? expireTime(fields) : expireDate(fields);
        if (expireTimeNs <= 0)
        {
            return fail(RejectReason.INVALID_EXPIRE_TIME, time ?
                "ExpireTime(126) must be a UTCTimestamp YYYYMMDD-HH:MM:SS[.sss]" :
                "ExpireDate(432) must be a date YYYYMMDD");
        }
        return RejectReason.NONE;
    }

    private RejectReason readStopPrice(final FixFields fields, final OrderType orderType, final int scale)
    {
        final boolean stopType = orderType == OrderType.STOP || orderType == OrderType.STOP_LIMIT;
        if (!fields.has(FixFields.STOP_PX))
        {
            return stopType ? fail(RejectReason.INVALID_STOP_PRICE, "StopPx(99) is required with OrdType(40) 3 or 4") :
                RejectReason.NONE;
        }
        if (!stopType)
        {
            return fail(RejectReason.INVALID_STOP_PRICE, "StopPx(99) only with OrdType(40) 3 or 4");
        }
        stopPrice = price(fields, FixFields.STOP_PX, scale);
        return stopPrice > 0 ? RejectReason.NONE :
            fail(RejectReason.INVALID_STOP_PRICE, "StopPx(99) not positive or finer than the tick scale");
    }

    private long expireTime(final FixFields fields)
    {
        final int length = fields.length(FixFields.EXPIRE_TIME);
        if (length != UtcTimestampDecoder.LENGTH_WITHOUT_MILLISECONDS &&
            length != UtcTimestampDecoder.LENGTH_WITH_MILLISECONDS &&
            length != UtcTimestampDecoder.LENGTH_WITH_MICROSECONDS &&
            length != UtcTimestampDecoder.LENGTH_WITH_NANOSECONDS)
        {
            return -1;
        }
        try
        {
            ascii.wrap(fields.buffer());
            return UtcTimestampDecoder.decodeNanos(ascii, fields.offset(FixFields.EXPIRE_TIME), length, true);
        }
        catch (final RuntimeException ex)
        {
            return -1;
        }
    }

    /** The end of an ExpireDate's day in UTC (the engine has no market time zone): the next midnight. */
    private static long expireDate(final FixFields fields)
    {
        if (fields.length(FixFields.EXPIRE_DATE) != 8)
        {
            return -1;
        }
        final long digits = fields.longValue(FixFields.EXPIRE_DATE);
        if (digits < 0)
        {
            return -1;
        }
        final int year = (int)(digits / 10_000);
        final int month = (int)(digits / 100 % 100);
        final int day = (int)(digits % 100);
        if (year < 1970 || year > 2261 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
        {
            return -1;
        }
        return (daysFromEpoch(year, month, day) + 1) * NANOS_PER_DAY;
    }

    private static int daysInMonth(final int year, final int month)
    {
        if (month == 2)
        {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil), without allocation. */
    private static long daysFromEpoch(final int year, final int month, final int day)
    {
        final int y = month <= 2 ? year - 1 : year;
        final int era = y / 400;
        final int yearOfEra = y - era * 400;
        final int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        final int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097L + dayOfEra - 719_468;
    }

    private RejectReason cancel(
        final FixFields fields,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        final RejectReason common = checkAmend(fields, user);
        if (common != RejectReason.NONE)
        {
            return common;
        }
        final int instrumentId = instruments.instrumentId(fields.value(FixFields.SYMBOL));
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
        }
        cancelOrder.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(fields.value(FixFields.CL_ORD_ID))
            .origClientOrderId(fields.value(FixFields.ORIG_CL_ORD_ID))
            .orderId(orderId(fields))
            .instrumentId(instrumentId);
        encodedLength = HEADER_LENGTH + cancelOrder.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason replace(
        final FixFields fields,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        final RejectReason common = checkAmend(fields, user);
        if (common != RejectReason.NONE)
        {
            return common;
        }
        final int instrumentId = instruments.instrumentId(fields.value(FixFields.SYMBOL));
        if (instrumentId == InstrumentDirectory.UNKNOWN)
        {
            return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
        }
        final long quantity = quantity(fields, FixFields.ORDER_QTY);
        if (quantity <= 0)
        {
            return fail(RejectReason.INVALID_QUANTITY, "OrderQty(38) must be a positive whole number");
        }
        final int scale = instruments.priceScale(instrumentId);
        final OrderType orderType = fields.has(FixFields.ORD_TYPE) ? orderType(fields) : OrderType.LIMIT;
        if (orderType == null)
        {
            return fail(RejectReason.INVALID_ORDER_TYPE,
                "OrdType(40) must be 1 (market), 2 (limit), 3 (stop) or 4 (stop limit)");
        }
        final boolean priced = orderType == OrderType.LIMIT || orderType == OrderType.STOP_LIMIT;
        final long price = priced || fields.has(FixFields.PRICE) ? price(fields, FixFields.PRICE, scale) : 0;
        if (price < 0 || (priced && price == 0))
        {
            return fail(RejectReason.INVALID_PRICE, BAD_PRICE);
        }
        stopPrice = 0;
        if (fields.has(FixFields.STOP_PX))
        {
            final RejectReason stop = readStopPrice(fields, orderType, scale);
            if (stop != RejectReason.NONE)
            {
                return stop;
            }
        }
        replaceOrder.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientOrderId(fields.value(FixFields.CL_ORD_ID))
            .origClientOrderId(fields.value(FixFields.ORIG_CL_ORD_ID))
            .orderId(orderId(fields))
            .instrumentId(instrumentId)
            .price(price)
            .quantity(quantity)
            .stopPrice(stopPrice);
        encodedLength = HEADER_LENGTH + replaceOrder.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason massCancel(
        final FixFields fields,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        if (!isValidId(fields, FixFields.CL_ORD_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_CL_ORD_ID);
        }
        final RejectReason accountReason = resolveAccount(fields, user);
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        final MassCancelScope scope;
        int instrumentId = 0;
        final char type = fields.isSingleChar(FixFields.MASS_CANCEL_REQUEST_TYPE) ?
            fields.firstChar(FixFields.MASS_CANCEL_REQUEST_TYPE) : 0;
        switch (type)
        {
            case '7':
                scope = MassCancelScope.ACCOUNT;
                break;
            case '1':
                scope = MassCancelScope.INSTRUMENT;
                instrumentId = instruments.instrumentId(fields.value(FixFields.SYMBOL));
                if (instrumentId == InstrumentDirectory.UNKNOWN)
                {
                    return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
                }
                break;
            default:
                return fail(RejectReason.INVALID_ARGUMENT, "MassCancelRequestType(530) must be 1 or 7");
        }
        massCancel.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientRequestId(fields.value(FixFields.CL_ORD_ID))
            .scope(scope)
            .instrumentId(instrumentId)
            .cancelOnDisconnect(BooleanType.FALSE);
        encodedLength = HEADER_LENGTH + massCancel.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason orderStatus(
        final FixFields fields, final User user, final long sessionId, final MutableDirectBuffer out)
    {
        if (!isValidId(fields, FixFields.CL_ORD_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_CL_ORD_ID);
        }
        if (fields.has(FixFields.ORD_STATUS_REQ_ID) && !isValidId(fields, FixFields.ORD_STATUS_REQ_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_ORD_STATUS_REQ_ID);
        }
        final RejectReason accountReason = resolveAccount(fields, user);
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        orderStatus.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .statusRequestId(fields.has(FixFields.ORD_STATUS_REQ_ID) ? fields.value(FixFields.ORD_STATUS_REQ_ID) : "")
            .orderId(orderId(fields))
            .clientOrderId(fields.value(FixFields.CL_ORD_ID));
        encodedLength = HEADER_LENGTH + orderStatus.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason massStatus(
        final FixFields fields,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        if (!isValidId(fields, FixFields.MASS_STATUS_REQ_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_MASS_STATUS_REQ_ID);
        }
        final RejectReason accountReason = resolveAccount(fields, user);
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        final boolean accountNamed = fields.has(FixFields.ACCOUNT);
        final MassStatusScope scope;
        int instrumentId = 0;
        long account = accountNamed ? accountId : 0;
        final char type = fields.isSingleChar(FixFields.MASS_STATUS_REQ_TYPE) ?
            fields.firstChar(FixFields.MASS_STATUS_REQ_TYPE) : 0;
        switch (type)
        {
            case '1':
                scope = MassStatusScope.INSTRUMENT;
                instrumentId = instruments.instrumentId(fields.value(FixFields.SYMBOL));
                if (instrumentId == InstrumentDirectory.UNKNOWN)
                {
                    return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
                }
                break;
            case '7':
                scope = MassStatusScope.ACCOUNTS;
                account = 0;
                break;
            case '8':
                scope = MassStatusScope.ACCOUNTS;
                account = accountId;
                break;
            default:
                return fail(RejectReason.INVALID_ARGUMENT, "MassStatusReqType(585) must be 1, 7 or 8");
        }
        massStatus.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(account)
            .statusRequestId(fields.value(FixFields.MASS_STATUS_REQ_ID))
            .scope(scope)
            .instrumentId(instrumentId);
        encodedLength = statusRequests.writeAccounts(user, account, out);
        return RejectReason.NONE;
    }

    private RejectReason checkAmend(final FixFields fields, final User user)
    {
        if (!isValidId(fields, FixFields.CL_ORD_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_CL_ORD_ID);
        }
        if (!isValidId(fields, FixFields.ORIG_CL_ORD_ID))
        {
            return fail(RejectReason.MALFORMED, BAD_ORIG_CL_ORD_ID);
        }
        return resolveAccount(fields, user);
    }

    private RejectReason resolveAccount(final FixFields fields, final User user)
    {
        if (!fields.has(FixFields.ACCOUNT))
        {
            accountId = user.defaultAccount();
            return RejectReason.NONE;
        }
        final long account = fields.longValue(FixFields.ACCOUNT);
        if (account < 0)
        {
            return fail(RejectReason.UNKNOWN_ACCOUNT, "Account(1) must be a numeric account id");
        }
        if (!user.mayTrade(account))
        {
            return fail(RejectReason.NOT_AUTHORISED, "Account(1) is not one of this user's accounts");
        }
        accountId = account;
        return RejectReason.NONE;
    }

    private static boolean isValidId(final FixFields fields, final int tag)
    {
        return fields.has(tag) && ClientOrderIds.isValid(fields.value(tag));
    }

    private static long orderId(final FixFields fields)
    {
        final long orderId = fields.longValue(FixFields.ORDER_ID);
        return orderId < 0 ? 0 : orderId;
    }

    private static Side side(final FixFields fields)
    {
        if (!fields.isSingleChar(FixFields.SIDE))
        {
            return null;
        }
        switch (fields.firstChar(FixFields.SIDE))
        {
            case '1':
                return Side.BUY;
            case '2':
                return Side.SELL;
            default:
                return null;
        }
    }

    private static OrderType orderType(final FixFields fields)
    {
        if (!fields.isSingleChar(FixFields.ORD_TYPE))
        {
            return null;
        }
        switch (fields.firstChar(FixFields.ORD_TYPE))
        {
            case '1':
                return OrderType.MARKET;
            case '2':
                return OrderType.LIMIT;
            case '3':
                return OrderType.STOP;
            case '4':
                return OrderType.STOP_LIMIT;
            default:
                return null;
        }
    }

    private static TimeInForce timeInForce(final FixFields fields)
    {
        if (!fields.has(FixFields.TIME_IN_FORCE))
        {
            return TimeInForce.DAY;
        }
        if (!fields.isSingleChar(FixFields.TIME_IN_FORCE))
        {
            return null;
        }
        switch (fields.firstChar(FixFields.TIME_IN_FORCE))
        {
            case '0':
                return TimeInForce.DAY;
            case '1':
                return TimeInForce.GTC;
            case '3':
                return TimeInForce.IOC;
            case '4':
                return TimeInForce.FOK;
            case '6':
                return TimeInForce.GTD;
            default:
                return null;
        }
    }

    private static boolean isPostOnly(final FixFields fields)
    {
        final CharSequence execInst = fields.value(FixFields.EXEC_INST);
        for (int i = 0; i < execInst.length(); i++)
        {
            if (execInst.charAt(i) == '6')
            {
                return true;
            }
        }
        return false;
    }

    private static long quantity(final FixFields fields, final int tag)
    {
        if (!fields.has(tag) || fields.firstChar(tag) == '+')
        {
            return -1;
        }
        final long quantity = FixedPoint.parse(fields.value(tag), 0);
        return quantity == FixedPoint.INVALID ? -1 : quantity;
    }

    private static long price(final FixFields fields, final int tag, final int priceScale)
    {
        if (!fields.has(tag) || priceScale < 0 || fields.firstChar(tag) == '+')
        {
            return -1;
        }
        final long price = FixedPoint.parse(fields.value(tag), priceScale);
        return price == FixedPoint.INVALID ? -1 : price;
    }

    private RejectReason fail(final RejectReason reason, final String text)
    {
        this.text = text;
        return reason;
    }
}
