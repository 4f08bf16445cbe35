package io.ringex.risk.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import io.ringex.risk.actions.ActionService;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.testing.Await;

/**
 * The trading-status endpoint against a running engine node: a halt, then a timed call auction started from the
 * dashboard's API (PRE_OPEN with {@code phaseDurationNs}), which the engine accepts, publishes, and ends by itself on
 * its clock, uncrossing into OPEN; the read model follows each change.
 */
class RiskTradingStatusIT
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void anOfficerStartsATimedCallAuctionThatTheEngineEndsByItself() throws Exception
    {
        final Path engineData = Files.createTempDirectory("ringex-risk-status-it-");
        final ConfigurableApplicationContext service = RiskDashboardBrowserIT.startService(
            "/dev/shm/ringex-risk-status-it-" + UUID.randomUUID(), engineData);
        try (RealEngine engine = RiskDashboardBrowserIT.startEngine(service, engineData))
        {
            final MockMvc mvc = MockMvcBuilders.webAppContextSetup((WebApplicationContext)service)
                .apply(SecurityMockMvcConfigurers.springSecurity()).build();
            final ActionService actions = service.getBean(ActionService.class);
            final RiskReadModel model = service.getBean(RiskReadModel.class);
            Await.until("the dashboard knows RGX-USD open", TIMEOUT, () -> "OPEN".equals(shown(model)), null,
                () -> "it shows " + shown(model));

            final long halt = send(mvc, "{\"instrumentId\":1,\"status\":\"HALTED\",\"reason\":\"news pending\"}");
            awaitAccepted(actions, halt);
            Await.until("RGX-USD halted", TIMEOUT, () -> "HALTED".equals(shown(model)), null,
                () -> "it shows " + shown(model));

            final long auction = send(mvc, "{\"instrumentId\":1,\"status\":\"PRE_OPEN\"," +
                "\"phaseDurationNs\":1500000000,\"reason\":\"reopening auction\"}");
            awaitAccepted(actions, auction);
            assertEquals("RGX-USD (instrument 1) to PRE_OPEN for 1500 ms", actions.find(auction).target());
            Await.until("RGX-USD in its call phase", TIMEOUT, () -> "PRE_OPEN".equals(shown(model)) ||
                "OPEN".equals(shown(model)), null, () -> "it shows " + shown(model));
            Await.until("the auction ended by the engine, on its clock, into continuous trading", TIMEOUT,
                () -> "OPEN".equals(shown(model)), null, () -> "it shows " + shown(model));
        }
        finally
        {
            service.close();
        }
    }

    private static long send(final MockMvc mvc, final String body) throws Exception
    {
        final String answer = mvc.perform(post("/api/actions/trading-status")
            .with(user("officer").roles("RISK_OFFICER")).with(csrf()).contentType(MediaType.APPLICATION_JSON)
            .content(body))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        return Long.parseLong(answer.replaceAll(".*\"requestId\":(\\d+).*", "$1"));
    }

    private static void awaitAccepted(final ActionService actions, final long requestId)
    {
        Await.until("the engine's answer to request " + requestId, TIMEOUT,
            () -> !ActionService.PENDING.equals(actions.find(requestId).status()), null,
            () -> String.valueOf(actions.find(requestId)));
        assertEquals("ACCEPTED", actions.find(requestId).status(), String.valueOf(actions.find(requestId)));
    }

    private static String shown(final RiskReadModel model)
    {
        final var detail = model.instrument(1);
        return null == detail ? "nothing" : detail.summary().status();
    }
}
