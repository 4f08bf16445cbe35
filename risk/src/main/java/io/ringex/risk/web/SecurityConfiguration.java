package io.ringex.risk.web;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ringex.protocol.CommandText;
import io.ringex.risk.actions.ConsoleActions;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.security.LoginLockout;
import io.ringex.risk.security.PasswordLogin;

/**
 * Who may see and do what: VIEWER reads, RISK_OFFICER also acts ({@code POST /api/actions/**}), ADMIN also runs the
 * venue's reference data, users and security ({@code /api/admin/**}, {@code /api/security/**}); docs/risk-api.md,
 * "Security". Logins go through {@link PasswordLogin}; a caller with no credentials gets 401 ({@link AccessRefusal},
 * {@link AuthenticationRequired}), one without the role or CSRF token 403.
 * <p>
 * Anything not granted here is refused: a new state-changing endpoint is denied to everyone until it is given a role.
 * The service refuses to start without users, or with an ADMIN whose name the engine would not take as an operator.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration
{
    /** Role that may read. */
    public static final String VIEWER = "VIEWER";
    /** Role that may read and act. */
    public static final String RISK_OFFICER = "RISK_OFFICER";
    /** Role that may do what a risk officer does and administer security: the venue's operator. */
    public static final String ADMIN = "ADMIN";
    /** Every role. */
    public static final Set<String> ROLES = Set.of(VIEWER, RISK_OFFICER, ADMIN);

    /**
     * Only this origin's scripts, styles, images, fonts and connections (fetch, EventSource); no plugins, no base
     * rewriting, forms post only here, and no page may frame this one. The dashboard has no inline script or style
     * (the page's script sets sizes through the CSSOM, which the policy allows); {@code data:} images are Swagger UI's
     * icons.
     */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; " +
        "style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /**
     * @param http       the builder.
     * @param properties {@code ringex.risk.security.*}.
     * @param passwords  the one login check, for the form and for HTTP Basic.
     * @return the filter chain.
     * @throws Exception from the builder.
     */
    @Bean
    public SecurityFilterChain securityFilterChain(
        final HttpSecurity http,
        final RiskProperties properties,
        final PasswordLogin passwords) throws Exception
    {
        final AuthenticationRequired authenticationRequired = new AuthenticationRequired();
        final CookieCsrfTokenRepository csrfTokens = CookieCsrfTokenRepository.withHttpOnlyFalse();
        final boolean secure = properties.security().cookieSecure();
        csrfTokens.setCookieCustomizer(cookie ->
        {
            cookie.sameSite("Strict");
            if (secure)
            {
                cookie.secure(true);
            }
        });

        http
            .authenticationManager(new ProviderManager(passwords))
            .authorizeHttpRequests(auth -> auth
                .requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/**").permitAll()
                .requestMatchers("/login", "/error", "/css/login.css", "/favicon.svg", "/favicon.ico").permitAll()
                .requestMatchers("/api/security/**").hasRole(ADMIN)
                .requestMatchers("/api/admin/**").hasRole(ADMIN)
                .requestMatchers(HttpMethod.POST, "/api/actions/unlock-logons").hasRole(ADMIN)
                .requestMatchers(HttpMethod.POST, "/api/actions/**").hasRole(RISK_OFFICER)
                .requestMatchers(HttpMethod.GET, "/**").hasRole(VIEWER)
                .requestMatchers(HttpMethod.HEAD, "/**").hasRole(VIEWER)
                .anyRequest().denyAll())
            // the dashboard's own login page (LoginPage); Spring Security still checks the POST
            .formLogin(form -> form.loginPage("/login").defaultSuccessUrl("/", true).permitAll())
            .logout(logout -> logout.logoutSuccessUrl("/login?logout").permitAll())
            .csrf(csrf -> csrf.spa().csrfTokenRepository(csrfTokens))
            // a default entry point, not "the" entry point: pages still go to the login form
            .exceptionHandling(e -> e
                .defaultAuthenticationEntryPointFor(authenticationRequired, AnyRequestMatcher.INSTANCE)
                .accessDeniedHandler(new AccessRefusal(authenticationRequired)))
            .headers(headers -> headers
                .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.NO_REFERRER))
                .frameOptions(frame -> frame.deny())
                .contentTypeOptions(nosniff -> { }));
        if (properties.security().httpBasic())
        {
            // scripts and Prometheus; preemptive only: no challenge is sent, so no browser ever caches Basic
            // credentials for this origin
            http.httpBasic(basic -> basic.authenticationEntryPoint(authenticationRequired));
        }
        else
        {
            http.httpBasic(basic -> basic.disable());
        }
        return http.build();
    }

    /**
     * @return ADMIN includes RISK_OFFICER, which includes VIEWER.
     */
    @Bean
    public static RoleHierarchy roleHierarchy()
    {
        return RoleHierarchyImpl.withDefaultRolePrefix()
            .role(ADMIN).implies(RISK_OFFICER)
            .role(RISK_OFFICER).implies(VIEWER)
            .build();
    }

    /** @return delegating encoder: stored passwords name their algorithm, {@code {bcrypt}} here. */
    @Bean
    public PasswordEncoder passwordEncoder()
    {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * @param properties {@code ringex.risk.security.lockout.*}.
     * @return failed logins and locks, per user name and per remote address.
     */
    @Bean
    public LoginLockout loginLockout(final RiskProperties properties)
    {
        return new LoginLockout(properties.security().lockout());
    }

    /**
     * The one login check, for the form and for HTTP Basic. The users are not a bean of their own: Spring Security
     * would otherwise build a second, unthrottled check from them for its global authentication manager.
     *
     * @param properties the configured users ({@code ringex.risk.security.users}).
     * @param encoder    the password encoder.
     * @param lockout    failed logins and locks.
     * @param registry   where the login counters go (a private one when there is no registry, as in slice tests).
     * @return the check.
     */
    @Bean
    public PasswordLogin passwordLogin(
        final RiskProperties properties,
        final PasswordEncoder encoder,
        final LoginLockout lockout,
        final ObjectProvider<MeterRegistry> registry)
    {
        final UserDetailsService users = users(properties);
        final List<String> hashes = new ArrayList<>();
        for (final RiskProperties.User u : properties.security().users())
        {
            hashes.add(u.password());
        }
        return new PasswordLogin(users, encoder, PasswordLogin.dummyHashFor(hashes), lockout,
            registry.getIfAvailable(SimpleMeterRegistry::new), Clock.systemUTC());
    }

    /**
     * @param properties where the users are configured.
     * @return the users; the service does not start without any, or with one that is not well configured.
     */
    static UserDetailsService users(final RiskProperties properties)
    {
        final List<RiskProperties.User> configured = properties.security().users();
        if (configured == null || configured.isEmpty())
        {
            throw new IllegalStateException("No users configured: set ringex.risk.security.users[n].username, " +
                ".password (a {bcrypt} hash) and .roles (VIEWER, RISK_OFFICER, ADMIN), or run with the 'demo' " +
                "profile (--spring.profiles.active=demo) for the demo users viewer/viewer, officer/officer and " +
                "admin/admin");
        }
        final List<UserDetails> users = new ArrayList<>();
        for (final RiskProperties.User u : configured)
        {
            if (u.username() == null || u.username().isBlank())
            {
                throw new IllegalStateException("ringex.risk.security.users: a user has no username");
            }
            if (u.password() == null || !u.password().startsWith("{bcrypt}"))
            {
                throw new IllegalStateException("ringex.risk.security.users: the password of '" + u.username() +
                    "' must be stored hashed, as {bcrypt}$2a$...");
            }
            if (u.roles() == null || u.roles().isEmpty())
            {
                throw new IllegalStateException("ringex.risk.security.users: '" + u.username() + "' has no roles");
            }
            for (final String role : u.roles())
            {
                if (!ROLES.contains(role))
                {
                    throw new IllegalStateException("ringex.risk.security.users: '" + u.username() +
                        "' has role '" + role + "'; roles are " + VIEWER + ", " + RISK_OFFICER + " and " + ADMIN);
                }
            }
            if (u.roles().contains(ADMIN) && !CommandText.isToken(u.username(), ConsoleActions.MAX_OPERATOR))
            {
                throw new IllegalStateException("ringex.risk.security.users: the ADMIN '" + u.username() +
                    "' cannot be journaled as an operator: an ADMIN's username must be 1 to " +
                    ConsoleActions.MAX_OPERATOR + " printable ASCII characters without spaces");
            }
            users.add(User.withUsername(u.username()).password(u.password())
                .roles(u.roles().toArray(new String[0])).build());
        }
        return new InMemoryUserDetailsManager(users);
    }
}
