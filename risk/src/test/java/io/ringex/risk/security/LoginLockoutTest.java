package io.ringex.risk.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringex.risk.config.RiskProperties;

/**
 * The lockout policy with the documented defaults (5 failures per user, 20 per address, 60 s doubling to 15 min,
 * reset after 15 quiet minutes), on a clock the test moves: nothing here waits.
 */
class LoginLockoutTest
{
    private static final long S = 1000;
    private static final String ADDRESS = "192.0.2.1";

    private final LoginLockout lockout = new LoginLockout(new RiskProperties.Lockout(
        5, 20, Duration.ofSeconds(60), Duration.ofMinutes(15), Duration.ofMinutes(15), 10_000));
    private long now = 1_800_000_000_000L;

    private void fail(final String user, final String address, final int times)
    {
        for (int i = 0; i < times; i++)
        {
            assertNull(lockout.refuse(user, address, now), user + " locked before failure " + (i + 1));
            lockout.onFailure(user, address, now);
            now += 1;
        }
    }

    @Test
    void fiveFailuresLockTheUserForAMinuteAndTheLockEnds()
    {
        fail("alice", ADDRESS, 4);
        assertNull(lockout.refuse("alice", ADDRESS, now));
        final LoginLockout.Failure fifth = lockout.onFailure("alice", ADDRESS, now);
        assertEquals(60 * S, fifth.userLockMs());
        assertEquals(0, fifth.addressLockMs());

        final LoginLockout.Refusal refusal = lockout.refuse("ALICE", "198.51.100.7", now + 59 * S);
        assertNotNull(refusal, "the user name is locked from any address, in any case");
        assertTrue(refusal.userLocked() && !refusal.addressLocked() && refusal.first());
        assertFalse(lockout.refuse("alice", ADDRESS, now + 59 * S).first(), "only the first refusal is logged");
        assertNull(lockout.refuse("bob", ADDRESS, now + 59 * S), "other users are not locked");
        assertNull(lockout.refuse("alice", ADDRESS, now + 60 * S), "the lock ends");
    }

    @Test
    void aFailureAfterALockLocksAgainAtOnceForTwiceAsLongUpToFifteenMinutes()
    {
        fail("alice", ADDRESS, 5);
        final long[] expected = {120, 240, 480, 900, 900};
        for (final long seconds : expected)
        {
            final LoginLockout.Lock lock = lockout.locks(now).get(0);
            now = lock.lockedUntilMs();
            assertNull(lockout.refuse("alice", ADDRESS, now));
            assertEquals(seconds * S, lockout.onFailure("alice", ADDRESS, now).userLockMs());
        }
    }

    @Test
    void aQuietKeyStartsOverAndASuccessClearsTheUserButNotTheAddress()
    {
        fail("alice", ADDRESS, 5);
        now = lockout.locks(now).get(0).lockedUntilMs() + Duration.ofMinutes(15).toMillis();
        assertEquals(0, lockout.onFailure("alice", ADDRESS, now).userLockMs(), "forgotten after 15 quiet minutes");
        fail("alice", ADDRESS, 3);
        assertEquals(60 * S, lockout.onFailure("alice", ADDRESS, now).userLockMs(), "and the first lock is 60 s");

        fail("carol", "203.0.113.9", 4);
        lockout.onSuccess("Carol");
        fail("carol", "203.0.113.9", 4);
        assertNull(lockout.refuse("carol", "203.0.113.9", now), "a success reset carol's count");
        assertEquals(9, lockout.onFailure("dave", "203.0.113.9", now).addressFailures(),
            "the address kept counting across carol's success");
    }

