package io.ringex.risk.web;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * How the API reads what a URL says, as strictly as {@link HttpConfiguration#strictJson()} reads a body: an id or a
 * number in a path or a query is decimal digits with an optional minus sign and nothing else ({@link
 * StrictNumberBinding}; Spring's own conversion reads {@code 0x3EB}, {@code #3EB} and {@code +1003} as 1003 and trims
 * spaces), and a query parameter is given once ({@code ?order=1&order=2} would otherwise be read as one of the two).
 * A refusal is a 400 naming the parameter ({@link ApiErrors}).
 */
@Configuration(proxyBeanMethods = false)
public class StrictRequests implements WebMvcConfigurer
{
    private static final int MAX_DIGITS = 19;

    @Override
    public void addInterceptors(final InterceptorRegistry registry)
    {
        registry.addInterceptor(new HandlerInterceptor()
        {
            @Override
            public boolean preHandle(
                final HttpServletRequest request, final HttpServletResponse response, final Object handler)
            {
                final String repeated = repeatedParameter(request.getQueryString());
                if (null != repeated)
                {
                    throw new BadRequestException(repeated + " is given more than once");
                }
                return true;
            }
        }).addPathPatterns("/api/**");
    }

    /**
     * @param text a path segment or query value, decoded.
     * @return it as a long.
     * @throws IllegalArgumentException unless it is decimal digits (at most 19) with an optional leading minus, in
     *                                  range.
     */
    static Long decimalLong(final String text)
    {
        final int start = null != text && text.startsWith("-") ? 1 : 0;
        if (null == text || text.length() == start || text.length() - start > MAX_DIGITS)
        {
            throw new IllegalArgumentException("not a decimal integer");
        }
        for (int i = start; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                throw new IllegalArgumentException("not a decimal integer");
            }
        }
        return Long.parseLong(text);
    }

    /**
     * @param text a path segment or query value, decoded.
     * @return it as an int.
     * @throws IllegalArgumentException unless it is a decimal integer in range.
     */
    static Integer decimalInt(final String text)
    {
        final long value = decimalLong(text);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("out of range");
        }
        return (int)value;
    }

    /**
     * @param query the raw query string, or null.
     * @return the first parameter name given more than once (decoded), or null.
     */
    static String repeatedParameter(final String query)
    {
        if (null == query || query.isEmpty())
        {
            return null;
        }
        final Set<String> names = new HashSet<>();
        for (final String pair : query.split("&"))
        {
            if (pair.isEmpty())
            {
                continue;
            }
            final int equals = pair.indexOf('=');
            final String raw = equals < 0 ? pair : pair.substring(0, equals);
            String name;
            try
            {
                name = URLDecoder.decode(raw, StandardCharsets.UTF_8);
            }
            catch (final IllegalArgumentException ex)
            {
                name = raw;
            }
            if (!names.add(name))
            {
                return printable(name);
            }
        }
        return null;
    }

    /** A parameter name as an answer may quote it: printable ASCII, at most 64 characters. */
    private static String printable(final String name)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length() && out.length() < 64; i++)
        {
            final char c = name.charAt(i);
            out.append(c >= 0x20 && c < 0x7F && c != '"' ? c : '?');
        }
        return out.toString();
    }
}
