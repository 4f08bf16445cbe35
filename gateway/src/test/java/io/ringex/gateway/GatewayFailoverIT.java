package io.ringex.gateway;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.ringex.client.AdminClient;
import io.ringex.client.ExchangeClient;
import io.ringex.gateway.auth.CredentialHash;
import io.ringex.gateway.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.ReplicatedEnginePair;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.header;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One gateway following a real replicated engine pair (UDP loopback, SYNC replication) through a failover: an SBE
 * client (alice, {@link ExchangeClient}) and a FIX client (bob, QuickFIX/J) trade on the primary; the primary is closed
 * and the standby promoted; both clients are still logged on without logging on again, the orders acknowledged before
 * are on the new primary (cancelling them succeeds) and new orders fill through the same gateway. The nodes publish
 * their periodic status only every 5 s, so the gateway switching within a second of the promotion shows the promoted
 * node announced its new role at once.
 */
class GatewayFailoverIT
{
    private static final int INSTRUMENT = 1;
    private static final String IPC = "aeron:ipc";
    private static final int GATEWAY_ID = 5;

    @TempDir
    Path tempDir;

    private GatewayContext ctx;
    private Gateway gateway;
    private ReplicatedEnginePair engines;
    private Aeron aeron;
    private ExchangeClient alice;
    private FixTestClient fix;

    @BeforeEach
    void setUp() throws Exception
    {
        final String aeronDir = CommonContext.generateRandomDirName();
        final int port = freePort();
        ctx = TestGateways.fix(GATEWAY_ID, aeronDir, tempDir, port)
            .embeddedDriver(true)
            .engineStatusTimeoutMs(3 * TimeUnit.NANOSECONDS.toMillis(ReplicatedEnginePair.STATUS_INTERVAL_NS))
            .addInstrument(INSTRUMENT, "BTC-USD", 2)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB);
        // The gateway launches the media driver the engines then share.
        engines = new ReplicatedEnginePair(aeronDir, tempDir.resolve("engines"));
        final EngineEndpoint primary = engines.primaryEndpoint();
        ctx.engineIngressChannel(primary.ingressChannel()).engineIngressStreamId(primary.ingressStreamId())
            .engineEgressChannel(primary.egressChannel()).engineEgressStreamId(primary.egressStreamId())
            .marketDataChannel(primary.marketDataChannel()).marketDataStreamId(primary.marketDataStreamId())
            .marketDataRequestChannel(primary.marketDataRequestChannel())
            .engineStatusStreamId(primary.statusStreamId())
            .addEngine(engines.standbyEndpoint());
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engines.launch(new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        Await.until("the gateway follows the primary and knows BTC-USD", () -> switches() >= 1 &&
            gateway.fixAgent().isLibraryConnected() &&
            gateway.fixAgent().instrumentCount() >= 1, null);
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
        fix = new FixTestClient(port);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(alice, fix, gateway, engines, aeron);
    }

    @Test
    void clientsStayLoggedOnAndTradeThroughTheSameGatewayAfterTheStandbyIsPromoted() throws Exception
    {
        final RecordingListener sbe = new RecordingListener();
        alice = ExchangeClient.connect(aeron, IPC, 2001, IPC, 3001, sbe);
        Await.until("alice connected", alice::isConnected, alice::poll);
        Await.until("alice logon sent", () -> alice.logon("alice", TestUsers.ALICE_PASSWORD, false, 1000) > 0, null);
        Await.until("alice logged on", alice::isLoggedOn, alice::poll);
        final SessionID bob = fix.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
        fix.start();
        Await.until("bob logged on", () -> fix.isLoggedOn(bob), alice::poll);

        // On the primary: a trade between them, and one resting order each.
        alice.newOrder(TestUsers.ALICE_ACCOUNT, "A1", INSTRUMENT, Side.SELL, OrderType.LIMIT, TimeInForce.GTC,
            10000, 1);
        awaitReport(sbe, "A1", "NEW");
        fix.send(bob, order("B1", quickfix.field.Side.BUY, "1", "100"));
        awaitFix(bob, "bob filled on the primary", "B1", "F");
        awaitReport(sbe, "A1", "FILL");
        alice.newOrder(TestUsers.ALICE_ACCOUNT, "A2", INSTRUMENT, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
            9900, 1);
        awaitReport(sbe, "A2", "NEW");
        fix.send(bob, order("B2", quickfix.field.Side.SELL, "1", "101"));
        awaitFix(bob, "bob's resting order acknowledged", "B2", "0");

        final long acknowledged = engines.primary().processedSequence();
        Await.until("the standby holds every acknowledged command",
            () -> engines.standby().processedSequence() >= acknowledged, alice::poll);
        final long switchesBefore = switches();
        final long killedNs = System.nanoTime();
        engines.closePrimary();
        engines.promoteStandby(7);
        assertEquals(NodeRole.PRIMARY, engines.standby().role());
        final long promotedNs = System.nanoTime();
        Await.until("the gateway follows the new primary",
            () -> switches() > switchesBefore, alice::poll);
        final long switchMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promotedNs);
        assertTrue(switchMs < 1000, "the gateway followed the promoted node only after " + switchMs + " ms");

