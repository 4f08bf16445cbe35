package io.ringex.gateway.fix;

import io.aeron.CommonContext;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.PossDupFlag;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.field.MassStatusReqID;
import quickfix.field.MassStatusReqType;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderMassStatusRequest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.header;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Store and forward for FIX: reports for a FIX session that is not connected (it logged out, its TCP connection
 * dropped, or the gateway restarted meanwhile) are kept in Artio's archive and delivered, with PossDupFlag=Y, when the
 * client logs on again and asks for the gap. The client is QuickFIX/J with dictionary validation on; the engine is
 * the real node. The media driver (and its archive) is the test's, not the gateway's, so a gateway can be closed and
 * another started on the same FIX log directory and archive while the engine keeps running.
 */
class FixStoreAndForwardIT
{
    private static final String IPC = "aeron:ipc";

    @TempDir
    Path tempDir;

    private ArchivingMediaDriver driver;
    private Gateway gateway;
    private EngineUnderTest engine;
    private FixTestClient client;
    private String aeronDir;
    private int port;

    @BeforeEach
    void setUp() throws Exception
    {
        port = freePort();
        aeronDir = CommonContext.generateRandomDirName();
        final GatewayContext ctx = gatewayContext();
        driver = ArchivingMediaDriver.launch(
            new MediaDriver.Context()
                .aeronDirectoryName(aeronDir)
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true),
            Gateway.fixArchive(ctx));
        gateway = launchGateway(ctx);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        awaitGatewayReady();
        client = new FixTestClient(port);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(client, engine, gateway, driver);
    }

    private GatewayContext gatewayContext()
    {
        return TestGateways.fixOverIpc(4, aeronDir, tempDir, port).embeddedDriver(false);
    }

    private static Gateway launchGateway(final GatewayContext ctx)
    {
        return Gateway.launch(ctx, Throwable::printStackTrace);
    }

    private void awaitGatewayReady()
    {
        Await.until("library connected and BTC-USD learnt from market data",
            () -> gateway.fixAgent().isLibraryConnected() && gateway.fixAgent().instrumentCount() >= 1, null);
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private static NewOrderSingle order(final String clOrdId, final char side, final String qty, final String price)
    {
        final NewOrderSingle m = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        m.set(new Symbol("BTC-USD"));
        m.setString(OrderQty.FIELD, qty);
        m.setString(Price.FIELD, price);
        m.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        return m;
    }

    private Message awaitOne(final SessionID id, final String what, final Predicate<Message> p)
    {
        try
        {
            Await.until(what, () -> !client.find(id, p).isEmpty(), null);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; received " + client.received(id) + "; admin " +
                client.receivedAdmin(id), ex);
        }
        return client.find(id, p).get(0);
    }

    private void awaitLoggedOn(final SessionID... ids)
    {
        for (final SessionID id : ids)
        {
            Await.until(id + " logged on", () -> client.isLoggedOn(id), null);
        }
    }

    /** Alice rests a GTC buy of 10 at 100 and has it acknowledged. */
    private void aliceRestsAnOrder(final SessionID alice)
    {
        client.send(alice, order("A1", Side.BUY, "10", "100"));
        awaitOne(alice, "A1 acknowledged", is("8", 11, "A1"));
    }

    /** Bob sells 4 then 6 at 100: two fills of Alice's order, which is not connected now. */
    private void bobFillsAliceInTwoTrades(final SessionID bob)
    {
        client.send(bob, order("B1", Side.SELL, "4", "100"));
        client.send(bob, order("B2", Side.SELL, "6", "100"));
        Await.until("both of bob's orders filled",
            () -> client.find(bob, m -> "8".equals(header(m, MsgType.FIELD)) && "2".equals(field(m, 39))).size() == 2,
            null);
    }

    /** Alice logs on again: the two fills come as PossDup resends, in order, and the session goes on working. */
    private void aliceLogsOnAndReceivesBothFills(final SessionID alice)
    {
        final Session session = client.session(alice);
        session.logon();
        awaitLoggedOn(alice);

        awaitOne(alice, "alice's final fill", m -> is("8", 150, "F").test(m) && "2".equals(field(m, 39)));
        final List<Message> fills = client.find(alice, is("8", 150, "F"));
        assertEquals(2, fills.size(), "each fill once: " + fills);
        assertEquals("4", field(fills.get(0), 14), "partial fill first");
        assertEquals("1", field(fills.get(0), 39));
        assertEquals("10", field(fills.get(1), 14));
        assertEquals("A1", field(fills.get(1), 11));
        for (final Message fill : fills)
        {
            assertEquals("Y", header(fill, PossDupFlag.FIELD), "delivered by resend: " + fill);
        }
        assertTrue(client.receivedAdmin(alice).stream().noneMatch(m -> "3".equals(header(m, MsgType.FIELD))),
            "no session-level Reject: " + client.receivedAdmin(alice));
        assertTrue(client.receivedAdmin(alice).stream().noneMatch(m -> "Y".equals(field(m, 141))), "no reset");

        client.send(alice, order("A2", Side.BUY, "1", "90"));
        final Message ack = awaitOne(alice, "A2 acknowledged after the resend", is("8", 11, "A2"));
        assertEquals("0", field(ack, 150));
        assertTrue(client.isLoggedOn(alice));
    }

    private SessionID alice()
    {
        return client.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
    }

    private SessionID bob()
    {
        return client.addSession("BOB", "RINGEX", "bob", TestUsers.BOB_PASSWORD);
    }

    @Test
    void fillsWhileLoggedOutAreResentOnTheNextLogon() throws Exception
    {
        final SessionID alice = alice();
        final SessionID bob = bob();
        client.start();
        awaitLoggedOn(alice, bob);
        aliceRestsAnOrder(alice);

        client.session(alice).logout("bye");
        Await.until("alice logged out", () -> !client.isLoggedOn(alice), null);
        bobFillsAliceInTwoTrades(bob);

        aliceLogsOnAndReceivesBothFills(alice);
    }

    @Test
    void fillsAfterADroppedConnectionAreResentOnTheNextLogon() throws Exception
    {
        final SessionID alice = alice();
        final SessionID bob = bob();
        client.start();
        awaitLoggedOn(alice, bob);
        aliceRestsAnOrder(alice);

        // The TCP connection closes without a Logout; disabling the session keeps QuickFIX/J from reconnecting.
        final Session session = client.session(alice);
        session.disconnect("connection dropped", false);
        session.logout();
        Await.until("alice disconnected", () -> !client.isLoggedOn(alice), null);
        Await.until("the engine told alice's session is gone", () -> engine.commandLog().stream()
            .anyMatch(l -> l.startsWith("SessionStatus") && l.endsWith("loggedOn=FALSE")), null);
        bobFillsAliceInTwoTrades(bob);

        aliceLogsOnAndReceivesBothFills(alice);
    }

    @Test
    void fillsWhileTheGatewayRestartedAreResentOnTheNextLogon() throws Exception
    {
        final SessionID alice = alice();
        final SessionID bob = bob();
        client.start();
        awaitLoggedOn(alice, bob);
        aliceRestsAnOrder(alice);
        client.session(alice).logout("bye");
        Await.until("alice logged out", () -> !client.isLoggedOn(alice), null);

        // A new gateway process on the same FIX log directory and archive: it has never seen alice's session.
        gateway.close();
        gateway = launchGateway(gatewayContext());
        awaitGatewayReady();
        awaitLoggedOn(bob);
        bobFillsAliceInTwoTrades(bob);

        aliceLogsOnAndReceivesBothFills(alice);
        aliceReconcilesWithTheEngine(alice);
    }

    /**
     * After the restart, alice does what docs/client.md says: asks mass status (AF, all her orders) and compares
     * the answer with her own view, built from every ExecutionReport she received: the same orders, the same leaves.
     */
    private void aliceReconcilesWithTheEngine(final SessionID alice)
    {
        final Map<String, String> clientView = new HashMap<>();
        for (final Message report : client.find(alice, m -> "8".equals(header(m, MsgType.FIELD))))
        {
            if ("I".equals(field(report, 150)))
            {
                continue;
            }
            final String status = field(report, 39);
            if ("0".equals(status) || "1".equals(status))
            {
                clientView.put(field(report, 37), field(report, 151));
            }
            else
            {
                clientView.remove(field(report, 37));
            }
        }
        client.send(alice, new OrderMassStatusRequest(new MassStatusReqID("RECONCILE"),
            new MassStatusReqType(MassStatusReqType.STATUS_FOR_ALL_ORDERS)));
        Await.until("mass status answered", () -> client.find(alice, is("8", 584, "RECONCILE")).stream()
            .anyMatch(m -> "Y".equals(field(m, 912))), null);
        final Map<String, String> engineView = new HashMap<>();
        for (final Message report : client.find(alice, is("8", 584, "RECONCILE")))
        {
            if (!"0".equals(field(report, 911)))
            {
                engineView.put(field(report, 37), field(report, 151));
            }
        }
        assertEquals(Map.of(field(client.find(alice, is("8", 11, "A2")).get(0), 37), "1"), engineView,
            "the engine holds A2 open, and only it");
        assertEquals(clientView, engineView, "alice's view of her open orders and the engine's");
    }

    @Test
    void cancelOnDisconnectReportsAreResentOnTheNextLogon() throws Exception
    {
        final SessionID carol = client.addSession("CAROL", "RINGEX", "carol", TestUsers.CAROL_FIX_PASSWORD);
        client.start();
        awaitLoggedOn(carol);
        client.send(carol, order("K1", Side.BUY, "1", "95"));
        awaitOne(carol, "K1 acknowledged", is("8", 11, "K1"));

        client.session(carol).logout("bye");
        Await.until("carol's orders cancelled on disconnect", () -> engine.commandLog().stream()
            .anyMatch(l -> l.startsWith("MassCancel") && l.contains("scope=SESSION cod=TRUE")), null);

        client.session(carol).logon();
        awaitLoggedOn(carol);
        final Message canceled = awaitOne(carol, "K1 canceled, by resend", is("8", 150, "4"));
        assertEquals("4", field(canceled, 39));
        assertEquals("Y", header(canceled, PossDupFlag.FIELD), "delivered by resend: " + canceled);
        client.send(carol, order("K2", Side.BUY, "1", "95"));
        awaitOne(carol, "K2 acknowledged", is("8", 11, "K2"));
    }
}
