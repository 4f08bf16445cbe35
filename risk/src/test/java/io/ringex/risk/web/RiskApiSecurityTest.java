package io.ringex.risk.web;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.risk.actions.ActionService;
import io.ringex.risk.actions.ActionUnavailableException;
import io.ringex.risk.actions.ActionView;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.aeron.OfferOutcome;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The web layer and its security: who may read, who may act, CSRF, and the status codes of the action endpoints.
 * The read model is a real one fed two events; the action service is a mock. HTTP Basic is turned off here
 * ({@code ringex.risk.security.http-basic=false}); the full-service tests have it on, as by default.
 */
@WebMvcTest(controllers = {ReadController.class, ActionController.class},
    properties = "ringex.risk.security.http-basic=false")
@Import({SecurityConfiguration.class, RiskApiSecurityTest.Beans.class})
@ActiveProfiles("demo")
class RiskApiSecurityTest
{
    private static final String KILL =
        "{\"scope\":\"ACCOUNT\",\"accountId\":7,\"active\":true,\"reason\":\"test\"}";

    @Autowired
    private MockMvc mvc;

    @MockitoBean
    private ActionService actions;

    @TestConfiguration
    @EnableConfigurationProperties(RiskProperties.class)
    static class Beans
    {
        @Bean
        RiskReadModel riskReadModel()
        {
            final RiskReadModel model = new RiskReadModel(8, 5_000_000_000L, System::nanoTime);
            final EngineEventHandler handler = new EngineEventHandler(0, model, (a, b, c, d, e) -> { });
            final EventEncoders events = new EventEncoders();
            int length = events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1);
            handler.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
            length = events.accountRiskUpdate(new EventEncoders.Account(7, 1, 100, 0, 0, 0, 0, 0, 10, 10, 3, 10,
                false, List.of()));
            handler.onFragment(new UnsafeBuffer(events.buffer(), 0, length), 0, length, null);
            return model;
        }
    }

    private static ActionView pending(final long requestId)
    {
        return new ActionView(requestId, "KILL_SWITCH", "account 7 ON", "officer", 1, "PENDING", null, 0, 0);
    }

    @Test
    void anonymousCannotRead() throws Exception
    {
        mvc.perform(get("/api/accounts")).andExpect(status().isUnauthorized());
        mvc.perform(get("/api/engine")).andExpect(status().isUnauthorized());
        // a browser (asking for HTML) is sent to the login form
        mvc.perform(get("/").accept(MediaType.TEXT_HTML)).andExpect(status().is3xxRedirection())
            .andExpect(redirectedUrl("/login"));
    }

    @Test
    void anonymousCannotAct() throws Exception
    {
        mvc.perform(post("/api/actions/kill-switch").with(csrf()).contentType(MediaType.APPLICATION_JSON)
            .content(KILL)).andExpect(status().isUnauthorized());
        verifyNoInteractions(actions);
    }

    @Test
    void viewerCanRead() throws Exception
    {
        mvc.perform(get("/api/accounts").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$[0].accountId").value(7))
            .andExpect(jsonPath("$[0].openOrdersUsage").value(0.3));
        mvc.perform(get("/api/accounts/7").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk()).andExpect(jsonPath("$.summary.balance").value("0.00000100"));
        mvc.perform(get("/api/instruments/1").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk()).andExpect(jsonPath("$.summary.symbol").value("BTC-USD"))
            .andExpect(jsonPath("$.summary.tickSize").value("0.50"));
        mvc.perform(get("/api/instruments/2").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isNotFound());
        mvc.perform(get("/api/accounts?sort=nonsense").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isBadRequest());
        mvc.perform(get("/api/me").with(user("viewer").roles("VIEWER")))
            .andExpect(jsonPath("$.roles[0]").value("VIEWER"));
    }

    @Test
    void viewerCannotAct() throws Exception
    {
        mvc.perform(post("/api/actions/kill-switch").with(user("viewer").roles("VIEWER")).with(csrf())
            .contentType(MediaType.APPLICATION_JSON).content(KILL)).andExpect(status().isForbidden());
        mvc.perform(post("/api/actions/snapshot").with(user("viewer").roles("VIEWER")).with(csrf()))
            .andExpect(status().isForbidden());
        verifyNoInteractions(actions);
    }

    @Test
    void officerCanActAndGets202WithTheRequestId() throws Exception
    {
        when(actions.killSwitch(any(), anyString())).thenReturn(pending(42));
        mvc.perform(post("/api/actions/kill-switch").with(user("officer").roles("RISK_OFFICER")).with(csrf())
            .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isAccepted())
            .andExpect(header().string("Location", "/api/actions/42"))
            .andExpect(jsonPath("$.requestId").value(42))
            .andExpect(jsonPath("$.status").value("PENDING"));
    }

    @Test
    void csrfIsRequiredOnStateChangingCalls() throws Exception
    {
        mvc.perform(post("/api/actions/kill-switch").with(user("officer").roles("RISK_OFFICER"))
            .contentType(MediaType.APPLICATION_JSON).content(KILL)).andExpect(status().isForbidden());
        mvc.perform(post("/api/actions/kill-switch").with(user("officer").roles("RISK_OFFICER"))
            .with(csrf().useInvalidToken()).contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isForbidden());
        verifyNoInteractions(actions);
    }

    @Test
    void anOfferThatCannotBeMadeIs503WithTheReason() throws Exception
    {
        when(actions.takeSnapshot(any(), anyString()))
            .thenThrow(new ActionUnavailableException(OfferOutcome.BACK_PRESSURED));
        mvc.perform(post("/api/actions/snapshot").with(user("officer").roles("RISK_OFFICER")).with(csrf()))
            .andExpect(status().isServiceUnavailable())
            .andExpect(jsonPath("$.error").value("BACK_PRESSURED"))
            .andExpect(jsonPath("$.message", containsString("back pressure")));
    }

    @Test
    void aMalformedActionIs400() throws Exception
    {
        when(actions.tradingStatus(any(), anyString())).thenThrow(new IllegalArgumentException("status must be"));
        mvc.perform(post("/api/actions/trading-status").with(user("officer").roles("RISK_OFFICER")).with(csrf())
            .contentType(MediaType.APPLICATION_JSON).content("{\"instrumentId\":1,\"status\":\"x\"}"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.error").value("BAD_REQUEST"));
    }

    @Test
    void actionResultsAreReadable() throws Exception
    {
        when(actions.find(42)).thenReturn(pending(42));
        mvc.perform(get("/api/actions/42").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk()).andExpect(jsonPath("$.action").value("KILL_SWITCH"));
        mvc.perform(get("/api/actions/43").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isNotFound());
    }

    @Test
    void theDemoUsersLogInWithTheirHashedPasswords() throws Exception
    {
        mvc.perform(formLogin().user("officer").password("officer")).andExpect(authenticated().withRoles(
            "RISK_OFFICER"));
        mvc.perform(formLogin().user("viewer").password("viewer")).andExpect(authenticated().withRoles("VIEWER"));
        mvc.perform(formLogin().user("viewer").password("wrong")).andExpect(unauthenticated());
    }

    @Test
    void theDemoAdminLogsInAndMayDoWhatAnOfficerDoes() throws Exception
    {
        mvc.perform(formLogin().user("admin").password("admin")).andExpect(authenticated().withRoles("ADMIN"));
        when(actions.killSwitch(any(), anyString())).thenReturn(pending(43));
        mvc.perform(post("/api/actions/kill-switch").with(user("admin").roles("ADMIN")).with(csrf())
            .contentType(MediaType.APPLICATION_JSON).content(KILL))
            .andExpect(status().isAccepted());
        mvc.perform(get("/api/me").with(user("admin").roles("ADMIN")))
            .andExpect(jsonPath("$.roles.length()").value(3));
    }

    @Test
    void httpBasicCanBeTurnedOff() throws Exception
    {
        mvc.perform(get("/api/me").with(httpBasic("viewer", "viewer"))).andExpect(status().isUnauthorized());
        mvc.perform(get("/api/me").with(user("viewer").roles("VIEWER"))).andExpect(status().isOk());
    }
}
