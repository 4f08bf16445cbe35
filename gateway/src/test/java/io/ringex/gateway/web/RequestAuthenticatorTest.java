package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestAuthenticatorTest
{
    private static final long NOW = 1_800_000_000_000L;
    private static final long WINDOW = 5_000;
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final ApiKey KEY = new ApiKey(1, "rk-test-key", "alice", true, SECRET);
    private static final byte[] BODY = "{\"symbol\":\"BTC-USD\"}".getBytes(StandardCharsets.UTF_8);
    private static final LogonPolicy POLICY = new LogonPolicy(3, 5, 60_000, 900_000, 0, 64, 8, 10_000);

    private final LogonGuard guard = new LogonGuard(POLICY);
    private final RequestAuthenticator authenticator =
        new RequestAuthenticator(ApiKeys.of(List.of(KEY)), guard, WINDOW);

    private RequestAuthenticator.Verdict verify(final String address, final long sentMs, final String signature)
    {
        return authenticator.verify(address, KEY.keyId(), Long.toString(sentMs), signature, "POST",
            "/api/v1/orders", BODY, NOW);
    }

    private static String sign(final long sentMs)
    {
        return RequestAuthenticator.sign(SECRET, Long.toString(sentMs), "POST", "/api/v1/orders", BODY);
    }

    @Test
    void theSignatureIsTheHexHmacSha256OfTimestampMethodPathAndBody()
    {
        // printf '%s' 1700000000000GET/api/v1/instruments | openssl dgst -sha256 -hmac "$SECRET"
        assertEquals("76833a674af0dd6ba50739aa1734a458c650c89e1c4c06c181b8155e9723b95d",
            RequestAuthenticator.sign(SECRET, "1700000000000", "GET", "/api/v1/instruments", new byte[0]));
    }

    @Test
    void aKeyWithAddressesIsRefusedElsewhereWithoutCountingAFailure()
    {
        final ApiKey limited = new ApiKey(2, "rk-limited-key", "alice", true, SECRET, List.of("10.0.0.0/8"));
        final RequestAuthenticator checker = new RequestAuthenticator(ApiKeys.of(List.of(limited)), guard, WINDOW);
        final RequestAuthenticator.Verdict elsewhere = checker.verify("192.0.2.1", limited.keyId(),
            Long.toString(NOW), sign(NOW), "POST", "/api/v1/orders", BODY, NOW);
        assertFalse(elsewhere.accepted());
        assertEquals(403, elsewhere.status());
        assertTrue(elsewhere.reason().contains("not be used from this address"), elsewhere.reason());
        assertEquals(0, guard.failures());
        assertSame(limited, checker.verify("10.2.3.4", limited.keyId(), Long.toString(NOW), sign(NOW), "POST",
            "/api/v1/orders", BODY, NOW).key(), "the same request from an allowed address");
    }

    @Test
    void aGoodSignatureWithinTheWindowIsAcceptedOnceOnly()
    {
        final long sent = NOW - WINDOW;
        final RequestAuthenticator.Verdict first = verify("10.0.0.1", sent, sign(sent));
        assertSame(KEY, first.key());
        final RequestAuthenticator.Verdict replay = verify("10.0.0.1", sent, sign(sent));
        assertFalse(replay.accepted());
        assertEquals(401, replay.status());
        assertTrue(replay.reason().contains("replayed"), replay.reason());
    }

    @Test
    void replaysAndSkewedClocksAreRefusedWithoutLockingTheAddressOut()
    {
        final long sent = NOW - 1;
        assertSame(KEY, verify("10.0.0.9", sent, sign(sent)).key());
        for (int i = 0; i < 3 * POLICY.maxAddressFailures(); i++)
        {
            assertTrue(verify("10.0.0.9", sent, sign(sent)).reason().contains("replayed"));
            final long skewed = NOW - WINDOW - 1 - i;
            assertTrue(verify("10.0.0.9", skewed, sign(skewed)).reason().contains("receive window"));
        }
        assertEquals(0, guard.failures());
        assertSame(KEY, verify("10.0.0.9", NOW, sign(NOW)).key());
    }

    @Test
    void aTimestampFarFromNowDoesNotOverflowIntoTheWindow()
    {
        // now - sent wraps to Long.MIN_VALUE, whose absolute value is itself: negative, so "within" any window.
        final long sent = NOW + Long.MIN_VALUE;
        final RequestAuthenticator.Verdict verdict = verify("10.0.0.1", sent, sign(sent));
        assertEquals(401, verdict.status());
        assertTrue(verdict.reason().contains("receive window"), verdict.reason());
    }

    @Test
    void aTimestampOutsideTheWindowEitherWayIsRefused()
    {
        for (final long sent : new long[] {NOW - WINDOW - 1, NOW + WINDOW + 1})
        {
            final RequestAuthenticator.Verdict verdict = verify("10.0.0.1", sent, sign(sent));
            assertEquals(401, verdict.status());
            assertTrue(verdict.reason().contains("receive window"), verdict.reason());
        }
    }

    @Test
    void missingHeadersABadSignatureOrAnUnknownKeyAreRefusedAlike()
    {
        assertTrue(authenticator.verify("10.0.0.1", null, null, null, "GET", "/", new byte[0], NOW).reason()
            .startsWith("unsigned"));
        final String wrong = sign(NOW).replace('a', 'b').replace('1', '2');
        assertEquals("unknown key or bad signature", verify("10.0.0.2", NOW, wrong).reason());
        assertEquals("unknown key or bad signature", authenticator.verify("10.0.0.3", "rk-nobody-here",
            Long.toString(NOW), sign(NOW), "POST", "/api/v1/orders", BODY, NOW).reason());
        assertEquals("unknown key or bad signature", verify("10.0.0.4", NOW, "short").reason());
    }

    @Test
    void anAddressThatKeepsFailingIsLockedOutAndNoOtherAddressIs()
    {
        for (int i = 0; i < POLICY.maxAddressFailures(); i++)
        {
            final String badKey = "rk-guess-" + i;
            assertEquals(401, authenticator.verify("203.0.113.9", badKey, Long.toString(NOW), sign(NOW), "POST",
                "/api/v1/orders", BODY, NOW).status());
        }
        final RequestAuthenticator.Verdict locked = verify("203.0.113.9", NOW, sign(NOW));
        assertEquals(429, locked.status());
        assertNull(locked.key());
        // The key itself is not locked: its owner, elsewhere, goes on.
        assertSame(KEY, verify("198.51.100.7", NOW, sign(NOW)).key());
        assertEquals(POLICY.maxAddressFailures(), guard.failures());
    }

    @Test
    void aKeysMemoryOfSignaturesIsBoundedAndFullRefusesRatherThanForgets()
    {
        for (int i = 0; i < RequestAuthenticator.MAX_REMEMBERED; i++)
        {
            final long sent = NOW - (i % 1000);
            final byte[] body = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
            final String signature = RequestAuthenticator.sign(SECRET, Long.toString(sent), "POST", "/o", body);
            assertTrue(authenticator.verify("10.0.0.1", KEY.keyId(), Long.toString(sent), signature, "POST", "/o",
                body, NOW).accepted());
        }
        final RequestAuthenticator.Verdict full = verify("10.0.0.1", NOW, sign(NOW));
        assertEquals(429, full.status());
        // Twice the window later every remembered signature has expired: room again.
        final long later = NOW + 2 * WINDOW + 1;
        assertTrue(authenticator.verify("10.0.0.1", KEY.keyId(), Long.toString(later),
            RequestAuthenticator.sign(SECRET, Long.toString(later), "POST", "/api/v1/orders", BODY), "POST",
            "/api/v1/orders", BODY, later).accepted());
    }
}
