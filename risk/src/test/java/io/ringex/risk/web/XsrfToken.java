package io.ringex.risk.web;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.servlet.http.Cookie;

import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * The CSRF token the way the page sends it: the {@code XSRF-TOKEN} cookie and the same value in the
 * {@code X-XSRF-TOKEN} header. Tests that also talk to the real port use this instead of Spring Security's
 * {@code csrf()}, which swaps the shared filter chain's token repository for a session-based test one and so
 * changes what the real port answers (a session cookie, no XSRF-TOKEN cookie) for the rest of the context's life.
 */
final class XsrfToken
{
    private XsrfToken()
    {
    }

    /** @return a valid token: cookie and header agree. */
    static RequestPostProcessor xsrf()
    {
        final String token = UUID.randomUUID().toString();
        return with(token, token);
    }

    /** @return a token whose header does not match its cookie. */
    static RequestPostProcessor wrongXsrf()
    {
        return with(UUID.randomUUID().toString(), UUID.randomUUID().toString());
    }

    private static RequestPostProcessor with(final String cookie, final String header)
    {
        return request ->
        {
            final List<Cookie> cookies = new ArrayList<>();
            if (request.getCookies() != null)
            {
                cookies.addAll(List.of(request.getCookies()));
            }
            cookies.add(new Cookie("XSRF-TOKEN", cookie));
            request.setCookies(cookies.toArray(new Cookie[0]));
            request.addHeader("X-XSRF-TOKEN", header);
            return request;
        };
    }
}
