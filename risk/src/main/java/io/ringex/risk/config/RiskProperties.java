package io.ringex.risk.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.ringex.risk.audit.AuditProperties;

/**
 * Everything under {@code ringex.risk.*} in application.yml. Defaults follow docs/architecture.md: the engine's
 * ingress on {@code localhost:40100} stream 1001, its outbound streams joined as a multi-destination-cast subscriber
 * of control {@code localhost:40101} (market data 1003, risk 1004). A key under {@code ringex.risk} that binds to
 * nothing here stops the service naming it ({@link RiskKeys}, which also covers system properties and environment
 * variables).
 *
 * @param aeron    where the Aeron media driver is and whether to embed one.
 * @param streams  the stream ids of the engine's streams, and the channels of a single engine.
 * @param members  the members of an engine cluster, each with its own channels; empty: the single engine of
 *                 {@code streams} ({@link EngineEndpoints} validates either).
 * @param actions  how admin commands are sent and tracked.
 * @param users    how the service learns the venue's users and hashes new passwords.
 * @param adminLog the admin log: the admin commands the engine answered.
 * @param audit    where the Audit tab replays the engine's journal ({@link AuditProperties}, which the audit service
 *                 binds on its own: named here so that {@link RiskKeys} knows its keys).
 * @param live     the SSE push to browsers.
 * @param engine   how the engine's health is judged.
 * @param security the users who may log in, how logins are throttled, the cookies.
 * @param http     the HTTP side: the public base URL, the request body limit.
 */
