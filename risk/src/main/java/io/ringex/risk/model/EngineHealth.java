package io.ringex.risk.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;

/**
 * The engine's latest EngineStatus and a fixed-size history of samples for the charts. Mutable; guarded by the
 * {@link RiskReadModel}'s lock. The history is preallocated: recording a sample allocates nothing. Counters and
 * rejects are kept for every value the schema has (sized from its enums, not a guess); a value of a newer schema
 * is counted in the total only.
 * <p>
 * Throughput is commands per second over the {@link #THROUGHPUT_WINDOW_NS} before each sample, not since the one
 * before: a flow that sends in bursts at another period than the status interval would otherwise alternate between
 * two or three bursts a sample and draw a band where the rate is steady.
 */
final class EngineHealth
{
    private static final EngineCounter[] COUNTERS = EngineCounter.values();
    private static final RejectReason[] REASONS = RejectReason.values();
    /** One slot per EngineCounter value of the schema. */
    static final int COUNTER_SLOTS = Arrays.stream(COUNTERS).filter(c -> c != EngineCounter.NULL_VAL)
        .mapToInt(EngineCounter::value).max().orElse(0) + 1;
    /** One slot per RejectReason value of the schema. */
    static final int REASON_SLOTS = Arrays.stream(REASONS).filter(r -> r != RejectReason.NULL_VAL)
        .mapToInt(RejectReason::value).max().orElse(0) + 1;
    /** The span each throughput sample averages over (engine time). */
    static final long THROUGHPUT_WINDOW_NS = 5_000_000_000L;

    long lastStatusNanos;
    boolean seen;
    long epoch;
    int nodeId;
    NodeRole role = NodeRole.NULL_VAL;
    long timestampNs;
    int ringCapacity;
    long ingressSequence;
    long journalSequence;
    long replicationSequence;
    long processorSequence;
    long outputSequence;
    long snapshotSequence;
    long stateHash;
    long p50Ns;
    long p99Ns;
    long p999Ns;
    long maxNs;
    /** Indexed by EngineCounter.value(). */
    final long[] counters = new long[COUNTER_SLOTS];
    /** Indexed by RejectReason.value(). */
    final long[] rejects = new long[REASON_SLOTS];

    private final int capacity;
    private long samples;
    private final long[] timeMs;
    private final double[] exposure;
    private final double[] throughput;
    private final long[] sampleTimeNs;
    private final long[] sampleCommands;
    private final double[] p50Us;
    private final double[] p99Us;
    private final double[] p999Us;
    private final double[] maxUs;
    private final double[] occupancy;
    private final long[] journalLag;
    private final long[] replicationLag;
    private final long[] rejectTotal;

    EngineHealth(final int capacity)
    {
        this.capacity = capacity;
        timeMs = new long[capacity];
        exposure = new double[capacity];
        throughput = new double[capacity];
        sampleTimeNs = new long[capacity];
        sampleCommands = new long[capacity];
        p50Us = new double[capacity];
        p99Us = new double[capacity];
        p999Us = new double[capacity];
        maxUs = new double[capacity];
        occupancy = new double[capacity];
        journalLag = new long[capacity];
        replicationLag = new long[capacity];
        rejectTotal = new long[capacity];
    }

    void apply(final EngineStatusDecoder status, final long nowNanos, final long totalExposure)
    {
        final boolean hadPrevious = seen;

        seen = true;
        lastStatusNanos = nowNanos;
        epoch = status.epoch();
        nodeId = status.nodeId();
        role = status.role();
        timestampNs = status.timestampNs();
        ringCapacity = status.ringCapacity();
        ingressSequence = status.ingressSequence();
        journalSequence = status.journalSequence();
        replicationSequence = status.replicationSequence();
        processorSequence = status.processorSequence();
        outputSequence = status.outputSequence();
        snapshotSequence = status.snapshotSequence();
        stateHash = status.stateHash();
        p50Ns = status.latencyP50Ns();
        p99Ns = status.latencyP99Ns();
        p999Ns = status.latencyP999Ns();
        maxNs = status.latencyMaxNs();
        for (final EngineStatusDecoder.CountersDecoder c : status.counters())
        {
            final int id = c.counterRaw();
            if (id < counters.length)
            {
                counters[id] = c.value();
            }
        }
        Arrays.fill(rejects, 0);
        long totalRejects = 0;
        for (final EngineStatusDecoder.RejectsDecoder r : status.rejects())
        {
            final int id = r.reasonRaw();
            if (id < rejects.length)
            {
                rejects[id] = r.rejectCount();
            }
            totalRejects += r.rejectCount();
        }

        final int i = (int)(samples % capacity);
        timeMs[i] = timestampNs / 1_000_000L;
        exposure[i] = Money.toDouble(totalExposure, FixedPoint.MONEY_SCALE);
        final long commands = counters[EngineCounter.COMMANDS.value()];
        sampleTimeNs[i] = timestampNs;
        sampleCommands[i] = commands;
        throughput[i] = hadPrevious ? throughputTo(i) : 0.0;
        p50Us[i] = p50Ns / 1000.0;
        p99Us[i] = p99Ns / 1000.0;
        p999Us[i] = p999Ns / 1000.0;
        maxUs[i] = maxNs / 1000.0;
        occupancy[i] = ringOccupancy();
        journalLag[i] = journalLag();
        replicationLag[i] = replicating() ? replicationLag() : -1;
        rejectTotal[i] = totalRejects;
        samples++;
    }

