package io.ringex.gateway.status;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringex.client.ExchangeClient;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.RecordingListener.StatusReport;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestEncoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Order status and mass status over SBE, end to end: ExchangeClient, the gateway, the real engine node (journal,
 * ring, processor) and back. The gateway checks the account and names the user's accounts; the engine answers from
 * its open orders; another user's orders are never shown, bad requests are answered with a reason, and a query
 * changes nothing (no execution report, later orders go on as before). A mass status of a few thousand orders, far
 * more than the client's 64 KB term holds, arrives whole and in order.
 */
class OrderStatusSbeIT
{
    private static final int INSTRUMENT = 1;
    private static final String IPC = "aeron:ipc";

    private MediaDriver driver;
    private Aeron aeron;
    private RealEngineNode engine;
    private AgentRunner gateway;
    private final List<ExchangeClient> clients = new ArrayList<>();
    private int nextResponseStream = 3001;

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC,
            1003, new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
        final GatewayContext ctx = TestGateways.sbeOverIpc(7, driver.aeronDirectoryName())
            .throttleMessagesPerSecond(1_000_000)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB);
        ctx.conclude();
        gateway = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null,
            new GatewayAgent(ctx, aeron, SystemNanoClock.INSTANCE));
        AgentRunner.startOnThread(gateway);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(clients);
        CloseHelper.closeAll(gateway, engine, aeron, driver);
    }

    private ExchangeClient loggedOn(final RecordingListener listener, final String user, final String password)
    {
        final ExchangeClient client =
            ExchangeClient.openChannels(aeron, IPC, 2001, IPC, nextResponseStream++, listener);
        clients.add(client);
        Await.until("client connected to gateway", client::isConnected, client::poll);
        Await.until("logon sent", () -> client.logon(user, password, false, 10_000) > 0, null);
        Await.until("logged on", client::isLoggedOn, client::poll);
        return client;
    }

    private static void buy(final ExchangeClient client, final RecordingListener listener, final long account,
        final String id, final long price, final long quantity)
    {
        Await.until("order sent", () -> client.order().account(account).clientOrderId(id).instrument(INSTRUMENT)
            .buy().limit(price).quantity(quantity)
            .send() > 0, client::poll);
        Await.until("order " + id + " answered", () -> listener.report(r -> r.clientOrderId().equals(id)) != null,
            client::poll);
    }

    private static List<StatusReport> answer(
        final ExchangeClient client, final RecordingListener listener, final String requestId)
    {
        Await.until("answer to " + requestId, () -> listener.statusAnswer(requestId) != null, client::poll);
        return listener.statusAnswer(requestId);
    }

    @Test
    void statusAndMassStatusShowTheUsersOwnOrdersOnly()
    {
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD);
        final RecordingListener b = new RecordingListener();
        final ExchangeClient bob = loggedOn(b, "bob", TestUsers.BOB_PASSWORD);

        buy(alice, a, TestUsers.ALICE_ACCOUNT, "A1", 10_000, 10);
        buy(alice, a, TestUsers.ALICE_SECOND_ACCOUNT, "A2", 9_900, 5);
        buy(bob, b, TestUsers.BOB_ACCOUNT, "B1", 9_800, 7);
        // Bob sells 4 into A1: a partial fill.
        Await.until("sell sent", () -> bob.order().account(TestUsers.BOB_ACCOUNT).clientOrderId("B2")
            .instrument(INSTRUMENT).sell().timeInForce(TimeInForce.IOC)
            .limit(10_000).quantity(4).send() > 0, bob::poll);
        Await.until("alice filled", () -> a.report(r -> r.execType().equals("PARTIAL_FILL")) != null, alice::poll);
        final long a1 = a.report(r -> r.clientOrderId().equals("A1")).orderId();
        final long b1 = b.report(r -> r.clientOrderId().equals("B1")).orderId();
        final int reportsBefore = a.reports.size();

        Await.until("status sent", () -> alice.orderStatus(TestUsers.ALICE_ACCOUNT, "S1", a1, "") > 0, alice::poll);
        final StatusReport byId = answer(alice, a, "S1").get(0);
        assertEquals(new StatusReport(alice.sessionId(), "S1", false, 1, 1, "NONE", TestUsers.ALICE_ACCOUNT,
            INSTRUMENT, a1, "A1", "PARTIALLY_FILLED", 10_000, 10, 6, 4, 10_000), byId);

        Await.until("status sent", () -> alice.orderStatus(TestUsers.ALICE_SECOND_ACCOUNT, "S2", 0, "A2") > 0,
            alice::poll);
        assertEquals("NEW", answer(alice, a, "S2").get(0).orderStatus());

        // Bob's order asked about as Alice's account: unknown, nothing of it told.
        Await.until("status sent", () -> alice.orderStatus(TestUsers.ALICE_ACCOUNT, "S3", b1, "") > 0, alice::poll);
        final StatusReport foreign = answer(alice, a, "S3").get(0);
        assertEquals("UNKNOWN_ORDER", foreign.reason());
        assertEquals(0, foreign.quantity());
        assertEquals(0, foreign.totalReports());

        // Bob's account named outright: refused by the gateway, as an order for it would be.
        Await.until("status sent", () -> alice.orderStatus(TestUsers.BOB_ACCOUNT, "S4", b1, "") > 0, alice::poll);
        Await.until("refused", () -> a.businessRejects.stream().anyMatch(r -> r.refClientOrderId().equals("S4")),
            alice::poll);
        assertEquals("NOT_AUTHORISED", a.businessRejects.stream().filter(r -> r.refClientOrderId().equals("S4"))
            .findFirst().orElseThrow().reason());

        Await.until("mass status sent", () -> alice.massStatus(0, "M1", MassStatusScope.ACCOUNTS, 0) > 0,
            alice::poll);
        final List<StatusReport> all = answer(alice, a, "M1");
        assertEquals(List.of("A1", "A2"), all.stream().map(StatusReport::clientOrderId).toList());
        assertEquals(List.of(1, 2), all.stream().map(StatusReport::reportNumber).toList());

        Await.until("mass status sent", () -> alice.massStatus(TestUsers.ALICE_SECOND_ACCOUNT, "M2",
            MassStatusScope.ACCOUNTS, 0) > 0, alice::poll);
        assertEquals(List.of("A2"), answer(alice, a, "M2").stream().map(StatusReport::clientOrderId).toList());

        Await.until("mass status sent", () -> bob.massStatus(0, "M3", MassStatusScope.INSTRUMENT, INSTRUMENT) > 0,
            bob::poll);
        assertEquals(List.of("B1"), answer(bob, b, "M3").stream().map(StatusReport::clientOrderId).toList());

        Await.until("mass status sent", () -> alice.massStatus(0, "M4", MassStatusScope.INSTRUMENT, 99) > 0,
            alice::poll);
        assertEquals("UNKNOWN_INSTRUMENT", answer(alice, a, "M4").get(0).reason());

        Await.until("cancel sent", () -> bob.cancel(TestUsers.BOB_ACCOUNT, "B3", "B1", 0, INSTRUMENT) > 0, bob::poll);
        Await.until("canceled", () -> b.report(r -> r.execType().equals("CANCELED")) != null, bob::poll);
        Await.until("mass status sent", () -> bob.massStatus(0, "M5", MassStatusScope.SESSION, 0) > 0, bob::poll);
        final StatusReport empty = answer(bob, b, "M5").get(0);
        assertEquals(new StatusReport(bob.sessionId(), "M5", true, 0, 0, "NONE", 0, 0, 0, "", "NULL_VAL", 0, 0, 0,
            0, 0), empty);

        // Malformed: a scope outside the schema, and a status request naming no order.
        final UnsafeBuffer raw = new UnsafeBuffer(new byte[256]);
        final OrderMassStatusRequestEncoder massStatus = new OrderMassStatusRequestEncoder()
            .wrapAndApplyHeader(raw, 0, new MessageHeaderEncoder()).sessionId(alice.sessionId()).accountId(0)
            .statusRequestId("M6").scope(MassStatusScope.ACCOUNTS).instrumentId(0);
        massStatus.accountsCount(0);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + massStatus.encodedLength();
        raw.putByte(MessageHeaderEncoder.ENCODED_LENGTH + OrderMassStatusRequestEncoder.scopeEncodingOffset(),
            (byte)7);
        Await.until("raw sent", () -> alice.offerRaw(raw, 0, length) > 0, alice::poll);
        Await.until("status sent", () -> alice.orderStatus(TestUsers.ALICE_ACCOUNT, "S5", 0, "") > 0, alice::poll);
        Await.until("both refused", () -> a.businessRejects.stream().filter(r -> r.reason().equals("MALFORMED"))
            .count() == 2, alice::poll);
        assertTrue(a.businessRejects.stream().anyMatch(r -> r.refTemplateId() == OrderStatusRequestDecoder.TEMPLATE_ID
            && r.refClientOrderId().equals("S5")));

        assertEquals(reportsBefore, a.reports.size(), "queries made no execution report");
        buy(alice, a, TestUsers.ALICE_ACCOUNT, "A3", 9_000, 1);
        Await.until("mass status sent", () -> alice.massStatus(0, "M7", MassStatusScope.SESSION, 0) > 0,
            alice::poll);
        assertEquals(List.of("A1", "A3", "A2"), answer(alice, a, "M7").stream().map(StatusReport::clientOrderId)
            .toList(), "the state went on as before the queries (account 100's orders, then 101's)");
    }

    @Test
    void aLargeMassStatusArrivesWholeAndInOrder()
    {
        final int orders = 2_500;
        final RecordingListener a = new RecordingListener();
        final ExchangeClient alice = loggedOn(a, "alice", TestUsers.ALICE_PASSWORD);
        for (int i = 1; i <= orders; i++)
        {
            final String id = "L" + i;
            final long account = i % 2 == 0 ? TestUsers.ALICE_ACCOUNT : TestUsers.ALICE_SECOND_ACCOUNT;
            final long price = 9_000 + i % 100;
            Await.until("order sent", () -> alice.order().account(account).clientOrderId(id).instrument(INSTRUMENT)
                .buy().limit(price).quantity(1)
                .send() > 0, alice::poll);
            if (i % 100 == 0)
            {
                final int sent = i;
                try
                {
                    Await.until("orders acknowledged up to " + sent, () -> a.reports.size() >= sent, alice::poll);
                }
                catch (final AssertionError ex)
                {
                    throw new AssertionError(ex.getMessage() + ": " + a.reports.size() + " reports, rejects " +
                        a.businessRejects.subList(0, Math.min(5, a.businessRejects.size())) + ", logouts " +
                        a.logouts, ex);
                }
            }
        }
        assertEquals(orders, a.reports.stream().filter(r -> r.execType().equals("NEW")).count(), "all acknowledged");

        Await.until("mass status sent", () -> alice.massStatus(0, "BIG", MassStatusScope.ACCOUNTS, 0) > 0,
            alice::poll);
        final List<StatusReport> answer = answer(alice, a, "BIG");
        assertEquals(orders, answer.size());
        for (int i = 0; i < orders; i++)
        {
            assertEquals(i + 1, answer.get(i).reportNumber());
            assertEquals(orders, answer.get(i).totalReports());
        }
        // The gateway named account 100 first (the default), then 101; each in acceptance order.
        assertEquals("L2", answer.get(0).clientOrderId());
        assertEquals("L1", answer.get(orders / 2).clientOrderId());
    }
}
