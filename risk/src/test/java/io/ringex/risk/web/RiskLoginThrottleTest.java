package io.ringex.risk.web;

import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.mockingDetails;
import static io.ringex.risk.web.XsrfToken.xsrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.invocation.Invocation;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Brute force against the logins, form and HTTP Basic alike: every failure is logged (user, address, reason) and
 * counted; five in a row lock the user name, twenty from one address lock the address, with the same answer as a
 * wrong password; an ADMIN lists and unlocks; an unknown user costs one bcrypt check of the users' own cost, a
 * locked attempt none. The users here are hashed at bcrypt cost 4 (not Spring's default 10), so a dummy hash of the
 * wrong cost shows; the real encoder is spied on to count its checks. Cookies are configured Secure.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "ringex.risk.aeron.embedded-driver=true",
    "ringex.risk.aeron.dir=/dev/shm/ringex-risk-login-${random.uuid}",
    "ringex.risk.streams.ingress-channel=aeron:ipc",
    "ringex.risk.streams.risk-channel=aeron:ipc",
    "ringex.risk.streams.market-data-channel=aeron:ipc",
    "ringex.risk.security.cookie-secure=true",
    "ringex.risk.security.users[0].username=viewer",
    "ringex.risk.security.users[0].password={bcrypt}$2a$04$VBlGCmKIhE.SXYR5f/MWeOjHFe1ZQunR7OmofRK/CslOz2MRxx4PC",
    "ringex.risk.security.users[0].roles=VIEWER",
    "ringex.risk.security.users[1].username=officer",
    "ringex.risk.security.users[1].password={bcrypt}$2a$04$UX4n0xgpelS0nZGd.RQH/eI.i3CTR7MRk/UzK5LDy18xZrnmt/H6e",
    "ringex.risk.security.users[1].roles=RISK_OFFICER",
    "ringex.risk.security.users[2].username=admin",
    "ringex.risk.security.users[2].password={bcrypt}$2a$04$YO8Ly0xt/L.WFL/Rb3k8UO2ExfaK9WriT8TnvB4.7OQ5RHZ1xOrc2",
    "ringex.risk.security.users[2].roles=ADMIN"})
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
class RiskLoginThrottleTest
{
    private static final String USERS_COST = "04";
    private static final Pattern COST = Pattern.compile("\\$2[aby]?\\$(\\d\\d)\\$");
    private static final RequestPostProcessor ADMIN = user("root").roles("ADMIN");

    @Autowired
    private MockMvc mvc;

    @Autowired
    private MeterRegistry registry;

    @MockitoSpyBean
    private PasswordEncoder encoder;

    @LocalServerPort
    private int port;

    private static RequestPostProcessor from(final String address)
    {
        return request ->
        {
            request.setRemoteAddr(address);
            return request;
        };
    }

    private ResultActions login(final String user, final String password, final String address) throws Exception
    {
        return mvc.perform(post("/login").param("username", user).param("password", password)
            .with(xsrf()).with(from(address)));
    }

    private double failures()
    {
        double sum = 0;
        for (final Counter c : registry.find("ringex.risk.login.failures").counters())
        {
            sum += c.count();
        }
        return sum;
    }

    @Test
    void aFailedLoginIsLoggedWithUserAddressAndReasonAndCounted(final CapturedOutput output) throws Exception
    {
        final double before = failures();
        mvc.perform(post("/login").param("username", "officer").param("password", "guess")
                .header("X-Forwarded-For", "6.6.6.6").with(xsrf()).with(from("10.9.0.1")))
            .andExpect(unauthenticated())
            .andExpect(redirectedUrl("/login?error"));
        login("mallory", "guess", "10.9.0.1").andExpect(unauthenticated()).andExpect(redirectedUrl("/login?error"));
        login("officer\r\nFAKE", "x", "10.9.0.1").andExpect(unauthenticated());

        assertEquals(before + 3, failures(), "ringex.risk.login.failures counts each");
        final String log = output.getAll();
        assertTrue(log.contains("user=\"officer\" address=10.9.0.1 reason=BAD_PASSWORD"), log);
        assertTrue(log.contains("user=\"mallory\" address=10.9.0.1 reason=UNKNOWN_USER"), log);
        assertTrue(log.contains("user=\"officer??FAKE\""), "control characters cannot forge log lines: " + log);
        assertFalse(log.contains("6.6.6.6"), "X-Forwarded-For is not trusted by default: " + log);
        login("officer", "officer", "10.9.0.1").andExpect(authenticated().withRoles("RISK_OFFICER"));
    }

