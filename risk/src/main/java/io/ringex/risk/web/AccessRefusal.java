package io.ringex.risk.web;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;

/**
 * Tells "who are you?" (401) from "you may not" (403) when a request is refused, the CSRF check included. Spring
 * Security checks the CSRF token before it looks at who is calling, so a state-changing request with neither a
 * session nor a token would be 403 there; here a caller that presented no credentials at all (no authenticated
 * session, no {@code Authorization} header) gets the {@link AuthenticationRequired} answer instead, as for a read.
 * Anyone who is logged in, or who sent credentials, and fails the CSRF check or lacks the role gets 403.
 */
final class AccessRefusal implements AccessDeniedHandler
{
    private final AuthenticationEntryPoint authenticationRequired;
    private final AccessDeniedHandler forbidden = new AccessDeniedHandlerImpl();
    private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    /**
     * @param authenticationRequired the answer to a caller without credentials.
     */
    AccessRefusal(final AuthenticationEntryPoint authenticationRequired)
    {
        this.authenticationRequired = authenticationRequired;
    }

    @Override
    public void handle(
        final HttpServletRequest request,
        final HttpServletResponse response,
        final AccessDeniedException refused) throws IOException, ServletException
    {
        final Authentication caller = contexts.getContext().getAuthentication();
        final boolean noCredentials = (caller == null || trust.isAnonymous(caller)) &&
            request.getHeader(HttpHeaders.AUTHORIZATION) == null;
        if (noCredentials)
        {
            authenticationRequired.commence(request, response,
                new InsufficientAuthenticationException("Full authentication is required", refused));
        }
        else
        {
            forbidden.handle(request, response, refused);
        }
    }
}
