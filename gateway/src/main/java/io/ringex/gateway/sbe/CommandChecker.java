package io.ringex.gateway.sbe;

import io.ringex.gateway.auth.User;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import org.agrona.DirectBuffer;

/**
 * The checks the SBE gateway applies to each client message before it forwards anything: structure
 * ({@link MessageValidator}), kind (clients send session and order-entry messages only), then per-message field
 * checks (enum values inside the schema, read raw because SBE's enum getters throw on others; quantities and
 * limit prices positive, ids present) and account authority.
 * <p>
 * Never throws on client bytes and never allocates. Thread safety: single-threaded (reused flyweights).
 */
public final class CommandChecker
{
    private static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;

    private final MessageValidator validator;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final NewOrderDecoder newOrderDecoder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelOrderDecoder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceOrderDecoder = new ReplaceOrderDecoder();
    private final MassCancelDecoder massCancelDecoder = new MassCancelDecoder();

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
     * @return NONE if it may be forwarded, else why not.
     */
    public RejectReason check(final User user, final DirectBuffer buffer, final int offset)
    {
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
                if (!isIn(d.sideRaw(), 1, 2) || !isIn(d.orderTypeRaw(), 1, 2) || !isIn(d.timeInForceRaw(), 1, 4) ||
                    !isIn(d.postOnlyRaw(), 0, 1) || !isIn(d.selfTradePreventionRaw(), 0, 4) ||
                    isBlank(d.clientOrderId(0)))
                {
                    return RejectReason.MALFORMED;
                }
                if (d.quantity() <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if (d.orderTypeRaw() == OrderType.LIMIT.value() && d.price() <= 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            }
            case CancelOrderDecoder.TEMPLATE_ID:
            {
                final CancelOrderDecoder d = cancelOrderDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                if (d.orderId() == 0 && isBlank(d.origClientOrderId(0)))
                {
                    return RejectReason.MALFORMED;
                }
                break;
            }
            case ReplaceOrderDecoder.TEMPLATE_ID:
            {
                final ReplaceOrderDecoder d = replaceOrderDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                if ((d.orderId() == 0 && isBlank(d.origClientOrderId(0))) || isBlank(d.clientOrderId(0)))
                {
                    return RejectReason.MALFORMED;
                }
                if (d.quantity() <= 0)
                {
                    return RejectReason.INVALID_QUANTITY;
                }
                if (d.price() <= 0)
                {
                    return RejectReason.INVALID_PRICE;
                }
                break;
            }
            case MassCancelDecoder.TEMPLATE_ID:
            {
                final MassCancelDecoder d = massCancelDecoder.wrap(buffer, bodyOffset, blockLength, version);
                accountId = d.accountId();
                if (!isIn(d.scopeRaw(), 1, 3))
                {
                    return RejectReason.MALFORMED;
                }
                break;
            }
            default:
                return RejectReason.UNKNOWN_MESSAGE;
        }
        return user.mayTrade(accountId) ? RejectReason.NONE : RejectReason.NOT_AUTHORISED;
    }

    private static boolean isIn(final short value, final int min, final int max)
    {
        return value >= min && value <= max;
    }

    private static boolean isBlank(final byte firstChar)
    {
        return firstChar == 0 || firstChar == ' ';
    }

}
