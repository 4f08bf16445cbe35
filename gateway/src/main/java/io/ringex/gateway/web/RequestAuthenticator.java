package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.ringex.gateway.auth.LogonGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks a signed web request the way exchange APIs do: the key id ({@code X-RINGEX-KEY}), the caller's wall-clock
 * time in milliseconds ({@code X-RINGEX-TIMESTAMP}) and the lower-case hex HMAC-SHA256, under the key's secret, of
 * {@code timestamp + METHOD + path-with-query + body} ({@code X-RINGEX-SIGNATURE}). A timestamp further than the
 * receive window from the gateway's clock is refused, and so is a signature already accepted within the window
 * (a replay): each key remembers its accepted signatures for twice the window, at most {@link #MAX_REMEMBERED} of
 * them, and refuses more signed requests than that rather than forget one, so only a key's own traffic can fill its
 * memory. Every failed signature check is counted by the web front end's own {@link LogonGuard} (not the one FIX and
 * SBE share) under the caller's address, which is locked out after too many: one attacker never locks out a key or
 * another address. A timestamp outside the window or a replayed signature is refused without counting: only someone
 * who holds the secret can make a valid signature, so neither is a guess at a secret. A key that names addresses
 * ({@link ApiKey#allows}) is refused (403, logged) from any other, however well signed.
 * <p>
 * Thread safety: synchronized; the web front end's event loop calls it.
 */
public final class RequestAuthenticator
{
    /** Signatures remembered per key within the replay horizon. */
    public static final int MAX_REMEMBERED = 8192;

    /** The header naming the key. */
    public static final String KEY_HEADER = "X-RINGEX-KEY";
    /** The header with the caller's time, epoch milliseconds. */
    public static final String TIMESTAMP_HEADER = "X-RINGEX-TIMESTAMP";
    /** The header with the signature. */
    public static final String SIGNATURE_HEADER = "X-RINGEX-SIGNATURE";

    private static final Logger LOG = LoggerFactory.getLogger(RequestAuthenticator.class);
    private static final String PROTOCOL = "WEB";
    private static final int SIGNATURE_HEX_LENGTH = 64;
    private static final byte[] UNKNOWN_KEY_SECRET = new byte[32];

    /** What became of a request. */
    public record Verdict(ApiKey key, int status, String reason)
    {
        /**
         * @return true if the request may proceed as {@link #key()}.
         */
        public boolean accepted()
        {
            return null != key;
        }
    }

    private ApiKeys keys;
    private final LogonGuard guard;
    private final long windowMs;
    private final Map<Integer, LinkedHashMap<String, Long>> seen = new HashMap<>();

    /**
     * @param keys     the keys accepted.
     * @param guard    the web front end's failed-logon guard (never the one FIX and SBE share).
     * @param windowMs the receive window.
     */
    public RequestAuthenticator(final ApiKeys keys, final LogonGuard guard, final long windowMs)
    {
        this.keys = keys;
        this.guard = guard;
        this.windowMs = windowMs;
    }

    /**
     * Take a new set of keys (the keys file changed): a key no longer in it is refused from now on.
     *
     * @param keys the keys accepted from now on.
     */
    public synchronized void keys(final ApiKeys keys)
    {
        this.keys = keys;
        seen.keySet().retainAll(keys.numbers());
    }

    /**
     * The signature a client sends.
     *
     * @param secret      the key's secret.
     * @param timestamp   the timestamp header's value.
     * @param method      HTTP method, upper case.
     * @param pathAndQuery the request target as sent (path, and {@code ?query} if any).
     * @param body        the body, UTF-8 (empty for none).
     * @return lower-case hex HMAC-SHA256.
     */
    public static String sign(
        final byte[] secret, final String timestamp, final String method, final String pathAndQuery, final byte[] body)
    {
        return ApiKey.sign(secret, timestamp, method, pathAndQuery, body);
    }

    /**
     * Check one request.
     *
     * @param address      the caller's address (host).
     * @param keyId        {@code X-RINGEX-KEY} or null.
     * @param timestamp    {@code X-RINGEX-TIMESTAMP} or null.
     * @param signature    {@code X-RINGEX-SIGNATURE} or null.
     * @param method       HTTP method.
     * @param pathAndQuery the request target as sent.
     * @param body         the body (empty for none).
     * @param nowMs        the gateway's wall clock.
     * @return the key, or the status and reason to refuse with.
     */
    public synchronized Verdict verify(
        final String address,
        final String keyId,
        final String timestamp,
        final String signature,
        final String method,
        final String pathAndQuery,
        final byte[] body,
        final long nowMs)
    {
        final String who = "apikey:" + (null == keyId ? "-" : LogonGuard.printable(truncate(keyId))) + "@" + address;
        if (guard.check(PROTOCOL, who, address, nowMs) != LogonGuard.Lock.NONE)
        {
            return new Verdict(null, 429, "too many failed authentications from this address; retry later");
        }
        if (null == keyId || null == timestamp || null == signature)
        {
            return fail(who, address, nowMs, 401,
                "unsigned: " + KEY_HEADER + ", " + TIMESTAMP_HEADER + " and " + SIGNATURE_HEADER + " are required");
        }
        final long sentMs;
        try
        {
            sentMs = Long.parseLong(timestamp);
        }
        catch (final NumberFormatException ex)
        {
            return fail(who, address, nowMs, 401, TIMESTAMP_HEADER + " must be epoch milliseconds");
        }
        if (sentMs < nowMs - windowMs || sentMs > nowMs + windowMs)
        {
            return new Verdict(null, 401, "timestamp outside the receive window of " + windowMs + " ms");
        }
        final ApiKey key = keys.byId(keyId);
        // An unknown key costs the same HMAC as a known one: the time taken does not tell which ids exist.
        final byte[] expected = (null == key ? sign(UNKNOWN_KEY_SECRET, timestamp, method, pathAndQuery, body) :
            key.sign(timestamp, method, pathAndQuery, body)).getBytes(StandardCharsets.US_ASCII);
        if (null == key || signature.length() != SIGNATURE_HEX_LENGTH ||
            !MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII)))
        {
            return fail(who, address, nowMs, 401, "unknown key or bad signature");
        }
        if (!key.allows(address))
        {
            // A valid signature from elsewhere: the secret is out. Not a guess, so not counted; the operator is told.
            LOG.warn("API key {} signed a request from {}, which is not among its addresses", key.keyId(), address);
            return new Verdict(null, 403, "this key may not be used from this address");
        }
        final LinkedHashMap<String, Long> remembered = seen.computeIfAbsent(key.number(), n -> new LinkedHashMap<>());
        forgetExpired(remembered, nowMs);
        if (remembered.containsKey(signature))
        {
            return new Verdict(null, 401, "replayed request: this signature was already used");
        }
        if (remembered.size() >= MAX_REMEMBERED)
        {
            return new Verdict(null, 429, "too many signed requests within the receive window for this key");
        }
        remembered.put(signature, nowMs + 2 * windowMs);
        guard.onSuccess(who, address);
        return new Verdict(key, 200, null);
    }

    private Verdict fail(final String who, final String address, final long nowMs, final int status,
        final String reason)
    {
        guard.onFailure(PROTOCOL, who, address, reason, nowMs);
        return new Verdict(null, status, reason);
    }

    private static void forgetExpired(final LinkedHashMap<String, Long> remembered, final long nowMs)
    {
        final Iterator<Long> expiries = remembered.values().iterator();
        while (expiries.hasNext())
        {
            if (expiries.next() > nowMs)
            {
                return;
            }
            expiries.remove();
        }
    }

    private static String truncate(final String text)
    {
        return text.length() <= 64 ? text : text.substring(0, 64);
    }
}
