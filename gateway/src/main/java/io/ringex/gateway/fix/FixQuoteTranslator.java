package io.ringex.gateway.fix;

import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.fix.codecs.decoder.MassQuoteDecoder;
import io.ringex.gateway.fix.codecs.decoder.QuoteCancelDecoder;
import io.ringex.protocol.ClientOrderIds;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MassQuoteEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.QuoteCancelEncoder;
import io.ringex.protocol.codecs.QuoteCancelScope;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.AsciiSequenceView;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import uk.co.real_logic.artio.fields.DecimalFloat;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

/**
 * Translates a market maker's FIX 4.4 MassQuote (i) and QuoteCancel (Z) into Ringex SBE commands, or says exactly why
 * not (docs/client.md, "Market makers: mass quotes, protection, cancel-all-after"). Prices are exact at the
 * instrument's price scale, never rounded; the engine judges the rest entry by entry.
 * <p>
 * Never throws on client input (a decoder exception is MALFORMED). Thread safety: single-threaded, reused.
 */
final class FixQuoteTranslator
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int MAX_SET_ID = 65_535;
    private static final long MAX_ENTRY_ID = 0xFFFF_FFFFL;

    private final MassQuoteDecoder massQuote = new MassQuoteDecoder();
    private final QuoteCancelDecoder quoteCancel = new QuoteCancelDecoder();
    private final MassQuoteEncoder massQuoteEncoder = new MassQuoteEncoder();
    private final QuoteCancelEncoder quoteCancelEncoder = new QuoteCancelEncoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MutableAsciiBuffer ascii = new MutableAsciiBuffer();
    private final AsciiSequenceView view = new AsciiSequenceView();
    private final int[] setIds = new int[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] entryIds = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final int[] instrumentIds = new int[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] bidPrices = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] bidSizes = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] offerPrices = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private final long[] offerSizes = new long[MessageCatalog.MAX_QUOTE_ENTRIES];
    private long accountId;
    private int encodedLength;
    private String text = "";

    /**
     * Translate a MassQuote (i) or QuoteCancel (Z) that passed {@link FixDictionaryCheck}.
     *
     * @param buffer      holding the whole message.
     * @param offset      its first byte.
     * @param length      its length.
     * @param msgType     i or Z.
     * @param user        the session's user (authority over accounts).
     * @param sessionId   stamped on the command.
     * @param instruments symbols and price scales.
     * @param out         where the SBE command (header included) is written on success.
     * @return NONE on success ({@link #encodedLength()} is then set), else why not ({@link #text()} says more).
     */
    RejectReason translate(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final char msgType,
        final User user,
        final long sessionId,
        final InstrumentDirectory instruments,
        final MutableDirectBuffer out)
    {
        encodedLength = 0;
        text = "";
        ascii.wrap(buffer, offset, length);
        try
        {
            if (msgType == 'i')
            {
                massQuote.reset();
                massQuote.decode(ascii, 0, length);
                return massQuote(user, sessionId, instruments, out);
            }
            quoteCancel.reset();
            quoteCancel.decode(ascii, 0, length);
            return quoteCancel(user, sessionId, instruments, out);
        }
        catch (final RuntimeException ex)
        {
            return fail(RejectReason.MALFORMED, "message does not parse as FIX");
        }
    }

    /**
     * @return the SBE command's length after a successful translation.
     */
    int encodedLength()
    {
        return encodedLength;
    }

    /**
     * @return a short reason text after a failed translation (a constant: no allocation).
     */
    String text()
    {
        return text;
    }

    private RejectReason massQuote(
        final User user, final long sessionId, final InstrumentDirectory instruments, final MutableDirectBuffer out)
    {
        if (!ClientOrderIds.isValid(massQuote.quoteID(view)))
        {
            return fail(RejectReason.MALFORMED, "QuoteID(117) must be " + ClientOrderIds.RULE);
        }
        final RejectReason accountReason = account(user, massQuote.hasAccount(), massQuote.account(),
            massQuote.accountLength());
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        int count = 0;
        // Artio keeps the group decoders of a longer earlier message linked: iterate by the counts, never to null.
        final int sets = massQuote.noQuoteSetsGroupCounter();
        var set = massQuote.quoteSetsGroup();
        for (int s = 0; s < sets && null != set; s++, set = set.next())
        {
            final long setId = number(set.quoteSetID(), set.quoteSetIDLength());
            if (setId < 1 || setId > MAX_SET_ID)
            {
                return fail(RejectReason.MALFORMED, "QuoteSetID(302) must be 1 to 65535");
            }
            final int entries = set.noQuoteEntriesGroupCounter();
            var entry = set.quoteEntriesGroup();
            for (int e = 0; e < entries && null != entry; e++, entry = entry.next())
            {
                if (count == MessageCatalog.MAX_QUOTE_ENTRIES)
                {
                    return fail(RejectReason.TOO_MANY_QUOTE_ENTRIES, "a MassQuote has 1 to 10 QuoteEntries");
                }
                final long entryId = number(entry.quoteEntryID(), entry.quoteEntryIDLength());
                if (entryId < 0 || entryId > MAX_ENTRY_ID)
                {
                    return fail(RejectReason.MALFORMED, "QuoteEntryID(299) must be a number 0 to 4294967295");
                }
                final int known = entry.symbolLength() > 0 ?
                    instruments.instrumentId(entry.symbol(view)) : InstrumentDirectory.UNKNOWN;
                // An unknown symbol is the engine's to refuse, entry by entry (UNKNOWN_INSTRUMENT for instrument 0).
                final int instrumentId = known == InstrumentDirectory.UNKNOWN ? 0 : known;
                final int scale = known == InstrumentDirectory.UNKNOWN ? 0 : instruments.priceScale(instrumentId);
                final long bidSize = entry.hasBidSize() ? fixed(entry.bidSize(), 0) : 0;
                final long offerSize = entry.hasOfferSize() ? fixed(entry.offerSize(), 0) : 0;
                if (bidSize < 0 || offerSize < 0)
                {
                    return fail(RejectReason.INVALID_QUANTITY,
                        "BidSize(134) and OfferSize(135) must be whole numbers, not negative");
                }
                final boolean priced = known != InstrumentDirectory.UNKNOWN;
                final long bidPrice = bidSize == 0 || !priced ? 0 :
                    entry.hasBidPx() ? fixed(entry.bidPx(), scale) : -1;
                final long offerPrice = offerSize == 0 || !priced ? 0 :
                    entry.hasOfferPx() ? fixed(entry.offerPx(), scale) : -1;
                if (bidPrice < 0 || offerPrice < 0)
                {
                    return fail(RejectReason.INVALID_PRICE,
                        "BidPx(132) and OfferPx(133) must be given with a size, exact at the instrument's scale");
                }
                setIds[count] = (int)setId;
                entryIds[count] = entryId;
                instrumentIds[count] = instrumentId;
                bidPrices[count] = bidPrice;
                bidSizes[count] = bidSize;
                offerPrices[count] = offerPrice;
                offerSizes[count] = offerSize;
                count++;
            }
        }
        if (count == 0)
        {
            return fail(RejectReason.TOO_MANY_QUOTE_ENTRIES, "a MassQuote has 1 to 10 QuoteEntries");
        }

        massQuoteEncoder.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .quoteId(massQuote.quoteID(view))
            .selfTradePrevention(SelfTradePrevention.ACCOUNT_DEFAULT);
        final MassQuoteEncoder.EntriesEncoder group = massQuoteEncoder.entriesCount(count);
        for (int i = 0; i < count; i++)
        {
            group.next()
                .quoteEntryId(entryIds[i])
                .quoteSetId(setIds[i])
                .instrumentId(instrumentIds[i])
                .bidPrice(bidPrices[i])
                .bidSize(bidSizes[i])
                .offerPrice(offerPrices[i])
                .offerSize(offerSizes[i]);
        }
        encodedLength = HEADER_LENGTH + massQuoteEncoder.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason quoteCancel(
        final User user, final long sessionId, final InstrumentDirectory instruments, final MutableDirectBuffer out)
    {
        if (!ClientOrderIds.isValid(quoteCancel.quoteID(view)))
        {
            return fail(RejectReason.MALFORMED, "QuoteID(117) must be " + ClientOrderIds.RULE);
        }
        final RejectReason accountReason = account(user, quoteCancel.hasAccount(), quoteCancel.account(),
            quoteCancel.accountLength());
        if (accountReason != RejectReason.NONE)
        {
            return accountReason;
        }
        final QuoteCancelScope scope;
        int instrumentId = 0;
        switch (quoteCancel.quoteCancelType())
        {
            case 1:
            {
                final var entry = quoteCancel.quoteEntriesGroup();
                if (quoteCancel.noQuoteEntriesGroupCounter() != 1 || null == entry || entry.symbolLength() == 0)
                {
                    return fail(RejectReason.MALFORMED,
                        "QuoteCancelType(298)=1 names one Symbol(55) in one NoQuoteEntries(295) entry");
                }
                instrumentId = instruments.instrumentId(entry.symbol(view));
                if (instrumentId == InstrumentDirectory.UNKNOWN)
                {
                    return fail(RejectReason.UNKNOWN_INSTRUMENT, "unknown Symbol(55)");
                }
                scope = QuoteCancelScope.INSTRUMENT;
                break;
            }
            case 4:
                scope = QuoteCancelScope.ALL;
                break;
            default:
                return fail(RejectReason.INVALID_ARGUMENT,
                    "QuoteCancelType(298) must be 1 (for a symbol) or 4 (all quotes)");
        }
        quoteCancelEncoder.wrapAndApplyHeader(out, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .quoteId(quoteCancel.quoteID(view))
            .scope(scope)
            .instrumentId(instrumentId)
            .quoteSetId(0);
        encodedLength = HEADER_LENGTH + quoteCancelEncoder.encodedLength();
        return RejectReason.NONE;
    }

    private RejectReason account(final User user, final boolean has, final char[] chars, final int length)
    {
        if (!has)
        {
            accountId = user.defaultAccount();
            return RejectReason.NONE;
        }
        final long account = number(chars, length);
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

    /** A decimal number of up to 18 digits, or -1. */
    private static long number(final char[] chars, final int length)
    {
        if (length < 1 || length > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length; i++)
        {
            final char c = chars[i];
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** A FIX decimal at a scale, exactly and not negative, or -1. */
    private static long fixed(final DecimalFloat value, final int scale)
    {
        if (value.value() < 0 || value.scale() < 0 || value.scale() > 18)
        {
            return -1;
        }
        final long fixed = FixedPoint.rescale(value.value(), value.scale(), scale);
        return fixed == FixedPoint.INVALID ? -1 : fixed;
    }

    private RejectReason fail(final RejectReason reason, final String why)
    {
        text = why;
        return reason;
    }
}