@ConfigurationProperties(prefix = "ringex.risk", ignoreUnknownFields = false)
public record RiskProperties(
    @DefaultValue Aeron aeron,
    @DefaultValue Streams streams,
    @DefaultValue List<Member> members,
    @DefaultValue Actions actions,
    @DefaultValue Users users,
    @DefaultValue AdminLog adminLog,
    @DefaultValue AuditProperties audit,
    @DefaultValue Live live,
    @DefaultValue Engine engine,
    @DefaultValue Security security,
    @DefaultValue Http http)
{
    /** A single engine's ingress (docs/architecture.md). */
    public static final String ENGINE_INGRESS = "aeron:udp?endpoint=localhost:40100";

    /** The engine's outbound channel as a multi-destination-cast subscriber (docs/architecture.md). */
    public static final String ENGINE_OUTBOUND =
        "aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic";

    /**
     * The Aeron media driver.
     *
     * @param dir            the driver's directory; empty for Aeron's default ({@code /dev/shm/aeron-<user>}).
     * @param embeddedDriver launch a media driver inside this JVM (tests, all-in-one); else connect to a running one.
     * @param driverTimeout  how long to wait for the driver before start-up fails.
     */
    public record Aeron(
        @DefaultValue("") String dir,
        @DefaultValue("false") boolean embeddedDriver,
        @DefaultValue("10s") Duration driverTimeout)
    {
    }

    /**
     * The engine's streams (docs/architecture.md): their ids, which are the same on every member of a cluster, and the
     * channels of a single engine. With {@code members} set, each member names its own channels and the channels here
     * must be left unset ({@link EngineEndpoints} refuses them, naming the key).
     *
     * @param ingressChannel     a single engine's ingress, where admin commands go; empty: {@link #ENGINE_INGRESS}.
     * @param ingressStreamId    the ingress stream.
     * @param riskChannel        a single engine's outbound channel, where it publishes the risk stream; empty:
     *                           {@link #ENGINE_OUTBOUND}.
     * @param riskStreamId       risk stream: AccountRiskUpdate, EngineStatus, AdminResponse, Trade, definitions.
     * @param marketDataChannel  where a single engine publishes market data; empty: the risk channel.
     * @param marketDataStreamId market-data stream: definitions, book levels, BBO, trades, snapshots.
     * @param egressChannel      where a single engine publishes its egress (to the gateways); empty: the risk channel
     *                           (the engine publishes all its outbound streams on one channel). The service reads only
     *                           the user directory from it.
     * @param egressStreamId     egress stream: UserDefinition and UserDirectoryEnd, among the gateways' reports.
     */
    public record Streams(
        @DefaultValue("") String ingressChannel,
        @DefaultValue("1001") int ingressStreamId,
        @DefaultValue("") String riskChannel,
        @DefaultValue("1004") int riskStreamId,
        @DefaultValue("") String marketDataChannel,
        @DefaultValue("1003") int marketDataStreamId,
        @DefaultValue("") String egressChannel,
        @DefaultValue("1002") int egressStreamId)
    {
    }

    /**
     * One member of an engine cluster ({@code ringex.risk.members[n]}): where the service reaches it. Its streams are
     * {@code ringex.risk.streams.*}'s ids. Which member leads is learnt from their EngineStatus, not from the order.
     *
     * @param ingressChannel    its ingress (required), where admin commands go while it leads.
     * @param riskChannel       its outbound channel as a subscriber (required): its risk stream, EngineStatus
     *                          included.
     * @param marketDataChannel where it publishes market data; empty: its risk channel.
     * @param egressChannel     where it publishes its egress; empty: its risk channel.
     */
    public record Member(
        @DefaultValue("") String ingressChannel,
        @DefaultValue("") String riskChannel,
        @DefaultValue("") String marketDataChannel,
        @DefaultValue("") String egressChannel)
    {
    }

    /**
     * Admin commands: each is signed with the service's admin key, which the engine must hold (docs/security.md,
     * "Admin authentication"); the journal names the key's number as the command's source.
     *
     * @param adminKeyFile    an admin keys file holding the service's key; empty: no key, and every action is
     *                        answered 503 NO_ADMIN_KEY without anything sent.
     * @param adminKey        the name of the service's key in that file; empty: the file's first.
     * @param offerTimeout    how long to retry a back-pressured or not-connected offer before answering 503.
     * @param responseTimeout how long an action waits for its AdminResponse before it is shown as timed out.
     * @param retained        how many recent actions are kept for GET /api/actions.
     */
    public record Actions(
        @DefaultValue("") String adminKeyFile,
        @DefaultValue("") String adminKey,
        @DefaultValue("250ms") Duration offerTimeout,
        @DefaultValue("10s") Duration responseTimeout,
        @DefaultValue("200") int retained)
    {
    }

    /**
     * The venue's users: the service learns them from the engine's egress stream (a UserDirectoryRequest answered by
     * UserDefinitions and a UserDirectoryEnd, then every change the engine broadcasts) and hashes the passwords an
     * ADMIN sets in the gateways' format.
     *
     * @param directoryGatewayId the gateway id the service claims in its UserDirectoryRequest, to tell the answers
     *                           meant for it from another gateway's; must not be the id of a real gateway.
     * @param directoryTimeout   a directory request not answered within this is sent again.
     * @param passwordIterations PBKDF2 iterations of the hashes of new passwords (the gateways verify any count).
     * @param passwordMinLength  the shortest password an ADMIN may set.
     */
    public record Users(
        @DefaultValue("65535") int directoryGatewayId,
        @DefaultValue("5s") Duration directoryTimeout,
        @DefaultValue("20000") int passwordIterations,
        @DefaultValue("8") int passwordMinLength)
    {
        /** Refuses settings that cannot work, naming the key. */
        public Users
        {
            if (directoryGatewayId < 1)
            {
                throw new IllegalArgumentException("ringex.risk.users.directory-gateway-id must be positive (gateway " +
                    "id 0 is the admin sources'), was " + directoryGatewayId);
            }
            if (directoryTimeout.isNegative() || directoryTimeout.isZero())
            {
                throw new IllegalArgumentException(
                    "ringex.risk.users.directory-timeout must be positive, was " + directoryTimeout);
            }
            if (passwordIterations < 1000)
            {
                throw new IllegalArgumentException(
                    "ringex.risk.users.password-iterations must be at least 1000, was " + passwordIterations);
            }
            if (passwordMinLength < 1 || passwordMinLength > 128)
            {
                throw new IllegalArgumentException(
                    "ringex.risk.users.password-min-length must be 1 to 128, was " + passwordMinLength);
            }
        }
    }

    /**
     * The admin log: every admin command the engine answered since the service started, as the engine echoed it in
     * its AdminResponse. The engine's journal is the full history (the Audit tab replays it: {@code audit}).
     *
     * @param retained how many of the latest entries are kept in memory.
     */
    public record AdminLog(@DefaultValue("1000") int retained)
    {
        /** Refuses a size that is not positive, naming the key. */
        public AdminLog
        {
            if (retained < 1)
            {
                throw new IllegalArgumentException("ringex.risk.admin-log.retained must be positive, was " + retained);
            }
        }
    }

    /**
     * Live updates to browsers.
     *
     * @param pushInterval the shortest time between two pushes: changes in between are coalesced into one.
     * @param emitterTimeout how long an SSE connection lives before the browser reconnects on its own.
     */
    public record Live(
        @DefaultValue("200ms") Duration pushInterval,
        @DefaultValue("30m") Duration emitterTimeout)
    {
    }

    /**
     * Engine health.
     *
     * @param statusTimeout the engine is UP while an EngineStatus arrived within this time.
     * @param historySize   how many EngineStatus samples the charts keep.
     */
    public record Engine(
        @DefaultValue("5s") Duration statusTimeout,
        @DefaultValue("300") int historySize)
    {
    }

    /**
     * Who may log in, and how. There are no default users: without any the service refuses to start (the {@code demo}
     * profile configures viewer/viewer, officer/officer and admin/admin).
     *
     * @param users        the users.
     * @param httpBasic    accept HTTP Basic credentials (scripts, Prometheus) besides the login form; both go through
     *                     the same users, lockout and failure log.
     * @param cookieSecure mark the session and XSRF-TOKEN cookies {@code Secure} even when the request reached this
     *                     service over plain HTTP (TLS ends in front of it): set it in production.
     * @param lockout      how failed logins are throttled.
     * @param apiKeysFile  the gateway's API keys file (the REST and WebSocket front end's keys), which an ADMIN
     *                     creates and revokes keys in from the console; empty: keys are not managed here.
     */
    public record Security(
        @DefaultValue List<User> users,
        @DefaultValue("true") boolean httpBasic,
        @DefaultValue("false") boolean cookieSecure,
        @DefaultValue Lockout lockout,
        @DefaultValue("") String apiKeysFile)
    {
    }

    /**
     * Failed-login lockout, per user name and per remote address. After {@code userFailures} failures in a row for a
     * user name (or {@code addressFailures} from one address) further logins for it are refused for
     * {@code lockDuration}; a failure after a lock has ended locks again at once for twice as long, up to
     * {@code maxLockDuration}. A key with no failure for {@code resetAfter} (counted from the end of its last lock)
     * starts over. A success clears the user name's count, not the address's.
     *
     * @param userFailures    failures in a row that lock a user name; 0 turns the per-user lock off.
     * @param addressFailures failures in a row that lock a remote address; 0 turns the per-address lock off.
     * @param lockDuration    the first lock.
     * @param maxLockDuration the longest lock the doubling reaches.
     * @param resetAfter      a quiet time after which a key's failures and doublings are forgotten.
     * @param trackedKeys     how many user names and how many addresses are remembered at most (the oldest
     *                        unlocked ones are forgotten first).
     */
    public record Lockout(
        @DefaultValue("5") int userFailures,
        @DefaultValue("20") int addressFailures,
        @DefaultValue("60s") Duration lockDuration,
        @DefaultValue("15m") Duration maxLockDuration,
        @DefaultValue("15m") Duration resetAfter,
        @DefaultValue("10000") int trackedKeys)
    {
        /** Refuses settings that would make the lockout meaningless or unbounded, naming the key. */
        public Lockout
        {
            if (userFailures < 0 || addressFailures < 0)
            {
                throw new IllegalArgumentException("ringex.risk.security.lockout.user-failures and " +
                    ".address-failures must be 0 (off) or more, were " + userFailures + " and " + addressFailures);
            }
            if (lockDuration.isNegative() || lockDuration.isZero() || maxLockDuration.compareTo(lockDuration) < 0)
            {
                throw new IllegalArgumentException("ringex.risk.security.lockout.lock-duration must be positive and " +
                    "no longer than .max-lock-duration, were " + lockDuration + " and " + maxLockDuration);
            }
            if (resetAfter.isNegative() || resetAfter.isZero())
            {
                throw new IllegalArgumentException(
                    "ringex.risk.security.lockout.reset-after must be positive, was " + resetAfter);
            }
            if (trackedKeys < 1)
            {
                throw new IllegalArgumentException(
                    "ringex.risk.security.lockout.tracked-keys must be positive, was " + trackedKeys);
            }
        }
    }

    /**
     * The HTTP side.
     *
     * @param publicBaseUrl  the URL users reach the service at, e.g. {@code https://risk.example.com}: the OpenAPI
     *                       document's server. Empty: the server is given as {@code /}, relative to wherever the
     *                       document was fetched from. Never taken from a request's Host or X-Forwarded-* headers.
     * @param maxRequestBody the largest request body accepted; a larger one is answered 413 before it is read.
     */
    public record Http(
        @DefaultValue("") String publicBaseUrl,
        @DefaultValue("16KB") DataSize maxRequestBody)
    {
        /** Refuses a base URL that is not an absolute http(s) URL, or a body limit below 1 KB, naming the key. */
        public Http
        {
            publicBaseUrl = publicBaseUrl.trim();
            if (!publicBaseUrl.isEmpty())
            {
                publicBaseUrl = checkedBaseUrl(publicBaseUrl);
            }
            if (maxRequestBody.toBytes() < 1024)
            {
                throw new IllegalArgumentException(
                    "ringex.risk.http.max-request-body must be at least 1KB, was " + maxRequestBody);
            }
        }

        private static String checkedBaseUrl(final String url)
        {
            final String problem = "ringex.risk.http.public-base-url must be an absolute http or https URL " +
                "without query or fragment (e.g. https://risk.example.com), was '" + url + "'";
            final URI uri;
            try
            {
                uri = new URI(url);
            }
            catch (final URISyntaxException ex)
            {
                throw new IllegalArgumentException(problem, ex);
            }
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null ||
                uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null)
            {
                throw new IllegalArgumentException(problem);
            }
            return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }
    }

    /**
     * One user.
     *
     * @param username the login name.
     * @param password the password hash with its id, e.g. {@code {bcrypt}$2a$10$...}; plain text is refused.
     * @param roles    VIEWER, RISK_OFFICER and/or ADMIN (ADMIN includes RISK_OFFICER, which includes VIEWER).
     */
    public record User(String username, String password, List<String> roles)
    {
    }
}
