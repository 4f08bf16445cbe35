package io.ringex.risk.security;

import java.time.Clock;
import java.util.Collection;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Checks a user name and password, from the login form and from HTTP Basic alike, with the {@link LoginLockout} in
 * front. Every answer but success is the same {@link BadCredentialsException} ("Bad credentials"): a wrong password,
 * an unknown user and a locked user name or address cannot be told apart by the caller.
 * <p>
 * Each attempt that is not locked costs exactly one password check: an unknown user's password is checked against a
 * dummy bcrypt hash of the configured users' cost, so unknown and known-but-wrong take the same work (and time). A
 * locked attempt costs none, whoever it names. Each failure is logged at WARN with the user name, the remote address
 * and the reason, and counted in {@code ringex.risk.login.failures{reason}}; locks imposed are logged and counted in
 * {@code ringex.risk.login.locks{kind}}; {@code ringex.risk.login.locked} gauges the keys locked now. During a lock
 * only the first refused attempt is logged (the rest are counted), so a flood against a locked key cannot flood the
 * log.
 * <p>
 * Called on HTTP threads, concurrently; the lockout is thread-safe and the rest is immutable.
 */
public final class PasswordLogin implements AuthenticationProvider
{
    /** The one answer to every refused login. */
    public static final String REFUSED = "Bad credentials";

    private static final Logger LOG = LoggerFactory.getLogger(PasswordLogin.class);
    private static final Pattern BCRYPT_COST = Pattern.compile("^(?:\\{bcrypt})?\\$2[aby]?\\$(\\d{2})\\$");
    private static final int DEFAULT_COST = 10;
    private static final int MAX_LOGGED_NAME = 64;

    private final UserDetailsService users;
    private final PasswordEncoder encoder;
    private final String dummyHash;
    private final LoginLockout lockout;
    private final Clock clock;
    private final Counter unknownUser;
    private final Counter badPassword;
    private final Counter locked;
    private final Counter userLocks;
    private final Counter addressLocks;

    /**
     * @param users     the configured users.
     * @param encoder   the password encoder (delegating: hashes carry their {@code {id}}).
     * @param dummyHash what an unknown user's password is checked against ({@link #dummyHashFor}).
     * @param lockout   failures and locks.
     * @param registry  where the counters go.
     * @param clock     wall clock for the lockout.
     */
    public PasswordLogin(
        final UserDetailsService users,
        final PasswordEncoder encoder,
        final String dummyHash,
        final LoginLockout lockout,
        final MeterRegistry registry,
        final Clock clock)
    {
        this.users = users;
        this.encoder = encoder;
        this.dummyHash = dummyHash;
        this.lockout = lockout;
        this.clock = clock;
        unknownUser = failures(registry, "unknown_user");
        badPassword = failures(registry, "bad_password");
        locked = failures(registry, "locked");
        userLocks = locks(registry, "user");
        addressLocks = locks(registry, "address");
        Gauge.builder("ringex.risk.login.locked", lockout, l -> l.lockedCount(clock.millis()))
            .description("User names and remote addresses locked out now")
            .register(registry);
    }

    /**
     * A bcrypt hash of a random password at the highest cost among the configured hashes (10 if none names one), so
     * that checking an unknown user's password costs what checking a known user's does. Logs a warning when the
     * configured hashes have different costs: then the cheaper users answer faster than an unknown name.
     *
     * @param hashes the configured password hashes, {@code {bcrypt}$2a$10$...}.
     * @return {@code {bcrypt}} and the hash.
     */
    public static String dummyHashFor(final Collection<String> hashes)
    {
        int cost = -1;
        int lowest = Integer.MAX_VALUE;
        for (final String hash : hashes)
        {
            final Matcher m = BCRYPT_COST.matcher(hash);
            if (m.find())
            {
                final int c = Integer.parseInt(m.group(1));
                cost = Math.max(cost, c);
                lowest = Math.min(lowest, c);
            }
        }
        if (cost < 0)
        {
            cost = DEFAULT_COST;
        }
        else if (lowest != cost)
        {
            LOG.warn("ringex.risk.security.users: bcrypt costs differ ({} to {}): users with the cheaper hashes " +
                "answer faster than an unknown user name; hash every password at the same cost", lowest, cost);
        }
        return "{bcrypt}" + new BCryptPasswordEncoder(cost).encode(UUID.randomUUID().toString());
    }

