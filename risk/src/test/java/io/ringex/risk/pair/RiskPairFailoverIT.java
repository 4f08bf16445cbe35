package io.ringex.risk.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringex.client.AdminCommandSigner;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.risk.actions.ActionService;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.protocol.PrimarySelector;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.model.Views;

/**
 * The risk service following a real replicated pair: two engine nodes (SYNC replication over UDP loopback, every
 * client-facing stream on IPC with its own stream ids, as in the engine's {@code StandbyCatchUpIT}) on the service's
 * embedded media driver, the service configured with both ({@code ringex.risk.streams.*} and
 * {@code ringex.risk.standby.*}). The primary takes a trade; it is closed; while no primary is known an admin action
 * is refused 503; the standby is promoted through the service's own REST action; the dashboard then follows it: an
 * account's position after a trade made on the new primary, engine health with the new primary at epoch 1, and a
 * halt that the new primary accepts.
 */
@SpringBootTest
@AutoConfigureMockMvc
@ActiveProfiles("demo")
class RiskPairFailoverIT
{
    private static final String DIR = "/dev/shm/ringex-risk-pair-it-" + UUID.randomUUID();
    private static final String IPC = "aeron:ipc";
    /** Stream bases of the nodes of {@link NodeTestSupport#symmetricPair}: node 1 at 1001-1020, node 2 at 3001-3020. */
    private static final int[] BASE = {1000, 3000};
    private final AdminCommandSigner signer = new AdminCommandSigner(NodeTestSupport.ADMIN_KEYS.keys().get(0));
    private final org.agrona.concurrent.UnsafeBuffer signed =
        new org.agrona.concurrent.UnsafeBuffer(new byte[AdminCommandSigner.signedLength(4096)]);
    private static final long SESSION = SessionIds.sessionId(1, 1);
    private static final long MONEY_UNIT = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(15);
    private static final long MAKER = 1001;
    private static final long TRADER = 1003;

    @Autowired
    private MockMvc mvc;

    @Autowired
    private RiskReadModel model;

    @Autowired
    private ActionService actions;

    @Autowired
    private AeronConnection connection;

    @Autowired
    private UserDirectory users;

    private final CommandEncoder commands = new CommandEncoder();
    private Path dataDirectory;
    private EngineNode primary;
    private EngineNode standby;
    private Aeron aeron;
    private long requestId;
    private long clientOrderId;

    @DynamicPropertySource
    static void pair(final DynamicPropertyRegistry registry)
    {
        registry.add("ringex.risk.aeron.embedded-driver", () -> "true");
        registry.add("ringex.risk.aeron.dir", () -> DIR);
        registry.add("ringex.risk.engine.status-timeout", () -> "1s");
        registry.add("ringex.risk.actions.offer-timeout", () -> "200ms");
        registry.add("ringex.risk.streams.ingress-channel", () -> IPC);
        registry.add("ringex.risk.streams.ingress-stream-id", () -> BASE[0] + 1);
        registry.add("ringex.risk.streams.market-data-channel", () -> IPC);
        registry.add("ringex.risk.streams.market-data-stream-id", () -> BASE[0] + 3);
        registry.add("ringex.risk.streams.risk-channel", () -> IPC);
        registry.add("ringex.risk.streams.risk-stream-id", () -> BASE[0] + 4);
        registry.add("ringex.risk.streams.control-channel", () -> IPC);
        registry.add("ringex.risk.streams.control-stream-id", () -> BASE[0] + 20);
        registry.add("ringex.risk.standby.ingress-channel", () -> IPC);
        registry.add("ringex.risk.standby.ingress-stream-id", () -> BASE[1] + 1);
        registry.add("ringex.risk.standby.risk-channel", () -> IPC);
        registry.add("ringex.risk.standby.risk-stream-id", () -> BASE[1] + 4);
        registry.add("ringex.risk.standby.market-data-stream-id", () -> BASE[1] + 3);
        registry.add("ringex.risk.standby.control-channel", () -> IPC);
        registry.add("ringex.risk.standby.control-stream-id", () -> BASE[1] + 20);
        registry.add("ringex.risk.streams.egress-stream-id", () -> BASE[0] + 2);
        registry.add("ringex.risk.standby.egress-stream-id", () -> BASE[1] + 2);
        // the service signs its admin commands with the key the test's nodes hold
        registry.add("ringex.risk.actions.admin-key-file", () -> NodeTestSupport.writeAdminKeys(
            java.nio.file.Path.of(DIR + "-keys")).toString());
    }

