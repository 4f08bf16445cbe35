package io.ringex.risk.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringex.protocol.PrimarySelector;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.NodeRole;

/**
 * The engine nodes the service watches, one or the members of a cluster: each node's latest EngineStatus and chart
 * history ({@link EngineHealth}, kept apart so that one node's sequences and counters never show as another's), the
 * connection state of its streams, and which node is followed ({@link PrimarySelector}).
 * <p>
 * Thread safety: not thread safe; guarded by the {@link RiskReadModel}'s lock.
 */
final class EngineNodes
{
    private final List<String> names;
    private final EngineHealth[] health;
    private final boolean[][] connected;
    private final PrimarySelector follower;
    private final long statusTimeoutNs;

    /**
     * @param names           the nodes' configuration names, in configuration order.
     * @param historySize     EngineStatus samples kept per node.
     * @param statusTimeoutNs a node is up (and may be followed) while its last status is younger than this.
     */
    EngineNodes(final List<String> names, final int historySize, final long statusTimeoutNs)
    {
        this.names = List.copyOf(names);
        this.health = new EngineHealth[names.size()];
        this.connected = new boolean[names.size()][3];
        for (int i = 0; i < health.length; i++)
        {
            health[i] = new EngineHealth(historySize);
        }
        this.follower = new PrimarySelector(names.size(), statusTimeoutNs);
        this.statusTimeoutNs = statusTimeoutNs;
    }

    int count()
    {
        return health.length;
    }

    /**
     * @return true if the followed node changed.
     */
    boolean onStatus(final int engine, final EngineStatusDecoder status, final long nowNs, final long totalExposure)
    {
        health[engine].apply(status, nowNs, totalExposure);
        follower.onStatus(engine, health[engine].role, health[engine].epoch, nowNs);
        return select(nowNs);
    }

    /**
     * @return true if the followed node changed.
     */
    boolean select(final long nowNs)
    {
        final int before = follower.primary();
        return follower.select(nowNs) != before;
    }

    /**
     * @return true if anything changed.
     */
    boolean connected(final int engine, final boolean risk, final boolean marketData, final boolean ingress)
    {
        final boolean[] c = connected[engine];
        if (c[0] == risk && c[1] == marketData && c[2] == ingress)
        {
            return false;
        }
        c[0] = risk;
        c[1] = marketData;
        c[2] = ingress;
        return true;
    }

    int followed()
    {
        return follower.primary();
    }

    /** The node the top-level view shows: the followed one, else the last followed, else the first. */
    int shown()
    {
        final int f = follower.primary() != PrimarySelector.NONE ? follower.primary() : follower.lastFollowed();
        return f == PrimarySelector.NONE ? 0 : f;
    }

    EngineHealth shownHealth()
    {
        return health[shown()];
    }

    long highestPrimaryEpoch()
    {
        return follower.highestPrimaryEpoch();
    }

    long highestEpoch()
    {
        long epoch = 0;
        for (final EngineHealth h : health)
        {
            epoch = Math.max(epoch, h.epoch);
        }
        return epoch;
    }

    boolean isUp(final long nowNs)
    {
        final int f = follower.primary();
        return f != PrimarySelector.NONE && isUp(f, nowNs);
    }

    private boolean isUp(final int engine, final long nowNs)
    {
        final EngineHealth h = health[engine];
        return h.seen && nowNs - h.lastStatusNanos <= statusTimeoutNs;
    }

    Map<String, Boolean> streams(final int engine)
    {
        final Map<String, Boolean> streams = new LinkedHashMap<>();
        streams.put("risk", connected[engine][0]);
        streams.put("marketData", connected[engine][1]);
        streams.put("ingress", connected[engine][2]);
        return streams;
    }

    List<Views.NodeView> nodeViews(final long nowNs)
    {
        final int leader = follower.primary();
        final boolean leaderCommits = leader != PrimarySelector.NONE && health[leader].seen &&
            health[leader].replicating();
        final long committed = leaderCommits ? health[leader].replicationSequence : 0;
        final List<Views.NodeView> out = new ArrayList<>(health.length);
        for (int i = 0; i < health.length; i++)
        {
            final EngineHealth h = health[i];
            final boolean lags = leaderCommits && h.seen;
            out.add(new Views.NodeView(i, names.get(i), i == leader, h.seen, isUp(i, nowNs),
                h.seen ? (nowNs - h.lastStatusNanos) / 1_000_000L : -1, h.nodeId, h.seen ? h.role.name() : "UNKNOWN",
                h.epoch, h.seen && h.replicating() ? h.replicationSequence : null, h.journalSequence,
                h.processorSequence, lags ? Math.max(0, committed - h.journalSequence) : null,
                lags ? Math.max(0, committed - h.processorSequence) : null, String.format("%016x", h.stateHash),
                streams(i)));
        }
        return out;
    }

