package io.ringex.engine.node;

import java.util.concurrent.atomic.AtomicLong;

import io.aeron.Publication;
import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.VenueStatistics;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Publishes {@code EngineStatus} on the risk stream every interval, and at once when the node's role or epoch changes
 * (a cluster member taking or losing the lead), so gateways following the members switch without waiting an interval:
 * role and epoch (a cluster's leadership term), while PRIMARY the first command sequence of its epoch (gateways tell a
 * new leader's new commands from its re-sent window by it), the rings' sequences, journal progress, a cluster member's
 * committed sequence (the field's null value, {@link EngineStatusEncoder#replicationSequenceNullValue()}, on a single
 * node), counters, rejects by reason, latency percentiles since the previous status, and the state hash. It shares the
 * processor's thread (it is composed with the processor's stage), so it may read the processor's state between
 * batches; it is also how other threads get a state hash ({@link #stateHash(long)}).
 * <p>
 * Thread safety: {@link #doWork()} on the processor's thread; {@link #stateHash(long)} from any thread.
 */
final class StatusAgent implements Agent
{
    private static final long CHANGE_RETRY_NS = 10_000_000L;

    private final BusinessLogicProcessor processor;
    private final SequenceBase sequences;
    private final AtomicCounter inputCursor;
    private final AtomicCounter journalSequence;
    private final AtomicCounter processorSequence;
    private final AtomicCounter outputCursor;
    private final AtomicCounter malformed;
    private final AtomicCounter backPressure;
    private final AtomicCounter accepted;
    private final AtomicCounter trades;
    private final AtomicCounter rejects;
    private final AtomicCounter committed;
    private final BackgroundSnapshotWriter snapshots;
    private final Histogram latency;
    private final StageTrace trace;
    private final ActingRole role;
    private final Leadership leadership;
    private final Publication publication;
    private final EpochNanoClock epochClock;
    private final NanoClock clock;
    private final long intervalNs;
    private final int ringCapacity;
    private final int nodeId;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final EngineStatusEncoder encoder = new EngineStatusEncoder();
    private final RejectReason[] reasons = RejectReason.values();
    private final long[] rejectCounts = new long[reasons.length];
    private long nextStatusNs;
    private NodeRole publishedRole;
    private long publishedEpoch = -1;
    private long nextChangeRetryNs;
    private final AtomicLong hashRequests = new AtomicLong();
    private volatile long hashAnswered;
    private volatile long lastStateHash;

    /**
     * @param resources         the node's processor, rings, journal stage, counters, snapshots, latency, role,
     *                          clocks and configuration.
     * @param processorSequence the processor stage's sequence.
     * @param leadership        a cluster member's leadership (its role, where its epoch started), or null on a
     *                          single node.
     * @param publication       the risk stream.
     */
    StatusAgent(
        final NodeResources resources,
        final AtomicCounter processorSequence,
        final Leadership leadership,
        final Publication publication)
    {
        this.processor = resources.processor;
        this.sequences = resources.sequences;
        this.inputCursor = resources.inputRing.cursorCounter();
        this.journalSequence = resources.journalStage.sequenceCounter();
        this.processorSequence = processorSequence;
        this.outputCursor = resources.outputRing.cursorCounter();
        this.malformed = resources.malformed;
        this.backPressure = resources.backPressure;
        this.accepted = resources.accepted;
        this.trades = resources.trades;
        this.rejects = resources.rejects;
        this.committed = resources.committed;
        this.snapshots = resources.snapshots;
        this.latency = resources.latency;
        this.trace = resources.trace;
        this.role = resources.role;
        this.leadership = leadership;
        this.publication = publication;
        this.epochClock = resources.epochClock;
        this.clock = resources.clock;
        this.intervalNs = resources.ctx.statusIntervalNs();
        this.ringCapacity = resources.ctx.inputRingCapacity();
        this.nodeId = resources.ctx.nodeId();
    }

    public int doWork()
    {
        int work = 0;
        final long requested = hashRequests.get();
        if (requested != hashAnswered)
        {
            lastStateHash = processor.stateHash();
            hashAnswered = requested;
            work++;
        }
        final long now = clock.nanoTime();
        if (now >= nextStatusNs)
        {
            nextStatusNs = now + intervalNs;
            lastStateHash = processor.stateHash();
            publish();
            trace.report();
            work++;
        }
        else if ((role() != publishedRole || epoch(role()) != publishedEpoch) && now >= nextChangeRetryNs)
        {
            // A new role or epoch is announced at once, and again every CHANGE_RETRY_NS until the publication takes
            // it (a subscriber may not be connected yet): a gateway must not wait an interval to learn of a new leader.
            nextChangeRetryNs = now + CHANGE_RETRY_NS;
            publish();
            work++;
        }
        return work;
    }

    /**
     * Publish a status now, on the processor's thread (a new leader's hand-off, before its re-sent window).
     */
    void announce()
    {
        nextChangeRetryNs = clock.nanoTime() + CHANGE_RETRY_NS;
        publish();
    }

    /**
     * The processor's state hash, computed on its thread between batches.
     *
     * @param timeoutNs how long to wait for the processor's thread, by the node's clock.
     * @return the hash.
     * @throws IllegalStateException if the processor's thread did not answer in time.
     */
    long stateHash(final long timeoutNs)
    {
        final long request = hashRequests.incrementAndGet();
        final long deadline = clock.nanoTime() + timeoutNs;
        while (hashAnswered < request)
        {
            if (clock.nanoTime() > deadline)
            {
                throw new IllegalStateException("processor thread did not answer a state hash request");
            }
            Thread.onSpinWait();
        }
        return lastStateHash;
    }

    private long epoch(final NodeRole role)
    {
        final long processorEpoch = processor.state().epoch();
        // A cluster leader's processor takes the new epoch on only when it processes the NewEpoch that hands it over
        // to clients: a status announced just before must not claim PRIMARY at the old epoch.
        if (role != NodeRole.PRIMARY)
        {
            return processorEpoch;
        }
        return null == leadership ? processorEpoch : Math.max(processorEpoch, leadership.handedOffTerm());
    }

    /**
     * @return the first command sequence handled as primary in the current epoch: a single node's first after
     * recovery, a cluster leader's NewEpoch. Read only while the role is PRIMARY.
     */
    private long epochStartSequence()
    {
        return null == leadership ? sequences.firstCommandSequence() : leadership.epochStartSequence();
    }

    /**
     * @return the role the node acts in now: a cluster member's from its leadership (PRIMARY only while it leads the
     * term its output serves), any other node's as set on it.
     */
    NodeRole role()
    {
        if (null == leadership)
        {
            return role.get();
        }
        if (leadership.isPrimary())
        {
            return NodeRole.PRIMARY;
        }
        return null == leadership.role() ? NodeRole.RECOVERING : NodeRole.STANDBY;
    }

    private void publish()
    {
        final Histogram interval = latency;
        // Read the role once: another thread (the cluster's service) may change it; a change after this read publishes
        // again on the next duty cycle.
        final NodeRole nowRole = role();
        final long nowEpoch = epoch(nowRole);
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(nowEpoch)
            .nodeId(nodeId)
            .role(nowRole)
            .timestampNs(epochClock.nanoTime())
            .ringCapacity(ringCapacity)
            .ingressSequence(sequences.commandSequence(inputCursor.get()))
            .journalSequence(sequences.commandSequence(journalSequence.get()))
            .replicationSequence(null != leadership ? committed.get() :
                EngineStatusEncoder.replicationSequenceNullValue())
            .processorSequence(sequences.commandSequence(processorSequence.get()))
            .outputSequence(outputCursor.get())
            .snapshotSequence(snapshots.lastWrittenSequence())
            .stateHash(lastStateHash)
            .latencyP50Ns(interval.getValueAtPercentile(50))
            .latencyP99Ns(interval.getValueAtPercentile(99))
            .latencyP999Ns(interval.getValueAtPercentile(99.9))
            .latencyMaxNs(interval.getMaxValue())
            .epochStartSequence(nowRole == NodeRole.PRIMARY ? epochStartSequence() : 0);
        interval.reset();

        // The processor's own counts (this agent runs on its thread): part of the state, so they survive a restart.
        final VenueStatistics statistics = processor.state().statistics();
        accepted.setRelease(statistics.ordersAccepted());
        trades.setRelease(statistics.trades());
        rejects.setRelease(statistics.rejects());
        final EngineStatusEncoder.CountersEncoder counters = encoder.countersCount(8);
        counters.next().counter(EngineCounter.COMMANDS).value(processor.commandCount());
        counters.next().counter(EngineCounter.ORDERS_ACCEPTED).value(statistics.ordersAccepted());
        counters.next().counter(EngineCounter.TRADES).value(statistics.trades());
        counters.next().counter(EngineCounter.REJECTS).value(statistics.rejects());
        counters.next().counter(EngineCounter.MALFORMED_INGRESS).value(malformed.get());
        counters.next().counter(EngineCounter.BACK_PRESSURE_EVENTS).value(backPressure.get());
        counters.next().counter(EngineCounter.ERRORS).value(processor.errorCount());
        counters.next().counter(EngineCounter.OPEN_ORDERS).value(processor.state().orders().size());

        int nonZero = 0;
        for (int i = 0; i < reasons.length; i++)
        {
            rejectCounts[i] = reasons[i] == RejectReason.NULL_VAL ? 0 : statistics.rejects(reasons[i]);
            nonZero += rejectCounts[i] > 0 ? 1 : 0;
        }
        final EngineStatusEncoder.RejectsEncoder rejectsByReason = encoder.rejectsCount(nonZero);
        for (int i = 0; i < reasons.length; i++)
        {
            if (rejectCounts[i] > 0)
            {
                rejectsByReason.next().reason(reasons[i]).rejectCount(rejectCounts[i]);
            }
        }
        // Not taken (no subscriber yet, back-pressure): the next interval's status supersedes it, and a role or epoch
        // not yet published is offered again every CHANGE_RETRY_NS until it is.
        if (publication.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()) > 0)
        {
            publishedRole = nowRole;
            publishedEpoch = nowEpoch;
        }
    }

    public String roleName()
    {
        return "status";
    }
}
