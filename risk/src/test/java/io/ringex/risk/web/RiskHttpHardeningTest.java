package io.ringex.risk.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringex.risk.web.XsrfToken.wrongXsrf;
import static io.ringex.risk.web.XsrfToken.xsrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * The holes a hostile probe found in the HTTP side, each closed: body size, lenient JSON numbers, missing security
 * headers, cookies without SameSite, the Host header reflected into URLs, anonymous metrics, 403 where 401 is due,
 * and HTTP Basic's rules. The whole service on a real port (Tomcat does the redirects, cookies and chunking) and
 * through MockMvc, with no engine: an action that gets through answers 503 NOT_CONNECTED.
 */
@RiskServiceOnAPort
class RiskHttpHardeningTest
{
    private static final RequestPostProcessor VIEWER = user("viewer").roles("VIEWER");
    private static final RequestPostProcessor OFFICER = user("officer").roles("RISK_OFFICER");
    private static final String KILL =
        "{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"active\":true,\"reason\":\"test\"}";
    private static final String EVIL = "evil.example";

    @Autowired
    private MockMvc mvc;

    @LocalServerPort
    private int port;

    // ------------------------------------------------------------------------------------------- request size

    @Test
    void aFiveMegabyteBodyIsRefused413AndNeverReachesTheEngine() throws Exception
    {
        // valid JSON, padded with whitespace: before the limit it was parsed and sent (503 here, with no engine)
        final String big = KILL.substring(0, KILL.length() - 1) + " ".repeat(5 * 1024 * 1024) + "}";
        mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content(big))
            .andExpect(status().is(413))
            .andExpect(jsonPath("$.error").value("PAYLOAD_TOO_LARGE"))
            .andExpect(jsonPath("$.message", containsString("16384")));
        // the same command, small, gets through to the engine's ingress
        mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isServiceUnavailable())
            .andExpect(jsonPath("$.error").value("NOT_CONNECTED"));
    }

    @Test
    void chunkedAndDeclaredBodiesOverTheLimitAre413OnTheWire() throws Exception
    {
        final List<String> officer = csrfHeaders(RawHttp.basic("officer", "officer"));

        final RawHttp.Response within = postJson(officer, padded(15_000), true);
        assertEquals(503, within.status(), "a chunked 15 KB body is read and acted on: " + within);
        assertTrue(within.body().contains("NOT_CONNECTED"), within.toString());

        final RawHttp.Response chunked = postJson(officer, padded(32 * 1024), true);
        assertEquals(413, chunked.status(), "a chunked 32 KB body: " + chunked);
        assertTrue(chunked.body().contains("PAYLOAD_TOO_LARGE"), chunked.toString());

        final RawHttp.Response declared = postJson(officer, padded(64 * 1024), false);
        assertEquals(413, declared.status(), "Content-Length 64 KB: " + declared);
    }

    // ------------------------------------------------------------------------------------------- strict JSON

    @Test
    void idsMustBeJsonIntegersAndTheAnswerNamesTheField() throws Exception
    {
        final Map<String, String> refused = new LinkedHashMap<>();
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1004.7,\"active\":true}", "accountId must be a JSON integer");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1004.0,\"active\":true}", "accountId must be a JSON integer");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1e3,\"active\":true}", "accountId must be a JSON integer");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":\"1004\",\"active\":true}",
            "accountId must be a JSON integer");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":true,\"active\":true}", "accountId must be a JSON integer");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":null,\"active\":true}",
            "accountId is missing or null; it must be a JSON integer");
        refused.put("{\"scope\":\"VENUE\",\"active\":true}", "accountId is missing or null");
        refused.put("{\"scope\":\"VENUE\",\"accountId\":0}", "active is missing or null; it must be true or false");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"active\":\"true\"}", "active must be true or false");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"active\":1}", "active must be true or false");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"acountId\":1003,\"active\":true}",
            "unknown field 'acountId'");
        refused.put("{\"scope\":\"ACCOUNT\",\"accountId\":99999999999999999999,\"active\":true}", "accountId");
        refused.put("{\"scope\":\"ACCOUNT\",", "malformed JSON");
        for (final Map.Entry<String, String> body : refused.entrySet())
        {
            mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(xsrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body.getKey()))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("BAD_REQUEST"))
                .andExpect(jsonPath("$.message", containsString(body.getValue())));
        }
        mvc.perform(post("/api/actions/trading-status").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"instrumentId\":\"1\",\"status\":\"HALTED\"}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message", containsString("instrumentId must be a JSON integer")));
        mvc.perform(post("/api/actions/trading-status").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"instrumentId\":4294967297,\"status\":\"OPEN\"}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message", containsString("instrumentId")));
        mvc.perform(post("/api/actions/limits").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"accountId\":1003,\"maxOrderQuantity\":100," +
                    "\"maxOrderNotional\":\"250000.00\",\"creditLimit\":\"500000\",\"defaultPositionLimit\":40," +
                    "\"maxOpenOrders\":50,\"allowShort\":false," +
                    "\"positionLimits\":[{\"instrumentId\":3,\"positionLimit\":2.5}]}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message", containsString("positionLimits[0].positionLimit must be a JSON integer")));
        mvc.perform(post("/api/actions/limits").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"accountId\":1003,\"maxOrderQuantity\":100," +
                    "\"maxOrderNotional\":250000.10,\"creditLimit\":\"500000\",\"defaultPositionLimit\":40," +
                    "\"maxOpenOrders\":50,\"allowShort\":false,\"positionLimits\":[]}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message", containsString("maxOrderNotional must be a JSON string")));
        // the well-formed commands are acted on; a venue-wide kill switch gives account 0 (docs/risk-api.md)
        mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isServiceUnavailable());
        mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"scope\":\"VENUE\",\"accountId\":0,\"active\":true,\"reason\":\"test\"}"))
            .andExpect(status().isServiceUnavailable());
    }

    // ------------------------------------------------------------------------------------------- headers

    @Test
    void everyAnswerCarriesAStrictContentSecurityPolicyAndTheOtherHeaders() throws Exception
    {
        final List<MvcResult> answers = new ArrayList<>();
        answers.add(mvc.perform(get("/index.html").with(VIEWER)).andExpect(status().isOk()).andReturn());
        answers.add(mvc.perform(get("/api/accounts").with(VIEWER)).andExpect(status().isOk()).andReturn());
        answers.add(mvc.perform(get("/login")).andExpect(status().isOk()).andReturn());
        answers.add(mvc.perform(get("/api/accounts")).andExpect(status().isUnauthorized()).andReturn());
        for (final MvcResult answer : answers)
        {
            final String where = answer.getRequest().getRequestURI();
            final Map<String, String> csp = directives(answer.getResponse().getHeader("Content-Security-Policy"));
            assertEquals("'self'", csp.get("default-src"), where + " " + csp);
            assertEquals("'self'", csp.get("script-src"), where + " " + csp);
            assertEquals("'self'", csp.get("style-src"), where + " " + csp);
            assertEquals("'none'", csp.get("object-src"), where + " " + csp);
            assertEquals("'none'", csp.get("base-uri"), where + " " + csp);
            assertEquals("'none'", csp.get("frame-ancestors"), where + " " + csp);
            assertEquals("'self'", csp.get("form-action"), where + " " + csp);
            assertFalse(csp.toString().contains("unsafe"), where + " " + csp);
            assertEquals("no-referrer", answer.getResponse().getHeader("Referrer-Policy"), where);
            assertEquals("nosniff", answer.getResponse().getHeader("X-Content-Type-Options"), where);
            assertEquals("DENY", answer.getResponse().getHeader("X-Frame-Options"), where);
        }
    }

    @Test
    void thePageHasNoInlineScriptOrStyleForThePolicyToBlock() throws IOException
    {
        final String html = resource("/static/index.html");
        final String js = resource("/static/js/app.js");
        assertFalse(Pattern.compile("\\sstyle\\s*=").matcher(html).find(), "style attribute in index.html");
        assertFalse(html.contains("<style"), "<style> in index.html");
        assertFalse(Pattern.compile("\\son[a-z]+\\s*=").matcher(html).find(), "inline event handler in index.html");
        final Matcher scripts = Pattern.compile("<script([^>]*)>").matcher(html);
        while (scripts.find())
        {
            assertTrue(scripts.group(1).contains("src="), "inline <script> in index.html: " + scripts.group());
        }
        assertFalse(Pattern.compile("\\sstyle\\s*=").matcher(js).find(), "style attribute in app.js's markup");
        assertFalse(js.contains("setAttribute('style'") || js.contains("<style"), "inline style from app.js");
        assertFalse(Pattern.compile("\\son[a-z]+\\s*=\\s*[\"']").matcher(js).find(), "inline handler in app.js");
        assertFalse(js.contains("eval(") || js.contains("new Function"), "eval in app.js");
    }

    // ------------------------------------------------------------------------------------------- cookies

    @Test
    void theSessionCookieIsHttpOnlyAndSameSiteStrictAndSoIsTheCsrfCookie() throws Exception
    {
        final RawHttp.Response form = RawHttp.send(port, List.of("GET /login HTTP/1.1", "Host: localhost"), null);
        final String xsrfCookie = form.setCookie("XSRF-TOKEN");
        assertNotNull(xsrfCookie, form.toString());
        assertTrue(xsrfCookie.contains("SameSite=Strict"), xsrfCookie);
        assertFalse(xsrfCookie.contains("HttpOnly"), "the page's script reads it: " + xsrfCookie);
        assertFalse(xsrfCookie.contains("Secure"), "Secure only if ringex.risk.security.cookie-secure: " + xsrfCookie);

        final RawHttp.Response login = formLogin("localhost", form.cookieValue("XSRF-TOKEN"), "viewer", "viewer");
        assertEquals(302, login.status(), login.toString());
        assertEquals("/", login.header("Location"), login.toString());
        final String session = login.setCookie("JSESSIONID");
        assertNotNull(session, login.toString());
        assertTrue(session.contains("HttpOnly"), session);
        assertTrue(session.contains("SameSite=Strict"), session);
        assertFalse(session.contains("Secure"), session);
    }

    // ------------------------------------------------------------------------------------------- Host header

    @Test
    void theHostAndForwardedHeadersNeverMakeItIntoAUrl() throws Exception
    {
        final List<String> spoofing = List.of("Host: " + EVIL + ":666", "X-Forwarded-Host: " + EVIL,
            "X-Forwarded-Proto: https", "X-Forwarded-Port: 666", "Forwarded: host=" + EVIL + ";proto=https");

        final RawHttp.Response toLogin =
            RawHttp.send(port, with("GET / HTTP/1.1", spoofing, "Accept: text/html"), null);
        assertEquals(302, toLogin.status(), toLogin.toString());
        assertEquals("/login", toLogin.header("Location"), toLogin.toString());

        final RawHttp.Response form = RawHttp.send(port, with("GET /login HTTP/1.1", spoofing), null);
        assertFalse(form.toString().contains(EVIL), form.toString());
        final RawHttp.Response login = formLogin(EVIL + ":666", form.cookieValue("XSRF-TOKEN"), "viewer", "viewer");
        assertEquals("/", login.header("Location"), login.toString());

        final List<String> viewer = with(null, spoofing, RawHttp.basic("viewer", "viewer"));
        for (final String path : List.of("/v3/api-docs", "/v3/api-docs/swagger-config", "/swagger-ui.html",
            "/swagger-ui/index.html", "/api/me"))
        {
            final RawHttp.Response answer = RawHttp.send(port, with("GET " + path + " HTTP/1.1", viewer), null);
            assertTrue(answer.status() < 400, path + ": " + answer);
            assertFalse(answer.toString().contains(EVIL), path + " reflects the Host header: " + answer);
        }
        final RawHttp.Response apiDocs = RawHttp.send(port, with("GET /v3/api-docs HTTP/1.1", viewer), null);
        assertTrue(apiDocs.body().contains("\"servers\":[{\"url\":\"" + RiskServiceOnAPort.BASE_URL + "\""),
            "the OpenAPI server is ringex.risk.http.public-base-url: " + apiDocs.body());
    }

    // ------------------------------------------------------------------------------------------- actuator

    @Test
    void metricsNeedARoleAndAnonymousHealthIsTheStatusAlone() throws Exception
    {
        mvc.perform(get("/actuator/prometheus")).andExpect(status().isUnauthorized());
        mvc.perform(get("/actuator")).andExpect(status().isUnauthorized());
        mvc.perform(get("/actuator/info")).andExpect(status().isUnauthorized());
        mvc.perform(get("/actuator/prometheus").with(VIEWER))
            .andExpect(status().isOk())
            .andExpect(content().string(containsString("ringex_engine_up")))
            .andExpect(content().string(containsString("ringex_risk_login_failures_total")));

        mvc.perform(get("/actuator/health"))
            .andExpect(status().is(503))
            .andExpect(jsonPath("$.status").value("DOWN"))
            .andExpect(jsonPath("$.components").doesNotExist())
            .andExpect(jsonPath("$.details").doesNotExist())
            .andExpect(content().string(not(containsString("/"))));
        mvc.perform(get("/actuator/health").with(VIEWER))
            .andExpect(jsonPath("$.components.engine.status").value("DOWN"));

        final RawHttp.Response scrape = RawHttp.send(port,
            List.of("GET /actuator/prometheus HTTP/1.1", "Host: localhost", RawHttp.basic("viewer", "viewer")), null);
        assertEquals(200, scrape.status(), "Prometheus scrapes with HTTP Basic: " + scrape.status());
    }

    // ------------------------------------------------------------------------------------------- 401 vs 403

    @Test
    void anonymousIs401ForEveryMethodAndAMissingTokenIs403OnlyForTheLoggedIn() throws Exception
    {
        mvc.perform(post("/api/actions/kill-switch").contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isUnauthorized())
            .andExpect(jsonPath("$.error").value("UNAUTHORIZED"));
        mvc.perform(post("/api/actions/snapshot")).andExpect(status().isUnauthorized());
        mvc.perform(post("/api/actions/snapshot").with(xsrf())).andExpect(status().isUnauthorized());
        mvc.perform(put("/api/accounts/1004")).andExpect(status().isUnauthorized());
        mvc.perform(delete("/api/actions/1")).andExpect(status().isUnauthorized());
        mvc.perform(post("/api/security/unlock").contentType(MediaType.APPLICATION_JSON).content("{}"))
            .andExpect(status().isUnauthorized());

        mvc.perform(post("/api/actions/kill-switch").with(OFFICER)
                .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isForbidden());
        mvc.perform(post("/api/actions/kill-switch").with(OFFICER).with(wrongXsrf())
                .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isForbidden());

        final RawHttp.Response anonymous = postJson(List.of(), KILL, false);
        assertEquals(401, anonymous.status(), anonymous.toString());
        assertNull(anonymous.header("WWW-Authenticate"), "no Basic challenge: browsers must not prompt");
        final RawHttp.Response basicWithoutToken = postJson(List.of(RawHttp.basic("officer", "officer")), KILL, false);
        assertEquals(403, basicWithoutToken.status(), "Basic is no way around CSRF: " + basicWithoutToken);
    }

    // ------------------------------------------------------------------------------------------- HTTP Basic

    @Test
    void httpBasicReadsWithoutASessionAndAWrongPasswordIsAPlain401() throws Exception
    {
        final RawHttp.Response me = RawHttp.send(port,
            List.of("GET /api/me HTTP/1.1", "Host: localhost", RawHttp.basic("officer", "officer")), null);
        assertEquals(200, me.status(), me.toString());
        assertTrue(me.body().contains("\"username\":\"officer\""), me.body());
        assertNull(me.setCookie("JSESSIONID"), "Basic makes no session: " + me);

        final RawHttp.Response wrong = RawHttp.send(port,
            List.of("GET /api/me HTTP/1.1", "Host: localhost", RawHttp.basic("officer", "not-the-password")), null);
        assertEquals(401, wrong.status(), wrong.toString());
        assertNull(wrong.header("WWW-Authenticate"), wrong.toString());
        final RawHttp.Response right = RawHttp.send(port,
            List.of("GET /api/me HTTP/1.1", "Host: localhost", RawHttp.basic("officer", "officer")), null);
        assertEquals(200, right.status(), "one failure is no lock: " + right);
    }

    @Test
    void theDemoAdminHoldsEveryRole() throws Exception
    {
        mvc.perform(get("/api/me").with(user("admin").roles("ADMIN")))
            .andExpect(jsonPath("$.roles[0]").value("ADMIN"))
            .andExpect(jsonPath("$.roles[1]").value("RISK_OFFICER"))
            .andExpect(jsonPath("$.roles[2]").value("VIEWER"));
        final RawHttp.Response me = RawHttp.send(port,
            List.of("GET /api/me HTTP/1.1", "Host: localhost", RawHttp.basic("admin", "admin")), null);
        assertEquals(200, me.status(), me.toString());
        assertTrue(me.body().contains("ADMIN"), me.body());
        mvc.perform(post("/api/actions/snapshot").with(user("admin").roles("ADMIN")).with(xsrf()))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().string("Retry-After", "1"));
    }

    // ------------------------------------------------------------------------------------------- helpers

    /** @return the request's other header lines, carrying a fresh CSRF token as the page's script does. */
    private List<String> csrfHeaders(final String authorization) throws IOException
    {
        final RawHttp.Response form = RawHttp.send(port, List.of("GET /login HTTP/1.1", "Host: localhost"), null);
        final String token = form.cookieValue("XSRF-TOKEN");
        assertNotNull(token, form.toString());
        return List.of(authorization, "Cookie: XSRF-TOKEN=" + token, "X-XSRF-TOKEN: " + token);
    }

    private RawHttp.Response postJson(final List<String> headers, final String json, final boolean chunked)
        throws IOException
    {
        final byte[] body = json.getBytes(StandardCharsets.UTF_8);
        final List<String> request = new ArrayList<>(List.of("POST /api/actions/kill-switch HTTP/1.1",
            "Host: localhost", "Content-Type: application/json"));
        request.addAll(headers);
        request.add(chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + body.length);
        return RawHttp.send(port, request, chunked ? RawHttp.chunked(body, 4096) : body);
    }

    private RawHttp.Response formLogin(final String host, final String xsrf, final String user, final String password)
        throws IOException
    {
        final byte[] body = ("username=" + user + "&password=" + password).getBytes(StandardCharsets.UTF_8);
        return RawHttp.send(port, List.of("POST /login HTTP/1.1", "Host: " + host,
            "Content-Type: application/x-www-form-urlencoded", "Cookie: XSRF-TOKEN=" + xsrf, "X-XSRF-TOKEN: " + xsrf,
            "Content-Length: " + body.length), body);
    }

    private static String padded(final int size)
    {
        return KILL.substring(0, KILL.length() - 1) + " ".repeat(size - KILL.length()) + "}";
    }

    private static List<String> with(final String first, final List<String> lines, final String... more)
    {
        final List<String> all = new ArrayList<>();
        if (first != null)
        {
            all.add(first);
        }
        all.addAll(lines);
        all.addAll(List.of(more));
        return all;
    }

    private static Map<String, String> directives(final String policy)
    {
        assertNotNull(policy, "no Content-Security-Policy header");
        final Map<String, String> map = new LinkedHashMap<>();
        for (final String directive : policy.split(";"))
        {
            final String[] parts = directive.trim().split("\\s+", 2);
            map.put(parts[0], parts.length > 1 ? parts[1] : "");
        }
        return map;
    }

    private static String resource(final String path) throws IOException
    {
        try (InputStream in = RiskHttpHardeningTest.class.getResourceAsStream(path))
        {
            assertNotNull(in, path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
