package io.ringex.risk.web;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

import io.ringex.risk.config.RiskProperties;

/**
 * Who may see and do what. Form login; two roles: VIEWER reads, RISK_OFFICER reads and acts. CSRF protection on
 * every state-changing call, with the token in the {@code XSRF-TOKEN} cookie for the page's script to echo in the
 * {@code X-XSRF-TOKEN} header. The API answers 401 (not a redirect) to a request without a session.
 * <p>
 * Users come from {@code ringex.risk.security.users} with {@code {bcrypt}} hashes; there are none by default, and the
 * service refuses to start without any. The {@code demo} profile defines viewer/viewer and officer/officer.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration
{
    /** Role that may read. */
    public static final String VIEWER = "VIEWER";
    /** Role that may read and act. */
    public static final String RISK_OFFICER = "RISK_OFFICER";

    /**
     * @param http the builder.
     * @return the filter chain.
     * @throws Exception from the builder.
     */
    @Bean
    public SecurityFilterChain securityFilterChain(final HttpSecurity http) throws Exception
    {
        http
            .authorizeHttpRequests(auth -> auth
                .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/prometheus").permitAll()
                .requestMatchers("/login", "/error", "/favicon.ico", "/css/login.css").permitAll()
                .requestMatchers(HttpMethod.POST, "/api/actions/**").hasRole(RISK_OFFICER)
                .requestMatchers("/**").hasAnyRole(VIEWER, RISK_OFFICER))
            .formLogin(form -> form.defaultSuccessUrl("/", true).permitAll())
            // Scripts and the operator's tools read the API with HTTP Basic (over TLS in production).
            .httpBasic(org.springframework.security.config.Customizer.withDefaults())
            .logout(logout -> logout.logoutSuccessUrl("/login?logout").permitAll())
            .csrf(csrf -> csrf.spa())
            .exceptionHandling(e -> e.defaultAuthenticationEntryPointFor(
                new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED),
                PathPatternRequestMatcher.withDefaults().matcher("/api/**")));
        return http.build();
    }

    /** @return delegating encoder: stored passwords name their algorithm, {@code {bcrypt}} here. */
    @Bean
    public PasswordEncoder passwordEncoder()
    {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * @param properties where the users are configured.
     * @return the users.
     */
    @Bean
    public UserDetailsService userDetailsService(final RiskProperties properties)
    {
        final List<RiskProperties.User> configured = properties.security().users();
        if (configured == null || configured.isEmpty())
        {
            throw new IllegalStateException("No users configured: set ringex.risk.security.users[n].username, " +
                ".password (a {bcrypt} hash) and .roles (VIEWER, RISK_OFFICER), or run with the 'demo' profile " +
                "(--spring.profiles.active=demo) for the demo users viewer/viewer and officer/officer");
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
                if (!VIEWER.equals(role) && !RISK_OFFICER.equals(role))
                {
                    throw new IllegalStateException("ringex.risk.security.users: '" + u.username() +
                        "' has role '" + role + "'; roles are " + VIEWER + " and " + RISK_OFFICER);
                }
            }
            users.add(User.withUsername(u.username()).password(u.password())
                .roles(u.roles().toArray(new String[0])).build());
        }
        return new InMemoryUserDetailsManager(users);
    }
}
