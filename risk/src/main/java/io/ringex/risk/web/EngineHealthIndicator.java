package io.ringex.risk.web;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import io.ringex.risk.model.RiskReadModel;

/**
 * {@code engine} in /actuator/health: UP while an EngineStatus arrived within
 * {@code ringex.risk.engine.status-timeout}, DOWN otherwise (engine stopped, stream lost, or never seen).
 */
@Component("engine")
public class EngineHealthIndicator implements HealthIndicator
{
    private final RiskReadModel model;

    /**
     * @param model the read model.
     */
    public EngineHealthIndicator(final RiskReadModel model)
    {
        this.model = model;
    }

    @Override
    public Health health()
    {
        return (model.isEngineUp() ? Health.up() : Health.down()).withDetails(model.engineHealthDetails()).build();
    }
}
