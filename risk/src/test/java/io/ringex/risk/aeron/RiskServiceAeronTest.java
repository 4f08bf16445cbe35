package io.ringex.risk.aeron;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.ringex.testing.Await;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import io.ringex.risk.RiskServiceApplication;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.model.AccountSort;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The whole service over a real (embedded) media driver: SBE events published on the risk and market-data streams
 * reach the read model, the API, health and metrics; an action becomes an SBE admin command on the ingress stream,
 * signed with the service's admin key, and the engine's AdminResponse settles it; the service asks for the user
 * directory on the ingress and learns the users from the egress, and lists the answered admin commands in the admin
 * log.
 */
@SpringBootTest
@AutoConfigureMockMvc
@ActiveProfiles("demo")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RiskServiceAeronTest
{
    private static final String DIR = "/dev/shm/ringex-risk-test-" + UUID.randomUUID();
    private static final int INGRESS = 1001;
    private static final int EGRESS = 1002;
    private static final int MARKET_DATA = 1003;
    private static final int RISK = 1004;
    /** The service's admin key, in a file as an operator gives it one. */
    private static final AdminKey KEY = AdminKeys.generate("risk-service").keys().get(0);

    private static Aeron aeron;
    private static ExclusivePublication risk;
    private static ExclusivePublication marketData;
    private final EventEncoders events = new EventEncoders();

    @Autowired
    private MockMvc mvc;

    @Autowired
    private RiskReadModel model;

    @Autowired
    private AeronConnection connection;

    @Autowired
    private UserDirectory users;

    @Autowired
    private AdminAudit adminLog;

    @DynamicPropertySource
    static void aeronProperties(final DynamicPropertyRegistry registry)
    {
        registry.add("ringex.risk.aeron.embedded-driver", () -> "true");
        registry.add("ringex.risk.aeron.dir", () -> DIR);
        registry.add("ringex.risk.streams.ingress-channel", () -> "aeron:ipc");
        registry.add("ringex.risk.streams.risk-channel", () -> "aeron:ipc");
        registry.add("ringex.risk.streams.market-data-channel", () -> "aeron:ipc");
        registry.add("ringex.risk.actions.offer-timeout", () -> "100ms");
        registry.add("ringex.risk.actions.admin-key-file", RiskServiceAeronTest::keyFile);
    }

    private static String keyFile()
    {
        final java.nio.file.Path file = java.nio.file.Path.of(DIR + "-admin.keys");
        if (!java.nio.file.Files.exists(file))
        {
            AdminKeys.of(java.util.List.of(KEY)).writeTo(file);
        }
        return file.toString();
    }


    private void engineSide()
    {
        if (aeron == null)
        {
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(connection.aeronDirectoryName()));
            risk = aeron.addExclusivePublication("aeron:ipc", RISK);
            marketData = aeron.addExclusivePublication("aeron:ipc", MARKET_DATA);
            await("the engine's risk and market-data streams connected",
                () -> risk.isConnected() && marketData.isConnected());
        }
    }

    @AfterAll
    static void close()
    {
        if (aeron != null)
        {
            aeron.close();
        }
    }

    private void publish(final ExclusivePublication publication, final int length)
    {
        await("the event offered", () -> publication.offer(events.buffer(), 0, length) > 0);
    }

    private static void await(final String what, final BooleanSupplier condition)
    {
        Await.until(what, Duration.ofSeconds(10), condition, null);
    }

    @Test
    @Order(1)
    void withoutTheEngineOnTheIngressAnActionIs503AndHealthIsDown() throws Exception
    {
        mvc.perform(post("/api/actions/snapshot").with(user("officer").roles("RISK_OFFICER")).with(csrf()))
            .andExpect(status().isServiceUnavailable())
            .andExpect(jsonPath("$.error").value("NOT_CONNECTED"));
        mvc.perform(get("/actuator/health")).andExpect(status().isServiceUnavailable());
    }

    @Test
    @Order(2)
    void eventsOnTheRiskAndMarketDataStreamsReachTheReadModelAndTheApi() throws Exception
    {
        engineSide();
        publish(marketData, events.instrumentDefinition(1, "BTC-USD", 2, 50, 1, 6_425_000, TradingStatus.OPEN, 1));
        publish(risk, events.accountRiskUpdate(new EventEncoders.Account(7, 1, 1_000 * 100_000_000L, 0, 0, 0,
            25 * 100_000_000L, 0, 10, 10, 1, 10, false, List.of(new EventEncoders.Position(1, 3, 6_425_000, 0, 0,
            0, 0, 10, 6_425_050)))));
        publish(risk, events.trade(1, 1, 500, 6_425_050, 3, Side.BUY, 7, 8, 2));
        publish(marketData, events.trade(1, 1, 500, 6_425_050, 3, Side.BUY, 0, 0, 2));
        final long[] counters = new long[16];
        counters[EngineCounter.TRADES.value()] = 77;
        final long[] rejects = new long[64];
        rejects[RejectReason.INSUFFICIENT_CREDIT.value()] = 5;
        publish(risk, events.engineStatus(2, 1, NodeRole.PRIMARY, 3, 1024, new long[] {10, 9, 8, 9, 9, 0},
            new long[] {1000, 2000, 3000, 4000}, counters, rejects));

        // the definition (market data) and the trade (risk) come on two streams: wait for both
        await("the model up to date with the engine", () -> model.isEngineUp() && model.priceScale(1) >= 0 &&
            model.instrument(1).tape().size() == 1 &&
            !model.accounts(AccountSort.UTILISATION).isEmpty() && model.engine(false).streams().get("risk"));

        mvc.perform(get("/api/accounts/7").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.positions[0].symbol").value("BTC-USD"))
            .andExpect(jsonPath("$.positions[0].averageCost").value("64250.00"))
            .andExpect(jsonPath("$.recentFills[0].tradeId").value(500))
            .andExpect(jsonPath("$.summary.exposure").value("25.00000000"));
        mvc.perform(get("/api/instruments/1").with(user("viewer").roles("VIEWER")))
            .andExpect(jsonPath("$.tape.length()").value(1));
        mvc.perform(get("/api/engine").with(user("viewer").roles("VIEWER")))
            .andExpect(jsonPath("$.role").value("PRIMARY"))
            .andExpect(jsonPath("$.streams.risk").value(true));
        mvc.perform(get("/actuator/health").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.components.engine.status").value("UP"))
            .andExpect(jsonPath("$.components.engine.details.role").value("PRIMARY"));
        mvc.perform(get("/v3/api-docs").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(content().string(containsString("/api/actions/kill-switch")));
        // Prometheus scrapes as a VIEWER (HTTP Basic in production; RiskHttpHardeningTest covers the anonymous 401)
        mvc.perform(get("/actuator/prometheus").with(user("viewer").roles("VIEWER")).accept(MediaType.TEXT_PLAIN))
            .andExpect(status().isOk())
            .andExpect(content().string(containsString("ringex_engine_counter{counter=\"TRADES\"} 77.0")))
            .andExpect(content().string(containsString("ringex_engine_rejects{reason=\"INSUFFICIENT_CREDIT\"} 5.0")))
            .andExpect(content().string(containsString("ringex_engine_epoch 2.0")));
    }

    @Test
    @Order(3)
    void anActionIsAnSbeAdminCommandOnTheIngressAndTheResponseSettlesIt() throws Exception
    {
        engineSide();
        try (Subscription ingress = aeron.addSubscription("aeron:ipc", INGRESS))
        {
            await("the service's ingress connected", ingress::isConnected);
            final String body = mvc.perform(post("/api/actions/kill-switch")
                .with(user("officer").roles("RISK_OFFICER")).with(csrf())
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"scope\":\"ACCOUNT\",\"accountId\":7,\"active\":true,\"reason\":\"test\"}"))
                .andExpect(status().isAccepted())
                .andReturn().getResponse().getContentAsString();
            final long requestId = Long.parseLong(body.replaceAll(".*\"requestId\":(\\d+).*", "$1"));

            final AtomicLong decodedRequestId = new AtomicLong();
            final AtomicLong keyId = new AtomicLong();
            final KillSwitchDecoder decoder = new KillSwitchDecoder();
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            await("the signed kill switch on the ingress", () -> ingress.poll((DirectBuffer signed, int signedOffset,
                int signedLength, Header h) ->
            {
                // the command comes inside the proof of the service's key: an HMAC over what precedes it
                header.wrap(signed, signedOffset);
                assertEquals(AuthenticatedCommandDecoder.TEMPLATE_ID, header.templateId());
                final AuthenticatedCommandDecoder envelope = new AuthenticatedCommandDecoder()
                    .wrapAndApplyHeader(signed, signedOffset, header);
                keyId.set(envelope.keyId());
                final int length = envelope.commandLength();
                final int offset = envelope.limit() + AuthenticatedCommandDecoder.commandHeaderLength();
                envelope.skipCommand();
                final int macField = envelope.limit();
                final byte[] covered = new byte[macField - signedOffset];
                signed.getBytes(signedOffset, covered);
                final byte[] mac = new byte[AdminKey.MAC_LENGTH];
                signed.getBytes(macField + AuthenticatedCommandDecoder.macHeaderLength(), mac);
                assertTrue(java.security.MessageDigest.isEqual(KEY.newMac().doFinal(covered), mac), "the MAC");
                final DirectBuffer buffer = signed;
                header.wrap(buffer, offset);
                assertEquals(KillSwitchDecoder.TEMPLATE_ID, header.templateId());
                decoder.wrapAndApplyHeader(buffer, offset, header);
                assertEquals(KillSwitchScope.ACCOUNT, decoder.scope());
                assertEquals(7, decoder.accountId());
                assertEquals(BooleanType.TRUE, decoder.active());
                decodedRequestId.set(decoder.requestId());
            }, 10) > 0);
            assertEquals(requestId, decodedRequestId.get());
            assertEquals(KEY.id(), keyId.get(), "signed with the service's key");

            mvc.perform(get("/api/actions/" + requestId).with(user("viewer").roles("VIEWER")))
                .andExpect(jsonPath("$.status").value("PENDING"));
            publish(risk, events.adminResponse(requestId, KillSwitchDecoder.TEMPLATE_ID, AdminStatus.ACCEPTED,
                RejectReason.NONE, 11, 4));
            final String[] status = new String[1];
            await("the action's answer", () ->
            {
                try
                {
                    status[0] = mvc.perform(get("/api/actions/" + requestId).with(user("viewer").roles("VIEWER")))
                        .andReturn().getResponse().getContentAsString();
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
                return status[0].contains("ACCEPTED");
            });
            assertTrue(status[0].contains("\"commandSequence\":11"));
        }
    }

    @Test
    @Order(4)
    void withoutConfiguredUsersTheServiceRefusesToStart()
    {
        final Exception ex = assertThrows(Exception.class, () -> new SpringApplicationBuilder(
            RiskServiceApplication.class).run("--server.port=0", "--ringex.risk.aeron.embedded-driver=true",
            "--ringex.risk.aeron.dir=" + DIR + "-nousers"));
        Throwable cause = ex;
        while (cause.getCause() != null && !String.valueOf(cause.getMessage()).contains("No users configured"))
        {
            cause = cause.getCause();
        }
        assertTrue(String.valueOf(cause.getMessage()).contains("No users configured"), String.valueOf(ex));
    }

    @Test
    @Order(5)
    void theUsersComeFromTheEnginesEgressAndTheAdminLogFromItsAnswersNeverACredential() throws Exception
    {
        engineSide();
        final String hash = "pbkdf2-sha256:1000:mzOOQOrA1xeNjmldoIrVew==:n2wNjxFlNPIbyt7ckNZKiqkMtPnDR1t5qBB+ZFJ7xiI=";
        try (Subscription ingress = aeron.addSubscription("aeron:ipc", INGRESS);
            ExclusivePublication egress = aeron.addExclusivePublication("aeron:ipc", EGRESS))
        {
            await("the ingress and egress connected", () -> ingress.isConnected() && egress.isConnected());
            // the service follows this (single) engine and hears its egress: it asks for the user directory
            final UserDirectoryRequestDecoder request = new UserDirectoryRequestDecoder();
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            final AtomicLong requestId = new AtomicLong();
            final int[] gatewayId = new int[1];
            await("the user directory request", () ->
            {
                ingress.poll((DirectBuffer buffer, int offset, int length, Header h) ->
                {
                    header.wrap(buffer, offset);
                    if (header.templateId() == UserDirectoryRequestDecoder.TEMPLATE_ID)
                    {
                        request.wrapAndApplyHeader(buffer, offset, header);
                        gatewayId[0] = request.gatewayId();
                        requestId.set(request.requestId());
                    }
                }, 10);
                return requestId.get() != 0;
            });
            assertEquals(65535, gatewayId[0], "the gateway id the service claims (ringex.risk.users.*)");

            publish(egress, events.userDefinition(65535, requestId.get(), "alice", true, new long[] {7}, "ALICE",
                hash, 30));
            publish(egress, events.userDefinition(9, requestId.get(), "mallory", true, new long[] {7}, "", hash, 30));
            publish(egress, events.userDirectoryEnd(65535, requestId.get(), 1, 30));
            publish(egress, events.userDefinition(0, 0, "bob", false, new long[] {7, 8}, "", "", 31));
            await("bob in the user directory", () -> users.user("bob") != null);
            final String list = mvc.perform(get("/api/users").with(user("viewer").roles("VIEWER")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.loaded").value(true))
                .andExpect(jsonPath("$.users.length()").value(2))
                .andExpect(jsonPath("$.users[0].username").value("alice"))
                .andExpect(jsonPath("$.users[0].passwordSet").value(true))
                .andExpect(jsonPath("$.users[0].fixSenderCompId").value("ALICE"))
                .andExpect(jsonPath("$.users[1].username").value("bob"))
                .andExpect(jsonPath("$.users[1].enabled").value(false))
                .andExpect(jsonPath("$.users[1].accounts[1]").value(8))
                .andReturn().getResponse().getContentAsString();
            assertFalse(list.contains("mzOOQOrA1xeNjmldoIrVew"), list);

            // the admin log: an AdminResponse on the risk stream echoing the command it answers
            final CommandEncoder commands = new CommandEncoder().operator("ops1");
            final int length = commands.setUserCredential(900, "bob", hash, "reset at his request");
            publish(risk, events.adminResponse(900, SetUserCredentialDecoder.TEMPLATE_ID, AdminStatus.ACCEPTED,
                RejectReason.NONE, 32, 5, commands.buffer(), length));
            // The log is the Spring context's, shared with the other tests: wait for this answer, not any entry.
            await("SetUserCredential in the admin log", () -> !adminLog.latest(1).isEmpty() &&
                "SetUserCredential".equals(adminLog.latest(1).get(0).command()));
            final String entries = mvc.perform(get("/api/admin-log").with(user("viewer").roles("VIEWER")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].command").value("SetUserCredential"))
                .andExpect(jsonPath("$[0].operator").value("ops1"))
                .andExpect(jsonPath("$[0].operatorSource").value("COMMAND"))
                .andExpect(jsonPath("$[0].reason").value("reset at his request"))
                .andExpect(jsonPath("$[0].status").value("ACCEPTED"))
                .andExpect(jsonPath("$[0].commandSequence").value(32))
                .andExpect(jsonPath("$[0].fields.username").value("bob"))
                .andExpect(jsonPath("$[0].fields.credentialHash").value("(not shown)"))
                .andReturn().getResponse().getContentAsString();
            assertFalse(entries.contains("mzOOQOrA1xeNjmldoIrVew"), entries);
            mvc.perform(get("/api/admin-log?limit=0").with(user("viewer").roles("VIEWER")))
                .andExpect(status().isBadRequest());
        }
    }
}
