package io.ringex.risk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.ringex.risk.RiskServiceApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * An unknown {@code ringex.risk.*} key stops the risk service naming the key, wherever it comes from: the command line
 * and application.yml (Spring's own check), and system properties and environment variables, which Spring's own
 * check passes over ({@link RiskKeys}). A malformed value is refused naming its key too.
 */
class RiskKeysTest
{
    @Test
    void theServiceRefusesATypoedKeyOnItsCommandLineNamingIt()
    {
        final SpringApplication application = new SpringApplication(RiskServiceApplication.class);
        application.setAdditionalProfiles("demo");
        final Throwable ex = assertThrows(Throwable.class, () -> application.run("--server.port=0",
            "--ringex.risk.aeron.embedded-driver=true", "--ringex.risk.live.push-intervall=1s").close());
        assertTrue(messages(ex).contains("ringex.risk.live.push-intervall"), messages(ex));
    }

    @Test
    void theServiceRefusesATypoedKeyAmongItsSystemPropertiesNamingIt()
    {
        final SpringApplication application = new SpringApplication(RiskServiceApplication.class);
        application.setAdditionalProfiles("demo");
        System.setProperty("ringex.risk.engine.status-timout", "5s");
        try
        {
            final Throwable ex = assertThrows(Throwable.class, () -> application.run("--server.port=0",
                "--ringex.risk.aeron.embedded-driver=true").close());
            assertTrue(messages(ex).contains("ringex.risk.engine.status-timout"), messages(ex));
        }
        finally
        {
            System.clearProperty("ringex.risk.engine.status-timout");
        }
    }

    @Test
    void theServiceRefusesAMalformedDurationNamingTheKey()
    {
        final SpringApplication application = new SpringApplication(RiskServiceApplication.class);
        application.setAdditionalProfiles("demo");
        final Throwable ex = assertThrows(Throwable.class, () -> application.run("--server.port=0",
            "--ringex.risk.aeron.embedded-driver=true", "--ringex.risk.live.push-interval=fast").close());
        assertTrue(messages(ex).contains("ringex.risk.live.push-interval"), messages(ex));
    }

    @Test
    void environmentVariablesInSpringsFormBindAndATypoAmongThemIsRefused()
    {
        final Map<String, Object> variables = new HashMap<>(Map.of(
            "RINGEX_RISK_AERON_EMBEDDEDDRIVER", "true",
            "RINGEX_RISK_STREAMS_INGRESSSTREAMID", "2001",
            "RINGEX_RISK_MEMBERS_0_INGRESSCHANNEL", "aeron:udp?endpoint=engine-1:40100",
            "RINGEX_RISK_MEMBERS_1_INGRESSCHANNEL", "aeron:udp?endpoint=engine-2:40100",
            "RINGEX_RISK_SECURITY_USERS_0_USERNAME", "officer",
            "RINGEX_RISK_SECURITY_USERS_0_PASSWORD", "{bcrypt}x",
            "RINGEX_RISK_SECURITY_USERS_0_ROLES", "RISK_OFFICER",
            "RINGEX_RISK_LIVE_PUSHINTERVAL", "100ms",
            "PATH", "/usr/bin"));
        final RiskProperties properties = RiskKeys.check(environment(variables, Map.of()));
        assertTrue(properties.aeron().embeddedDriver());
        assertEquals(2001, properties.streams().ingressStreamId());
        assertEquals(2, properties.members().size());
        assertEquals("aeron:udp?endpoint=engine-2:40100", properties.members().get(1).ingressChannel());
        assertEquals("officer", properties.security().users().get(0).username());
        assertEquals(Duration.ofMillis(100), properties.live().pushInterval());

        variables.put("RINGEX_RISK_STREAMS_INGRESCHANNEL", "aeron:ipc");
        final BindException ex = assertThrows(BindException.class, () -> RiskKeys.check(environment(variables,
            Map.of())));
        assertTrue(messages(ex).contains("ringex.risk.streams.ingreschannel"), messages(ex));
    }

    @Test
    void theKeysOfThePairAndItsPromotionAreGoneAndAMembersUnknownKeyIsRefused()
    {
        for (final String key : new String[]{ "ringex.risk.standby.ingress-channel",
            "ringex.risk.streams.control-channel", "ringex.risk.streams.control-stream-id",
            "ringex.risk.members[0].control-channel", "ringex.risk.members[0].ingres-channel",
            "ringex.risk.members[0].ingress-stream-id" })
        {
            final BindException ex = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
                Map.of("ringex.risk.members[0].ingress-channel", "aeron:udp?endpoint=engine-1:40100", key, "1"))));
            assertTrue(messages(ex).contains(key), key + ": " + messages(ex));
        }
        final BindException gap = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
            Map.of("ringex.risk.members[0].ingress-channel", "aeron:udp?endpoint=engine-1:40100",
                "ringex.risk.members[2].ingress-channel", "aeron:udp?endpoint=engine-3:40100"))));
        assertTrue(messages(gap).contains("ringex.risk.members[2].ingress-channel"), "a member numbered past a gap " +
            "would be left out: " + messages(gap));
    }

    @Test
    void aSystemPropertyInAnyOfSpringsFormsBindsAndATypoIsRefused()
    {
        final RiskProperties properties = RiskKeys.check(environment(Map.of(), Map.of(
            "ringex.risk.actions.offer-timeout", "20ms",
            "ringex.risk.actions.responseTimeout", "2s",
            "ringex.risk.security.users[0].username", "viewer",
            "ringex.risk.security.lockout.user-failures", "3")));
        assertEquals(Duration.ofMillis(20), properties.actions().offerTimeout());
        assertEquals(Duration.ofSeconds(2), properties.actions().responseTimeout());
        assertEquals(3, properties.security().lockout().userFailures());

        final BindException ex = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
            Map.of("ringex.risk.security.lockout.user-failure", "3"))));
        assertTrue(messages(ex).contains("ringex.risk.security.lockout.user-failure"), messages(ex));

        final BindException malformed = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
            Map.of("ringex.risk.http.max-request-body", "lots"))));
        assertTrue(messages(malformed).contains("ringex.risk.http.max-request-body"), messages(malformed));
    }

    @Test
    void theAuditPagesJournalKeysAndTheAdminLogsSizeAreKnownKeys()
    {
        // the all-in-one and the browser IT set the journal keys: the Audit tab's, bound by AuditProperties too
        final RiskProperties properties = RiskKeys.check(environment(Map.of("RINGEX_RISK_AUDIT_TIMEOUT", "5s"), Map.of(
            "ringex.risk.audit.journal-dir", "/var/lib/ringex/journal",
            "ringex.risk.audit.snapshot-dir", "/var/lib/ringex/snapshots",
            "ringex.risk.audit.max-commands", "50",
            "ringex.risk.admin-log.retained", "10")));
        assertEquals("/var/lib/ringex/journal", properties.audit().journalDir());
        assertEquals("/var/lib/ringex/snapshots", properties.audit().snapshotDir());
        assertEquals(Duration.ofSeconds(5), properties.audit().timeout());
        assertEquals(50, properties.audit().maxCommands());
        assertEquals(10, properties.adminLog().retained());

        // the admin log's size moved out of audit.* when the Audit tab became the journal's
        final BindException moved = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
            Map.of("ringex.risk.audit.retained", "10"))));
        assertTrue(messages(moved).contains("ringex.risk.audit.retained"), messages(moved));
        final BindException refused = assertThrows(BindException.class, () -> RiskKeys.check(environment(Map.of(),
            Map.of("ringex.risk.admin-log.retained", "0"))));
        assertTrue(messages(refused).contains("ringex.risk.admin-log.retained"), messages(refused));
    }

    /** An environment with the given variables and system properties, as a process would have. */
    private static StandardEnvironment environment(final Map<String, Object> variables,
        final Map<String, Object> systemProperties)
    {
        final StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            variables));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
            new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, systemProperties));
        return environment;
    }

    /** The messages of an exception and its causes, as the start-up failure shows them. */
    private static String messages(final Throwable ex)
    {
        final StringBuilder messages = new StringBuilder();
        for (Throwable cause = ex; null != cause; cause = cause.getCause())
        {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
