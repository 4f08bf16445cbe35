package io.ringex.gateway.fix;

import io.ringex.gateway.fix.codecs.decoder.MassQuoteDecoder;
import io.ringex.gateway.fix.codecs.decoder.NewOrderSingleDecoder;
import io.ringex.gateway.fix.codecs.decoder.OrderCancelReplaceRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.OrderCancelRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.OrderMassCancelRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.OrderMassStatusRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.OrderStatusRequestDecoder;
import io.ringex.gateway.fix.codecs.decoder.QuoteCancelDecoder;
import org.agrona.DirectBuffer;
import uk.co.real_logic.artio.builder.Decoder;
import uk.co.real_logic.artio.fields.UtcTimestampDecoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

/**
 * Is an order-entry message valid FIX 4.4? Artio's acceptor checks the session layer but hands application messages
 * over unchecked; this applies the dictionary's rules to D, F, G, q, H, AF, i and Z with Artio's generated decoders
 * before the gateway reads them (docs/client.md, "FIX messages that are not valid FIX 4.4").
 * <p>
 * A message failing them gets a session-level Reject(3) and goes no further; a valid message Ringex does not support
 * passes here and is refused by {@link FixCommandTranslator}.
 * <p>
 * Never throws on client bytes (a decoder exception is reason 99, Other). Thread safety: single-threaded, reused.
 */
final class FixDictionaryCheck
{
    /** {@link #check} found nothing wrong. */
    static final int VALID = -1;

    /** SessionRejectReason 6. */
    static final int INCORRECT_DATA_FORMAT = 6;

    /** SessionRejectReason 13. */
    static final int TAG_APPEARS_MORE_THAN_ONCE = 13;

    /** SessionRejectReason 99. */
    static final int OTHER = 99;

    private final NewOrderSingleDecoder newOrderSingle = new NewOrderSingleDecoder();
    private final OrderCancelRequestDecoder orderCancelRequest = new OrderCancelRequestDecoder();
    private final OrderCancelReplaceRequestDecoder orderCancelReplaceRequest = new OrderCancelReplaceRequestDecoder();
    private final OrderMassCancelRequestDecoder orderMassCancelRequest = new OrderMassCancelRequestDecoder();
    private final OrderStatusRequestDecoder orderStatusRequest = new OrderStatusRequestDecoder();
    private final OrderMassStatusRequestDecoder orderMassStatusRequest = new OrderMassStatusRequestDecoder();
    private final MassQuoteDecoder massQuote = new MassQuoteDecoder();
    private final QuoteCancelDecoder quoteCancel = new QuoteCancelDecoder();
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private final StringBuilder text = new StringBuilder(96);
    private int invalidTag;

    /**
     * Check one message.
     *
     * @param buffer  holding the whole message, BeginString to CheckSum.
     * @param offset  its first byte.
     * @param length  its length.
     * @param msgType D, F, G, q, H, {@link FixCommandTranslator#ORDER_MASS_STATUS_REQUEST}, i or Z (anything else is
     *                not checked here).
     * @param fields  the same message, scanned (for TransactTime).
     * @return {@link #VALID}, or the SessionRejectReason ({@link #invalidTag()} and {@link #text()} say more).
     */
    int check(
        final DirectBuffer buffer, final int offset, final int length, final char msgType, final FixFields fields)
    {
        invalidTag = 0;
        text.setLength(0);
        final Decoder decoder;
        switch (msgType)
        {
            case 'D':
                decoder = newOrderSingle;
                break;
            case 'F':
                decoder = orderCancelRequest;
                break;
            case 'G':
                decoder = orderCancelReplaceRequest;
                break;
            case 'q':
                decoder = orderMassCancelRequest;
                break;
            case 'H':
                decoder = orderStatusRequest;
                break;
            case FixCommandTranslator.ORDER_MASS_STATUS_REQUEST:
                decoder = orderMassStatusRequest;
                break;
            case 'i':
                decoder = massQuote;
                break;
            case 'Z':
                decoder = quoteCancel;
                break;
            default:
                return VALID;
        }
        final int reason;
        try
        {
            reason = decode(decoder, buffer, offset, length);
        }
        catch (final RuntimeException ex)
        {
            // Artio's decoders throw on some malformed input (a tag that is not a number, for one).
            text.append("message does not parse as FIX: ").append(ex.getClass().getSimpleName());
            return OTHER;
        }
        finally
        {
            decoder.reset();
        }
        if (reason != VALID)
        {
            return reason;
        }
        if (fields.isWellFormed() && fields.repeatedTag() != 0 && msgType != 'i' && msgType != 'Z')
        {
            // A tag the dictionary does not define for the message (Account(1) on q, a Ringex extension) is not
            // checked for repeats by Artio. MassQuote and QuoteCancel repeat tags in their groups: Artio's own.
            invalidTag = fields.repeatedTag();
            text.append(reasonText(TAG_APPEARS_MORE_THAN_ONCE)).append(": tag ").append(invalidTag);
            return TAG_APPEARS_MORE_THAN_ONCE;
        }
        return checkTransactTime(buffer, fields);
    }

