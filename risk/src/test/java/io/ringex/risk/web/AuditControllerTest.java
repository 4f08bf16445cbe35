package io.ringex.risk.web;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import io.ringex.engine.replay.DemoJournal;
import io.ringex.risk.audit.AuditService;
import io.ringex.risk.config.RiskProperties;

/**
 * The audit page's endpoint over a real journal (the demo venue's first 20,000 commands) and the engine's replay
 * tools: a viewer gets an account's or an order's lifecycle; a question the journal cannot answer gets 400 or 404
 * with the reason; anonymous callers get 401.
 */
@WebMvcTest(controllers = AuditController.class, properties = "ringex.risk.security.http-basic=false")
@Import({SecurityConfiguration.class, AuditService.class, AuditControllerTest.Beans.class})
@ActiveProfiles("demo")
class AuditControllerTest
{
    private static Path journal;

    @Autowired
    private MockMvc mvc;

    @TestConfiguration
    @EnableConfigurationProperties(RiskProperties.class)
    static class Beans
    {
    }

    @DynamicPropertySource
    static void journal(final DynamicPropertyRegistry registry)
    {
        registry.add("ringex.risk.audit.journal-dir", () -> demoJournal().toString());
    }

    private static synchronized Path demoJournal()
    {
        if (journal == null)
        {
            try
            {
                final Path dir = Files.createTempDirectory("ringex-audit-test");
                dir.toFile().deleteOnExit();
                journal = dir.resolve("journal");
                DemoJournal.write(journal, null, 20_000, 0, 42, DemoJournal.DEFAULT_START_NS);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return journal;
    }

    @Test
    void aViewerGetsAnAccountsLifecycleInAWindow() throws Exception
    {
        mvc.perform(get("/api/audit").param("account", "1003").param("from", "2026-01-05T08:01:00Z")
            .param("to", "2026-01-05T08:02:00Z").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.subject").value(Matchers.startsWith("account 1003 from 2026-01-05T08:01:00Z")))
            .andExpect(jsonPath("$.entries[0].command").value("NewOrder"))
            .andExpect(jsonPath("$.entries[0].time").value(Matchers.startsWith("2026-01-05T08:01:")))
            .andExpect(jsonPath("$.entries[0].events[0].event").value("ExecutionReport"))
            .andExpect(jsonPath("$.entries[0].events[0].text").value(Matchers.containsString("accountId=1003")));
    }

    @Test
    void anOrdersLifecycleEndsWhenItIsDone() throws Exception
    {
        mvc.perform(get("/api/audit").param("order", "100").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.subject").value("order 100"))
            .andExpect(jsonPath("$.entries[0].events[0].text").value(Matchers.containsString("orderId=100|")))
            .andExpect(jsonPath("$.entries[0].events[0].text").value(Matchers.containsString("execType=NEW")));
    }

    @Test
    void questionsTheJournalCannotAnswer() throws Exception
    {
        mvc.perform(get("/api/audit").param("order", "99999999").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value(Matchers.startsWith("unknown order id 99999999")));
        mvc.perform(get("/api/audit").param("account", "1003").param("from", "2020-01-01T00:00:00Z")
            .with(user("viewer").roles("VIEWER")))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value(Matchers.containsString("is before the journal starts")));
        mvc.perform(get("/api/audit").param("account", "1003").param("from", "yesterday")
            .with(user("viewer").roles("VIEWER")))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("from is not an ISO-8601 time: yesterday"));
        mvc.perform(get("/api/audit").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isBadRequest());
        mvc.perform(get("/api/audit").param("clientOrder", "7").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("clientOrder needs account"));
    }

    @Test
    void anonymousCannotAudit() throws Exception
    {
        mvc.perform(get("/api/audit").param("account", "1003")).andExpect(status().isUnauthorized());
    }
}
