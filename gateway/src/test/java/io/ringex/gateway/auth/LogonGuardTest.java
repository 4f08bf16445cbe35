package io.ringex.gateway.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class LogonGuardTest
{
    private static final LogonPolicy POLICY = new LogonPolicy(3, 3, 1_000, 8_000, 0, 4, 100);

    @Test
    void failuresInARowLockTheNameAndTheAddressAndTheLockoutDoubles()
    {
        final LogonGuard guard = new LogonGuard(POLICY);
        long now = 10_000;
        for (int i = 0; i < 2; i++)
        {
            guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", now);
        }
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "alice", "10.0.0.1", now));
        guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", now);
        assertEquals(LogonGuard.Lock.ADDRESS, guard.check("SBE", "alice", "10.0.0.1", now));
        assertEquals(LogonGuard.Lock.USER, guard.check("FIX", "alice", "10.0.0.2", now), "the name, from anywhere");
        assertEquals(LogonGuard.Lock.NONE, guard.check("FIX", "bob", "10.0.0.2", now));
        assertEquals(List.of("user:alice", "address:10.0.0.1"), guard.lockedOut(now));

        now += 1_000;
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "alice", "10.0.0.1", now), "first lockout: 1 s");
        for (int i = 0; i < 3; i++)
        {
            guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", now);
        }
        assertEquals(LogonGuard.Lock.ADDRESS, guard.check("SBE", "alice", "10.0.0.1", now + 1_999));
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "alice", "10.0.0.1", now + 2_000), "second: 2 s");
        assertEquals(2, guard.lockouts() / 2);
        assertEquals(6, guard.failures());
    }

    @Test
    void aSuccessClearsTheFailuresAndUnknownNamesAreTrackedLikeKnownOnes()
    {
        final LogonGuard guard = new LogonGuard(POLICY);
        guard.onFailure("FIX", "alice", "10.0.0.1", "invalid credentials", 0);
        guard.onFailure("FIX", "alice", "10.0.0.1", "invalid credentials", 0);
        guard.onSuccess("alice", "10.0.0.1");
        guard.onFailure("FIX", "alice", "10.0.0.1", "invalid credentials", 0);
        assertEquals(LogonGuard.Lock.NONE, guard.check("FIX", "alice", "10.0.0.1", 0));

        for (int i = 0; i < 3; i++)
        {
            guard.onFailure("FIX", "no-such-user", "10.0.0.3" + i, "invalid credentials", 0);
        }
        assertEquals(LogonGuard.Lock.USER, guard.check("FIX", "no-such-user", "10.0.0.9", 0));
    }

    @Test
    void anOperatorLiftsALockoutAndOldFailuresAreForgotten()
    {
        final LogonGuard guard = new LogonGuard(POLICY);
        for (int i = 0; i < 3; i++)
        {
            guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", 0);
        }
        assertTrue(guard.unlockUser("alice"));
        assertTrue(guard.unlockAddress("10.0.0.1"));
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "alice", "10.0.0.1", 0));
        assertFalse(guard.unlockUser("alice"));

        guard.onFailure("SBE", "bob", "10.0.0.1", "invalid credentials", 0);
        guard.onFailure("SBE", "bob", "10.0.0.1", "invalid credentials", 0);
        guard.onFailure("SBE", "bob", "10.0.0.1", "invalid credentials", POLICY.maxLockoutMs() + 1);
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "bob", "10.0.0.1", POLICY.maxLockoutMs() + 1),
            "failures older than the longest lockout are forgotten");
    }

    @Test
    void aFloodOfInventedNamesAndAddressesIsBounded()
    {
        final LogonGuard guard = new LogonGuard(POLICY);
        for (int i = 0; i < 10_000; i++)
        {
            guard.onFailure("SBE", "user" + i, "10.1." + (i / 256) + "." + (i % 256), "invalid credentials", 0);
        }
        guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", 0);
        guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", 0);
        guard.onFailure("SBE", "alice", "10.0.0.1", "invalid credentials", 0);
        assertEquals(LogonGuard.Lock.ADDRESS, guard.check("SBE", "alice", "10.0.0.1", 0));
    }

    @Test
    void whatAnAttackerSendsCannotForgeLogLines()
    {
        assertEquals("a?b??c", LogonGuard.printable("a\nb\r\u0000c"));
        assertEquals("<none>", LogonGuard.printable(null));
        assertEquals(67, LogonGuard.printable("x".repeat(1000)).length());
    }
    /**
     * An attacker used to walk around an address lockout by spelling its address another way: {@code ::1} logged on
     * while {@code 127.0.0.1} was locked, and every address of an IPv6 /64 was a fresh start. Loopback is one key,
     * an IPv4-mapped address is its IPv4 address, and an IPv6 address counts as its /64.
     */
    @Test
    void anAddressLockoutHoldsHoweverTheAddressIsSpelledAndAcrossAnIpv6Slash64()
    {
        final LogonGuard guard = new LogonGuard(POLICY);
        for (int i = 0; i < 3; i++)
        {
            guard.onFailure("FIX", "guess" + i, "127.0.0.1", "invalid credentials", 0);
        }
        for (final String loopback : List.of("127.0.0.1", "::1", "0:0:0:0:0:0:0:1", "127.0.0.2", "::ffff:127.0.0.1",
            "aeron:ipc"))
        {
            assertEquals(LogonGuard.Lock.ADDRESS, guard.check("FIX", "bob", loopback, 0), loopback);
        }

        for (int i = 0; i < 3; i++)
        {
            // each failure from another address of the same /64
            guard.onFailure("SBE", "guess" + i, "2001:db8:7:7::" + (i + 1), "invalid credentials", 0);
        }
        assertEquals(LogonGuard.Lock.ADDRESS, guard.check("SBE", "bob", "2001:db8:7:7:ffff::42", 0));
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "bob", "2001:db8:7:8::1", 0), "another /64");

        for (int i = 0; i < 2; i++)
        {
            guard.onFailure("SBE", "guess" + i, "10.1.1.1", "invalid credentials", 0);
        }
        guard.onFailure("SBE", "guess", "::ffff:10.1.1.1", "invalid credentials", 0);
        assertEquals(LogonGuard.Lock.ADDRESS, guard.check("SBE", "bob", "10.1.1.1", 0));
        assertEquals(LogonGuard.Lock.NONE, guard.check("SBE", "bob", "10.1.1.2", 0));

        assertTrue(guard.unlockAddress("::1"), "an operator unlocks loopback by any of its spellings");
        assertEquals(LogonGuard.Lock.NONE, guard.check("FIX", "bob", "127.0.0.1", 0));
    }
}