    Map<String, Object> healthDetails(final long nowNs)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        final EngineHealth engine = shownHealth();
        out.put("statusSeen", engine.seen);
        if (engine.seen)
        {
            out.put("lastStatusAgeMs", (nowNs - engine.lastStatusNanos) / 1_000_000L);
            out.put("role", engine.role.name());
            out.put("epoch", engine.epoch);
            out.put("nodeId", engine.nodeId);
        }
        out.put("statusTimeoutMs", statusTimeoutNs / 1_000_000L);
        out.put("riskStreamConnected", connected[shown()][0]);
        out.put("ingressConnected", connected[shown()][2]);
        if (health.length > 1)
        {
            out.put("followedEngine", follower.primary());
            final List<Map<String, Object>> nodes = new ArrayList<>();
            for (final Views.NodeView n : nodeViews(nowNs))
            {
                final Map<String, Object> node = new LinkedHashMap<>();
                node.put("name", n.name());
                node.put("nodeId", n.nodeId());
                node.put("role", n.role());
                node.put("epoch", n.epoch());
                node.put("committedSequence", n.committedSequence());
                node.put("processorCommitLag", n.processorCommitLag());
                node.put("up", n.up());
                node.put("followed", n.followed());
                nodes.add(node);
            }
            out.put("nodes", nodes);
        }
        return out;
    }

    Views.EngineView view(final boolean withHistory, final long nowNs)
    {
        final EngineHealth engine = shownHealth();
        final Map<String, Long> sequences = new LinkedHashMap<>();
        sequences.put("ingress", engine.ingressSequence);
        sequences.put("journal", engine.journalSequence);
        sequences.put("replication", engine.replicating() ? engine.replicationSequence : null);
        sequences.put("processor", engine.processorSequence);
        sequences.put("output", engine.outputSequence);
        sequences.put("snapshot", engine.snapshotSequence);
        final Map<String, Long> latency = new LinkedHashMap<>();
        latency.put("p50", engine.p50Ns);
        latency.put("p99", engine.p99Ns);
        latency.put("p999", engine.p999Ns);
        latency.put("max", engine.maxNs);
        final long ageNs = engine.seen ? nowNs - engine.lastStatusNanos : -1;
        return new Views.EngineView(engine.seen, isUp(nowNs), ageNs < 0 ? -1 : ageNs / 1_000_000L,
            engine.nodeId, engine.seen ? engine.role.name() : "UNKNOWN", engine.epoch, engine.ringCapacity, sequences,
            engine.ringOccupancy(), engine.journalLag(), engine.replicationLag(), engine.replicating(), latency,
            engine.counterMap(), engine.rejectMap(), streams(shown()), withHistory ? engine.history() : null,
            followed(), nodeViews(nowNs));
    }

    double metric(final EngineMetric metric, final long nowNs)
    {
        final EngineHealth engine = shownHealth();
        switch (metric)
        {
            case EPOCH:
                return engine.epoch;
            case ROLE:
                return engine.seen && engine.role != NodeRole.NULL_VAL ? engine.role.value() : 0;
            case RING_OCCUPANCY:
                return engine.ringOccupancy();
            case JOURNAL_LAG:
                return engine.journalLag();
            case REPLICATION_LAG:
                return engine.replicating() ? engine.replicationLag() : Double.NaN;
            case LATENCY_P50:
                return engine.p50Ns / 1e9;
            case LATENCY_P99:
                return engine.p99Ns / 1e9;
            case LATENCY_P999:
                return engine.p999Ns / 1e9;
            case LATENCY_MAX:
                return engine.maxNs / 1e9;
            case STATUS_AGE:
                return engine.seen ? (nowNs - engine.lastStatusNanos) / 1e9 : Double.NaN;
            default:
                return Double.NaN;
        }
    }
}
