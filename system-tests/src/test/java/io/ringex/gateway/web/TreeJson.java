package io.ringex.gateway.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough of a JSON reader for the tests to walk the OpenAPI document: objects (in order), arrays, strings,
 * numbers as text, literals.
 */
final class TreeJson
{
    private final String text;
    private int at;

    private TreeJson(final String text)
    {
        this.text = text;
    }

    static Object parse(final String text)
    {
        final TreeJson json = new TreeJson(text);
        final Object value = json.value();
        json.space();
        if (json.at != text.length())
        {
            throw new IllegalArgumentException("text after the value at " + json.at);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final Object value)
    {
        return (Map<String, Object>)value;
    }

    private Object value()
    {
        space();
        final char c = text.charAt(at);
        if (c == '{')
        {
            at++;
            final Map<String, Object> members = new LinkedHashMap<>();
            space();
            if (text.charAt(at) == '}')
            {
                at++;
                return members;
            }
            do
            {
                space();
                final String name = string();
                space();
                expect(':');
                members.put(name, value());
                space();
            }
            while (text.charAt(at++) == ',');
            check(text.charAt(at - 1) == '}');
            return members;
        }
        if (c == '[')
        {
            at++;
            final List<Object> items = new ArrayList<>();
            space();
            if (text.charAt(at) == ']')
            {
                at++;
                return items;
            }
            do
            {
                items.add(value());
                space();
            }
            while (text.charAt(at++) == ',');
            check(text.charAt(at - 1) == ']');
            return items;
        }
        if (c == '"')
        {
            return string();
        }
        final int start = at;
        while (at < text.length() && ",}] \n\r\t".indexOf(text.charAt(at)) < 0)
        {
            at++;
        }
        return text.substring(start, at);
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        char c;
        while ((c = text.charAt(at++)) != '"')
        {
            if (c == '\\')
            {
                final char e = text.charAt(at++);
                out.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
            }
            else
            {
                out.append(c);
            }
        }
        return out.toString();
    }

    private void expect(final char c)
    {
        check(text.charAt(at++) == c);
    }

    private void check(final boolean ok)
    {
        if (!ok)
        {
            throw new IllegalArgumentException("malformed JSON at " + at);
        }
    }

    private void space()
    {
        while (at < text.length() && " \n\r\t".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
    }
}
