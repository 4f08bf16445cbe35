package io.ringex.risk.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * What a caller without valid credentials is told. The machine endpoints ({@code /api/**}, {@code /v3/api-docs/**},
 * {@code /actuator/**}) answer 401 with a JSON body, for every method, and no {@code WWW-Authenticate} challenge: a
 * browser never pops up a Basic dialog, so it never caches Basic credentials that a cross-site request could ride
 * on. Pages (the dashboard, Swagger UI) redirect to the login form, with a relative {@code Location}.
 */
final class AuthenticationRequired implements AuthenticationEntryPoint
{
    private static final byte[] BODY = ("{\"error\":\"UNAUTHORIZED\",\"message\":\"Log in: the form at /login, " +
        "or HTTP Basic\"}").getBytes(StandardCharsets.UTF_8);

    private final RequestMatcher machine = new OrRequestMatcher(
        PathPatternRequestMatcher.withDefaults().matcher("/api/**"),
        PathPatternRequestMatcher.withDefaults().matcher("/v3/api-docs/**"),
        PathPatternRequestMatcher.withDefaults().matcher("/v3/api-docs.yaml"),
        PathPatternRequestMatcher.withDefaults().matcher("/actuator/**"));
    private final LoginUrlAuthenticationEntryPoint loginForm = new LoginUrlAuthenticationEntryPoint("/login");

    @Override
    public void commence(
        final HttpServletRequest request,
        final HttpServletResponse response,
        final AuthenticationException reason) throws IOException, ServletException
    {
        if (machine.matches(request))
        {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setContentLength(BODY.length);
            response.getOutputStream().write(BODY);
        }
        else
        {
            loginForm.commence(request, response, reason);
        }
    }
}
