package io.ringex.gateway.auth;

import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringex.client.AdminClient;
import io.ringex.client.ExchangeClient;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Users are engine state, and every gateway learns them from the engine: a real engine node and two gateways, one with
 * a user in its configuration (a bootstrap it offers the engine) and one with none. An operator's new user logs on at
 * both; disabling it logs its live sessions out at both (cancelling the orders of a session that asked for that) and
 * refuses its next logon; a gateway started later has the same users.
 */
class EngineUsersIT
{
    private static final String IPC = "aeron:ipc";
    private static final int INSTRUMENT = 1;
    private static final int RISK_STREAM = 2003;
    private static final String DAVE_PASSWORD = "dave-pw-1";

    private MediaDriver driver;
    private Aeron aeron;
    private RealEngineNode engine;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(256 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(closeables);
        CloseHelper.closeAll(engine, aeron, driver);
    }

    @Test
    void aConfiguredUserIsOfferedToTheEngineAndEveryGatewayLetsItIn()
    {
        final Gateway withAlice = gateway(7, TestUsers.ALICE);
        final Gateway empty = gateway(8);

        Await.until("alice reached the engine and the second gateway", () -> empty.users().user("alice") != null,
            null);
        assertTrue(empty.users().configuredUsers().isEmpty());
        assertEquals("ALICE", empty.users().user("alice").fixSenderCompId());
        assertAccepted(logon(empty, "alice", TestUsers.ALICE_PASSWORD, false));
        assertAccepted(logon(withAlice, "alice", TestUsers.ALICE_PASSWORD, false));
        assertRefused(logon(empty, "alice", "not-her-password", false), "INVALID_CREDENTIALS");
    }

    @Test
    void anOperatorsUserLogsOnEverywhereAndDisablingItEndsItsSessionsEverywhere()
    {
        final Gateway first = gateway(7);
        final Gateway second = gateway(8);
        try (AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, RISK_STREAM,
            io.ringex.engine.node.NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            admin.commands().operator("ops-anna");
            assertTrue(admin.request(admin.commands().upsertUser(1, "dave", true,
                new long[]{ TestUsers.BOB_ACCOUNT }, "", false, 0, "new trader")).accepted());
            assertTrue(admin.request(admin.commands().setUserCredential(2, "dave",
                CredentialHash.hash(DAVE_PASSWORD.toCharArray(), 1000), "first password")).accepted());

            Await.until("both gateways know dave's password", () -> canLogOn(first, "dave") &&
                canLogOn(second, "dave"), null);
            final Session atFirst = logon(first, "dave", DAVE_PASSWORD, true);
            assertAccepted(atFirst);
            final Session atSecond = logon(second, "dave", DAVE_PASSWORD, false);
            assertAccepted(atSecond);
            Await.until("order sent", () -> atFirst.client.order().account(TestUsers.BOB_ACCOUNT).clientOrderId("d1")
                .instrument(INSTRUMENT).buy()
                .limit(9_000).quantity(1).send() > 0, atFirst.client::poll);
            Await.until("order resting", () -> null != atFirst.listener.report(r -> "d1".equals(r.clientOrderId()) &&
                "NEW".equals(r.execType())), atFirst.client::poll);

            assertTrue(admin.request(admin.commands().upsertUser(3, "dave", false,
                new long[]{ TestUsers.BOB_ACCOUNT }, "", false, 0, "left the firm")).accepted());

            Await.until("dave logged out at the first gateway", () -> atFirst.listener.logouts.contains(
                "USER_DISABLED"), atFirst.client::poll);
            Await.until("dave logged out at the second gateway", () -> atSecond.listener.logouts.contains(
                "USER_DISABLED"), atSecond.client::poll);
            Await.until("the session that asked for it had its orders cancelled", () -> engine.commandLog().stream()
                .anyMatch(line -> line.startsWith("MassCancel") && line.contains("cod=TRUE")), null);
            assertFalse(second.users().user("dave").enabled());
            // Told why with the right password only: a wrong one learns nothing of the user.
            assertRefused(logon(second, "dave", DAVE_PASSWORD, false), "USER_DISABLED");
            assertRefused(logon(second, "dave", "not-" + DAVE_PASSWORD, false), "INVALID_CREDENTIALS");

            // A gateway started now learns the same users from the engine.
            final Gateway later = gateway(9);
            Await.until("the later gateway has the users", () -> later.users().loaded(), null);
            assertFalse(later.users().user("dave").enabled());
            assertNull(later.users().user("alice"), "nobody offered alice to this engine");
        }
    }

    private static boolean canLogOn(final Gateway gateway, final String username)
    {
        final User user = gateway.users().user(username);
        return null != user && user.enabled() && !user.credentialHash().isEmpty();
    }

    private Gateway gateway(final int gatewayId, final User... users)
    {
        final String channel = "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort();
        final GatewayContext ctx = new GatewayContext()
            .gatewayId(gatewayId)
            .aeronDirectoryName(driver.aeronDirectoryName())
            .clientChannel(channel).clientStreamId(2001)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .fixEnabled(false)
            .sbeResponseTermLength(64 * 1024)
            .logonPolicy(new LogonPolicy(50, 50, 60_000, 900_000, 50, 64, 10_000))
            .adminKey(NodeTestSupport.ADMIN_KEYS.keys().get(0));
        for (final User user : users)
        {
            ctx.addUser(user);
        }
        ctx.conclude();
        final AgentRunner runner = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null,
            new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE));
        AgentRunner.startOnThread(runner);
        closeables.add(ctx);
        closeables.add(0, runner);
        return new Gateway(ctx, channel);
    }

    private Session logon(final Gateway gateway, final String user, final String password, final boolean cod)
    {
        final RecordingListener listener = new RecordingListener();
        final ExchangeClient client = ExchangeClient.openChannels(aeron, gateway.channel, 2001,
            "aeron:udp?endpoint=localhost:" + NodeTestSupport.freeUdpPort(), 3001, listener);
        closeables.add(0, client);
        Await.until("connected", client::isConnected, client::poll);
        Await.until("logon sent", () -> client.logon(user, password, cod, 1_000) > 0, client::poll);
        Await.until("logon answered", () -> !listener.logons.isEmpty(), client::poll);
        return new Session(client, listener);
    }

    private static void assertAccepted(final Session session)
    {
        assertEquals("ACCEPTED", session.listener.logons.get(0).status(), session.listener.logons.toString());
    }

    private static void assertRefused(final Session session, final String reason)
    {
        assertEquals("REJECTED", session.listener.logons.get(0).status());
        assertEquals(reason, session.listener.logons.get(0).reason());
    }

    private record Gateway(GatewayContext ctx, String channel)
    {
        UserDirectory users()
        {
            return ctx.users();
        }
    }

    private record Session(ExchangeClient client, RecordingListener listener)
    {
    }
}
