package io.ringex.risk.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
import io.ringex.client.CommandEncoder;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.risk.actions.ActionService;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;
import io.ringex.risk.model.Views;
import io.ringex.testing.Await;

/**
 * The risk service following a real three-member engine cluster: three engine nodes in this process, each an Aeron
 * Cluster member on a media driver of its own, reached by the service over UDP as in a deployment (each member's
 * ingress and outbound channel under {@code ringex.risk.members[n]}). The leader takes a venue, a user and a trade
 * through the service and the members' ingress; it is closed; the cluster elects another leader by itself and the
 * dashboard follows it with nothing asked of anyone: engine health names the new leader and its term and marks the
 * lost member stale, the account's position after a trade on the new leader, the user directory asked again of it,
 * and admin actions (a user disabled, a halt) that the new leader accepts.
 */
@SpringBootTest
@AutoConfigureMockMvc
@ActiveProfiles("demo")
class RiskClusterFailoverIT
{
    private static final String DIR = "/dev/shm/ringex-risk-cluster-it-" + UUID.randomUUID();
    private static final int MEMBERS = EngineCluster.MEMBERS;
    private static final EngineCluster CLUSTER = new EngineCluster();
    private static final long SESSION = SessionIds.sessionId(1, 1);
    private static final long MONEY_UNIT = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long MAKER = 1001;
    private static final long TRADER = 1003;

    @TempDir
    Path directory;

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
    private final AdminCommandSigner signer = new AdminCommandSigner(NodeTestSupport.ADMIN_KEYS.keys().get(0));
    private final org.agrona.concurrent.UnsafeBuffer signed =
        new org.agrona.concurrent.UnsafeBuffer(new byte[AdminCommandSigner.signedLength(1024)]);
    private final Publication[] ingress = new Publication[MEMBERS];
    private Aeron aeron;
    private long requestId;
    private long clientOrderId;

    @DynamicPropertySource
    static void cluster(final DynamicPropertyRegistry registry)
    {
        registry.add("ringex.risk.aeron.embedded-driver", () -> "true");
        registry.add("ringex.risk.aeron.dir", () -> DIR);
        registry.add("ringex.risk.engine.status-timeout", () -> "1s");
        registry.add("ringex.risk.actions.offer-timeout", () -> "200ms");
        registry.add("ringex.risk.actions.admin-key-file",
            () -> NodeTestSupport.writeAdminKeys(Path.of(DIR + "-keys")).toString());
        CLUSTER.serviceKeys().forEach((key, value) -> registry.add(key, () -> value));
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(aeron, CLUSTER);
    }

    @Test
    void whenTheLeaderIsLostTheDashboardFollowsTheMemberTheClusterElectsWithoutAPromotion() throws Exception
    {
        final long startNs = System.nanoTime();
        CLUSTER.start(directory);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(connection.aeronDirectoryName()));
        for (int i = 0; i < MEMBERS; i++)
        {
            ingress[i] = aeron.addExclusivePublication(CLUSTER.ingressChannel(i), EngineCluster.INGRESS_STREAM);
        }