    @Test
    void twentyFailuresFromOneAddressLockItForEveryUser()
    {
        for (int i = 0; i < 19; i++)
        {
            fail("user" + i, ADDRESS, 1);
        }
        assertEquals(60 * S, lockout.onFailure("user19", ADDRESS, now).addressLockMs());
        final LoginLockout.Refusal refusal = lockout.refuse("alice", ADDRESS, now);
        assertTrue(refusal.addressLocked() && !refusal.userLocked());
        assertNull(lockout.refuse("alice", "192.0.2.2", now));
        assertEquals(List.of(new LoginLockout.Lock(LoginLockout.Kind.ADDRESS, ADDRESS, now + 60 * S, 1, 1)),
            lockout.locks(now));
        assertTrue(lockout.unlockAddress(ADDRESS));
        assertNull(lockout.refuse("alice", ADDRESS, now));
        assertFalse(lockout.unlockAddress(ADDRESS));
    }

    @Test
    void unknownAndKnownUserNamesAreTrackedAlikeAndMemoryIsBounded()
    {
        final LoginLockout small = new LoginLockout(new RiskProperties.Lockout(
            2, 0, Duration.ofSeconds(60), Duration.ofMinutes(15), Duration.ofMinutes(15), 3));
        small.onFailure("locked", ADDRESS, now);
        small.onFailure("locked", ADDRESS, now);
        for (int i = 0; i < 10; i++)
        {
            small.onFailure("spray" + i, ADDRESS, now);
        }
        assertNotNull(small.refuse("locked", ADDRESS, now), "the unlocked keys are forgotten first");
        assertNull(small.refuse("spray0", ADDRESS, now));
        assertEquals(1, small.lockedCount(now));
        assertTrue(small.unlockUser("LOCKED"));
        assertNull(small.refuse("locked", ADDRESS, now));
    }

    @Test
    void settingsThatMakeNoSenseAreRefusedNamingTheKey()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
            new RiskProperties.Lockout(5, 20, Duration.ofMinutes(30), Duration.ofMinutes(15), Duration.ofMinutes(15),
                10));
        assertTrue(ex.getMessage().contains("ringex.risk.security.lockout.lock-duration"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () ->
            new RiskProperties.Lockout(-1, 20, Duration.ofSeconds(60), Duration.ofMinutes(15), Duration.ofMinutes(15),
                10));
    }
    /**
     * An address lock used to be keyed on the exact address: {@code ::1} logged in while {@code 127.0.0.1} was
     * locked, and each address of an attacker's IPv6 /64 started afresh. Loopback is one key, an IPv4-mapped address
     * is the IPv4 address, an IPv6 address counts as its /64; the lock list names the key, and unlocking any spelling
     * of it lifts it.
     */
    @Test
    void anAddressLockHoldsHoweverTheAddressIsSpelledAndAcrossAnIpv6Slash64()
    {
        for (int i = 0; i < 20; i++)
        {
            lockout.onFailure("guess" + i, "127.0.0.1", now);
        }
        for (final String loopback : List.of("::1", "0:0:0:0:0:0:0:1", "127.0.0.2", "::ffff:127.0.0.1"))
        {
            final LoginLockout.Refusal refusal = lockout.refuse("bob", loopback, now);
            assertNotNull(refusal, loopback);
            assertTrue(refusal.addressLocked(), loopback);
        }
        assertTrue(lockout.locks(now).stream().anyMatch(l -> l.kind() == LoginLockout.Kind.ADDRESS &&
            "loopback".equals(l.key())), lockout.locks(now).toString());

        for (int i = 0; i < 20; i++)
        {
            lockout.onFailure("guess" + i, "2001:db8:5:5::" + Integer.toHexString(i + 1), now);
        }
        assertNotNull(lockout.refuse("bob", "2001:db8:5:5:aaaa::1", now), "the same /64");
        assertNull(lockout.refuse("bob", "2001:db8:5:6::1", now), "another /64");

        for (int i = 0; i < 19; i++)
        {
            lockout.onFailure("guess" + i, "192.0.2.77", now);
        }
        lockout.onFailure("guess", "::ffff:192.0.2.77", now);
        assertNotNull(lockout.refuse("bob", "192.0.2.77", now), "IPv4-mapped is the IPv4 address");

        assertTrue(lockout.unlockAddress("::1"));
        assertNull(lockout.refuse("bob", "127.0.0.1", now));
    }
}
