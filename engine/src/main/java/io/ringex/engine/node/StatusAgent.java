package io.ringex.engine.node;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.aeron.Publication;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.VenueStatistics;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Publishes {@code EngineStatus} on the risk stream every interval, and at once when the node's role or epoch changes
 * (a promotion, fencing) so gateways following the pair switch without waiting an interval: role and epoch, while
 * PRIMARY the first command sequence of its epoch (gateways tell a new primary's new commands from its re-sent window
 * by it), the rings' sequences, journal and replication progress, counters, rejects by reason, latency percentiles
 * since the previous status, and the state hash. It shares the processor's thread (it is composed with the
 * processor's stage), so it may read the processor's state between batches; it is also how other threads get a state
 * hash ({@link #stateHash(long)}).
 * <p>
 * Thread safety: {@link #doWork()} on the processor's thread; {@link #stateHash(long)} from any thread.
 */
final class StatusAgent implements Agent
{
    /** Everything the status reads, gathered by the node. */
    static final class Sources
    {
        BusinessLogicProcessor processor;
        SequenceBase sequences;
        AtomicCounter inputCursor;
        AtomicCounter journalSequence;
        AtomicCounter replicationSequence;
        AtomicCounter processorSequence;
        AtomicCounter outputCursor;
        AtomicCounter malformed;
        AtomicCounter backPressure;
        AtomicCounter accepted;
        AtomicCounter trades;
        AtomicCounter rejects;
        AtomicCounter errors;
        BackgroundSnapshotWriter snapshots;
        /** Ingress-to-processed latency, recorded by the processor stage on this agent's thread; reset here. */
        Histogram latency;
        int ringCapacity;
        int nodeId;
        /** The first command sequence handled as primary in the current epoch; read only while the role is PRIMARY. */
        LongSupplier epochStartSequence;
        /**
         * On a standby, the epoch its promotion took it to (0 before): the processor takes the new epoch on only when
         * it reaches the promotion command, and a status between the two must not claim PRIMARY at the old epoch.
         * Read only while the role is PRIMARY; null on a node started as primary.
         */
        LongSupplier promotedEpoch;
        volatile boolean refreshOutput;
        /** Where the refresh's events go: published here, since they are written outside any command. */
        RingEventSink output;
    }

    private static final long CHANGE_RETRY_NS = 10_000_000L;

    private final Sources sources;
    private final Publication publication;
    private final EpochNanoClock clock;
    private final long intervalNs;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final EngineStatusEncoder encoder = new EngineStatusEncoder();
    private final RejectReason[] reasons = RejectReason.values();
    private final long[] rejectCounts = new long[reasons.length];
    private long nextStatusNs;
    private long nextRefreshNs;
    private final long refreshIntervalNs;
    private volatile NodeRole role = NodeRole.RECOVERING;
    private NodeRole publishedRole;
    private long publishedEpoch = -1;
    private long nextChangeRetryNs;
    private final AtomicLong hashRequests = new AtomicLong();
    private volatile long hashAnswered;
    private volatile long lastStateHash;

    StatusAgent(final Sources sources, final Publication publication, final EpochNanoClock clock,
        final long intervalNs)
    {
        this.sources = sources;
        this.publication = publication;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.refreshIntervalNs = Math.max(intervalNs, 5 * intervalNs);
    }

    /**
     * Late joiners (a dashboard or gateway started after the engine) learn the venue from a slow, periodic refresh:
     * every instrument's definition and book, and every account's risk. Output only: the state is not touched, and
     * it runs between batches on the processor's thread, the output ring's only producer.
     */
    private int refresh()
    {
        if (!sources.refreshOutput)
        {
            return 0;
        }
        final BusinessLogicProcessor processor = sources.processor;
        for (int i = 0, n = processor.state().bookCount(); i < n; i++)
        {
            final int instrumentId = processor.state().bookAt(i).instrument().instrumentId();
            processor.publishInstrumentDefinition(instrumentId);
            processor.publishBookSnapshot(instrumentId);
        }
        for (int i = 0, n = processor.state().accountCount(); i < n; i++)
        {
            processor.publishAccountRisk(processor.state().accountAt(i).accountId());
        }
        sources.output.publish();
        return 1;
    }

    void role(final NodeRole role)
    {
        this.role = role;
    }

    NodeRole role()
    {
        return role;
    }

    public int doWork()
    {
        int work = 0;
        final long requested = hashRequests.get();
        if (requested != hashAnswered)
        {
            lastStateHash = sources.processor.stateHash();
            hashAnswered = requested;
            work++;
        }
        final long now = clock.nanoTime();
        if (now >= nextRefreshNs)
        {
            nextRefreshNs = now + refreshIntervalNs;
            work += refresh();
        }
        if (now >= nextStatusNs)
        {
            nextStatusNs = now + intervalNs;
            lastStateHash = sources.processor.stateHash();
            publish(now);
            work++;
        }
        else if ((role != publishedRole || epoch(role) != publishedEpoch) &&
            now >= nextChangeRetryNs)
        {
            // A new role or epoch is announced at once, and again every CHANGE_RETRY_NS until the publication takes
            // it (a subscriber may not be connected yet): a gateway must not wait an interval to learn of a promotion.
            nextChangeRetryNs = now + CHANGE_RETRY_NS;
            publish(now);
            work++;
        }
        return work;
    }

    /**
     * The processor's state hash, computed on its thread between batches.
     *
     * @param timeoutNs how long to wait for the processor's thread.
     * @return the hash.
     * @throws IllegalStateException if the processor's thread did not answer in time.
     */
    long stateHash(final long timeoutNs)
    {
        final long request = hashRequests.incrementAndGet();
        final long deadline = System.nanoTime() + timeoutNs;
        while (hashAnswered < request)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("processor thread did not answer a state hash request");
            }
            Thread.onSpinWait();
        }
        return lastStateHash;
    }

    private long epoch(final NodeRole role)
    {
        final long processorEpoch = sources.processor.state().epoch();
        return role == NodeRole.PRIMARY && null != sources.promotedEpoch ?
            Math.max(processorEpoch, sources.promotedEpoch.getAsLong()) : processorEpoch;
    }

    private void publish(final long now)
    {
        final Histogram interval = sources.latency;
        final SequenceBase sequences = sources.sequences;
        // Read the role once: another thread (promotion, fencing) may change it; a change after this read publishes
        // again on the next duty cycle.
        final NodeRole nowRole = role;
        final long nowEpoch = epoch(nowRole);
        encoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(nowEpoch)
            .nodeId(sources.nodeId)
            .role(nowRole)
            .timestampNs(now)
            .ringCapacity(sources.ringCapacity)
            .ingressSequence(sequences.commandSequence(sources.inputCursor.get()))
            .journalSequence(sequences.commandSequence(sources.journalSequence.get()))
            .replicationSequence(null == sources.replicationSequence ? 0 : sources.replicationSequence.get())
            .processorSequence(sequences.commandSequence(sources.processorSequence.get()))
            .outputSequence(null == sources.outputCursor ? 0 : sources.outputCursor.get())
            .snapshotSequence(null == sources.snapshots ? 0 : sources.snapshots.lastWrittenSequence())
            .stateHash(lastStateHash)
            .latencyP50Ns(interval.getValueAtPercentile(50))
            .latencyP99Ns(interval.getValueAtPercentile(99))
            .latencyP999Ns(interval.getValueAtPercentile(99.9))
            .latencyMaxNs(interval.getMaxValue())
            .epochStartSequence(nowRole == NodeRole.PRIMARY ? sources.epochStartSequence.getAsLong() : 0);
        interval.reset();

        // The processor's own counts (this agent runs on its thread): part of the state, so they survive a restart.
        final VenueStatistics statistics = sources.processor.state().statistics();
        sources.accepted.setRelease(statistics.ordersAccepted());
        sources.trades.setRelease(statistics.trades());
        sources.rejects.setRelease(statistics.rejects());
        final EngineStatusEncoder.CountersEncoder counters = encoder.countersCount(8);
        counters.next().counter(EngineCounter.COMMANDS).value(sources.processor.commandCount());
        counters.next().counter(EngineCounter.ORDERS_ACCEPTED).value(statistics.ordersAccepted());
        counters.next().counter(EngineCounter.TRADES).value(statistics.trades());
        counters.next().counter(EngineCounter.REJECTS).value(statistics.rejects());
        counters.next().counter(EngineCounter.MALFORMED_INGRESS).value(sources.malformed.get());
        counters.next().counter(EngineCounter.BACK_PRESSURE_EVENTS).value(sources.backPressure.get());
        counters.next().counter(EngineCounter.ERRORS).value(sources.errors.get() + sources.processor.errorCount());
        counters.next().counter(EngineCounter.OPEN_ORDERS).value(sources.processor.state().orders().size());

        int nonZero = 0;
        for (int i = 0; i < reasons.length; i++)
        {
            rejectCounts[i] = reasons[i] == RejectReason.NULL_VAL ? 0 : statistics.rejects(reasons[i]);
            nonZero += rejectCounts[i] > 0 ? 1 : 0;
        }
        final EngineStatusEncoder.RejectsEncoder rejects = encoder.rejectsCount(nonZero);
        for (int i = 0; i < reasons.length; i++)
        {
            if (rejectCounts[i] > 0)
            {
                rejects.next().reason(reasons[i]).rejectCount(rejectCounts[i]);
            }
        }
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
