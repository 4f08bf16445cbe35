package io.ringex.gateway.auth;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Subscription;
import io.ringex.client.AdminClient;
import io.ringex.client.EventBatches;
import io.ringex.client.ExchangeClient;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.protocol.CredentialHash;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RealEngineNode;
import io.ringex.gateway.testing.RecordingListener;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.SessionID;
import quickfix.field.Account;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.is;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A venue onboarded at runtime by an operator, through the engine's admin commands only: a gateway that starts with no
 * users and no instruments, an engine with none of them either; the operator lists an instrument, opens and funds two
 * accounts and creates two users with passwords; one logs on over FIX (QuickFIX/J), the other over SBE, they trade the
 * new instrument with each other, and the engine's risk stream (what the dashboard shows) has both positions.
 */
class OperatorOnboardingIT
{
    private static final String IPC = "aeron:ipc";
    private static final int INSTRUMENT = 7;
    private static final long UMA_ACCOUNT = 5001;
    private static final long VIC_ACCOUNT = 5002;

    @TempDir
    Path dir;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(closeables);
    }

    private <T extends AutoCloseable> T closing(final T closeable)
    {
        closeables.add(0, closeable);
        return closeable;
    }

    @Test
    void anOperatorsNewUsersLogOnOverFixAndSbeAndTradeTheNewInstrument() throws Exception
    {
        final String aeronDir = CommonContext.generateRandomDirName();
        final int fixPort = freeTcpPort();
        final GatewayContext ctx = TestGateways.fix(3, aeronDir, dir.resolve("gateway"), fixPort)
            .embeddedDriver(true)
            .engineIngressChannel(IPC).engineIngressStreamId(1001)
            .engineEgressChannel(IPC).engineEgressStreamId(1002)
            .marketDataChannel(IPC).marketDataStreamId(1003)
            .marketDataRequestChannel(IPC).marketDataRecoveryChannel(IPC);
        final Gateway gateway = closing(Gateway.launch(ctx, Throwable::printStackTrace));
        closing(RealEngineNode.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003)));
        final Aeron aeron = closing(Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)));
        Await.until("the gateway has the engine's users", () -> ctx.users().loaded(), null);
        final Subscription risk = closing(aeron.addSubscription(IPC, 2003));

        try (AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, 2003,
            io.ringex.engine.node.NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            admin.commands().operator("ops-anna");
            final long funds = 1_000_000_00000000L;
            long id = 0;
            accept(admin, admin.commands().addInstrument(++id, INSTRUMENT, "NEW-USD", 2, 1, 1, 5_000,
                PriceBandType.BASIS_POINTS, 1_000));
            for (final long account : new long[]{ UMA_ACCOUNT, VIC_ACCOUNT })
            {
                accept(admin, admin.commands().addAccount(++id, account, SelfTradePrevention.CANCEL_NEWEST));
                accept(admin, admin.commands().setLimits(++id, account, 1_000, funds, funds, 1_000, 100, true,
                    new int[0], new long[0]));
                accept(admin, admin.commands().adjustBalance(++id, account, funds));
            }
            accept(admin, admin.commands().upsertUser(++id, "uma", true, new long[]{ UMA_ACCOUNT }, "UMA", true, 0,
                "new FIX trader"));
            accept(admin, admin.commands().setUserCredential(++id, "uma",
                CredentialHash.hash("uma-pw-1".toCharArray(), 1000), "first password"));
            accept(admin, admin.commands().upsertUser(++id, "vic", true, new long[]{ VIC_ACCOUNT }, "", false, 0,
                "new SBE trader"));
            accept(admin, admin.commands().setUserCredential(++id, "vic",
                CredentialHash.hash("vic-pw-1".toCharArray(), 1000), "first password"));
        }
        Await.until("the gateway knows the new users and the instrument", () ->
            null != ctx.users().user("uma") && !ctx.users().user("uma").credentialHash().isEmpty() &&
            null != ctx.users().user("vic") && !ctx.users().user("vic").credentialHash().isEmpty() &&
            gateway.fixAgent().instrumentCount() >= 1, null);

        // vic offers over SBE.
        final RecordingListener vicEvents = new RecordingListener();
        final ExchangeClient vic = closing(ExchangeClient.openSharedChannels(aeron, IPC, 2001, IPC, 3001, vicEvents));
        Await.until("vic connected", vic::isConnected, vic::poll);
        Await.until("vic logon sent", () -> vic.logon("vic", "vic-pw-1", false, 1000) > 0, vic::poll);
        Await.until("vic logged on", vic::isLoggedOn, vic::poll);
        // A thread of its own heartbeats while the FIX client starts (seconds on a loaded machine).
        closing(vic.startPolling(new SleepingMillisIdleStrategy(1)));
        Await.until("vic's offer sent", () -> vic.order().account(VIC_ACCOUNT).clientOrderId("V1")
            .instrument(INSTRUMENT).sell()
            .limit(5_000).quantity(4).send() > 0, null);
        Await.until("vic's offer rests", () -> null != vicEvents.report(r -> "V1".equals(r.clientOrderId()) &&
            "NEW".equals(r.execType())), null);

        // uma lifts it over FIX.
        final FixTestClient fix = closing(new FixTestClient(fixPort));
        final SessionID uma = fix.addSession("UMA", "RINGEX", "uma", "uma-pw-1");
        fix.start();
        Await.until("uma logged on over FIX", () -> fix.isLoggedOn(uma), null);
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID("U1"),
            new quickfix.field.Side(quickfix.field.Side.BUY), new TransactTime(), new OrdType(OrdType.LIMIT));
        order.set(new Symbol("NEW-USD"));
        order.set(new OrderQty(4));
        order.set(new Price(50.00));
        order.set(new Account(Long.toString(UMA_ACCOUNT)));
        assertTrue(fix.send(uma, order));
        Await.until("uma filled over FIX", () -> fix.find(uma, is("8", 150, "F")).stream()
            .anyMatch(m -> "U1".equals(field(m, 11))), null);
        Await.until("vic filled over SBE", () -> null != vicEvents.report(r -> "V1".equals(r.clientOrderId()) &&
            "FILL".equals(r.execType())), null);

        // What the dashboard reads: each account's position in the new instrument.
        final long[] positions = new long[2];
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final AccountRiskUpdateDecoder update = new AccountRiskUpdateDecoder();
        Await.until("the risk stream shows uma long 4 and vic short 4", () -> positions[0] == 4 && positions[1] == -4,
            () -> risk.poll(EventBatches.unpacking((buffer, offset, length, h) ->
            {
                header.wrap(buffer, offset);
                if (header.templateId() == AccountRiskUpdateDecoder.TEMPLATE_ID)
                {
                    update.wrapAndApplyHeader(buffer, offset, header);
                    final int slot = update.accountId() == UMA_ACCOUNT ? 0 : update.accountId() == VIC_ACCOUNT ? 1 : -1;
                    for (final AccountRiskUpdateDecoder.PositionsDecoder position : update.positions())
                    {
                        if (slot >= 0 && position.instrumentId() == INSTRUMENT)
                        {
                            positions[slot] = position.position();
                        }
                    }
                }
            }), 100));
    }

    private static void accept(final AdminClient admin, final int length)
    {
        final AdminClient.Answer answer = admin.request(length);
        assertTrue(answer.accepted(), answer.toString());
    }

    private static int freeTcpPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