    /**
     * @return the tag the last refusal is about, 0 if none in particular.
     */
    int invalidTag()
    {
        return invalidTag;
    }

    /**
     * @return Text(58) for the last refusal.
     */
    CharSequence text()
    {
        return text;
    }

    private int decode(final Decoder decoder, final DirectBuffer buffer, final int offset, final int length)
    {
        decoder.reset();
        ascii.wrap(buffer, offset, length);
        decoder.decode(ascii, 0, length);
        if (decoder.validate())
        {
            return VALID;
        }
        final int reason = decoder.rejectReason();
        invalidTag = Math.max(0, decoder.invalidTagId());
        text.append(reasonText(reason));
        if (invalidTag > 0)
        {
            text.append(": tag ").append(invalidTag);
            if (reason == INCORRECT_DATA_FORMAT && isDecimalTag(invalidTag))
            {
                text.append(" must be a decimal of at most 18 significant digits");
            }
        }
        return reason;
    }

    private int checkTransactTime(final DirectBuffer buffer, final FixFields fields)
    {
        if (!fields.isWellFormed() || !fields.has(FixFields.TRANSACT_TIME))
        {
            return VALID; // the decoder's required-field check has the say when validation is on
        }
        final int length = fields.length(FixFields.TRANSACT_TIME);
        boolean valid = length == UtcTimestampDecoder.LENGTH_WITHOUT_MILLISECONDS ||
            length == UtcTimestampDecoder.LENGTH_WITH_MILLISECONDS ||
            length == UtcTimestampDecoder.LENGTH_WITH_MICROSECONDS ||
            length == UtcTimestampDecoder.LENGTH_WITH_NANOSECONDS;
        if (valid)
        {
            try
            {
                ascii.wrap(buffer);
                UtcTimestampDecoder.decode(ascii, fields.offset(FixFields.TRANSACT_TIME), length, true);
            }
            catch (final RuntimeException ex)
            {
                valid = false;
            }
        }
        if (valid)
        {
            return VALID;
        }
        invalidTag = FixFields.TRANSACT_TIME;
        text.append(reasonText(INCORRECT_DATA_FORMAT))
            .append(": tag 60 must be a UTCTimestamp YYYYMMDD-HH:MM:SS[.sss]");
        return INCORRECT_DATA_FORMAT;
    }

    private static boolean isDecimalTag(final int tag)
    {
        return tag == FixFields.PRICE || tag == FixFields.ORDER_QTY || tag == FixFields.STOP_PX ||
            tag == FixFields.MIN_QTY || tag == FixFields.MAX_FLOOR;
    }

    /**
     * @param reason a SessionRejectReason.
     * @return its FIX 4.4 description.
     */
    static String reasonText(final int reason)
    {
        switch (reason)
        {
            case 0:
                return "Invalid tag number";
            case 1:
                return "Required tag missing";
            case 2:
                return "Tag not defined for this message type";
            case 3:
                return "Undefined Tag";
            case 4:
                return "Tag specified without a value";
            case 5:
                return "Value is incorrect (out of range) for this tag";
            case 6:
                return "Incorrect data format for value";
            case 11:
                return "Invalid MsgType";
            case 13:
                return "Tag appears more than once";
            case 14:
                return "Tag specified out of required order";
            case 15:
                return "Repeating group fields out of order";
            case 16:
                return "Incorrect NumInGroup count for repeating group";
            case 17:
                return "Non data value includes field delimiter";
            default:
                return "Other";
        }
    }
}
