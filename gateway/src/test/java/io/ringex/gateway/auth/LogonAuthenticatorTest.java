package io.ringex.gateway.auth;

import io.ringex.testing.Await;
import io.ringex.gateway.testing.TestUsers;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logon worker under a flood from one address, with real credential hashes: the flood must not take the slots
 * everyone else's logons need.
 */
final class LogonAuthenticatorTest
{
    /** As long as a real refusal is held: the flood's refusals stay in hand while the others log on. */
    private static final long FAILURE_DELAY_MS = 1_000;
    private static final String ATTACKER = "10.0.0.66";
    private static final String CLIENT = "10.0.0.7";

    private final UserDirectory users = new UserDirectory();
    private final LogonGuard guard = new LogonGuard(
        new LogonPolicy(5, 20, 60_000, 900_000, FAILURE_DELAY_MS, 64, 10_000));
    private final LogonAuthenticator authenticator =
        new LogonAuthenticator(users, guard, SystemEpochClock.INSTANCE);

    @BeforeEach
    void engineUsers()
    {
        users.replaceEngineUsers(Map.of("alice", TestUsers.ALICE, "bob", TestUsers.BOB));
    }

    @AfterEach
    void close()
    {
        authenticator.close();
    }

    /**
     * 500 bad logons from one address arrive at once, then ten good ones from another: the flood used to take every
     * slot (each held for the failure delay) and the good ones were refused BUSY. One address now holds at most
     * {@link LogonPolicy#maxPendingPerAddress()} of them.
     */
    @Test
    void aFloodFromOneAddressLeavesRoomForEveryoneElse()
    {
        final List<Attempt> flood = new ArrayList<>();
        for (int i = 0; i < 500; i++)
        {
            final Attempt attempt = new Attempt("mallory" + i, "guess", ATTACKER);
            flood.add(attempt);
            authenticator.submit(attempt);
        }
        goodLogons();
        assertTrue(flood.stream().filter(a -> a.verdict() == LogonAttempt.Verdict.BUSY).count() >= 500 - 8,
            "one address holds at most 8 slots");
    }

    /**
     * Once an address is locked, its logons are answered LOCKED, still late, without taking a slot.
     */
    @Test
    void aLockedAddressIsAnsweredWithoutTakingASlot()
    {
        final long now = System.currentTimeMillis();
        for (int i = 0; i < 20; i++)
        {
            guard.onFailure("SBE", "mallory" + i, ATTACKER, "invalid credentials", now);
        }
        final List<Attempt> flood = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            final Attempt attempt = new Attempt("mallory" + i, "guess", ATTACKER);
            flood.add(attempt);
            authenticator.submit(attempt);
        }
        assertEquals(0, authenticator.pending(), "no slot taken by a locked address");

        goodLogons();
        Await.until("the locked ones answered", () -> flood.stream()
            .filter(a -> a.verdict() != LogonAttempt.Verdict.BUSY).allMatch(Attempt::delivered), null);
        assertTrue(flood.stream().anyMatch(a -> a.verdict() == LogonAttempt.Verdict.LOCKED), "answered LOCKED");
        assertEquals(20, guard.failures(), "a refusal of a locked address is not a new failure");
    }

    /** Ten good logons from another address, one after another, as a client's reconnects come. */
    private void goodLogons()
    {
        for (int i = 0; i < 10; i++)
        {
            final Attempt attempt = i % 2 == 0 ? new Attempt("alice", TestUsers.ALICE_PASSWORD, CLIENT) :
                new Attempt("bob", TestUsers.BOB_PASSWORD, CLIENT);
            assertTrue(authenticator.submit(attempt), "logon " + i + " from " + CLIENT + " taken in hand");
            Await.until("logon " + i + " decided", attempt::delivered, null);
            assertEquals(LogonAttempt.Verdict.ACCEPTED, attempt.verdict(), "logon " + i);
        }
    }

    private static final class Attempt extends LogonAttempt
    {
        private volatile boolean delivered;

        Attempt(final String username, final String password, final String address)
        {
            super("SBE", username, password, address, System.currentTimeMillis());
        }

        protected void onVerdict()
        {
            delivered = true;
        }

        boolean delivered()
        {
            return delivered;
        }
    }
}
