package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.User;
import io.ringex.protocol.ClientOrderIds;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import org.agrona.DirectBuffer;

/**
 * The checks the SBE gateway applies to each client message before it forwards anything: structure ({@link
 * MessageValidator}), kind (session and order-entry messages only), field checks (enum values read raw, client order
 * ids by {@link ClientOrderIds}, mass quote entries up to {@link MessageCatalog#MAX_QUOTE_ENTRIES}) and account
 * authority. What only the engine can judge (prices, ticks, the terms of version 2) is left to it. {@link #text()} says
 * which field a MALFORMED refusal is about.
 * <p>
 * Never throws on client bytes and never allocates. Thread safety: single-threaded (reused flyweights).
 */
public final class CommandChecker
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final String BAD_CLIENT_ORDER_ID = "clientOrderId must be " + ClientOrderIds.RULE;
    private static final String BAD_ORIG_CLIENT_ORDER_ID = "origClientOrderId must be " + ClientOrderIds.RULE;
    private static final String BAD_CLIENT_REQUEST_ID = "clientRequestId must be " + ClientOrderIds.RULE;
    private static final String NO_ORDER_NAMED = "orderId or origClientOrderId must name the order";
    private static final String BAD_STATUS_REQUEST_ID = "statusRequestId must be " + ClientOrderIds.RULE;
    private static final String NO_STATUS_ORDER_NAMED = "orderId or clientOrderId must name the order";
    private static final String BAD_ENUM = "an enum field holds a value outside the schema";
    private static final String BAD_QUOTE_ID = "quoteId must be " + ClientOrderIds.RULE;
    private static final String BAD_QUOTE_SET = "a quote entry's quoteSetId must be 1 to 65535";
    private static final String NEGATIVE_SIZE = "a quote entry's bidSize and offerSize must not be negative";
    private static final String TOO_MANY_ENTRIES =
        "a mass quote has 1 to " + MessageCatalog.MAX_QUOTE_ENTRIES + " entries";

    private final MessageValidator validator;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final NewOrderDecoder newOrderDecoder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelOrderDecoder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceOrderDecoder = new ReplaceOrderDecoder();
    private final MassCancelDecoder massCancelDecoder = new MassCancelDecoder();
    private final OrderStatusRequestDecoder statusDecoder = new OrderStatusRequestDecoder();
    private final OrderMassStatusRequestDecoder massStatusDecoder = new OrderMassStatusRequestDecoder();
    private final MassQuoteDecoder massQuoteDecoder = new MassQuoteDecoder();
    private final QuoteCancelDecoder quoteCancelDecoder = new QuoteCancelDecoder();
    private final ResetMarketMakerProtectionDecoder resetDecoder = new ResetMarketMakerProtectionDecoder();
    private String text;

    /**
     * @param maxMessageLength longest message accepted.
     */
    public CommandChecker(final int maxMessageLength)
    {
        validator = new MessageValidator(maxMessageLength);
    }

    /**
     * Structure and kind.
     *
     * @param buffer holding the message.
     * @param offset of its header.
     * @param length its length.
     * @return NONE if it is a well-formed session or order-entry message; else why not (NOT_AUTHORISED for a
     * well-formed message clients may not send).
     */
    public RejectReason validate(final DirectBuffer buffer, final int offset, final int length)
    {
        final RejectReason reason = validator.validate(buffer, offset, length);
        if (reason != RejectReason.NONE)
        {
            return reason;
        }
        final MessageCatalog.Kind kind = MessageCatalog.kind(headerDecoder.wrap(buffer, offset).templateId());
        return kind == MessageCatalog.Kind.SESSION || kind == MessageCatalog.Kind.ORDER_ENTRY ?
            RejectReason.NONE : RejectReason.NOT_AUTHORISED;
    }

    /**
     * Field and authority checks of a message {@link #validate} passed and that is order entry.
     *
     * @param user   the session's user.
     * @param buffer holding the message.
     * @param offset of its header.
     * @return NONE if it may be forwarded, else why not (DROP_COPY_SESSION for any message of a drop-copy user).
     */
    public RejectReason check(final User user, final DirectBuffer buffer, final int offset)
    {
        text = null;
        if (user.isDropCopy())
        {
            // A drop-copy or clearing user reads copies; it sends the engine nothing: no order, cancel, replace,
            // mass cancel nor status query.
            text = "a drop-copy session may not send orders or requests";
            return RejectReason.DROP_COPY_SESSION;
        }
        headerDecoder.wrap(buffer, offset);
        final int templateId = headerDecoder.templateId();
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        final int bodyOffset = offset + HEADER_LENGTH;
        final long accountId;
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
            {
                final NewOrderDecoder d = newOrderDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                // Raw values: SBE's enum getters throw on values outside the schema.
                if (!isIn(d.sideRaw(), 1, 2) || !isIn(d.orderTypeRaw(), 1, 4) || !isIn(d.timeInForceRaw(), 1, 5) ||
                    !isIn(d.postOnlyRaw(), 0, 1) || !isIn(d.selfTradePreventionRaw(), 0, 4))
                {
                    return malformed(BAD_ENUM);
                }
                if (!isValidId(buffer, bodyOffset + NewOrderDecoder.clientOrderIdEncodingOffset()))
                {
                    return malformed(BAD_CLIENT_ORDER_ID);
                }
                if (d.quantity() <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if ((d.orderTypeRaw() == OrderType.LIMIT.value() || d.orderTypeRaw() == OrderType.STOP_LIMIT.value()) &&
                    d.price() <= 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            }
            case CancelOrderDecoder.TEMPLATE_ID:
            {
                final CancelOrderDecoder d = cancelOrderDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                final RejectReason ids = checkAmendIds(buffer,
                    bodyOffset + CancelOrderDecoder.clientOrderIdEncodingOffset(),
                    bodyOffset + CancelOrderDecoder.origClientOrderIdEncodingOffset(), d.orderId());
                if (ids != RejectReason.NONE)
                {
                    return ids;
                }
                break;
            }
            case ReplaceOrderDecoder.TEMPLATE_ID:
            {
                final ReplaceOrderDecoder d = replaceOrderDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                final RejectReason ids = checkAmendIds(buffer,
                    bodyOffset + ReplaceOrderDecoder.clientOrderIdEncodingOffset(),
                    bodyOffset + ReplaceOrderDecoder.origClientOrderIdEncodingOffset(), d.orderId());
                if (ids != RejectReason.NONE)
                {
                    return ids;
                }
                if (d.quantity() <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if (d.price() < 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            }
            case MassCancelDecoder.TEMPLATE_ID:
            {
                final MassCancelDecoder d = massCancelDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                if (!isIn(d.scopeRaw(), 1, 3) || !isIn(d.cancelOnDisconnectRaw(), 0, 1))
                {
                    return malformed(BAD_ENUM);
                }
                if (!isValidId(buffer, bodyOffset + MassCancelDecoder.clientRequestIdEncodingOffset()))
                {
                    return malformed(BAD_CLIENT_REQUEST_ID);
                }
                break;
            }
            case OrderStatusRequestDecoder.TEMPLATE_ID:
            {
                final OrderStatusRequestDecoder d = statusDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                final int requestIdOffset = bodyOffset + OrderStatusRequestDecoder.statusRequestIdEncodingOffset();
                if (!ClientOrderIds.isAbsent(buffer, requestIdOffset, ClientOrderIds.MAX_LENGTH) &&
                    !isValidId(buffer, requestIdOffset))
                {
                    return malformed(BAD_STATUS_REQUEST_ID);
                }
                final int idOffset = bodyOffset + OrderStatusRequestDecoder.clientOrderIdEncodingOffset();
                if (ClientOrderIds.isAbsent(buffer, idOffset, ClientOrderIds.MAX_LENGTH) ? d.orderId() == 0 :
                    !isValidId(buffer, idOffset))
                {
                    return malformed(NO_STATUS_ORDER_NAMED);
                }
                break;
            }
            case OrderMassStatusRequestDecoder.TEMPLATE_ID:
            {
                final OrderMassStatusRequestDecoder d =
                    massStatusDecoder.wrap(buffer, bodyOffset, blockLength, version);
                if (!isIn(d.scopeRaw(), 1, 3))
                {
                    return malformed(BAD_ENUM);
                }
                if (!isValidId(buffer, bodyOffset + OrderMassStatusRequestDecoder.statusRequestIdEncodingOffset()))
                {
                    return malformed(BAD_STATUS_REQUEST_ID);
                }
                // 0 asks about every account of the user; the gateway names them to the engine.
                accountId = d.accountId() == 0 ? user.defaultAccount() : d.accountId();
                break;
            }
            case MassQuoteDecoder.TEMPLATE_ID:
            {
                final MassQuoteDecoder d = massQuoteDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                final RejectReason reason = checkMassQuote(d, buffer, bodyOffset);
                if (reason != RejectReason.NONE)
                {
                    return reason;
                }
                break;
            }
            case QuoteCancelDecoder.TEMPLATE_ID:
            {
                final QuoteCancelDecoder d = quoteCancelDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                if (!isIn(d.scopeRaw(), 1, 3))
                {
                    return malformed(BAD_ENUM);
                }
                if (!isValidId(buffer, bodyOffset + QuoteCancelDecoder.quoteIdEncodingOffset()))
                {
                    return malformed(BAD_QUOTE_ID);
                }
                break;
            }
            case ResetMarketMakerProtectionDecoder.TEMPLATE_ID:
                accountId = resetDecoder.wrap(buffer, bodyOffset, blockLength, version).accountId();
                break;
            case CancelAllAfterDecoder.TEMPLATE_ID:
                // The session's own timer: no account to check; the engine judges the timeout.
                return RejectReason.NONE;
            default:
                return RejectReason.UNKNOWN_MESSAGE;
        }
        return user.mayTrade(accountId) ? RejectReason.NONE : RejectReason.NOT_AUTHORISED;
    }

    /**
     * @return what a MALFORMED answer from {@link #check} is about, or a mass quote's refusal for its entries (a
     * constant); null for other answers.
     */
    public String text()
    {
        return text;
    }

    private RejectReason checkMassQuote(final MassQuoteDecoder d, final DirectBuffer buffer, final int bodyOffset)
    {
        if (!isIn(d.selfTradePreventionRaw(), 0, 4))
        {
            return malformed(BAD_ENUM);
        }
        if (!isValidId(buffer, bodyOffset + MassQuoteDecoder.quoteIdEncodingOffset()))
        {
            return malformed(BAD_QUOTE_ID);
        }
        final MassQuoteDecoder.EntriesDecoder entries = d.entries();
        if (entries.count() < 1 || entries.count() > MessageCatalog.MAX_QUOTE_ENTRIES)
        {
            text = TOO_MANY_ENTRIES;
            return RejectReason.TOO_MANY_QUOTE_ENTRIES;
        }
        while (entries.hasNext())
        {
            entries.next();
            if (entries.quoteSetId() == 0)
            {
                return malformed(BAD_QUOTE_SET);
            }
            if (entries.bidSize() < 0 || entries.offerSize() < 0)
            {
                text = NEGATIVE_SIZE;
                return RejectReason.INVALID_QUANTITY;
            }
        }
        return RejectReason.NONE;
    }

    private RejectReason checkAmendIds(
        final DirectBuffer buffer, final int clientOrderIdOffset, final int origClientOrderIdOffset, final long orderId)
    {
        if (!isValidId(buffer, clientOrderIdOffset))
        {
            return malformed(BAD_CLIENT_ORDER_ID);
        }
        if (ClientOrderIds.isAbsent(buffer, origClientOrderIdOffset, ClientOrderIds.MAX_LENGTH))
        {
            return orderId != 0 ? RejectReason.NONE : malformed(NO_ORDER_NAMED);
        }
        return isValidId(buffer, origClientOrderIdOffset) ? RejectReason.NONE : malformed(BAD_ORIG_CLIENT_ORDER_ID);
    }

    private RejectReason malformed(final String why)
    {
        text = why;
        return RejectReason.MALFORMED;
    }

    private static boolean isIn(final short value, final int min, final int max)
    {
        return value >= min && value <= max;
    }

    private static boolean isValidId(final DirectBuffer buffer, final int offset)
    {
        return ClientOrderIds.isValid(buffer, offset, ClientOrderIds.MAX_LENGTH);
    }
}
