package io.ringex.gateway.fix;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.ringex.client.AdminClient;
import io.ringex.gateway.Gateway;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.testing.Await;
import io.ringex.gateway.testing.EngineStreams;
import io.ringex.gateway.testing.EngineUnderTest;
import io.ringex.gateway.testing.FixTestClient;
import io.ringex.gateway.testing.RawFixClient;
import io.ringex.gateway.testing.TestEngines;
import io.ringex.gateway.testing.TestGateways;
import io.ringex.gateway.testing.TestUsers;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.SessionID;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

import static io.ringex.gateway.testing.FixTestClient.field;
import static io.ringex.gateway.testing.FixTestClient.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX logons as a password guesser sees them, through the real Artio acceptor: a refused Logon is answered with a
 * Logout saying so (the same words for an unknown user, a wrong password and a lockout), every failure is counted,
 * and five in a row lock the name out (the right password included) until an operator lifts it through the engine
 * (UnlockLogons, journaled), which every gateway applies.
 */
class FixLogonSecurityIT
{
    private static final String IPC = TestGateways.IPC;

    @TempDir
    Path tempDir;

    private Gateway gateway;
    private EngineUnderTest engine;
    private GatewayContext ctx;
    private int port;
    private String aeronDir;

    @BeforeEach
    void setUp() throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        aeronDir = CommonContext.generateRandomDirName();
        ctx = TestGateways.fixOverIpc(3, aeronDir, tempDir, port)
            .embeddedDriver(true)
            .logonPolicy(new LogonPolicy(5, 5, 60_000, 900_000, 100, 64, 10_000));
        gateway = Gateway.launch(ctx, Throwable::printStackTrace);
        engine = TestEngines.launch(new EngineStreams(aeronDir, IPC, 1001, IPC, 1002, IPC, 1003,
            new EngineStreams.TestInstrument(1, "BTC-USD", 2)));
        Await.until("library connected", () -> gateway.fixAgent().isLibraryConnected(), null);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.closeAll(engine, gateway);
    }

    /** Log on over a bare socket; return what came back once the acceptor answered (Logon, or Logout and close). */
    private List<String> logon(final String sender, final String user, final String password)
    {
        return logon(sender, user, password, "30");
    }

    private List<String> logon(final String sender, final String user, final String password, final String heartBtInt)
    {
        try (RawFixClient raw = new RawFixClient(port, sender, "RINGEX"))
        {
            raw.send("A", 1, "", "98=0|108=" + heartBtInt + "|553=" + user + "|554=" + password + "|");
            Await.until("logon answered", () -> poll(raw).stream().anyMatch(m -> m.contains("|35=A|") ||
                m.contains("|35=5|")), null);
            return poll(raw);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<String> poll(final RawFixClient raw)
    {
        try
        {
            return raw.poll();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String logout(final List<String> messages)
    {
        return messages.stream().filter(m -> m.contains("|35=5|")).findFirst()
            .orElseThrow(() -> new AssertionError("no Logout: " + messages));
    }

    @Test
    void aRefusedLogonIsAnsweredWithALogoutThatSaysSoWhateverTheCause()
    {
        final String wrongPassword = logout(logon("ALICE", "alice", "wrong"));
        final String unknownUser = logout(logon("ALICE", "mallory", "x"));
        final String wrongCompId = logout(logon("BOB", "alice", TestUsers.ALICE_PASSWORD));
        for (final String answer : List.of(wrongPassword, unknownUser, wrongCompId))
        {
            assertTrue(answer.contains("|58=" + FixAuthenticator.REFUSED_TEXT + "|"), answer);
        }
        assertEquals(3, ctx.logonAuthenticator().guard().failures());
        assertTrue(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD).stream().anyMatch(m -> m.contains("|35=A|")));
    }

    /**
     * HeartBtInt(108) = 0 used to make the gateway heartbeat in a tight loop (three such sessions doubled the venue's
     * CPU), and 999999999 was taken too. A Logon outside the documented range (1 to 600 seconds by default, the SBE
     * side's bound) is refused with a Logout whose Text(58) says what the range is, before its password is checked:
     * no failure is counted.
     */
    @Test
    void aHeartbeatIntervalOutsideTheRangeIsRefusedWithALogoutSayingSo()
    {
        for (final String heartBtInt : List.of("0", "-1", "601", "999999999"))
        {
            final String answer = logout(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD, heartBtInt));
            assertTrue(answer.contains("|58=HeartBtInt(108) must be 1 to 600 seconds|"), heartBtInt + ": " + answer);
        }
        assertEquals(0, ctx.logonAuthenticator().guard().failures(), "not a guess at the password");
        assertTrue(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD, "1").stream().anyMatch(m -> m.contains("|35=A|")));
        assertTrue(logon("BOB", "bob", TestUsers.BOB_PASSWORD, "600").stream().anyMatch(m -> m.contains("|35=A|")));
    }

    /**
     * A QuickFIX/J session whose user the operator re-roles, then disables: each Logout's Text(58) says what happened,
     * and the next logon is refused saying the user is disabled, to the right password only (a wrong one gets the
     * usual words, so they tell a guesser nothing).
     */
    @Test
    void aReRoledOrDisabledUsersLogoutSaysWhatHappenedAndOnlyTheRightPasswordHearsItIsDisabled() throws Exception
    {
        final String roleChanged = "Logged out: role changed to drop-copy; log on again";
        final String disabled = "Logged out: user disabled";
        try (FixTestClient fix = new FixTestClient(port);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, 2003,
                io.ringex.engine.node.NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            admin.commands().operator("ops1");
            final SessionID alice = fix.addSession("ALICE", "RINGEX", "alice", TestUsers.ALICE_PASSWORD);
            fix.start();
            Await.until("alice logged on", () -> fix.isLoggedOn(alice), null);
            final long[] accounts = { TestUsers.ALICE_ACCOUNT, TestUsers.ALICE_SECOND_ACCOUNT };

            // The engine's alice (this gateway offers it none of its configured users) wins from now on.
            assertTrue(admin.request(admin.commands().upsertUser(1, "alice", true, accounts, "ALICE", false, 0,
                UserRole.DROP_COPY, "audit only")).accepted());
            assertTrue(admin.request(admin.commands().setUserCredential(2, "alice",
                TestUsers.ALICE.credentialHash(), "the same password")).accepted());
            awaitLogout(fix, alice, roleChanged);
            Await.until("alice back as a drop copy (QuickFIX/J reconnects)", () -> fix.isLoggedOn(alice), null);

            assertTrue(admin.request(admin.commands().upsertUser(3, "alice", false, accounts, "ALICE", false, 0,
                UserRole.DROP_COPY, "left the firm")).accepted());
            awaitLogout(fix, alice, disabled);
            // QuickFIX/J logs on again by itself, and hears why it is refused.
            awaitLogout(fix, alice, FixAuthenticator.DISABLED_TEXT);
            fix.close();
        }
        // QuickFIX/J's logons counted as failures; lift them so the name and address are not locked out below.
        ctx.logonAuthenticator().guard().unlockUser("alice");
        ctx.logonAuthenticator().guard().unlockAddress("127.0.0.1");
        assertTrue(logout(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD))
            .contains("|58=" + FixAuthenticator.DISABLED_TEXT + "|"), "the right password hears why");
        assertTrue(logout(logon("ALICE", "alice", "wrong")).contains("|58=" + FixAuthenticator.REFUSED_TEXT + "|"),
            "a wrong password hears nothing of the user");
        assertTrue(logout(logon("ALICE", "nobody", "wrong")).contains("|58=" + FixAuthenticator.REFUSED_TEXT + "|"));
    }

    private static void awaitLogout(final FixTestClient fix, final SessionID id, final String text)
    {
        try
        {
            Await.until("a Logout with Text(58) " + text, () -> fix.receivedAdmin(id).stream()
                .anyMatch(logout(text)), null);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; received " + fix.receivedAdmin(id), ex);
        }
    }

    private static Predicate<Message> logout(final String text)
    {
        return (m) -> "5".equals(header(m, 35)) && text.equals(field(m, 58));
    }

    @Test
    void guessingLocksTheNameOutUntilAnOperatorUnlocksIt()
    {
        for (int i = 0; i < 5; i++)
        {
            logout(logon("ALICE", "alice", "guess-" + i));
        }
        final LogonGuard guard = ctx.logonAuthenticator().guard();
        assertTrue(guard.lockedOut(System.currentTimeMillis()).contains("user:alice"), guard.lockedOut(0).toString());
        guard.unlockAddress("127.0.0.1");

        final String locked = logout(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD));
        assertTrue(locked.contains("|58=" + FixAuthenticator.REFUSED_TEXT + "|"), locked);
        assertEquals(5, guard.failures(), "a refusal of a locked name is not a new failure");

        // The operator's unlock goes through the engine (journaled: who and why) to every gateway.
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            AdminClient admin = new AdminClient(aeron, IPC, 1001, IPC, 2003,
                io.ringex.engine.node.NodeTestSupport.ADMIN_KEYS.keys().get(0)))
        {
            admin.send(admin.commands().unlockLogons(1, "alice", "", "admin", "alice called the desk"));
            admin.awaitResponses(1);
        }
        Await.until("alice unlocked", () -> guard.lockedOut(System.currentTimeMillis()).isEmpty(), null);
        assertTrue(logon("ALICE", "alice", TestUsers.ALICE_PASSWORD).stream().anyMatch(m -> m.contains("|35=A|")));
    }
}
