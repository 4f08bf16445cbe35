package io.ringex.engine.processor;

/**
 * The rules for text in admin commands (names, CompIDs, credentials, operators, reasons): printable ASCII only, so
 * nothing an operator types can forge a log line or a FIX field, and bounded lengths, so a command fits its slot.
 * <p>
 * Thread safety: stateless.
 */
final class Text
{
    /** Longest operator name an admin command carries. */
    static final int MAX_OPERATOR = 32;
    /** Longest reason text an admin command carries. */
    static final int MAX_REASON = 64;

    private Text()
    {
    }

    /**
     * @param operator who issued an admin command.
     * @param reason   why (may be empty).
     * @return whether the operator is 1 to {@value #MAX_OPERATOR} printable characters without spaces and the reason
     * at most {@value #MAX_REASON} printable characters.
     */
    static boolean isAudited(final String operator, final String reason)
    {
        return isToken(operator, MAX_OPERATOR) && isPrintable(reason, MAX_REASON);
    }

    /**
     * @param text      a value.
     * @param maxLength its longest allowed length.
     * @return whether it is 1 to maxLength characters of printable ASCII without spaces (0x21..0x7E).
     */
    static boolean isToken(final String text, final int maxLength)
    {
        if (null == text || text.isEmpty() || text.length() > maxLength)
        {
            return false;
        }
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < 0x21 || c > 0x7E)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param text      a value.
     * @param maxLength its longest allowed length.
     * @return whether it is at most maxLength characters of printable ASCII, spaces allowed (0x20..0x7E).
     */
    static boolean isPrintable(final String text, final int maxLength)
    {
        if (null == text || text.length() > maxLength)
        {
            return false;
        }
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < 0x20 || c > 0x7E)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The byte form of {@link #isToken} and {@link #isPrintable}, for the processor's steady-state paths (no String).
     *
     * @param bytes     holding the value.
     * @param length    its length.
     * @param minLength 1 for a token, 0 where it may be empty.
     * @param maxLength its longest allowed length.
     * @param spaces    whether spaces are allowed.
     * @return whether it is minLength to maxLength characters of printable ASCII (spaces only if allowed).
     */
    static boolean isAscii(
        final byte[] bytes, final int length, final int minLength, final int maxLength, final boolean spaces)
    {
        if (length < minLength || length > maxLength)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            final byte b = bytes[i];
            if (b < 0x20 || b > 0x7E || (b == ' ' && !spaces))
            {
                return false;
            }
        }
        return true;
    }
}
