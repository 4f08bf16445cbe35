package io.ringex.gateway.fix;

import quickfix.ConfigError;
import quickfix.DataDictionary;
import quickfix.InvalidMessage;
import quickfix.Message;
import quickfix.ValidationSettings;
import uk.co.real_logic.artio.builder.Encoder;
import uk.co.real_logic.artio.util.MutableAsciiBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the gateway's FIX output must be, checked by an independent FIX implementation: an Artio encoder's bytes are
 * parsed by QuickFIX/J against its own FIX 4.4 dictionary (BodyLength, CheckSum, required fields, field formats and
 * enumerated values), and every byte is printable ASCII or the SOH delimiter.
 */
final class FixWire
{
    private static final DataDictionary FIX44 = load();
    private static final ValidationSettings SETTINGS = new ValidationSettings();

    private FixWire()
    {
    }

    private static DataDictionary load()
    {
        try
        {
            return new DataDictionary("FIX44.xml");
        }
        catch (final ConfigError ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Encode as the gateway would send it (header filled as Artio's session would).
     *
     * @param encoder a filled encoder.
     * @return the message with '|' for SOH, for reading (a '|' in a value is then ambiguous: validate the raw form).
     */
    static String encode(final Encoder encoder)
    {
        return encodeRaw(encoder).replace('\u0001', '|');
    }

    /**
     * Encode as the gateway would send it and check every byte is printable ASCII or SOH.
     *
     * @param encoder a filled encoder.
     * @return the message as sent, SOH delimited.
     */
    static String encodeRaw(final Encoder encoder)
    {
        final MutableAsciiBuffer out = new MutableAsciiBuffer(new byte[4096]);
        final var header = (io.ringex.gateway.fix.codecs.builder.HeaderEncoder)encoder.header();
        header.senderCompID("RINGEX").targetCompID("ALICE").msgSeqNum(1)
            .sendingTime("20260101-00:00:00.000".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        final long result = encoder.encode(out, 0);
        final String raw = out.getAscii(Encoder.offset(result), Encoder.length(result));
        for (int i = 0; i < raw.length(); i++)
        {
            final char c = raw.charAt(i);
            assertTrue(c == '\u0001' || (c >= ' ' && c <= '~'),
                "byte 0x" + Integer.toHexString(c) + " at " + i + " in " + raw.replace('\u0001', '|'));
        }
        return raw;
    }

    /**
     * Encode and check the result is a valid FIX 4.4 message for QuickFIX/J.
     *
     * @param encoder a filled encoder.
     * @return the parsed message.
     */
    static Message encodeAndValidate(final Encoder encoder)
    {
        return validateRaw(encodeRaw(encoder));
    }

    /**
     * @param pipeSeparated a message with '|' for SOH.
     * @return the parsed message, validated against QuickFIX/J's FIX 4.4 dictionary.
     */
    static Message validate(final String pipeSeparated)
    {
        return validateRaw(pipeSeparated.replace('|', '\u0001'));
    }

    /**
     * @param text a message, SOH delimited.
     * @return the parsed message, validated against QuickFIX/J's FIX 4.4 dictionary.
     */
    static Message validateRaw(final String text)
    {
        final String pipeSeparated = text.replace('\u0001', '|');
        final Message message = new Message();
        try
        {
            message.fromString(text, FIX44, SETTINGS, true);
            FIX44.validate(message, true, SETTINGS);
        }
        catch (final InvalidMessage | quickfix.FieldNotFound | quickfix.IncorrectTagValue |
            quickfix.IncorrectDataFormat | RuntimeException ex)
        {
            fail("not valid FIX 4.4: " + ex + " in " + pipeSeparated, ex);
        }
        assertEquals(text.length(), message.toString().length(), "re-encodes to the same length: " + pipeSeparated);
        return message;
    }

    /**
     * @param message parsed.
     * @param tag     a body field.
     * @return its value, or null if absent.
     */
    static String field(final Message message, final int tag)
    {
        try
        {
            if (message.isSetField(tag))
            {
                return message.getString(tag);
            }
            return message.getHeader().isSetField(tag) ? message.getHeader().getString(tag) : null;
        }
        catch (final quickfix.FieldNotFound ex)
        {
            return null;
        }
    }
}