    @AfterEach
    void close() throws IOException
    {
        CloseHelper.quietCloseAll(aeron, primary, standby);
        if (dataDirectory != null)
        {
            try (Stream<Path> paths = Files.walk(dataDirectory))
            {
                paths.sorted(Comparator.reverseOrder()).forEach((p) -> p.toFile().delete());
            }
        }
    }

    @Test
    void afterAFailoverPromotedThroughTheDashboardItShowsAndActsOnTheNewPrimary() throws Exception
    {
        final long startNs = System.nanoTime();
        dataDirectory = Files.createTempDirectory("ringex-risk-pair-it-");
        final EngineContext[] pair = NodeTestSupport.symmetricPair(connection.aeronDirectoryName(), dataDirectory, "");
        for (final EngineContext node : pair)
        {
            node.statusIntervalNs(TimeUnit.MILLISECONDS.toNanos(100));
        }
        standby = EngineNode.launch(pair[1]);
        primary = EngineNode.launch(pair[0]);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(connection.aeronDirectoryName()));
        final Publication[] ingress = {
            aeron.addExclusivePublication(IPC, BASE[0] + 1), aeron.addExclusivePublication(IPC, BASE[1] + 1)};

        await("the service to follow node 1 and see node 2 as standby", () -> model.followedEngine() == 0 &&
            "STANDBY".equals(model.engine(false).nodes().get(1).role()));
        installVenue(ingress[0]);
        await("node 1's user directory", () -> users.users().loaded() && users.users().engine() == 0);
        final String created = mvc.perform(admin(post("/api/admin/users/create")).content("{\"username\":" +
            "\"pairuser\",\"password\":\"pair-password-1\",\"accounts\":[1003],\"fixSenderCompId\":\"\"," +
            "\"fixCancelOnDisconnect\":true,\"throttleMessagesPerSecond\":0,\"enabled\":true," +
            "\"reason\":\"pair test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        final Matcher ids = Pattern.compile("\"requestId\":(\\d+)").matcher(created);
        int answered = 0;
        while (ids.find())
        {
            final long id = Long.parseLong(ids.group(1));
            await("user creation " + id + " accepted by node 1", () -> "ACCEPTED".equals(actions.find(id).status()));
            answered++;
        }
        assertEquals(2, answered, "UpsertUser and SetUserCredential");
        await("the new user in the directory", () -> users.user("pairuser") != null &&
            users.user("pairuser").passwordSet());
        offer(ingress[0], commands.limit(SESSION, MAKER, ++clientOrderId, 1, Side.SELL, 10_001, 10), false);
        offer(ingress[0], market(TRADER, Side.BUY, 3), false);
        await("account 1003's position of 3 from node 1", () -> position(TRADER) == 3);

        // The primary may not be promoted: it is the primary.
        mvc.perform(officer(post("/api/actions/promote")).content("{\"nodeId\":1,\"epoch\":0,\"reason\":\"test\"}"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.error").value("IS_PRIMARY"));

        primary.close();
        primary = null;
        await("the silent primary no longer followed", () -> model.followedEngine() == PrimarySelector.NONE);
        mvc.perform(officer(post("/api/actions/trading-status"))
                .content("{\"instrumentId\":1,\"status\":\"HALTED\",\"reason\":\"test\"}"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(jsonPath("$.error").value("NO_PRIMARY"));

        final String promotion = mvc.perform(officer(post("/api/actions/promote"))
            .content("{\"nodeId\":0,\"epoch\":0,\"reason\":\"node 1 down\"}"))
            .andExpect(status().isAccepted())
            .andExpect(jsonPath("$.target").value("node 2 to epoch 1"))
            .andReturn().getResponse().getContentAsString();
        await("node 2 promoted", () -> standby.role() == NodeRole.PRIMARY);
        await("the service to follow node 2", () -> model.followedEngine() == 1);
        assertEquals("ACCEPTED", actions.find(requestId(promotion)).status());
        await("the user directory asked again, of node 2", () -> users.users().loaded() &&
            users.users().engine() == 1);
        assertTrue(users.user("pairuser").passwordSet(), "node 2 holds the user node 1 created");
        final String disabled = mvc.perform(admin(post("/api/admin/users/enabled"))
            .content("{\"username\":\"pairuser\",\"enabled\":false,\"reason\":\"pair test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        await("the disable accepted by node 2", () -> "ACCEPTED".equals(actions.find(requestId(disabled)).status()));
        await("node 2's broadcast in the directory", () -> !users.user("pairuser").enabled());

        // A trade on the new primary reaches the dashboard.
        offer(ingress[1], market(TRADER, Side.BUY, 2), false);
        await("account 1003's position of 5 from node 2", () -> position(TRADER) == 5);
        mvc.perform(get("/api/engine").with(user("viewer").roles("VIEWER")))
            .andExpect(jsonPath("$.nodeId").value(2))
            .andExpect(jsonPath("$.role").value("PRIMARY"))
            .andExpect(jsonPath("$.epoch").value(1))
            .andExpect(jsonPath("$.followedEngine").value(1))
            .andExpect(jsonPath("$.nodes[1].followed").value(true))
            .andExpect(jsonPath("$.nodes[1].epoch").value(1))
            .andExpect(jsonPath("$.nodes[0].up").value(false));

        // An admin action reaches the new primary: the halt is accepted, and the instrument shows HALTED.
        final String halt = mvc.perform(officer(post("/api/actions/trading-status"))
            .content("{\"instrumentId\":1,\"status\":\"HALTED\",\"reason\":\"test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        await("the halt accepted by node 2", () -> "ACCEPTED".equals(actions.find(requestId(halt)).status()));
        await("instrument 1 HALTED", () -> "HALTED".equals(model.instrument(1).summary().status()));
        System.out.printf("RiskPairFailoverIT: %.1f s%n", (System.nanoTime() - startNs) / 1e9);
    }

    private void installVenue(final Publication ingress)
    {
        offer(ingress, commands.addInstrument(++requestId, 1, "RGX-USD", 2, 1, 1, 10_000, PriceBandType.BASIS_POINTS,
            1_000), true);
        for (final long account : new long[] {MAKER, TRADER})
        {
            offer(ingress, commands.addAccount(++requestId, account, SelfTradePrevention.CANCEL_NEWEST), true);
            offer(ingress, commands.setLimits(++requestId, account, 1_000, 1_000_000 * MONEY_UNIT,
                100_000 * MONEY_UNIT, 1_000, 50, account == MAKER, new int[0], new long[0]), true);
            offer(ingress, commands.adjustBalance(++requestId, account, 1_000_000 * MONEY_UNIT), true);
        }
        await("both accounts on the dashboard", () -> model.account(MAKER) != null && model.account(TRADER) != null);
    }

    private int market(final long accountId, final Side side, final long quantity)
    {
        return commands.newOrder(SESSION, accountId, ++clientOrderId, 1, side, OrderType.MARKET, TimeInForce.IOC,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, 0, quantity);
    }

    private void offer(final Publication publication, final int length, final boolean asAdmin)
    {
        if (asAdmin)
        {
            // an operator's command goes signed with the tests' admin key, which the nodes hold
            final int signedLength = signer.sign(commands.buffer(), 0, length, signed, 0);
            await("the command offered on " + publication.streamId(),
                () -> publication.offer(signed, 0, signedLength) > 0);
        }
        else
        {
            await("the command offered on " + publication.streamId(),
                () -> publication.offer(commands.buffer(), 0, length) > 0);
        }
    }

    private long position(final long accountId)
    {
        final Views.AccountDetail account = model.account(accountId);
        if (account == null)
        {
            return -1;
        }
        return account.positions().stream().filter((p) -> p.instrumentId() == 1)
            .mapToLong(Views.PositionView::position).findFirst().orElse(0);
    }

    private static MockHttpServletRequestBuilder admin(final MockHttpServletRequestBuilder request)
    {
        return request.with(user("admin").roles("ADMIN")).with(csrf()).contentType(MediaType.APPLICATION_JSON);
    }

    private static MockHttpServletRequestBuilder officer(final MockHttpServletRequestBuilder request)
    {
        return request.with(user("officer").roles("RISK_OFFICER")).with(csrf()).contentType(MediaType.APPLICATION_JSON);
    }

    private static long requestId(final String body)
    {
        return Long.parseLong(body.replaceAll(".*\"requestId\":(\\d+).*", "$1"));
    }

    private static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
