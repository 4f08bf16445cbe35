package io.ringex.gateway.dropcopy;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.client.LogonRefusedException;
import io.ringex.client.dropcopy.DropCopyClient;
import io.ringex.client.dropcopy.DropCopyListener;
import io.ringex.gateway.GatewayAgent;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.User;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.DropCopySubscribeEncoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SBE drop copy end to end: traders on ExchangeClient, the gateway, the real engine node (journal, replay service) and
 * a {@link DropCopyClient}. Three users trade on two accounts (and a fourth on an account outside the drop copy's
 * scope); the drop-copy client receives every execution report of its accounts exactly once, in command order, byte
 * for byte as the traders received theirs, across its own disconnect and reconnect and across a gateway restart (the
 * missed reports come from the engine's journal); bad subscriptions are refused with a reason.
 */
class DropCopySbeIT
{
    private static final int INSTRUMENT = 1;
    private static final String IPC = "aeron:ipc";
    /** Between logon attempts to a gateway that is not ready yet. */
    private static final long RETRY_PAUSE_NS = 50_000_000L;
    private static final String DROP_COPY_PASSWORD = "dc-secret";
    private static final String ERIN_PASSWORD = "erin-secret";
    /** A third trader, trading both of the drop copy's accounts. */
    private static final User ERIN = new User("erin", CredentialHash.hash(ERIN_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.ALICE_ACCOUNT, TestUsers.BOB_ACCOUNT }, "ERIN", TestUsers.GATEWAY_COMP_ID);
    private static final User DROP_COPY = new User("dc", CredentialHash.hash(DROP_COPY_PASSWORD.toCharArray(), 1000),
        new long[]{ TestUsers.ALICE_ACCOUNT, TestUsers.BOB_ACCOUNT }, null, TestUsers.GATEWAY_COMP_ID, false, true, 0,
        UserRole.DROP_COPY);

    private MediaDriver driver;
    private Aeron aeron;
    private RealEngineNode engine;
    private AgentRunner gateway;
    private final List<AutoCloseable> clients = new ArrayList<>();
    private int nextResponseStream = 3001;
    private long nextOrderId = 1;
    /** Every execution report the traders received for the drop copy's accounts, as bytes. */
    private final List<Copy> traded = new ArrayList<>();
    private final List<Trader> traders = new ArrayList<>();

    record Copy(long commandSequence, String hex)
    {
    }

    /** A trader's session and what it received. */
    private final class Trader implements ExchangeListener
    {
        final ExchangeClient client;
        int reports;

        Trader(final String user, final String password)
        {
            client = ExchangeClient.openChannels(aeron, IPC, 2001, IPC, nextResponseStream++, this);
            clients.add(client);
            traders.add(this);
            Await.until("trader connected", client::isConnected, client::poll);
            logOn(() -> client.logon(user, password, false, 10_000), client::poll, client::isLoggedOn,
                () -> refusal, (r) -> refusal = r, user);
        }

        RejectReason refusal;

        public void onLogonResponse(final LogonResponseDecoder response)
        {
            refusal = response.rejectReason();
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            reports++;
            if (report.accountId() == TestUsers.ALICE_ACCOUNT || report.accountId() == TestUsers.BOB_ACCOUNT)
            {
                traded.add(copy(report));
            }
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            throw new AssertionError("rejected: " + reject.rejectReason() + " " + reject.text());
        }

        /** An order, and wait for its answer (its acknowledgement, or its fills). */
        void order(final long account, final Side side, final long price, final long quantity)
        {
            final long id = nextOrderId++;
            final int before = reports;
            Await.until("order sent", () -> client.order().account(account).clientOrderId(id).instrument(INSTRUMENT)
                .side(side).limit(price).quantity(quantity)
                .send() > 0, client::poll);
            Await.until("order answered", () -> reports > before, client::poll);
        }
    }

    /** The drop-copy session and what it received. */
    private final class DropCopy implements DropCopyListener
    {
        final DropCopyClient client;
        final List<Copy> copies = new ArrayList<>();
        final List<String> notices = new ArrayList<>();

        DropCopy(final String user, final String password)
        {
            // A gateway just started refuses logons ENGINE_BUSY until it has its users: connect again until then.
            final DropCopyClient[] connected = new DropCopyClient[1];
            Await.until(user + " logged on (refused ENGINE_BUSY until then)", Duration.ofSeconds(20), () ->
            {
                try
                {
                    connected[0] = DropCopyClient.connect(new DropCopyClient.Context()
                        .aeron(aeron)
                        .gatewayChannel(IPC)
                        .gatewayStreamId(2001)
                        .responseChannel(IPC)
                        .responseStreamId(nextResponseStream++)
                        .username(user)
                        .password(password)
                        .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(10))
                        .listener(this));
                    return true;
                }
                catch (final LogonRefusedException ex)
                {
                    assertEquals(RejectReason.ENGINE_BUSY, ex.reason(), user + "'s logon refused");
                    return false;
                }
            }, () -> LockSupport.parkNanos(RETRY_PAUSE_NS));
            client = connected[0];
            clients.add(client);
        }

        public void onCopy(final ExecutionReportDecoder report)
        {
            copies.add(copy(report));
        }

        public void onReplayComplete(final long lastSequence)
        {
            notices.add("REPLAY_COMPLETE " + lastSequence);
        }

        public void onGap(final long fromSequence, final long firstAvailableSequence)
        {
            notices.add("GAP " + fromSequence + " " + firstAvailableSequence);
        }

        public void onRefused(final RejectReason reason, final long lastSequence)
        {
            notices.add("REFUSED " + reason);
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            notices.add("REJECT " + reject.rejectReason());
        }

        void subscribe(final long from)
        {
            Await.until("subscribe sent", () -> client.subscribe(from) > 0, client::poll);
        }

        void awaitLive()
        {
            Await.until("the drop copy live: " + notices, client::isLive, client::poll);
        }
    }

    /** Log on, again while a gateway just started is not ready (ENGINE_BUSY: its users are not loaded yet). */
    private static void logOn(
        final java.util.function.LongSupplier logon,
        final Runnable poll,
        final java.util.function.BooleanSupplier loggedOn,
        final java.util.function.Supplier<RejectReason> refusal,
        final java.util.function.Consumer<RejectReason> setRefusal,
        final String user)
    {
        Await.until(user + " logged on (refused ENGINE_BUSY until then)", Duration.ofSeconds(20), () ->
        {
            setRefusal.accept(null);
            Await.until("logon sent", () -> logon.getAsLong() > 0, null);
            Await.until(user + " answered", () -> refusal.get() != null, poll);
            if (loggedOn.getAsBoolean())
            {
                return true;
            }
            assertEquals(RejectReason.ENGINE_BUSY, refusal.get(), user + "'s logon refused");
            return false;
        }, () -> LockSupport.parkNanos(RETRY_PAUSE_NS));
    }

    private static Copy copy(final ExecutionReportDecoder report)
    {
        final int start = report.offset() - MessageHeaderEncoder.ENCODED_LENGTH;
        final byte[] bytes = new byte[MessageHeaderEncoder.ENCODED_LENGTH + report.sbeBlockLength()];
        report.buffer().getBytes(start, bytes);
        return new Copy(report.commandSequence(), HexFormat.of().formatHex(bytes));
    }

    @BeforeEach
    void setUp()
    {
        driver = TestGateways.launchDriver(256 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        engine = RealEngineNode.launch(new EngineStreams(driver.aeronDirectoryName(), IPC, 1001, IPC, 1002, IPC,
            1003, new EngineStreams.TestInstrument(INSTRUMENT, "BTC-USD", 2)));
        startGateway();
    }

    private void startGateway()
    {
        final GatewayContext ctx = TestGateways.sbeOverIpc(7, driver.aeronDirectoryName())
            .throttleMessagesPerSecond(1_000_000)
            .addUser(TestUsers.ALICE)
            .addUser(TestUsers.BOB)
            .addUser(TestUsers.CAROL)
            .addUser(ERIN)
            .addUser(DROP_COPY);
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

    /** Rounds of trading: resting orders of three users on two accounts, crossed; one of carol's, out of scope. */
    private void trade(final Trader alice, final Trader bob, final Trader erin, final Trader carol, final int rounds)
    {
        for (int i = 0; i < rounds; i++)
        {
            final long price = 10_000 + (i % 5) * 10;
            alice.order(TestUsers.ALICE_ACCOUNT, Side.SELL, price, 5);
            bob.order(TestUsers.BOB_ACCOUNT, Side.BUY, price, 3);
            erin.order(TestUsers.BOB_ACCOUNT, Side.BUY, price, 2);
            erin.order(TestUsers.ALICE_ACCOUNT, Side.SELL, price + 500, 1);
            carol.order(TestUsers.CAROL_ACCOUNT, Side.BUY, price - 500, 1);
        }
    }

    /** What the drop copy must have received: the traders' reports of its accounts, in command order. */
    private List<Copy> expected()
    {
        return traded.stream().sorted(java.util.Comparator.comparingLong(Copy::commandSequence)
            .thenComparing(Copy::hex)).toList();
    }

    private static List<Copy> inOrder(final List<Copy> copies)
    {
        for (int i = 1; i < copies.size(); i++)
        {
            assertTrue(copies.get(i).commandSequence() >= copies.get(i - 1).commandSequence(),
                "copies in command order, at " + i);
        }
        return copies.stream().sorted(java.util.Comparator.comparingLong(Copy::commandSequence)
            .thenComparing(Copy::hex)).toList();
    }

    /** Compare, saying briefly how they differ: the lists are long. */
    private static void assertCopies(final List<Copy> expected, final List<Copy> actual, final String what)
    {
        if (expected.equals(actual))
        {
            return;
        }
        final List<Copy> missing = new ArrayList<>(expected);
        actual.forEach(missing::remove);
        final List<Copy> extra = new ArrayList<>(actual);
        expected.forEach(extra::remove);
        throw new AssertionError(what + ": expected " + expected.size() + " copies, got " + actual.size() +
            "; missing (sequences) " + missing.stream().map(Copy::commandSequence).toList() + "; extra " +
            extra.stream().map(Copy::commandSequence).toList());
    }

    /**
     * Wait until the drop copy has as many copies as the traders have reports of its accounts, and stays so: a fill
     * reaches the resting order's trader only when that trader polls, so every trader is polled meanwhile.
     */
    private void awaitCopies(final DropCopy dropCopy, final List<Copy> before)
    {
        final Runnable pollAll = () ->
        {
            dropCopy.client.poll();
            traders.forEach((t) -> t.client.poll());
        };
        do
        {
            Await.until("every copy (" + traded.size() + ", got " + (before.size() + dropCopy.copies.size()) + ")",
                () -> before.size() + dropCopy.copies.size() == traded.size(), pollAll);
            final long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            while (System.nanoTime() < quietUntil)
            {
                pollAll.run();
            }
        }
        while (before.size() + dropCopy.copies.size() != traded.size());
    }

    @Test
    void everyReportOfTheScopeArrivesOnceAcrossADisconnectAndAGatewayRestart()
    {
        Trader alice = new Trader("alice", TestUsers.ALICE_PASSWORD);
        Trader bob = new Trader("bob", TestUsers.BOB_PASSWORD);
        Trader erin = new Trader("erin", ERIN_PASSWORD);
        Trader carol = new Trader("carol", TestUsers.CAROL_PASSWORD);
        trade(alice, bob, erin, carol, 5);

        // from the venue's start: replayed, then live
        DropCopy dropCopy = new DropCopy("dc", DROP_COPY_PASSWORD);
        dropCopy.subscribe(0);
        dropCopy.awaitLive();
        trade(alice, bob, erin, carol, 5);
        awaitCopies(dropCopy, List.of());
        assertCopies(expected(), inOrder(dropCopy.copies), "replayed then live, once each");
        final List<Copy> received = new ArrayList<>(dropCopy.copies);

        // it goes away; trading goes on; it comes back from the last report it processed
        long last = dropCopy.client.lastSequence();
        final DropCopyClient leaving = dropCopy.client;
        Await.until("logout sent", () -> leaving.logout() > 0, null);
        leaving.close();
        trade(alice, bob, erin, carol, 5);
        dropCopy = new DropCopy("dc", DROP_COPY_PASSWORD);
        dropCopy.subscribe(last);
        dropCopy.awaitLive();
        trade(alice, bob, erin, carol, 2);
        awaitCopies(dropCopy, received);
        received.addAll(dropCopy.copies);
        assertCopies(expected(), inOrder(received), "every report missed while away, once, then live");

        // the gateway restarts while it is away: the missed reports come from the engine's journal
        last = dropCopy.client.lastSequence();
        dropCopy.client.close();
        CloseHelper.closeAll(clients);
        clients.clear();
        traders.clear();
        CloseHelper.close(gateway);
        startGateway();
        alice = new Trader("alice", TestUsers.ALICE_PASSWORD);
        bob = new Trader("bob", TestUsers.BOB_PASSWORD);
        erin = new Trader("erin", ERIN_PASSWORD);
        carol = new Trader("carol", TestUsers.CAROL_PASSWORD);
        trade(alice, bob, erin, carol, 5);
        dropCopy = new DropCopy("dc", DROP_COPY_PASSWORD);
        dropCopy.subscribe(last);
        dropCopy.awaitLive();
        trade(alice, bob, erin, carol, 2);
        awaitCopies(dropCopy, received);
        received.addAll(dropCopy.copies);
        assertCopies(expected(), inOrder(received), "across a gateway restart, once each");
        assertTrue(received.size() > 100, "a venue's worth of copies: " + received.size());
    }

    @Test
    void badSubscriptionsAreRefusedWithAReason()
    {
        final Trader alice = new Trader("alice", TestUsers.ALICE_PASSWORD);
        final Trader bob = new Trader("bob", TestUsers.BOB_PASSWORD);
        final Trader erin = new Trader("erin", ERIN_PASSWORD);
        final Trader carol = new Trader("carol", TestUsers.CAROL_PASSWORD);
        trade(alice, bob, erin, carol, 1);

        // a TRADER's session may not subscribe
        final DropCopy asTrader = new DropCopy("alice", TestUsers.ALICE_PASSWORD);
        asTrader.subscribe(0);
        Await.until("a refusal", () -> !asTrader.notices.isEmpty(), asTrader.client::poll);
        assertEquals(List.of("REFUSED DROP_COPY_NOT_ALLOWED"), asTrader.notices);
        assertTrue(asTrader.copies.isEmpty());

        final DropCopy dropCopy = new DropCopy("dc", DROP_COPY_PASSWORD);
        // after the journal's end
        dropCopy.subscribe(1_000_000);
        Await.until("a refusal", () -> !dropCopy.notices.isEmpty(), dropCopy.client::poll);
        assertEquals(List.of("REFUSED REPLAY_UNAVAILABLE"), dropCopy.notices);
        dropCopy.notices.clear();
        // a negative sequence
        dropCopy.subscribe(-1);
        Await.until("a refusal", () -> !dropCopy.notices.isEmpty(), dropCopy.client::poll);
        assertEquals(List.of("REFUSED MALFORMED"), dropCopy.notices);
        dropCopy.notices.clear();
        // a subscribe that is not one: a wrong block length
        final UnsafeBuffer bad = new UnsafeBuffer(new byte[64]);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + new DropCopySubscribeEncoder()
            .wrapAndApplyHeader(bad, 0, new MessageHeaderEncoder()).fromSequence(0).encodedLength();
        bad.putShort(0, (short)4);
        Await.until("sent", () -> offerRaw(dropCopy, bad, length), dropCopy.client::poll);
        Await.until("a reject", () -> !dropCopy.notices.isEmpty(), dropCopy.client::poll);
        assertEquals(List.of("REJECT MALFORMED"), dropCopy.notices);
        assertTrue(dropCopy.copies.isEmpty(), "nothing copied to a refused subscription");

        // and the session still subscribes properly afterwards
        dropCopy.notices.clear();
        dropCopy.subscribe(0);
        dropCopy.awaitLive();
        awaitCopies(dropCopy, List.of());
        assertCopies(expected(), inOrder(dropCopy.copies), "copies");
    }

    private static boolean offerRaw(final DropCopy dropCopy, final DirectBuffer buffer, final int length)
    {
        return dropCopy.client.offerRaw(buffer, 0, length) > 0;
    }
}