    /**
     * Slots claimed on the input ring and not yet released by its slowest stage (journal, processor, output).
     * Replication is shown as a lag of its own: a single engine (replication off) does not
     * advance it.
     */
    double ringOccupancy()
    {
        if (ringCapacity <= 0)
        {
            return 0.0;
        }
        final long slowest = Math.min(journalSequence, Math.min(processorSequence, outputSequence));
        return Math.min(1.0, Math.max(0.0, (double)(ingressSequence - slowest) / ringCapacity));
    }

    long journalLag()
    {
        return Math.max(0, ingressSequence - journalSequence);
    }

    /**
     * The engine says it replicates nothing (replication off) with the replication sequence's null
     * value: then there is no lag, rather than a lag that grows with every command journaled.
     */
    boolean replicating()
    {
        return replicationSequence != EngineStatusDecoder.replicationSequenceNullValue();
    }

    long replicationLag()
    {
        return replicating() ? Math.max(0, journalSequence - replicationSequence) : 0;
    }

    long counter(final EngineCounter counter)
    {
        return counter == EngineCounter.NULL_VAL ? 0 : counters[counter.value()];
    }

    long rejectCount(final RejectReason reason)
    {
        return reason == RejectReason.NULL_VAL ? 0 : rejects[reason.value()];
    }

    Map<String, Long> counterMap()
    {
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final EngineCounter c : COUNTERS)
        {
            if (c != EngineCounter.NULL_VAL)
            {
                out.put(c.name(), counters[c.value()]);
            }
        }
        return out;
    }

    Map<String, Long> rejectMap()
    {
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final RejectReason r : REASONS)
        {
            if (r != RejectReason.NULL_VAL && rejects[r.value()] != 0)
            {
                out.put(r.name(), rejects[r.value()]);
            }
        }
        return out;
    }

    /**
     * Commands a second from the oldest sample within the window before sample {@code i} (the one just before it at
     * least) to it; samples before a restart of the counter or of the clock do not count.
     */
    private double throughputTo(final int i)
    {
        int from = -1;
        for (long back = 1; back < Math.min(samples + 1, capacity); back++)
        {
            final int j = (int)((samples - back) % capacity);
            final long dtNs = sampleTimeNs[i] - sampleTimeNs[j];
            if (dtNs <= 0 || sampleCommands[j] > sampleCommands[i] || (from >= 0 && dtNs > THROUGHPUT_WINDOW_NS))
            {
                break;
            }
            from = j;
        }
        return from < 0 ? 0.0 :
            (sampleCommands[i] - sampleCommands[from]) * 1e9 / (sampleTimeNs[i] - sampleTimeNs[from]);
    }

    Views.History history()
    {
        final int n = (int)Math.min(samples, capacity);
        final long[] t = new long[n];
        final double[] e = new double[n];
        final double[] tp = new double[n];
        final double[] a = new double[n];
        final double[] b = new double[n];
        final double[] c = new double[n];
        final double[] d = new double[n];
        final double[] o = new double[n];
        final long[] jl = new long[n];
        final long[] rl = new long[n];
        final long[] rj = new long[n];
        for (int k = 0; k < n; k++)
        {
            final int i = (int)((samples - n + k) % capacity);
            t[k] = timeMs[i];
            e[k] = exposure[i];
            tp[k] = throughput[i];
            a[k] = p50Us[i];
            b[k] = p99Us[i];
            c[k] = p999Us[i];
            d[k] = maxUs[i];
            o[k] = occupancy[i];
            jl[k] = journalLag[i];
            rl[k] = replicationLag[i];
            rj[k] = rejectTotal[i];
        }
        return new Views.History(t, e, tp, a, b, c, d, o, jl, rl, rj);
    }
}
