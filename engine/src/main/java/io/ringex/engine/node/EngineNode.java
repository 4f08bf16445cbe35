package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalVerifier;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.TradeDecoder;
import org.HdrHistogram.Recorder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One engine node: the LMAX pipeline in one process, made durable.
 * <pre>
 *  PRIMARY:  Aeron ingress -> [ingress] -> INPUT RING -> [journal] -----+-> [processor] -> OUTPUT RING -> egress
 *                                                     -> [replication] +    (+ status)                -> market data
 *                                                                                                     -> risk
 *  STANDBY:  replication -> [receiver] -> INPUT RING -> [journal] -> [processor, output discarded]
 *                                                               -> [ack] -> primary
 * </pre>
 * {@link #launch(EngineContext)} recovers before it opens the ingress: it verifies the journal (refusing a gap in the
 * middle unless allowed), restores the newest valid snapshot, replays the journal after it into the processor with
 * its output discarded, then starts the agents. Commands keep their sequences across restarts: the rings start at 0
 * in every process and {@link SequenceBase} maps them on.
 * <p>
 * Threading ({@link EngineContext.Threading}): SHARED puts the input side (ingress or receiver, journal,
 * replication or ack) and the publishers on one thread and the processor with the status agent on another;
 * DEDICATED gives each its own thread, except the status agent, which always shares the processor's.
 * <p>
 * Thread safety: launch and close from one thread; the queries from any.
 */
