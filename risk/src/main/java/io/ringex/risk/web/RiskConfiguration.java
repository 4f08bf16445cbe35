package io.ringex.risk.web;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.ringex.risk.actions.ActionService;
import io.ringex.risk.actions.AeronNewEpochPromotionHook;
import io.ringex.risk.actions.PromotionHook;
import io.ringex.risk.aeron.AeronConnection;
import io.ringex.risk.config.EngineEndpoints;
import io.ringex.risk.config.RiskKeys;
import io.ringex.risk.config.RiskProperties;
import io.ringex.risk.model.RiskReadModel;

/**
 * Wires the plain objects of the service: the read model, the Aeron connection and the action tracker. The action
 * tracker receives AdminResponses from the Aeron agent directly, without Spring in between. The engine nodes (one,
 * or a primary/standby pair) are validated here: a bad {@code ringex.risk.streams.*} or {@code ringex.risk.standby.*}
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
     * @param properties configuration.
     * @param model      the read model.
     * @param actions    the action tracker, told of AdminResponses.
     * @return the Aeron side, started by Spring's lifecycle.
     */
    @Bean
    public AeronConnection aeronConnection(
        final RiskProperties properties,
        final RiskReadModel model,
        final ObjectProvider<ActionService> actions)
    {
        // The tracker needs the connection to send and the connection tells the tracker of answers: break the cycle
        // by looking the tracker up when the first answer arrives.
        return new AeronConnection(properties, EngineEndpoints.of(properties), model,
            (requestId, templateId, status, reason, sequence) ->
                actions.getObject().onAdminResponse(requestId, templateId, status, reason, sequence));
    }

    /**
     * @param properties configuration.
     * @param connection the engine's ingress.
     * @param promotion  a PromotionHook bean if the deployment defines one; else NewEpoch on the control stream.
     * @param model      the read model.
     * @return the action tracker.
     */
    @Bean
    public ActionService actionService(
        final RiskProperties properties,
        final AeronConnection connection,
        final ObjectProvider<PromotionHook> promotion,
        final RiskReadModel model)
    {
        return new ActionService(connection, promotion.getIfAvailable(() -> new AeronNewEpochPromotionHook(connection)),
            model, Clock.systemUTC(),
            properties.actions().responseTimeout().toMillis(), properties.actions().retained());
    }
}
