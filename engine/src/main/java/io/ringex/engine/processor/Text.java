package io.ringex.engine.processor;

import io.ringex.protocol.CommandText;

/**
 * The processor's checks of the text in admin commands: the audit fields every command carries, and the byte form of
 * {@link CommandText}'s rules (printable ASCII, bounded lengths) for paths that read no String.
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
        return CommandText.isToken(operator, MAX_OPERATOR) && CommandText.isPrintable(reason, MAX_REASON);
    }

    /**
     * The byte form of {@link CommandText#isToken} and {@link CommandText#isPrintable}, for the processor's
     * steady-state paths (no String).
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
