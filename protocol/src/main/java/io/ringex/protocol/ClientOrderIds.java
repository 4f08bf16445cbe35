package io.ringex.protocol;

import org.agrona.DirectBuffer;

/**
 * The one rule for client-chosen identifiers (client order id, original client order id, mass cancel request id),
 * whichever protocol carries them: 1 to {@link #MAX_LENGTH} characters, each printable ASCII without space
 * ({@code 0x21..0x7E}). FIX 4.4's String type allows any byte but the SOH delimiter; SBE's char array allows any byte;
 * neither would let a client's id be echoed back safely over the other protocol, into logs or to the dashboard, so
 * both gateways refuse anything else before it reaches the engine.
 * <p>
 * In an SBE message the id is a fixed {@link #MAX_LENGTH}-byte array padded with zero bytes: the id ends at the first
 * zero byte and every byte after it must be zero too (a byte hidden behind the padding would make two ids that print
 * alike differ).
 * <p>
 * Thread safety: stateless; every method may be called from any thread. Allocates nothing.
 */
public final class ClientOrderIds
{
    /** Longest id: the SBE schema's {@code ClientOrderId} length. */
    public static final int MAX_LENGTH = 20;

    /** Lowest byte allowed in an id: '!'. */
    public static final byte FIRST_ALLOWED = 0x21;

    /** Highest byte allowed in an id: '~'. */
    public static final byte LAST_ALLOWED = 0x7E;

    /** The rule in words, for reject texts. */
    public static final String RULE = "1-20 printable ASCII characters, no space (0x21-0x7E)";

    private ClientOrderIds()
    {
    }

    /**
     * @param id text as received (FIX: the field's value).
     * @return true if it follows the rule.
     */
    public static boolean isValid(final CharSequence id)
    {
        if (id == null)
        {
            return false;
        }
        final int length = id.length();
        if (length < 1 || length > MAX_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (!isAllowed(id.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Check an SBE fixed-length id field.
     *
     * @param buffer holding the message.
     * @param offset the field's first byte.
     * @param length the field's length in bytes (the schema's, {@link #MAX_LENGTH}).
     * @return true if the field holds a valid id followed by nothing but zero padding.
     */
    public static boolean isValid(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 1 || length > MAX_LENGTH || offset < 0 || (long)offset + length > buffer.capacity())
        {
            return false;
        }
        int i = 0;
        for (; i < length; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (b == 0)
            {
                break;
            }
            if (!isAllowed((char)(b & 0xFF)))
            {
                return false;
            }
        }
        if (i == 0)
        {
            return false;
        }
        for (; i < length; i++)
        {
            if (buffer.getByte(offset + i) != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an SBE fixed-length id field carries no id: every byte zero (for ids a message may leave out). A field
     * whose first byte is zero but not the rest is neither absent nor valid.
     *
     * @param buffer holding the message.
     * @param offset the field's first byte.
     * @param length the field's length in bytes.
     * @return true if all {@code length} bytes are zero.
     */
    public static boolean isAbsent(final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param c a character.
     * @return true if an id may contain it.
     */
    public static boolean isAllowed(final char c)
    {
        return c >= FIRST_ALLOWED && c <= LAST_ALLOWED;
    }
}