public final class EngineNode implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(EngineNode.class.getName());
    private static final long HASH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final EngineContext ctx;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<AgentRunner> runners = new ArrayList<>();
    private MediaDriver driver;
    private Aeron aeron;
    private Journal journal;
    private Ring inputRing;
    private Ring outputRing;
    private StatusAgent status;
    private IngressAgent ingress;
    private StandbyReceiver receiver;
    private ProcessorStage processorStage;
    private Stage processorRingStage;
    private SequenceBase sequences;
    private long recoveredCommands;
    private boolean closed;
    private ReplicationHeartbeatAgent heartbeat;
    private PeerMonitor peerMonitor;

    private EngineNode(final EngineContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * Recover and start a node.
     *
     * @param ctx its configuration (concluded here if not yet).
     * @return the running node.
     */
    public static EngineNode launch(final EngineContext ctx)
    {
        if (!ctx.isConcluded())
        {
            ctx.conclude();
        }
        final EngineNode node = new EngineNode(ctx);
        try
        {
            node.start();
            return node;
        }
        catch (final RuntimeException ex)
        {
            node.close();
            throw ex;
        }
    }

    private void start()
    {
        final EpochNanoClock clock = new SystemEpochNanoClock();
        if (ctx.embeddedMediaDriver())
        {
            final MediaDriver.Context driverContext = new MediaDriver.Context()
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true);
            if (null != ctx.aeronDirectoryName())
            {
                driverContext.aeronDirectoryName(ctx.aeronDirectoryName());
            }
            driver = MediaDriver.launchEmbedded(driverContext);
        }
        // Aeron's default error handler exits the JVM when the driver goes away; a node shares its JVM with others
        // (the all-in-one, tests), so it logs instead, and the agents stop on their own errors.
        final Aeron.Context aeronContext = new Aeron.Context().errorHandler((ex) ->
            LOG.log(System.Logger.Level.ERROR, "aeron client error", ex));
        if (null != driver)
        {
            aeronContext.aeronDirectoryName(driver.aeronDirectoryName());
        }
        else if (null != ctx.aeronDirectoryName())
        {
            aeronContext.aeronDirectoryName(ctx.aeronDirectoryName());
        }
        aeron = Aeron.connect(aeronContext);

        final NodeCounters counters = new NodeCounters(ctx.journalDirectory().toAbsolutePath().getParent());
        closeables.add(counters);
        final SwitchableEventSink sink = new SwitchableEventSink(ctx.outputSlotLength());
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink);
        final long lastSequence = recover(processor);
        sequences = new SequenceBase(lastSequence + 1);

        final boolean primary = ctx.role() == EngineContext.Role.PRIMARY;
        inputRing = Ring.builder().name("input").capacity(ctx.inputRingCapacity()).slotLength(ctx.inputSlotLength())
            .producerType(ProducerType.SINGLE).countersManager(counters.manager()).build();
        outputRing = Ring.builder().name("output").capacity(ctx.outputRingCapacity())
            .slotLength(ctx.outputSlotLength()).producerType(ProducerType.SINGLE)
            .countersManager(counters.manager()).build();
        closeables.add(inputRing);
        closeables.add(outputRing);

        final AtomicCounter malformed = counters.newCounter("ingress-malformed");
        final AtomicCounter backPressure = counters.newCounter("ingress-back-pressure");
        final AtomicCounter replicated = counters.newCounter("replication-acked-sequence");
        final AtomicCounter degraded = counters.newCounter("replication-degraded");
        final AtomicCounter standbyGaps = counters.newCounter("standby-gaps");
        final AtomicCounter dropped = counters.newCounter("outbound-dropped");

        // Input side.
        final Stage journalStage = inputRing.stage("journal",
            new JournalStage(journal.newWriter(lastSequence), sequences)).errorPolicy(StageErrorPolicy.HALT).build();
        final List<Agent> inputAgents = new ArrayList<>();
        Stage replicationStage = null;
        ReplicationHeartbeatAgent heartbeat = null;
        Subscription acksFromStandby = null;
        if (primary)
        {
            final Subscription ingressSubscription = aeron.addSubscription(ctx.ingressChannel(),
                ctx.ingressStreamId());
            final Publication egressForRejects = aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId());
            ingress = new IngressAgent(ingressSubscription, inputRing, clock, egressForRejects, malformed,
                backPressure);
            inputAgents.add(ingress);
            if (ctx.replicationMode() != EngineContext.ReplicationMode.OFF)
            {
                final ExclusivePublication replication = aeron.addExclusivePublication(ctx.replicationChannel(),
                    ctx.replicationStreamId());
                acksFromStandby = aeron.addSubscription(ctx.replicationAckChannel(), ctx.replicationAckStreamId());
                replicated.setRelease(lastSequence);
                replicationStage = inputRing.stage("replication", new ReplicationStage(replication,
                    ctx.replicationMode() == EngineContext.ReplicationMode.SYNC, ctx.replicationAckTimeoutNs(),
                    sequences, clock, ctx.newIdleStrategy(), replicated, degraded, inputRing.maxPayloadLength()))
                    .errorPolicy(StageErrorPolicy.HALT).build();
                heartbeat = new ReplicationHeartbeatAgent(aeron.addPublication(ctx.replicationChannel(),
                    ctx.replicationStreamId()), null, sequences, clock, ctx.replicationHeartbeatIntervalNs(),
                    ctx.nodeId(), NodeRole.PRIMARY);
            }
        }
        else
        {
            receiver = new StandbyReceiver(aeron.addSubscription(ctx.replicationChannel(),
                ctx.replicationStreamId()), inputRing, sequences, standbyGaps);
            // Closed until a promotion opens it; the Promotion agent (added below) runs the receiver until then.
            ingress = new IngressAgent(aeron.addSubscription(ctx.ingressChannel(), ctx.ingressStreamId()), inputRing,
                clock, aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId()), malformed, backPressure);
            final Publication acks = aeron.addPublication(ctx.replicationAckChannel(), ctx.replicationAckStreamId());
            heartbeat = new ReplicationHeartbeatAgent(acks, null, sequences, clock,
                ctx.replicationHeartbeatIntervalNs(), ctx.nodeId(), NodeRole.STANDBY);
            inputAgents.add(inputRing.stage("ack", new AckStage(acks, sequences, ctx.nodeId()))
                .gatedOn(journalStage).errorPolicy(StageErrorPolicy.SKIP).build());
        }
        inputAgents.add(journalStage);
        if (null != heartbeat)
        {
            heartbeat.journalSequence(journalStage.sequenceCounter());
        }
        this.heartbeat = heartbeat;
        if (null != replicationStage)
        {
            inputAgents.add(replicationStage);
        }

        // Processor and output side.
        final BackgroundSnapshotWriter snapshots = new BackgroundSnapshotWriter(
            new SnapshotStore(ctx.snapshotDirectory()), ctx.snapshotsKept());
        closeables.add(snapshots);
        final Recorder latency = new Recorder(3);
        final RingEventSink ringSink = new RingEventSink(outputRing, ctx.newIdleStrategy());
        processorStage = new ProcessorStage(processor, ringSink, sequences, clock, latency, snapshots,
            ctx.snapshotEveryCommands(), ctx.bookSnapshotIntervalNs());
        processorRingStage = null == replicationStage ?
            inputRing.stage("processor", processorStage).gatedOn(journalStage).build() :
            inputRing.stage("processor", processorStage).gatedOn(journalStage, replicationStage).build();

        final Publication egress = aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId());
        final Publication marketData = aeron.addPublication(ctx.outboundChannel(), ctx.marketDataStreamId());
        final Publication risk = aeron.addPublication(ctx.outboundChannel(), ctx.riskStreamId());
        final AtomicCounter accepted = counters.newCounter("orders-accepted");
        final AtomicCounter trades = counters.newCounter("trades");
        final AtomicCounter rejects = counters.newCounter("rejects");
        final EventStatistics statistics = new EventStatistics(accepted, trades, rejects);
        final List<Agent> outputAgents = new ArrayList<>();
        outputAgents.add(outputRing.stage("egress", new OutboundStage(egress, new int[]{
            ExecutionReportDecoder.TEMPLATE_ID, CancelRejectDecoder.TEMPLATE_ID, BusinessRejectDecoder.TEMPLATE_ID },
            false, Long.MAX_VALUE, ctx.newIdleStrategy(), dropped)).errorPolicy(StageErrorPolicy.SKIP).build());
        outputAgents.add(outputRing.stage("market-data", new OutboundStage(marketData, new int[]{
            InstrumentDefinitionDecoder.TEMPLATE_ID, BookLevelUpdateDecoder.TEMPLATE_ID,
            BestBidOfferDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID, BookSnapshotDecoder.TEMPLATE_ID },
            true, 1000, ctx.newIdleStrategy(), dropped)).errorPolicy(StageErrorPolicy.SKIP).build());
        outputAgents.add(outputRing.stage("risk", new OutboundStage(risk, new int[]{
            AccountRiskUpdateDecoder.TEMPLATE_ID, AdminResponseDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID,
            InstrumentDefinitionDecoder.TEMPLATE_ID }, false, Long.MAX_VALUE, ctx.newIdleStrategy(), dropped))
            .errorPolicy(StageErrorPolicy.SKIP).build());
        outputAgents.add(outputRing.stage("statistics", statistics).errorPolicy(StageErrorPolicy.SKIP).build());

        final StatusAgent.Sources sources = new StatusAgent.Sources();
        sources.processor = processor;
        sources.sequences = sequences;
        sources.inputCursor = inputRing.cursorCounter();
        sources.journalSequence = journalStage.sequenceCounter();
        sources.replicationSequence = null == replicationStage ? null : replicated;
        sources.processorSequence = processorRingStage.sequenceCounter();
        sources.outputCursor = outputRing.cursorCounter();
        sources.malformed = malformed;
        sources.backPressure = backPressure;
        sources.accepted = accepted;
        sources.trades = trades;
        sources.rejects = rejects;
        sources.errors = degraded;
        sources.statistics = statistics;
        sources.snapshots = snapshots;
        sources.latency = latency;
        sources.ringCapacity = ctx.inputRingCapacity();
        sources.nodeId = ctx.nodeId();
        status = new StatusAgent(sources, risk, clock, ctx.statusIntervalNs());

        if (null != heartbeat)
        {
            heartbeat.identity(status::role, () -> processor.state().epoch());
        }
        if (null != acksFromStandby)
        {
            peerMonitor = new PeerMonitor(acksFromStandby, replicated, processor, () ->
            {
                ingress.close();
                status.role(NodeRole.FENCED);
            });
        }
        if (primary)
        {
            sink.target(ringSink);
            sources.refreshOutput = true;
        }
        else
        {
            final Promotion promotion = new Promotion(receiver, ingress, aeron.addSubscription(ctx.controlChannel(),
                ctx.controlStreamId()), inputRing, clock, status, ctx.nodeId(), ctx.autoPromoteTimeoutNs());
            processorStage.promotion(promotion, () ->
            {
                sink.target(ringSink);
                sources.refreshOutput = true;
            });
            inputAgents.add(0, promotion);
        }

        startRunners(inputAgents, outputAgents);

        if (primary)
        {
            status.role(NodeRole.PRIMARY);
            ingress.open(processor.state().epoch());
        }
        else
        {
            status.role(NodeRole.STANDBY);
        }
        LOG.log(System.Logger.Level.INFO, "engine node {0} up as {1}: recovered {2} commands, next sequence {3}",
            ctx.nodeId(), ctx.role(), recoveredCommands, sequences.firstCommandSequence());
    }

    private long recover(final BusinessLogicProcessor processor)
    {
        journal = Journal.open(ctx.journalDirectory(), ctx.durability());
        final JournalVerifier.Report report = JournalVerifier.verify(journal);
        LOG.log(System.Logger.Level.INFO, "journal {0}: {1}", ctx.journalDirectory(), report);
        if (report.tornTail())
        {
            LOG.log(System.Logger.Level.WARNING, "journal ends with a torn record: a crash cut it short before it " +
                "was processed; it is ignored and its sequence will be written again");
        }
        if (!report.isClean() && !ctx.allowJournalGaps())
        {
            throw new IllegalStateException("journal has a gap in the middle (" + report.firstProblem() + "): " +
                "refusing to start; inspect with `journal verify`, and start with ringex.engine.journal.allow.gaps=" +
                "true only if the commands after the gap should be applied without those missing");
        }

        long fromSequence = 1;
        final SnapshotStore.Snapshot snapshot = new SnapshotStore(ctx.snapshotDirectory()).loadNewest(
            io.ringex.engine.processor.SnapshotDescriptor.VERSION,
            (problem) -> LOG.log(System.Logger.Level.WARNING, "snapshot passed over: {0}", problem));
        if (null != snapshot)
        {
            processor.restore(snapshot.state(), 0, snapshot.state().capacity());
            if (processor.stateHash() != snapshot.stateHash())
            {
                throw new IllegalStateException("snapshot " + snapshot.file() + " restores to a different state " +
                    "hash than it was written with: refusing it; move it aside to recover from the journal alone");
            }
            fromSequence = snapshot.sequence() + 1;
            LOG.log(System.Logger.Level.INFO, "restored snapshot {0} at sequence {1}", snapshot.file(),
                snapshot.sequence());
        }

        final long startNs = System.nanoTime();
        final long[] last = { fromSequence - 1 };
        try (io.ringex.journal.JournalReader reader = journal.newReader().fromSequence(fromSequence)
            .allowGaps(ctx.allowJournalGaps()))
        {
            int read;
            while ((read = reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                processor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                last[0] = sequence;
                recoveredCommands++;
            }, 4096)) > 0)
            {
                processor.onEndOfBatch();
            }
            if (read < 0)
            {
                throw new IllegalStateException("journal replay stopped: " + reader.problem());
            }
        }
        if (recoveredCommands > 0)
        {
            final long ns = Math.max(1, System.nanoTime() - startNs);
            LOG.log(System.Logger.Level.INFO, "replayed {0} commands in {1} ms ({2} commands/s)", recoveredCommands,
                ns / 1_000_000, recoveredCommands * 1_000_000_000L / ns);
        }
        return Math.max(last[0], report.lastSequence());
    }

    private void startRunners(final List<Agent> inputAgents, final List<Agent> outputAgents)
    {
        final List<Agent> processorThread = new ArrayList<>(List.of(processorRingStage, status));
        if (null != heartbeat)
        {
            processorThread.add(heartbeat);
        }
        if (null != peerMonitor)
        {
            processorThread.add(peerMonitor);
        }
        final Agent processorAndStatus = new CompositeAgent(processorThread);
        if (ctx.threading() == EngineContext.Threading.SHARED)
        {
            // The publishers must not share the processor's thread: the processor waits for output-ring slots that
            // only they free, so one input batch producing more events than the output ring holds would wait
            // forever. The input side never waits on the processor (a full input ring makes the ingress ABORT), so
            // the publishers are safe there; the processor and the status agent have a thread to themselves.
            final List<Agent> ioThread = new ArrayList<>(inputAgents);
            ioThread.addAll(outputAgents);
            start(new CompositeAgent(ioThread));
            start(processorAndStatus);
        }
        else
        {
            inputAgents.forEach(this::start);
            start(processorAndStatus);
            outputAgents.forEach(this::start);
        }
    }

    private void start(final Agent agent)
    {
        final AgentRunner runner = new AgentRunner(ctx.newIdleStrategy(), (ex) ->
            LOG.log(System.Logger.Level.ERROR, "agent " + agent.roleName() + " failed", ex), null, agent);
        AgentRunner.startOnThread(runner, (r) ->
        {
            final Thread thread = new Thread(r, "ringex-" + agent.roleName().replace('/', '-'));
            thread.setDaemon(true);
            return thread;
        });
        runners.add(runner);
    }

    /**
     * @return the role the node acts in now (a promoted standby reports PRIMARY).
     */
    public NodeRole role()
    {
        return status.role();
    }

    /**
     * @return the configuration.
     */
    public EngineContext context()
    {
        return ctx;
    }

    /**
     * The processor's state hash, computed on its thread between batches.
     *
     * @return the hash.
     */
    public long stateHash()
    {
        return status.stateHash(HASH_TIMEOUT_NS);
    }

    /**
     * @return the sequence of the last command the processor has applied.
     */
    public long processedSequence()
    {
        return sequences.commandSequence(processorRingStage.sequenceCounter().get());
    }

    /**
     * @return the sequence of the last command journaled.
     */
    public long journaledSequence()
    {
        return sequences.commandSequence(inputRing.cursorCounter().get());
    }

    /**
     * @return commands replayed from the journal at start.
     */
    public long recoveredCommands()
    {
        return recoveredCommands;
    }

    /**
     * @return the Aeron directory the node's client uses.
     */
    public String aeronDirectoryName()
    {
        return aeron.context().aeronDirectoryName();
    }

    /**
     * Stop taking commands, let the rings drain, stop the agents and release everything.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (null != ingress)
        {
            ingress.close();
        }
        if (null != receiver)
        {
            receiver.stop();
        }
        if (null != inputRing && null != outputRing && !runners.isEmpty())
        {
            inputRing.drain(TimeUnit.SECONDS.toNanos(5), ctx.newIdleStrategy());
            outputRing.drain(TimeUnit.SECONDS.toNanos(5), ctx.newIdleStrategy());
        }
        for (final AgentRunner runner : runners)
        {
            CloseHelper.quietClose(runner);
        }
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
        CloseHelper.quietClose(journal);
        CloseHelper.quietClose(aeron);
        CloseHelper.quietClose(driver);
    }
}
