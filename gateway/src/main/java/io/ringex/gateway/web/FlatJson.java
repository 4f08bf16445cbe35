package io.ringex.gateway.web;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON the web front end reads and writes: a request body is one flat object whose values are strings, numbers,
 * {@code true}, {@code false} or {@code null}; a number is kept as its text (so {@code 0.1} stays exactly 0.1); a
 * repeated name, a nested object or array, trailing text or anything outside RFC 8259 is refused with the reason and
 * the offset. Writing escapes what RFC 8259 requires.
 * <p>
 * Thread safety: stateless.
 */
public final class FlatJson
{
    /** A number, as its text. */
    public record Number(String text)
    {
    }

    /** Thrown on a body that is not a flat JSON object. */
    public static final class MalformedException extends Exception
    {
        private static final long serialVersionUID = 1L;

        MalformedException(final String message, final int at)
        {
            super(message + " at offset " + at, null, false, false);
        }
    }

    private final String text;
    private int at;

    private FlatJson(final String text)
    {
        this.text = text;
    }

    /**
     * @param text the body.
     * @return its members, in order: String, {@link Number}, Boolean or null values.
     * @throws MalformedException when it is not one flat JSON object.
     */
    public static Map<String, Object> parseObject(final String text) throws MalformedException
    {
        final FlatJson parser = new FlatJson(text);
        final Map<String, Object> members = parser.object();
        parser.whitespace();
        if (parser.at != text.length())
        {
            throw new MalformedException("text after the object", parser.at);
        }
        return members;
    }

    private Map<String, Object> object() throws MalformedException
    {
        final Map<String, Object> members = new LinkedHashMap<>();
        whitespace();
        expect('{');
        whitespace();
        if (peek() == '}')
        {
            at++;
            return members;
        }
        while (true)
        {
            whitespace();
            final int nameAt = at;
            final String name = string();
            whitespace();
            expect(':');
            whitespace();
            final Object value = value();
            if (members.containsKey(name))
            {
                throw new MalformedException("repeated member \"" + name + "\"", nameAt);
            }
            members.put(name, value);
            whitespace();
            final char c = next();
            if (c == '}')
            {
                return members;
            }
            if (c != ',')
            {
                throw new MalformedException("expected , or }", at - 1);
            }
        }
    }

    private Object value() throws MalformedException
    {
        final char c = peek();
        switch (c)
        {
            case '"':
                return string();
            case '{':
            case '[':
                throw new MalformedException("nested objects and arrays are not accepted", at);
            case 't':
                literal("true");
                return Boolean.TRUE;
            case 'f':
                literal("false");
                return Boolean.FALSE;
            case 'n':
                literal("null");
                return null;
            default:
                return number();
        }
    }

    private Number number() throws MalformedException
    {
        final int start = at;
        if (peek() == '-')
        {
            at++;
        }
        if (peek() == '0')
        {
            at++;
        }
        else if (!digits())
        {
            throw new MalformedException("expected a value", start);
        }
        if (peek() == '.')
        {
            at++;
            if (!digits())
            {
                throw new MalformedException("expected digits after the decimal point", at);
            }
        }
        if (peek() == 'e' || peek() == 'E')
        {
            at++;
            if (peek() == '+' || peek() == '-')
            {
                at++;
            }
            if (!digits())
            {
                throw new MalformedException("expected exponent digits", at);
            }
        }
        return new Number(text.substring(start, at));
    }

    private boolean digits()
    {
        final int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9')
        {
            at++;
        }
        return at > start;
    }

    private String string() throws MalformedException
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            if (at >= text.length())
            {
                throw new MalformedException("unterminated string", at);
            }
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw new MalformedException("control character in a string", at - 1);
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char e = next();
            switch (e)
            {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' ->
                {
                    if (at + 4 > text.length())
                    {
                        throw new MalformedException("short \\u escape", at);
                    }
                    try
                    {
                        out.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw new MalformedException("bad \\u escape", at);
                    }
                    at += 4;
                }
                default -> throw new MalformedException("bad escape", at - 1);
            }
        }
    }

    private void literal(final String word) throws MalformedException
    {
        if (!text.startsWith(word, at))
        {
            throw new MalformedException("expected a value", at);
        }
        at += word.length();
    }

    private void expect(final char c) throws MalformedException
    {
        if (next() != c)
        {
            throw new MalformedException("expected " + c, at - 1);
        }
    }

    private char next() throws MalformedException
    {
        if (at >= text.length())
        {
            throw new MalformedException("unexpected end", at);
        }
        return text.charAt(at++);
    }

    private char peek()
    {
        return at < text.length() ? text.charAt(at) : 0;
    }

    private void whitespace()
    {
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
                return;
            }
            at++;
        }
    }

    /**
     * Append a JSON string.
     *
     * @param out   where.
     * @param value the text.
     * @return out.
     */
    public static StringBuilder quote(final StringBuilder out, final CharSequence value)
    {
        out.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c == '"' || c == '\\')
            {
                out.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                out.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                out.append(c);
            }
        }
        return out.append('"');
    }
}
