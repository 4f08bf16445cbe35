package io.ringex.risk.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringex.risk.web.XsrfToken.xsrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * Every endpoint the service maps, found at test time from every {@link RequestMappingInfoHandlerMapping} (the
 * controllers, springdoc's and the actuator's), against a table of who may call it. An endpoint missing from the
 * table fails the test: whoever adds one must decide its role here. Each is then probed, per method, as anonymous,
 * viewer, risk officer (without and with the CSRF token) and admin:
 * <ul>
 *     <li>anonymous: 401 on the machine endpoints (a redirect to the login form on pages), for every method;</li>
 *     <li>viewer: reads allowed (any answer but 401/403); every state-changing call 403;</li>
 *     <li>officer: a state-changing call without the CSRF token 403; with it, allowed on officer endpoints, 403 on
 *     admin ones;</li>
 *     <li>admin: everything allowed;</li>
 *     <li>the state-changing methods an endpoint does not map get done for no one: 401 for anonymous, 403 (deny by
 *     default) or 405 for an admin.</li>
 * </ul>
 * "Allowed" means the call got past security: 2xx, 400 for an empty body, 404, 409, or 503 with no engine.
 */
@RiskServiceOnAPort
class RiskEndpointAuthorizationMatrixTest
{
    /** Who may call an endpoint. */
    enum Access
    {
        /** Anyone, logged in or not. */
        PUBLIC,
        /** A page: anonymous browsers are sent to the login form; any role may see it. */
        PAGE,
        /** Any role (VIEWER and up). */
        VIEWER,
        /** RISK_OFFICER and ADMIN. */
        OFFICER,
        /** ADMIN only. */
        ADMIN
    }

    /** "METHOD pattern" to who may call it. Add a row for every new endpoint, having decided its role. */
    private static final Map<String, Access> EXPECTED = new TreeMap<>(Map.ofEntries(
        Map.entry("GET /api/accounts", Access.VIEWER),
        Map.entry("GET /api/accounts/{id}", Access.VIEWER),
        Map.entry("GET /api/accounts/{id}/limits", Access.VIEWER),
        Map.entry("GET /api/accounts/{id}/protection", Access.VIEWER),
        Map.entry("GET /api/protection", Access.VIEWER),
        Map.entry("GET /login", Access.PUBLIC),
        Map.entry("GET /api/instruments", Access.VIEWER),
        Map.entry("GET /api/instruments/{id}", Access.VIEWER),
        Map.entry("GET /api/engine", Access.VIEWER),
        Map.entry("GET /api/me", Access.VIEWER),
        Map.entry("GET /api/audit", Access.VIEWER),
        Map.entry("GET /api/stream", Access.VIEWER),
        Map.entry("GET /api/actions", Access.VIEWER),
        Map.entry("GET /api/actions/{requestId}", Access.VIEWER),
        Map.entry("POST /api/actions/limits", Access.OFFICER),
        Map.entry("POST /api/actions/kill-switch", Access.OFFICER),
        Map.entry("POST /api/actions/trading-status", Access.OFFICER),
        Map.entry("POST /api/actions/snapshot", Access.OFFICER),
        Map.entry("POST /api/actions/unlock-logons", Access.ADMIN),
        Map.entry("GET /api/users", Access.VIEWER),
        Map.entry("GET /api/admin-log", Access.VIEWER),
        Map.entry("POST /api/admin/instruments/add", Access.ADMIN),
        Map.entry("POST /api/admin/instruments/amend", Access.ADMIN),
        Map.entry("POST /api/admin/instruments/delist", Access.ADMIN),
        Map.entry("POST /api/admin/accounts/open", Access.ADMIN),
        Map.entry("POST /api/admin/accounts/status", Access.ADMIN),
        Map.entry("POST /api/admin/accounts/deposit", Access.ADMIN),
        Map.entry("POST /api/admin/accounts/withdraw", Access.ADMIN),
        Map.entry("POST /api/admin/users/create", Access.ADMIN),
        Map.entry("POST /api/admin/users/password", Access.ADMIN),
        Map.entry("POST /api/admin/users/enabled", Access.ADMIN),
        Map.entry("POST /api/admin/users/accounts", Access.ADMIN),
        Map.entry("GET /api/security/locks", Access.ADMIN),
        Map.entry("POST /api/security/unlock", Access.ADMIN),
        Map.entry("GET /api/security/api-keys", Access.ADMIN),
        Map.entry("POST /api/security/api-keys/create", Access.ADMIN),
        Map.entry("POST /api/security/api-keys/revoke", Access.ADMIN),
        Map.entry("GET /v3/api-docs", Access.VIEWER),
        Map.entry("GET /v3/api-docs.yaml", Access.VIEWER),
        Map.entry("GET /v3/api-docs/swagger-config", Access.VIEWER),
        Map.entry("GET /swagger-ui.html", Access.PAGE),
        Map.entry("GET /error", Access.PUBLIC),
        Map.entry("GET /actuator", Access.VIEWER),
        Map.entry("GET /actuator/health", Access.PUBLIC),
        Map.entry("GET /actuator/health/**", Access.PUBLIC),
        Map.entry("GET /actuator/info", Access.VIEWER),
        Map.entry("GET /actuator/prometheus", Access.VIEWER)));

