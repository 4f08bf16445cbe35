package io.ringex.risk.web;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.risk.model.EngineMetric;
import io.ringex.risk.model.RiskReadModel;

/**
 * The engine's EngineStatus as Micrometer gauges (so /actuator/prometheus exports them): each counter as
 * {@code ringex_engine_counter{counter="TRADES"}}, rejects as {@code ringex_engine_rejects{reason="..."}}, latency
 * percentiles in seconds, ring occupancy, journal and replication lag, epoch, role and the age of the last status.
 * Gauges read the model when scraped.
 */
@Component
public class EngineMetrics implements MeterBinder
{
    private final RiskReadModel model;

    /**
     * @param model the read model.
     */
    public EngineMetrics(final RiskReadModel model)
    {
        this.model = model;
    }

    @Override
    public void bindTo(final MeterRegistry registry)
    {
        for (final EngineCounter counter : EngineCounter.values())
        {
            if (counter != EngineCounter.NULL_VAL)
            {
                Gauge.builder("ringex.engine.counter", model, m -> m.engineCounter(counter))
                    .tag("counter", counter.name())
                    .description("Engine counter as of the last EngineStatus")
                    .register(registry);
            }
        }
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL && reason != RejectReason.NONE)
            {
                Gauge.builder("ringex.engine.rejects", model, m -> m.engineRejects(reason))
                    .tag("reason", reason.name())
                    .description("Rejects by reason as of the last EngineStatus")
                    .register(registry);
            }
        }
        gauge(registry, "ringex.engine.epoch", EngineMetric.EPOCH, null, null);
        gauge(registry, "ringex.engine.role", EngineMetric.ROLE, null, null);
        gauge(registry, "ringex.engine.ring.occupancy", EngineMetric.RING_OCCUPANCY, null, null);
        gauge(registry, "ringex.engine.journal.lag", EngineMetric.JOURNAL_LAG, null, null);
        gauge(registry, "ringex.engine.replication.lag", EngineMetric.REPLICATION_LAG, null, null);
        gauge(registry, "ringex.engine.status.age", EngineMetric.STATUS_AGE, null, "seconds");
        gauge(registry, "ringex.engine.latency", EngineMetric.LATENCY_P50, "0.5", "seconds");
        gauge(registry, "ringex.engine.latency", EngineMetric.LATENCY_P99, "0.99", "seconds");
        gauge(registry, "ringex.engine.latency", EngineMetric.LATENCY_P999, "0.999", "seconds");
        gauge(registry, "ringex.engine.latency", EngineMetric.LATENCY_MAX, "1.0", "seconds");
        Gauge.builder("ringex.engine.up", model, m -> m.isEngineUp() ? 1 : 0)
            .description("1 while EngineStatus arrives within the status timeout")
            .register(registry);
    }

    private void gauge(
        final MeterRegistry registry,
        final String name,
        final EngineMetric metric,
        final String quantile,
        final String unit)
    {
        final Gauge.Builder<RiskReadModel> builder = Gauge.builder(name, model, m -> m.engineMetric(metric))
            .description("From the engine's last EngineStatus");
        if (quantile != null)
        {
            builder.tag("quantile", quantile);
        }
        if (unit != null)
        {
            builder.baseUnit(unit);
        }
        builder.register(registry);
    }
}
