package io.ringex.engine.cluster;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.aeron.security.Authenticator;
import io.aeron.security.CredentialsSupplier;
import io.aeron.security.SessionProxy;
import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The members' shared secret, proved to the consensus module before a cluster client may append to the log: the
 * module answers a connect request with a fresh random challenge, and admits the session only if the response is the
 * HMAC-SHA256 of that challenge under the secret. The secret never crosses the network and a response is good for one
 * challenge only. Anyone else who reaches a member's client ingress is refused, and holds at most one pending
 * challenge while it is being answered: at most {@link #MAX_PENDING} in all, for at most
 * {@link #CHALLENGE_TIMEOUT_MS}; a connect beyond them is ignored (its client times out). Refusals are logged at most
 * once a second, with how many were not.
 * <p>
 * Thread safety: the authenticator runs on the consensus module's thread, the credentials on the client's.
 */
public final class ClusterSecret
{
    /** The credentials a Ringex engine's client presents before its challenge. */
    static final byte[] ENGINE_CREDENTIALS = "ringex-engine".getBytes(StandardCharsets.US_ASCII);
    /** The principal a proven session is admitted as. */
    static final byte[] ENGINE_PRINCIPAL = "ringex-engine".getBytes(StandardCharsets.US_ASCII);
    static final int CHALLENGE_LENGTH = 32;
    static final int MAX_PENDING = 256;
    static final long CHALLENGE_TIMEOUT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSecret.class);
    private static final String ALGORITHM = "HmacSHA256";

    private final byte[] key;

    /**
     * @param secret the secret, as configured.
     */
    public ClusterSecret(final String secret)
    {
        this.key = secret.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @return the credentials a member's engine presents to the cluster.
     */
    public CredentialsSupplier credentials()
    {
        return new CredentialsSupplier()
        {
            public byte[] encodedCredentials()
            {
                return ENGINE_CREDENTIALS.clone();
            }

            public byte[] onChallenge(final byte[] encodedChallenge)
            {
                return sign(encodedChallenge);
            }
        };
    }

    /**
     * @return a new authenticator for a consensus module (one per module).
     */
    public Authenticator authenticator()
    {
        return new ChallengeAuthenticator();
    }

    byte[] sign(final byte[] challenge)
    {
        try
        {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(challenge);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ALGORITHM + " unavailable", ex);
        }
    }

    private final class ChallengeAuthenticator implements Authenticator
    {
        private final SecureRandom random = new SecureRandom();
        private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
        private long lastLogMs = Long.MIN_VALUE / 2;
        private long unlogged;

        public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs)
        {
            expire(nowMs);
            if (pending.size() >= MAX_PENDING)
            {
                log(nowMs, "cluster ingress: " + MAX_PENDING + " connects await their challenge; ignoring session " +
                    sessionId);
                return;
            }
            pending.put(sessionId, new Pending(Arrays.equals(ENGINE_CREDENTIALS, encodedCredentials), nowMs));
        }

        public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs)
        {
            final Pending state = pending.get(sessionId);
            if (null != state && null != state.challenge)
            {
                state.proven = MessageDigest.isEqual(sign(state.challenge), encodedCredentials);
                state.answered = true;
            }
        }

        public void onConnectedSession(final SessionProxy sessionProxy, final long nowMs)
        {
            final Pending state = pending.get(sessionProxy.sessionId());
            if (null == state || !state.engine)
            {
                refuse(sessionProxy, nowMs, "not an engine");
                return;
            }
            if (null == state.challenge)
            {
                final byte[] challenge = new byte[CHALLENGE_LENGTH];
                random.nextBytes(challenge);
                if (sessionProxy.challenge(challenge))
                {
                    state.challenge = challenge;
                }
            }
            else if (nowMs - state.sinceMs > CHALLENGE_TIMEOUT_MS)
            {
                refuse(sessionProxy, nowMs, "no answer to its challenge");
            }
        }

        public void onChallengedSession(final SessionProxy sessionProxy, final long nowMs)
        {
            final Pending state = pending.get(sessionProxy.sessionId());
            if (null == state)
            {
                sessionProxy.reject();
            }
            else if (state.answered)
            {
                if (state.proven && sessionProxy.authenticate(ENGINE_PRINCIPAL))
                {
                    pending.remove(sessionProxy.sessionId());
                }
                else if (!state.proven)
                {
                    refuse(sessionProxy, nowMs, "wrong answer to its challenge");
                }
            }
            else if (nowMs - state.sinceMs > CHALLENGE_TIMEOUT_MS)
            {
                refuse(sessionProxy, nowMs, "no answer to its challenge");
            }
        }

        private void refuse(final SessionProxy sessionProxy, final long nowMs, final String why)
        {
            pending.remove(sessionProxy.sessionId());
            sessionProxy.reject();
            log(nowMs, "cluster ingress: session " + sessionProxy.sessionId() + " refused: " + why);
        }

        private void log(final long nowMs, final String line)
        {
            if (nowMs - lastLogMs >= 1_000)
            {
                LOG.warn("{} ({} more since the last line)", line, unlogged);
                lastLogMs = nowMs;
                unlogged = 0;
            }
            else
            {
                unlogged++;
            }
        }

        private void expire(final long nowMs)
        {
            pending.values().removeIf((state) -> nowMs - state.sinceMs > CHALLENGE_TIMEOUT_MS);
        }
    }

    private static final class Pending
    {
        final boolean engine;
        final long sinceMs;
        byte[] challenge;
        boolean answered;
        boolean proven;

        Pending(final boolean engine, final long sinceMs)
        {
            this.engine = engine;
            this.sinceMs = sinceMs;
        }
    }
}
