package io.ringex.risk.web;

import static io.ringex.risk.web.XsrfToken.xsrf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.ringex.risk.config.RiskProperties;

/**
 * The operator console's endpoints over the whole service with no engine: a malformed request is answered 400 naming
 * the field (strict JSON, the engine's rules), one that does not apply 409, a valid one that cannot reach the engine
 * 503 with nothing recorded; the lists answer empty. Who may call them is RiskEndpointAuthorizationMatrixTest's.
 */
@RiskServiceOnAPort
class ConsoleApiTest
{
    private static final String DEPOSIT =
        "{\"accountId\":2001,\"amount\":\"%s\",\"reference\":\"WIRE-1\",\"reason\":\"funding\"}";

    @Autowired
    private MockMvc mvc;

    private ResultActions admin(final String path, final String body) throws Exception
    {
        return mvc.perform(post(path).with(user("console-admin").roles("ADMIN")).with(xsrf())
            .contentType(MediaType.APPLICATION_JSON).content(body));
    }

    @Test
    void malformedRequestsAre400NamingTheField() throws Exception
    {
        admin("/api/admin/accounts/deposit", DEPOSIT.formatted("1.123456789"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("amount must be a decimal number with at most 8 places, was " +
                "'1.123456789'"));
        admin("/api/admin/accounts/deposit", DEPOSIT.formatted("-5"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("amount must be positive"));
        admin("/api/admin/accounts/deposit", "{\"accountId\":\"2001\",\"amount\":\"5\",\"reference\":\"W\"," +
            "\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("accountId must be a JSON integer"));
        admin("/api/admin/accounts/open", "{\"acountId\":5,\"selfTradePrevention\":\"CANCEL_NEWEST\"," +
            "\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("accountId is missing or null; it must be a JSON integer"));
        admin("/api/admin/accounts/open", "{\"accountId\":5,\"selfTradePrevention\":\"CANCEL_NEWEST\"," +
            "\"reason\":\"r\",\"limits\":{}}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("unknown field 'limits'"));
        admin("/api/admin/instruments/add", "{\"instrumentId\":4,\"symbol\":\"NEW-USD\",\"priceScale\":2," +
            "\"tickSize\":\"0.05\",\"lotSize\":1,\"referencePrice\":\"50.01\",\"priceBandType\":\"TICKS\"," +
            "\"priceBand\":10,\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("referencePrice must be a multiple of tickSize"));
        admin("/api/admin/users/enabled", "{\"username\":\"bob\",\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("enabled is missing or null; it must be true or false"));
        admin("/api/admin/accounts/status", "{\"accountId\":2001,\"status\":\"ACTIVE\",\"reason\":\"\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message", containsString("reason must be 1 to 64")));
    }

    @Test
    void aPasswordIsNeverEchoed() throws Exception
    {
        admin("/api/admin/users/password", "{\"username\":\"bob\",\"password\":\"tiny\",\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("password must be 8 to 128 characters"))
            .andExpect(content().string(not(containsString("tiny"))));
        admin("/api/admin/users/password", "{\"username\":\"bob\",\"password\":12345678,\"reason\":\"r\"}")
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("password must be a JSON string"))
            .andExpect(content().string(not(containsString("12345678"))));
    }

    @Test
    void requestsThatDoNotApplyAre409AndValidOnesWithoutAnEngine503() throws Exception
    {
        admin("/api/admin/users/create", "{\"username\":\"bob\",\"password\":\"long enough 1\",\"accounts\":[1003]," +
            "\"fixSenderCompId\":\"\",\"fixCancelOnDisconnect\":false,\"throttleMessagesPerSecond\":0," +
            "\"enabled\":true,\"reason\":\"onboarding\"}")
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.error").value("DIRECTORY_NOT_LOADED"));
        admin("/api/admin/users/accounts", "{\"username\":\"bob\",\"accounts\":[1003],\"reason\":\"r\"}")
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.error").value("UNKNOWN_USER"));
        admin("/api/admin/instruments/amend", "{\"instrumentId\":77,\"symbol\":\"X\",\"tickSize\":\"1\"," +
            "\"lotSize\":1,\"referencePrice\":\"10\",\"priceBandType\":\"TICKS\",\"priceBand\":5,\"reason\":\"r\"}")
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.error").value("UNKNOWN_INSTRUMENT"));
        admin("/api/admin/accounts/deposit", DEPOSIT.formatted("25000.00"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().string("Retry-After", "1"))
            .andExpect(jsonPath("$.error").value("NOT_CONNECTED"));
        mvc.perform(get("/api/actions").with(user("viewer").roles("VIEWER")))
            .andExpect(content().string(not(containsString("DEPOSIT"))));
    }

    @Test
    void theListsAnswerEmptyBeforeTheEngineSaysAnything() throws Exception
    {
        mvc.perform(get("/api/users").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.loaded").value(false))
            .andExpect(jsonPath("$.engine").value(-1))
            .andExpect(jsonPath("$.users.length()").value(0));
        mvc.perform(get("/api/admin-log").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(content().json("[]"));
    }

    @Test
    void anAdminWhoseNameCannotBeJournaledIsRefusedAtStart()
    {
        final RiskProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
            "ringex.risk.security.users[0].username", "Jane Doe",
            "ringex.risk.security.users[0].password",
            "{bcrypt}$2a$10$d1pqKgCs.yc7vtgPCKWoce9J5mE4fs0Pam/Yk4E9XkGgUmh//PwG6",
            "ringex.risk.security.users[0].roles[0]", "ADMIN")))
            .bindOrCreate("ringex.risk", RiskProperties.class);
        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> SecurityConfiguration.users(properties));
        assertTrue(ex.getMessage().contains("cannot be journaled as an operator"), ex.getMessage());
    }
}
