package io.ringex.risk.model;

/** Scalar readings of the engine's latest status, for gauges. */
public enum EngineMetric
{
    /** Primary term. */
    EPOCH,
    /** NodeRole value: 1 recovering, 2 primary, 3 standby, 4 fenced, 5 diverged; 0 before any status. */
    ROLE,
    /** Input ring occupancy, 0..1. */
    RING_OCCUPANCY,
    /** Ingress minus journal sequence. */
    JOURNAL_LAG,
    /** Journal minus replication sequence; NaN while the engine replicates nothing (replication off). */
    REPLICATION_LAG,
    /** Latency p50, seconds. */
    LATENCY_P50,
    /** Latency p99, seconds. */
    LATENCY_P99,
    /** Latency p99.9, seconds. */
    LATENCY_P999,
    /** Latency max, seconds. */
    LATENCY_MAX,
    /** Seconds since the last EngineStatus arrived; NaN before the first. */
    STATUS_AGE
}
