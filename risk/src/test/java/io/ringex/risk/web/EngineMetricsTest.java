package io.ringex.risk.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.risk.aeron.EngineEventHandler;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.synthetic.EventEncoders;

/**
 * The Prometheus scrape of the engine's EngineStatus: {@code ringex_engine_rejects} is a number for every reject
 * reason the schema has (reasons 64 and above used to scrape as NaN).
 */
class EngineMetricsTest
{
    @Test
    void everyRejectReasonScrapesAsANumber()
    {
        final RiskReadModel model = new RiskReadModel(4, 5_000_000_000L, () -> 1_000_000_000L);
        final EventEncoders events = new EventEncoders();
        final long[] rejects = new long[RejectReason.NULL_VAL.value() + 1];
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL)
            {
                rejects[reason.value()] = 1000 + reason.value();
            }
        }
        final int length = events.engineStatus(1, 1, NodeRole.PRIMARY, 1_000_000_000L, 1000,
            new long[] {10, 10, 10, 10, 10, 0}, new long[] {1, 1, 1, 1}, new long[16], rejects);
        new EngineEventHandler(0, model, (requestId, templateId, status, reason, sequence) -> { })
            .onFragment(events.buffer(), 0, length, null);

        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new EngineMetrics(model).bindTo(registry);
        final String scrape = registry.scrape();
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL && reason != RejectReason.NONE)
            {
                final String line = "ringex_engine_rejects{reason=\"" + reason.name() + "\"} " +
                    (1000 + reason.value()) + ".0";
                assertTrue(scrape.contains(line), line + " in\n" + scrape.lines()
                    .filter(l -> l.startsWith("ringex_engine_rejects")).reduce("", (a, b) -> a + b + "\n"));
            }
        }
    }
}