    private static final List<HttpMethod> STATE_CHANGING =
        List.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

    private static final RequestPostProcessor VIEWER = user("matrix-viewer").roles("VIEWER");
    private static final RequestPostProcessor OFFICER = user("matrix-officer").roles("RISK_OFFICER");
    private static final RequestPostProcessor ADMIN = user("matrix-admin").roles("ADMIN");

    @Autowired
    private MockMvc mvc;

    @Autowired
    private ApplicationContext context;

    @Test
    void everyEndpointIsInTheTableAndAnswersEveryCallerAsItSays() throws Exception
    {
        final Map<String, Set<String>> mapped = mappedEndpoints();
        final Set<String> missing = new TreeSet<>(mapped.keySet());
        missing.removeAll(EXPECTED.keySet());
        assertTrue(missing.isEmpty(), "endpoints with no role decided: add them to EXPECTED with their role: " +
            missing);
        final Set<String> stale = new TreeSet<>(EXPECTED.keySet());
        stale.removeAll(mapped.keySet());
        assertTrue(stale.isEmpty(), "EXPECTED names endpoints that are no longer mapped: " + stale);

        final List<String> wrong = new ArrayList<>();
        for (final Map.Entry<String, Access> row : EXPECTED.entrySet())
        {
            final HttpMethod method = HttpMethod.valueOf(row.getKey().substring(0, row.getKey().indexOf(' ')));
            final String pattern = row.getKey().substring(row.getKey().indexOf(' ') + 1);
            final String path = examplePath(pattern);
            probe(wrong, row.getKey(), method, path, row.getValue());
            for (final HttpMethod other : STATE_CHANGING)
            {
                if (!mapped.get(row.getKey()).contains(other.name()) && !mapped.containsKey(other.name() + " " +
                    pattern) && row.getValue() != Access.PUBLIC)
                {
                    // not mapped: anonymous is told to log in; nobody, whatever the role, gets it done (403 from
                    // security's deny-by-default, or 405 where a role's rule covers the path)
                    final MockHttpServletResponse anonymous = call(other, path, null, true);
                    final boolean page = row.getValue() == Access.PAGE;
                    if (page ? anonymous.getStatus() != 302 : anonymous.getStatus() != 401)
                    {
                        wrong.add(other + " " + path + " anonymous: " + anonymous.getStatus());
                    }
                    final int admin = call(other, path, ADMIN, true).getStatus();
                    if (admin != 403 && admin != 405)
                    {
                        wrong.add(other + " " + path + " admin: " + admin + ", expected 403 or 405");
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "endpoints answering callers against the table");
    }

    private void probe(
        final List<String> wrong,
        final String key,
        final HttpMethod method,
        final String path,
        final Access access) throws Exception
    {
        final boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
        final boolean machine = path.startsWith("/api/") || path.startsWith("/v3/") || path.startsWith("/actuator");

        final int anonymous = call(method, path, null, true).getStatus();
        if (access == Access.PUBLIC)
        {
            allowed(wrong, key + " anonymous", anonymous);
        }
        else if (machine)
        {
            expect(wrong, key + " anonymous", anonymous, 401);
        }
        else
        {
            final MockHttpServletResponse page = call(method, path, null, true);
            if (page.getStatus() != 302 || !"/login".equals(page.getRedirectedUrl()))
            {
                wrong.add(key + " anonymous: " + page.getStatus() + " to " + page.getRedirectedUrl() +
                    ", expected a redirect to /login");
            }
        }
        if (!read)
        {
            expect(wrong, key + " anonymous without token", call(method, path, null, false).getStatus(), 401);
        }

        final int viewer = call(method, path, VIEWER, true).getStatus();
        if (read && (access == Access.VIEWER || access == Access.PAGE || access == Access.PUBLIC))
        {
            allowed(wrong, key + " viewer", viewer);
        }
        else if (access != Access.PUBLIC)
        {
            expect(wrong, key + " viewer", viewer, 403);
        }

        if (!read)
        {
            expect(wrong, key + " officer without token", call(method, path, OFFICER, false).getStatus(), 403);
        }
        final int officer = call(method, path, OFFICER, true).getStatus();
        if (access == Access.ADMIN)
        {
            expect(wrong, key + " officer", officer, 403);
        }
        else
        {
            allowed(wrong, key + " officer", officer);
        }
        allowed(wrong, key + " admin", call(method, path, ADMIN, true).getStatus());
    }

    private MockHttpServletResponse call(
        final HttpMethod method,
        final String path,
        final RequestPostProcessor who,
        final boolean withToken) throws Exception
    {
        final MockHttpServletRequestBuilder request = request(method, path).accept(MediaType.APPLICATION_JSON);
        if (method != HttpMethod.GET && method != HttpMethod.HEAD)
        {
            request.contentType(MediaType.APPLICATION_JSON).content("{}");
        }
        if (who != null)
        {
            request.with(who);
        }
        if (withToken)
        {
            request.with(xsrf());
        }
        return mvc.perform(request).andReturn().getResponse();
    }

    private static void allowed(final List<String> wrong, final String what, final int status)
    {
        if (status == 401 || status == 403 || status == 405)
        {
            wrong.add(what + ": " + status + ", expected to get past security");
        }
    }

    private static void expect(final List<String> wrong, final String what, final int status, final int expected)
    {
        if (status != expected)
        {
            wrong.add(what + ": " + status + ", expected " + expected);
        }
    }

    /** @return "METHOD pattern" of every mapping, to the methods mapped at its pattern. */
    private Map<String, Set<String>> mappedEndpoints()
    {
        final Map<String, Set<String>> byPattern = new TreeMap<>();
        for (final RequestMappingInfoHandlerMapping mapping :
            context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values())
        {
            for (final RequestMappingInfo info : mapping.getHandlerMethods().keySet())
            {
                final Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                for (final String pattern : info.getPatternValues())
                {
                    final Set<String> names = byPattern.computeIfAbsent(pattern, p -> new TreeSet<>());
                    if (methods.isEmpty())
                    {
                        // no method condition: every method reaches the handler; GET stands for the row
                        names.add("GET");
                    }
                    for (final RequestMethod m : methods)
                    {
                        names.add(m.name());
                    }
                }
            }
        }
        final Map<String, Set<String>> keys = new TreeMap<>();
        for (final Map.Entry<String, Set<String>> e : byPattern.entrySet())
        {
            for (final String method : e.getValue())
            {
                keys.put(method + " " + e.getKey(), e.getValue());
            }
        }
        return keys;
    }

    private static String examplePath(final String pattern)
    {
        return pattern.replaceAll("\\{[^}]+}", "1").replace("/**", "/liveness").replace("*", "x");
    }
}
