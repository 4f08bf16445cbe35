package io.ringex.protocol;

/**
 * The rules for the text fields of admin and user commands, which the engine applies and every tool that writes such
 * a command checks first: a token (a user name, a CompID, an operator, a credential) is 1 to n printable ASCII
 * characters without spaces; free text (a reason) is at most n printable ASCII characters, spaces allowed. So nothing
 * a person types can forge a log line or a FIX field, and a value fits its field.
 * <p>
 * Thread safety: stateless.
 */
public final class CommandText
{
    private CommandText()
    {
    }

    /**
     * @param text      a value, may be null.
     * @param maxLength its longest allowed length.
     * @return whether it is 1 to maxLength characters of printable ASCII without spaces (0x21..0x7E).
     */
    public static boolean isToken(final String text, final int maxLength)
    {
        return null != text && !text.isEmpty() && isAscii(text, maxLength, (char)0x21);
    }

    /**
     * @param text      a value, may be null.
     * @param maxLength its longest allowed length.
     * @return whether it is at most maxLength characters of printable ASCII, spaces allowed (0x20..0x7E).
     */
    public static boolean isPrintable(final String text, final int maxLength)
    {
        return null != text && isAscii(text, maxLength, ' ');
    }

    private static boolean isAscii(final String text, final int maxLength, final char lowest)
    {
        if (text.length() > maxLength)
        {
            return false;
        }
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < lowest || c > 0x7E)
            {
                return false;
            }
        }
        return true;
    }
}