    @Test
    void fiveFailuresLockTheUserWithTheAnswerOfAWrongPasswordUntilAnAdminUnlocks(final CapturedOutput output)
        throws Exception
    {
        for (int i = 0; i < 5; i++)
        {
            login("viewer", "guess-" + i, "10.9.0.2").andExpect(unauthenticated())
                .andExpect(redirectedUrl("/login?error"));
        }
        // the right password now: refused exactly as a wrong one, from this address and from any other
        login("viewer", "viewer", "10.9.0.2").andExpect(unauthenticated()).andExpect(redirectedUrl("/login?error"));
        login("Viewer", "viewer", "10.9.0.3").andExpect(unauthenticated()).andExpect(redirectedUrl("/login?error"));
        mvc.perform(get("/api/me").with(httpBasic("viewer", "viewer")).with(from("10.9.0.3")))
            .andExpect(status().isUnauthorized());
        assertTrue(output.getAll().contains("login locked: user=\"viewer\" for 60 s"), output.getAll());
        assertTrue(output.getAll().contains("user=\"viewer\" address=10.9.0.2 reason=LOCKED"), output.getAll());

        mvc.perform(get("/api/security/locks").with(ADMIN))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$[?(@.kind == 'USER')].key", hasItem("viewer")))
            .andExpect(jsonPath("$[?(@.kind == 'ADDRESS')].key", not(hasItem("10.9.0.2"))));
        mvc.perform(get("/api/security/locks").with(user("officer").roles("RISK_OFFICER")))
            .andExpect(status().isForbidden());
        mvc.perform(post("/api/security/unlock").with(user("officer").roles("RISK_OFFICER")).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"username\":\"viewer\"}"))
            .andExpect(status().isForbidden());
        login("viewer", "viewer", "10.9.0.2").andExpect(unauthenticated());

        mvc.perform(post("/api/security/unlock").with(ADMIN).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"username\":\"VIEWER\"}"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.unlocked").value(true));
        assertTrue(output.getAll().contains("login unlock by=\"root\" user=\"viewer\""), output.getAll());
        login("viewer", "viewer", "10.9.0.2").andExpect(authenticated().withRoles("VIEWER"));
        mvc.perform(post("/api/security/unlock").with(ADMIN).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{}"))
            .andExpect(status().isBadRequest());
    }

    @Test
    void twentyFailuresFromOneAddressLockTheAddressWhateverTheUserNames() throws Exception
    {
        for (int i = 0; i < 20; i++)
        {
            login("spray-" + i, "guess", "10.9.0.4").andExpect(unauthenticated());
        }
        login("officer", "officer", "10.9.0.4").andExpect(unauthenticated()).andExpect(redirectedUrl("/login?error"));
        login("officer", "officer", "10.9.0.5").andExpect(authenticated());
        mvc.perform(get("/api/security/locks").with(ADMIN))
            .andExpect(jsonPath("$[?(@.kind == 'ADDRESS')].key", hasItem("10.9.0.4")));
        mvc.perform(post("/api/security/unlock").with(ADMIN).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"address\":\"10.9.0.4\"}"))
            .andExpect(jsonPath("$.unlocked").value(true));
        login("officer", "officer", "10.9.0.4").andExpect(authenticated());
    }