        final int leader = awaitLeader(-1);
        await("the two others seen as followers in the leader's term", () -> followers(leader) == MEMBERS - 1);
        final long firstTerm = model.engine(false).epoch();
        installVenue(ingress[leader]);
        await("the leader's user directory", () -> users.users().loaded() && users.users().engine() == leader);
        final String created = mvc.perform(admin(post("/api/admin/users/create")).content("{\"username\":" +
            "\"clusteruser\",\"password\":\"cluster-password-1\",\"accounts\":[1003],\"fixSenderCompId\":\"\"," +
            "\"fixCancelOnDisconnect\":true,\"throttleMessagesPerSecond\":0,\"enabled\":true," +
            "\"reason\":\"cluster test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        final Matcher ids = Pattern.compile("\"requestId\":(\\d+)").matcher(created);
        int answered = 0;
        while (ids.find())
        {
            final long id = Long.parseLong(ids.group(1));
            await("user creation " + id + " accepted by the leader", () -> "ACCEPTED".equals(actions.find(id)
                .status()));
            answered++;
        }
        assertEquals(2, answered, "UpsertUser and SetUserCredential");
        await("the new user in the directory", () -> users.user("clusteruser") != null &&
            users.user("clusteruser").passwordSet());
        offer(ingress[leader], commands.limit(SESSION, MAKER, ++clientOrderId, 1, Side.SELL, 10_001, 10), false);
        offer(ingress[leader], market(TRADER, Side.BUY, 3), false);
        await("account 1003's position of 3 from the first leader", () -> position(TRADER) == 3);
        await("every member's commit past the trade, lagging nothing behind the leader's", () ->
        {
            final Views.EngineView engine = model.engine(false);
            for (final Views.NodeView node : engine.nodes())
            {
                if (node.committedSequence() == null || node.processorCommitLag() == null ||
                    node.processorCommitLag() != 0 || node.committedSequence() < engine.sequences().get("processor"))
                {
                    return false;
                }
            }
            return true;
        });
        mvc.perform(get("/api/engine").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.followedEngine").value(leader))
            .andExpect(jsonPath("$.nodes.length()").value(MEMBERS))
            .andExpect(jsonPath("$.nodes[" + leader + "].followed").value(true))
            .andExpect(jsonPath("$.nodes[" + leader + "].role").value("PRIMARY"))
            .andExpect(jsonPath("$.nodes[" + leader + "].name").value("members[" + leader + "]"));

        // The leader is lost. No one promotes anything: the cluster elects another and the dashboard follows it.
        CLUSTER.stop(leader);
        final int next = awaitLeader(leader);
        assertNotEquals(leader, next);
        await("the user directory asked again, of the new leader", () -> users.users().loaded() &&
            users.users().engine() == next);
        assertTrue(users.user("clusteruser").passwordSet(), "the new leader holds the user the old one created");

        // A trade on the new leader reaches the dashboard, and the account is complete once it lists it.
        offer(ingress[next], market(TRADER, Side.BUY, 2), false);
        await("account 1003's position of 5 from the new leader, complete", () -> position(TRADER) == 5 &&
            model.account(TRADER).summary().positionsComplete());

        // Admin actions go to the new leader, which accepts them.
        final String disabled = mvc.perform(admin(post("/api/admin/users/enabled"))
            .content("{\"username\":\"clusteruser\",\"enabled\":false,\"reason\":\"cluster test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        await("the disable accepted by the new leader", () -> "ACCEPTED".equals(actions.find(requestId(disabled))
            .status()));
        await("the new leader's broadcast in the directory", () -> !users.user("clusteruser").enabled());
        final String halt = mvc.perform(officer(post("/api/actions/trading-status"))
            .content("{\"instrumentId\":1,\"status\":\"HALTED\",\"reason\":\"cluster test\"}"))
            .andExpect(status().isAccepted())
            .andReturn().getResponse().getContentAsString();
        await("the halt accepted by the new leader", () -> "ACCEPTED".equals(actions.find(requestId(halt)).status()));
        await("instrument 1 HALTED", () -> "HALTED".equals(model.instrument(1).summary().status()));

        // Engine health: the new leader in a later term, the lost member stale.
        await("the lost member marked stale", () -> !model.engine(false).nodes().get(leader).up());
        final Views.EngineView engine = model.engine(false);
        assertEquals(next, engine.followedEngine());
        assertEquals(next + 1, engine.nodeId());
        assertTrue(engine.epoch() > firstTerm, "a later term: " + engine.epoch() + " after " + firstTerm);
        final Views.NodeView follower = engine.nodes().get(3 - leader - next);
        assertEquals("STANDBY", follower.role());
        assertEquals(engine.epoch(), follower.epoch(), "the remaining follower in the new leader's term");
        assertNotNull(follower.processorCommitLag());
        mvc.perform(get("/api/engine").with(user("viewer").roles("VIEWER")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.nodeId").value(next + 1))
            .andExpect(jsonPath("$.role").value("PRIMARY"))
            .andExpect(jsonPath("$.followedEngine").value(next))
            .andExpect(jsonPath("$.nodes[" + next + "].followed").value(true))
            .andExpect(jsonPath("$.nodes[" + leader + "].followed").value(false))
            .andExpect(jsonPath("$.nodes[" + leader + "].up").value(false));
        System.out.printf("RiskClusterFailoverIT: %.1f s%n", (System.nanoTime() - startNs) / 1e9);
    }

    /** The member the service follows, once it is the one leading and none but it is followed. */
    private int awaitLeader(final int not)
    {
        final int[] found = {PrimarySelector.NONE};
        await("the service to follow the member that leads" + (not < 0 ? "" : ", not member " + not), () ->
        {
            final int followed = model.followedEngine();
            found[0] = followed;
            return followed != PrimarySelector.NONE && followed != not && CLUSTER.leader() == followed;
        });
        return found[0];
    }

    private int followers(final int leader)
    {
        final Views.EngineView engine = model.engine(false);
        int count = 0;
        for (final Views.NodeView node : engine.nodes())
        {
            if (node.engine() != leader && node.up() && "STANDBY".equals(node.role()) &&
                node.epoch() == engine.epoch())
            {
                count++;
            }
        }
        return count;
    }

    private void installVenue(final Publication leader)
    {
        offer(leader, commands.addInstrument(++requestId, 1, "RGX-USD", 2, 1, 1, 10_000, PriceBandType.BASIS_POINTS,
            1_000), true);
        for (final long account : new long[] {MAKER, TRADER})
        {
            offer(leader, commands.addAccount(++requestId, account, SelfTradePrevention.CANCEL_NEWEST), true);
            offer(leader, commands.setLimits(++requestId, account, 1_000, 1_000_000 * MONEY_UNIT,
                100_000 * MONEY_UNIT, 1_000, 50, account == MAKER, new int[0], new long[0]), true);
            offer(leader, commands.adjustBalance(++requestId, account, 1_000_000 * MONEY_UNIT), true);
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
        // An operator's command goes signed with a key the members hold, signed again at each try.
        await("the command offered on " + publication.channel(), () -> (asAdmin ?
            publication.offer(signed, 0, signer.sign(commands.buffer(), 0, length, signed, 0)) :
            publication.offer(commands.buffer(), 0, length)) > 0);
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

    private String describe()
    {
        final StringBuilder out = new StringBuilder("followed=").append(model.followedEngine());
        for (final Views.NodeView node : model.engine(false).nodes())
        {
            out.append(" | ").append(node.name()).append(" node ").append(node.nodeId()).append(' ')
                .append(node.role()).append(" term ").append(node.epoch()).append(" up=").append(node.up())
                .append(" committed=").append(node.committedSequence()).append(" processed=")
                .append(node.processorSequence());
        }
        return out.toString();
    }

    private void await(final String what, final BooleanSupplier condition)
    {
        Await.until(what, TIMEOUT, condition, null, this::describe);
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
}