        // The orders acknowledged by the old primary are on the new one: cancelling them succeeds.
        alice.cancel(TestUsers.ALICE_ACCOUNT, "A3", "A2", 0, INSTRUMENT);
        awaitReport(sbe, "A3", "CANCELED");
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID("B2"), new ClOrdID("B3"),
            new quickfix.field.Side(quickfix.field.Side.SELL), now());
        cancel.set(new Symbol("BTC-USD"));
        cancel.setString(OrderQty.FIELD, "1");
        fix.send(bob, cancel);
        awaitFix(bob, "bob's order cancelled on the new primary", "B3", "4");

        // New orders fill through the same gateway, on the same sessions.
        alice.newOrder(TestUsers.ALICE_ACCOUNT, "A4", INSTRUMENT, Side.SELL, OrderType.LIMIT, TimeInForce.GTC,
            10000, 2);
        awaitReport(sbe, "A4", "NEW");
        fix.send(bob, order("B4", quickfix.field.Side.BUY, "2", "100"));
        awaitFix(bob, "bob filled on the new primary", "B4", "F");
        awaitReport(sbe, "A4", "FILL");
        System.out.printf("GATEWAY FAILOVER: primary closed -> both clients filled on the new primary in %.1f ms " +
            "(gateway followed the promoted node %d ms after its promotion)%n", (System.nanoTime() - killedNs) / 1e6,
            switchMs);

        // Nobody logged on again, nothing was refused for want of a primary, and nothing was reported twice.
        assertTrue(alice.isLoggedOn());
        assertTrue(fix.isLoggedOn(bob));
        assertEquals(1, sbe.logons.size(), sbe.logons.toString());
        assertTrue(sbe.logouts.isEmpty(), sbe.logouts.toString());
        assertEquals(1, fix.receivedAdmin(bob).stream().filter(m -> "A".equals(header(m, MsgType.FIELD))).count(),
            fix.receivedAdmin(bob).toString());
        assertTrue(sbe.businessRejects.isEmpty(), sbe.businessRejects.toString());
        assertEquals(1, sbe.reports.stream().filter(r -> r.clientOrderId().equals("A1") &&
            r.execType().equals("FILL")).count(), sbe.reports.toString());
        assertEquals(1, fix.find(bob, is("8", 150, "F")).stream().filter(m -> "B1".equals(field(m, 11))).count());
    }

    /**
     * Users are engine state: a user an operator created on the primary is on the promoted standby, which answers
     * the gateway's directory request after the switch, and a change made there reaches the same gateway.
     */
    @Test
    void aUserCreatedOnThePrimaryLogsOnThroughTheSameGatewayAfterThePromotion()
    {
        try (AdminClient admin = engines.admin(aeron))
        {
            admin.commands().operator("ops-anna");
            assertTrue(admin.request(admin.commands().upsertUser(101, "erin", true,
                new long[]{ TestUsers.BOB_ACCOUNT }, "", false, 0, "new trader")).accepted());
            assertTrue(admin.request(admin.commands().setUserCredential(102, "erin",
                CredentialHash.hash("erin-1".toCharArray(), 1000), "first password")).accepted());
        }
        final long acknowledged = engines.primary().processedSequence();
        Await.until("the standby holds the users", () -> engines.standby().processedSequence() >= acknowledged, null);
        final long switchesBefore = switches();
        engines.closePrimary();
        engines.promoteStandby(7);
        Await.until("the gateway follows the new primary", () -> switches() > switchesBefore, null);

        try (AdminClient admin = engines.admin(aeron))
        {
            // UNKNOWN_USER unless the promoted node holds erin.
            admin.commands().operator("ops-anna");
            assertTrue(admin.request(admin.commands().setUserCredential(103, "erin",
                CredentialHash.hash("erin-2".toCharArray(), 1000), "rotated after the failover")).accepted());
        }
        final RecordingListener listener = new RecordingListener();
        alice = ExchangeClient.connect(aeron, IPC, 2001, IPC, 3002, listener);
        Await.until("erin connected", alice::isConnected, alice::poll);
        Await.until("the new primary's change reached the gateway", () -> null != ctx.users().user("erin") &&
            ctx.users().user("erin").verify("erin-2"), null);
        Await.until("erin's logon sent", () -> alice.logon("erin", "erin-2", false, 1000) > 0, alice::poll);
        Await.until("erin's logon answered", () -> !listener.logons.isEmpty(), alice::poll);
        assertEquals("ACCEPTED", listener.logons.get(0).status());
    }

    private void awaitReport(final RecordingListener listener, final String clientOrderId, final String execType)
    {
        Await.until(clientOrderId + " " + execType, () -> listener.report(r ->
            r.clientOrderId().equals(clientOrderId) && r.execType().equals(execType)) != null, alice::poll);
    }

    private Message awaitFix(final SessionID id, final String what, final String clOrdId, final String execType)
    {
        Await.until(what, () -> !fix.find(id, is("8", 150, execType)).stream()
            .filter(m -> clOrdId.equals(field(m, 11))).toList().isEmpty(), alice::poll);
        return fix.find(id, is("8", 150, execType)).get(0);
    }

    /** The gateway's one link to the engines, shared by its SBE and FIX sides, switches primary once for both. */
    private long switches()
    {
        final String label = "ringex-gateway-" + GATEWAY_ID + " primary switches";
        final CountersReader counters = aeron.countersReader();
        final long[] value = { -1 };
        counters.forEach((counterId, typeId, keyBuffer, counterLabel) ->
        {
            if (counterLabel.equals(label))
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    private static NewOrderSingle order(final String clOrdId, final char side, final String qty, final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new quickfix.field.Side(side), now(),
            new OrdType(OrdType.LIMIT));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, price);
        m.set(new quickfix.field.TimeInForce(quickfix.field.TimeInForce.GOOD_TILL_CANCEL));
        return m;
    }

    private static TransactTime now()
    {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