    @Test
    void httpBasicFailuresCountTowardsTheSameLock() throws Exception
    {
        for (int i = 0; i < 3; i++)
        {
            mvc.perform(get("/api/me").with(httpBasic("admin", "guess")).with(from("10.9.0.6")))
                .andExpect(status().isUnauthorized());
        }
        login("admin", "guess", "10.9.0.6").andExpect(unauthenticated());
        login("admin", "guess", "10.9.0.7").andExpect(unauthenticated());
        mvc.perform(get("/api/me").with(httpBasic("admin", "admin")).with(from("10.9.0.7")))
            .andExpect(status().isUnauthorized());
        mvc.perform(post("/api/security/unlock").with(ADMIN).with(xsrf())
                .contentType(MediaType.APPLICATION_JSON).content("{\"username\":\"admin\"}"))
            .andExpect(status().isOk());
        mvc.perform(get("/api/me").with(httpBasic("admin", "admin")).with(from("10.9.0.7")))
            .andExpect(status().isOk());
    }

    @Test
    void anUnknownUserCostsOneCheckAgainstAHashOfTheUsersCostAndALockedOneCostsNone() throws Exception
    {
        clearInvocations(encoder);
        login("nobody-here", "guess", "10.9.0.8").andExpect(unauthenticated());
        final List<String> unknown = checkedHashes();
        assertEquals(1, unknown.size(), "one password check for an unknown user: " + unknown);
        assertEquals(USERS_COST, cost(unknown.get(0)), "the dummy hash has the configured users' cost");

        clearInvocations(encoder);
        login("officer", "guess", "10.9.0.8").andExpect(unauthenticated());
        final List<String> known = checkedHashes();
        assertEquals(1, known.size(), "one password check for a known user: " + known);
        assertEquals(USERS_COST, cost(known.get(0)));

        for (int i = 0; i < 4; i++)
        {
            login("nobody-here", "guess", "10.9.0.8").andExpect(unauthenticated());
        }
        clearInvocations(encoder);
        login("nobody-here", "guess", "10.9.0.8").andExpect(unauthenticated());
        assertEquals(List.of(), checkedHashes(), "a locked attempt costs no password check");
    }

    @Test
    void cookiesAreSecureWhenConfigured() throws Exception
    {
        final RawHttp.Response form = RawHttp.send(port, List.of("GET /login HTTP/1.1", "Host: localhost"), null);
        final String xsrfCookie = form.setCookie("XSRF-TOKEN");
        assertNotNull(xsrfCookie, form.toString());
        assertTrue(xsrfCookie.contains("Secure") && xsrfCookie.contains("SameSite=Strict"), xsrfCookie);
        final String token = form.cookieValue("XSRF-TOKEN");
        final byte[] body = "username=officer&password=officer".getBytes(StandardCharsets.UTF_8);
        final RawHttp.Response login = RawHttp.send(port, List.of("POST /login HTTP/1.1", "Host: localhost",
            "Content-Type: application/x-www-form-urlencoded", "Cookie: XSRF-TOKEN=" + token, "X-XSRF-TOKEN: " + token,
            "Content-Length: " + body.length), body);
        assertEquals(302, login.status(), login.toString());
        final String session = login.setCookie("JSESSIONID");
        assertNotNull(session, login.toString());
        assertTrue(session.contains("Secure") && session.contains("HttpOnly") && session.contains("SameSite=Strict"),
            session);
    }

    /** @return the hashes the password encoder was asked to check a password against since the last clear. */
    private List<String> checkedHashes()
    {
        final List<String> hashes = new ArrayList<>();
        for (final Invocation call : mockingDetails(encoder).getInvocations())
        {
            if (call.getMethod().getName().equals("matches"))
            {
                hashes.add(call.getArgument(1));
            }
        }
        return hashes;
    }

    private static String cost(final String hash)
    {
        final Matcher m = COST.matcher(hash);
        assertTrue(m.find(), hash);
        return m.group(1);
    }
}
