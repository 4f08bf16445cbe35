package io.ringex.gateway.fix;

import io.ringex.gateway.auth.LogonAttempt;
import io.ringex.gateway.auth.LogonAuthenticator;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.RateLimitedLog;
import io.ringex.gateway.auth.RemoteAddresses;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.fix.codecs.builder.LogoutEncoder;
import io.ringex.gateway.fix.codecs.decoder.LogonDecoder;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import uk.co.real_logic.artio.decoder.AbstractLogonDecoder;
import uk.co.real_logic.artio.decoder.SessionHeaderDecoder;
import uk.co.real_logic.artio.validation.AuthenticationProxy;
import uk.co.real_logic.artio.validation.AuthenticationStrategy;

/**
 * Artio authentication for the FIX acceptor: Username(553) and Password(554) must match a user, and the Logon's
 * SenderCompID/TargetCompID must be that user's. The check runs on the gateway's {@link LogonAuthenticator} worker,
 * off Artio's framer thread, with its lockouts and late answers; a refused Logon is answered with a Logout whose
 * Text(58) says it was refused (the same words whatever the cause, so they tell an attacker nothing; but a disabled
 * user's right password is told {@link #DISABLED_TEXT}), then the connection is closed, as FIX 4.4 expects. A
 * Logon whose HeartBtInt(108) is outside the configured range ({@code ringex.gateway.fix.heartbeat.min}..{@code max})
 * is refused at once with a Logout saying the range, before its password is checked: an interval of 0 would have the
 * gateway heartbeat in a tight loop.
 * <p>
 * Threading: {@link #authenticateAsync} on Artio's framer thread; the verdict reaches Artio's proxy from the worker
 * (Artio's pending logon state is volatile and polled by the framer).
 */
public final class FixAuthenticator implements AuthenticationStrategy
{
    /** Text(58) of the Logout answering a refused Logon. */
    public static final String REFUSED_TEXT =
        "Logon refused: invalid credentials, or too many failed logons (retry later)";
    /**
     * Text(58) of the Logout answering a Logon of a disabled user with its right password (a wrong one, or an unknown
     * name, gets {@link #REFUSED_TEXT}: only who knows the password learns the user is disabled).
     */
    public static final String DISABLED_TEXT = "Logon refused: user disabled";
    /** Text(58) of the Logout answering a Logon that arrived while too many were being checked. */
    public static final String BUSY_TEXT = "Logon refused: the gateway is busy or not ready, retry";
    /** How long the connection lingers after the refusing Logout, so the client reads it before the close. */
    static final long REJECT_LINGER_MS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(FixAuthenticator.class);

    private final LogonAuthenticator authenticator;
    private final EpochClock clock;
    private final int minHeartBtIntS;
    private final int maxHeartBtIntS;
    private final String heartBtIntText;
    private final RateLimitedLog heartBtIntLog = new RateLimitedLog(1_000);

    /**
     * @param authenticator  the gateway's logon checker.
     * @param clock          wall clock.
     * @param minHeartBtIntS the shortest HeartBtInt(108) taken, in seconds.
     * @param maxHeartBtIntS the longest.
     */
    public FixAuthenticator(
        final LogonAuthenticator authenticator,
        final EpochClock clock,
        final long minHeartBtIntS,
        final long maxHeartBtIntS)
    {
        this.authenticator = authenticator;
        this.clock = clock;
        this.minHeartBtIntS = (int)minHeartBtIntS;
        this.maxHeartBtIntS = (int)maxHeartBtIntS;
        this.heartBtIntText = heartBtIntText(minHeartBtIntS, maxHeartBtIntS);
    }

    /**
     * @param minS the shortest HeartBtInt(108) taken.
     * @param maxS the longest.
     * @return Text(58) of the Logout refusing a Logon whose HeartBtInt is outside the range.
     */
    public static String heartBtIntText(final long minS, final long maxS)
    {
        return "HeartBtInt(108) must be " + minS + " to " + maxS + " seconds";
    }

    /**
     * {@inheritDoc}
     */
    public void authenticateAsync(final AbstractLogonDecoder logon, final AuthenticationProxy proxy)
    {
        final int heartBtInt = logon.heartBtInt();
        if (heartBtInt < minHeartBtIntS || heartBtInt > maxHeartBtIntS)
        {
            final long skipped = heartBtIntLog.admit(clock.time());
            if (skipped != RateLimitedLog.SKIP)
            {
                LOG.warn("FIX logon refused: address={} HeartBtInt(108)={} outside {}..{} s ({} such lines skipped " +
                    "since the last, at most one a second)", LogonGuard.printable(proxy.remoteAddress()), heartBtInt,
                    minHeartBtIntS, maxHeartBtIntS, skipped);
            }
            final LogoutEncoder logout = new LogoutEncoder();
            logout.text(heartBtIntText);
            proxy.reject(logout, REJECT_LINGER_MS);
            return;
        }
        final String username = logon.hasUsername() ? logon.usernameAsString() : null;
        final String password = logon.hasPassword() ? logon.passwordAsString() : null;
        String sender = null;
        String target = null;
        if (logon instanceof LogonDecoder)
        {
            final SessionHeaderDecoder header = ((LogonDecoder)logon).header();
            sender = header.senderCompIDAsString();
            target = header.targetCompIDAsString();
        }
        final FixLogon attempt = new FixLogon(username, password, RemoteAddresses.host(proxy.remoteAddress()),
            clock.time(), sender, target, proxy);
        if (!authenticator.submit(attempt))
        {
            attempt.onVerdict();
        }
    }

    /**
     * Not used: {@link #authenticateAsync} is.
     *
     * @param logon the logon.
     * @return never.
     */
    public boolean authenticate(final AbstractLogonDecoder logon)
    {
        throw new UnsupportedOperationException("the FIX acceptor authenticates asynchronously");
    }

    private static final class FixLogon extends LogonAttempt
    {
        private final String senderCompId;
        private final String targetCompId;
        private final AuthenticationProxy proxy;
        private final boolean hasCredentials;

        FixLogon(
            final String username,
            final String password,
            final String address,
            final long receivedAtMs,
            final String senderCompId,
            final String targetCompId,
            final AuthenticationProxy proxy)
        {
            super("FIX", username, password, address, receivedAtMs);
            this.hasCredentials = null != username && null != password;
            this.senderCompId = senderCompId;
            this.targetCompId = targetCompId;
            this.proxy = proxy;
        }

        protected String permits(final User user)
        {
            if (!hasCredentials)
            {
                return "Username(553) or Password(554) missing";
            }
            if (null == user.fixSenderCompId())
            {
                return "user has no FIX access";
            }
            if (!user.fixSenderCompId().equals(senderCompId) || !user.fixTargetCompId().equals(targetCompId))
            {
                return "SenderCompID/TargetCompID " + senderCompId + "/" + targetCompId + " are not the user's";
            }
            return null;
        }

        protected void onVerdict()
        {
            if (verdict() == Verdict.ACCEPTED)
            {
                proxy.accept();
                return;
            }
            final LogoutEncoder logout = new LogoutEncoder();
            logout.text(verdict() == Verdict.BUSY ? BUSY_TEXT : verdict() == Verdict.DISABLED ? DISABLED_TEXT :
                REFUSED_TEXT);
            proxy.reject(logout, REJECT_LINGER_MS);
        }
    }
}
