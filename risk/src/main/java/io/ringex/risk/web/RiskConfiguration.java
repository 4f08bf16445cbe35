package io.ringex.risk.web;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringex.risk.actions.ActionService;
import io.ringex.risk.actions.ActionView;
import io.ringex.risk.actions.ConsoleActions;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.risk.audit.AdminAudit;
import io.ringex.risk.config.EngineEndpoints;
import io.ringex.risk.config.RiskKeys;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.UserDirectory;

/**
 * Wires the plain objects of the service: the read model, the user directory, the admin log, the Aeron connection,
 * the action tracker and the console's commands. The action tracker, the directory and the admin log receive the
 * engine's events from the Aeron agent directly, without Spring in between. The engine nodes (one,
 * or a cluster's members) are validated here: a bad {@code ringex.risk.streams.*} or {@code ringex.risk.members[n].*}
 * key stops the start with a message naming it, as an unknown {@code ringex.risk.*} key does ({@link RiskKeys}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RiskProperties.class)
public class RiskConfiguration
{
    /**
     * Static, so it runs before any bean is made: an unknown {@code ringex.risk.*} key from any source stops the start
     * before Aeron or Tomcat does anything.
     *
     * @return the check of the {@code ringex.risk.*} keys.
     */
    @Bean
    public static RiskKeys riskKeys()
    {
        return new RiskKeys();
    }

    /**
     * @param properties configuration.
     * @return the read model.
     */
    @Bean
    public RiskReadModel riskReadModel(final RiskProperties properties)
    {
        final List<String> names = new ArrayList<>();
        for (final EngineEndpoints engine : EngineEndpoints.of(properties))
        {
            names.add(engine.name());
        }
        return new RiskReadModel(names, properties.engine().historySize(),
            properties.engine().statusTimeout().toNanos(), System::nanoTime);
    }

    /**
     * @param properties {@code ringex.risk.users.*}.
     * @return the venue's users, learnt from the engine's egress.
     */
    @Bean
    public UserDirectory userDirectory(final RiskProperties properties)
    {
        return new UserDirectory(properties.users().directoryGatewayId(),
            properties.users().directoryTimeout().toNanos());
    }

    /**
     * @param properties {@code ringex.risk.admin-log.retained}.
     * @param model      the instruments' price scales, to show prices.
     * @param actions    what this service recorded of the requests it sent (who and why, for the commands that do
     *                   not carry them).
     * @return the admin log.
     */
    @Bean
    public AdminAudit adminAudit(
        final RiskProperties properties,
        final RiskReadModel model,
        final ObjectProvider<ActionService> actions)
    {
        return new AdminAudit(properties.adminLog().retained(), requestId ->
        {
            final ActionView sent = actions.getObject().sent(requestId);
            return sent == null ? null : new AdminAudit.SentHere(sent.requestedBy(), sent.reason());
        }, model::priceScale);
    }

    /**
     * @param properties configuration.
     * @param model      the read model.
     * @param actions    the action tracker, told of AdminResponses.
     * @param users      the user directory.
     * @param adminLog   the admin log.
     * @return the Aeron side, started by Spring's lifecycle.
     */
    @Bean
    public AeronConnection aeronConnection(
        final RiskProperties properties,
        final RiskReadModel model,
        final ObjectProvider<ActionService> actions,
        final UserDirectory users,
        final AdminAudit adminLog)
    {
        // The tracker needs the connection to send and the connection tells the tracker of answers: break the cycle
        // by looking the tracker up when the first answer arrives.
        return new AeronConnection(properties, EngineEndpoints.of(properties), model,
            (requestId, templateId, status, reason, sequence) ->
                actions.getObject().onAdminResponse(requestId, templateId, status, reason, sequence), users, adminLog);
    }

    /**
     * @param properties configuration.
     * @param connection the engine's ingress.
     * @param model      the read model.
     * @return the action tracker.
     */
    @Bean
    public ActionService actionService(
        final RiskProperties properties,
        final AeronConnection connection,
        final RiskReadModel model)
    {
        return new ActionService(connection, model, Clock.systemUTC(),
            properties.actions().responseTimeout().toMillis(), properties.actions().retained());
    }

    /**
     * @param properties {@code ringex.risk.users.*}: password hashing and rules.
     * @param actions    sends and tracks the commands.
     * @param model      the instruments' price scales.
     * @param users      the user directory.
     * @return the operator console's commands.
     */
    @Bean
    public ConsoleActions consoleActions(
        final RiskProperties properties,
        final ActionService actions,
        final RiskReadModel model,
        final UserDirectory users)
    {
        return new ConsoleActions(actions, model, users, properties.users());
    }
}