    @Override
    public Authentication authenticate(final Authentication authentication)
    {
        final String username = authentication.getName() == null ? "" : authentication.getName();
        final String address = remoteAddress(authentication);
        final long nowMs = clock.millis();

        final LoginLockout.Refusal refusal = lockout.refuse(username, address, nowMs);
        if (refusal != null)
        {
            locked.increment();
            if (refusal.first())
            {
                LOG.warn("login refused: user=\"{}\" address={} reason=LOCKED locked={} for {} s more " +
                    "(further attempts during this lock are counted, not logged)", printable(username), address,
                    refusal.userLocked() ? (refusal.addressLocked() ? "user,address" : "user") : "address",
                    Math.max(1, (refusal.lockedUntilMs() - nowMs + 999) / 1000));
            }
            throw new BadCredentialsException(REFUSED);
        }

        final UserDetails user = find(username);
        final Object credentials = authentication.getCredentials();
        final String presented = credentials == null ? "" : credentials.toString();
        // one password check whether or not the user exists: the same work, and so the same time, for both
        final boolean matches = encoder.matches(presented, user != null ? user.getPassword() : dummyHash);
        if (user == null || !matches)
        {
            (user == null ? unknownUser : badPassword).increment();
            final LoginLockout.Failure failure = lockout.onFailure(username, address, nowMs);
            LOG.warn("login refused: user=\"{}\" address={} reason={} failures: user {} address {}",
                printable(username), address, user == null ? "UNKNOWN_USER" : "BAD_PASSWORD",
                failure.userFailures(), failure.addressFailures());
            if (failure.userLockMs() > 0)
            {
                userLocks.increment();
                LOG.warn("login locked: user=\"{}\" for {} s", printable(username), failure.userLockMs() / 1000);
            }
            if (failure.addressLockMs() > 0)
            {
                addressLocks.increment();
                LOG.warn("login locked: address={} for {} s", address, failure.addressLockMs() / 1000);
            }
            throw new BadCredentialsException(REFUSED);
        }

        lockout.onSuccess(username);
        final UsernamePasswordAuthenticationToken result =
            UsernamePasswordAuthenticationToken.authenticated(user, null, user.getAuthorities());
        result.setDetails(authentication.getDetails());
        return result;
    }

    @Override
    public boolean supports(final Class<?> authentication)
    {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }

    /**
     * @param authentication a login attempt.
     * @return the remote address its request came from (the socket's peer unless a forwarded-header policy is
     *         configured), or {@code unknown}.
     */
    static String remoteAddress(final Authentication authentication)
    {
        if (authentication.getDetails() instanceof WebAuthenticationDetails details &&
            details.getRemoteAddress() != null)
        {
            return details.getRemoteAddress();
        }
        return "unknown";
    }

    /**
     * @param name a user name as typed.
     * @return it fit for one log line: control characters and quotes replaced, at most 64 characters.
     */
    public static String printable(final String name)
    {
        final StringBuilder out = new StringBuilder(Math.min(name.length(), MAX_LOGGED_NAME + 3));
        for (int i = 0; i < name.length(); i++)
        {
            if (i == MAX_LOGGED_NAME)
            {
                out.append("...");
                break;
            }
            final char c = name.charAt(i);
            out.append(c < 0x20 || c == 0x7f || c == '"' || c == '\\' ? '?' : c);
        }
        return out.toString();
    }

    private UserDetails find(final String username)
    {
        try
        {
            return users.loadUserByUsername(username);
        }
        catch (final UsernameNotFoundException ex)
        {
            return null;
        }
    }

    private static Counter failures(final MeterRegistry registry, final String reason)
    {
        return Counter.builder("ringex.risk.login.failures")
            .tag("reason", reason)
            .description("Failed logins (form and HTTP Basic) by reason")
            .register(registry);
    }

    private static Counter locks(final MeterRegistry registry, final String kind)
    {
        return Counter.builder("ringex.risk.login.locks")
            .tag("kind", kind)
            .description("Login locks imposed, per user name or per remote address")
            .register(registry);
    }
}
