package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.common.aeron.AeronBootstrap;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalPretoucher;
import io.ringex.journal.JournalWriter;
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
import io.ringex.protocol.codecs.LogonsUnlockedDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.TradeDecoder;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
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
 * DEDICATED gives each its own thread, except the status agent, which always shares the processor's. The output ring
 * has one consumer stage, which offers each event on the egress, market-data or risk publication it belongs on and
 * counts it ({@link FanOutHandler}): the ring is read once per event, whatever the threading.
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
    private AeronBootstrap bootstrap;
    private Aeron aeron;
    private Journal journal;
    private Ring inputRing;
    private Ring outputRing;
    private StatusAgent status;
    private IngressAgent ingress;
    private StandbyReceiver receiver;
    private ProcessorStage processorStage;
    private Stage processorRingStage;
    private Stage journalRingStage;
    private SequenceBase sequences;
    private long recoveredCommands;
    private boolean closed;
    private ReplicationHeartbeatAgent heartbeat;
    private PeerMonitor peerMonitor;
    private ReplicationStage replication;
    private CatchUpAgent catchUpAgent;
    private AtomicCounter degradations;
    private JournalPretoucher pretoucher;
    private AgentRunner processorRunner;

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
        // The common bootstrap's error handler logs and counts: Aeron's default exits the JVM when the driver goes
        // away, and a node shares its JVM with others (the all-in-one, tests); the agents stop on their own errors.
        final String name = "ringex-engine-" + ctx.nodeId();
        bootstrap = ctx.embeddedMediaDriver() ?
            AeronBootstrap.launchEmbedded(name, ctx.aeronDirectoryName(), null, null, null) :
            AeronBootstrap.connect(name, ctx.aeronDirectoryName(), 0, null);
        aeron = bootstrap.aeron();

        final NodeCounters counters = new NodeCounters(ctx.journalDirectory().toAbsolutePath().getParent());
        closeables.add(counters);
        final boolean primary = ctx.role() == EngineContext.Role.PRIMARY;
        inputRing = Ring.builder().name("input").capacity(ctx.inputRingCapacity()).slotLength(ctx.inputSlotLength())
            .producerType(ProducerType.SINGLE).countersManager(counters.manager()).build();
        outputRing = Ring.builder().name("output").capacity(ctx.outputRingCapacity())
            .slotLength(ctx.outputSlotLength()).producerType(ProducerType.SINGLE)
            .countersManager(counters.manager()).build();
        closeables.add(inputRing);
        closeables.add(outputRing);
        final RingEventSink ringSink = new RingEventSink(outputRing, ctx.newIdleStrategy());
        final SwitchableEventSink sink = new SwitchableEventSink(ctx.outputSlotLength());
        // A standby keeps its recent reports to re-send them if promoted; a primary's replay output is discarded.
        final ReportWindow window = primary ? null :
            new ReportWindow(ctx.reportWindowBytes(), outputRing.maxPayloadLength(), ringSink);
        sink.target(window);
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink);
        journal = Journal.open(ctx.journalDirectory(), ctx.durability());
        final NodeRecovery recovery = NodeRecovery.recover(ctx, journal, processor);
        recoveredCommands = recovery.recoveredCommands;
        final long lastSequence = recovery.lastSequence;
        sequences = new SequenceBase(lastSequence + 1);

        final AtomicCounter malformed = counters.newCounter("ingress-malformed");
        final AtomicCounter backPressure = counters.newCounter("ingress-back-pressure");
        final AtomicCounter replicated = counters.newCounter("replication-acked-sequence");
        final AtomicCounter degraded = counters.newCounter("replication-degraded");
        degradations = degraded;
        final AtomicCounter standbyGaps = counters.newCounter("standby-gaps");
        final AtomicCounter dropped = counters.newCounter("outbound-dropped");

        // Input side.
        final JournalWriter journalWriter = journal.newWriter(lastSequence);
        final JournalStage journalHandler = new JournalStage(journalWriter, sequences, recovery.lastChecksum);
        pretoucher = ctx.journalPretouchBytes() > 0 ?
            new JournalPretoucher(journalWriter, ctx.journalPretouchBytes()) : null;
        final Stage journalStage = inputRing.stage("journal", journalHandler).errorPolicy(StageErrorPolicy.HALT)
            .build();
        journalRingStage = journalStage;
        final List<Agent> inputAgents = new ArrayList<>();
        final boolean replicating = ctx.replicationMode() != EngineContext.ReplicationMode.OFF;
        final boolean onward = !primary && replicating && ctx.hasPeerChannels();
        ReplicationStage replicationHandler = null;
        Stage replicationStage = null;
        Subscription acksFromStandby = null;
        Publication heartbeatsToStandby = null;
        if (replicating && (primary || onward))
        {
            // What a primary needs to replicate; on a standby, idle until a promotion activates it.
            final ExclusivePublication replication = aeron.addExclusivePublication(ctx.peerReplicationChannel(),
                ctx.replicationStreamId());
            acksFromStandby = aeron.addSubscription(ctx.replicationAckChannel(), ctx.replicationAckStreamId());
            replicated.setRelease(lastSequence);
            replicationHandler = new ReplicationStage(replication,
                ctx.replicationMode() == EngineContext.ReplicationMode.SYNC, ctx.replicationAckTimeoutNs(),
                sequences, clock, ctx.newIdleStrategy(), replicated, degraded, inputRing.maxPayloadLength());
            replicationStage = inputRing.stage("replication", replicationHandler)
                .errorPolicy(StageErrorPolicy.HALT).build();
            heartbeatsToStandby = aeron.addPublication(ctx.peerReplicationChannel(), ctx.replicationStreamId());
            final CatchUpAgent catchUp = new CatchUpAgent(
                aeron.addSubscription(ctx.replicationAckChannel(), ctx.replicationAckStreamId()),
                aeron.addExclusivePublication(ctx.peerReplicationChannel(), ctx.catchUpStreamId()), journal,
                () -> sequences.commandSequence(inputRing.cursorCounter().get()), () -> processor.state().epoch(),
                () -> status.role() == NodeRole.PRIMARY, clock, ctx.nodeId(), ctx.replicationAckTimeoutNs(),
                counters.newCounter("catch-up-sent"), inputRing.maxPayloadLength());
            inputAgents.add(catchUp);
            catchUpAgent = catchUp;
        }
        if (primary)
        {
            final Subscription ingressSubscription = aeron.addSubscription(ctx.ingressChannel(),
                ctx.ingressStreamId());
            final Publication egressForRejects = aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId());
            ingress = new IngressAgent(ingressSubscription, inputRing, clock, egressForRejects, malformed,
                backPressure);
            inputAgents.add(0, ingress);
            if (null != replicationHandler)
            {
                replicationHandler.activate(processor.state().epoch(), false);
                heartbeat = new ReplicationHeartbeatAgent(heartbeatsToStandby, null, null, sequences, clock,
                    ctx.replicationHeartbeatIntervalNs(), ctx.nodeId(), NodeRole.PRIMARY);
            }
        }
        else
        {
            if (replicating && !onward)
            {
                LOG.log(System.Logger.Level.WARNING, "standby without ringex.engine.replication.peer.channel / " +
                    ".peer.ack.channel: if promoted it will not replicate to a standby of its own");
            }
            final Publication toPrimary = aeron.addPublication(ctx.peerReplicationAckChannel(),
                ctx.replicationAckStreamId());
            final StandbyReceiver.Links links = new StandbyReceiver.Links();
            links.live = aeron.addSubscription(ctx.replicationChannel(), ctx.replicationStreamId());
            links.catchUp = aeron.addSubscription(ctx.replicationChannel(), ctx.catchUpStreamId());
            links.toPrimary = toPrimary;
            links.journaledSequence = this::journaledSequence;
            links.journaledChecksum = journalHandler::lastChecksum;
            links.journal = journal;
            links.gaps = standbyGaps;
            links.diverged = counters.newCounter("standby-diverged");
            links.caughtUp = counters.newCounter("standby-caught-up-commands");
            links.onDiverged = () -> status.role(NodeRole.DIVERGED);
            links.nodeId = ctx.nodeId();
            receiver = new StandbyReceiver(links, inputRing, sequences);
            // Closed until a promotion opens it; the Promotion agent (added below) runs the receiver until then.
            ingress = new IngressAgent(aeron.addSubscription(ctx.ingressChannel(), ctx.ingressStreamId()), inputRing,
                clock, aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId()), malformed, backPressure);
            heartbeat = new ReplicationHeartbeatAgent(heartbeatsToStandby, toPrimary, null, sequences, clock,
                ctx.replicationHeartbeatIntervalNs(), ctx.nodeId(), NodeRole.STANDBY);
            heartbeat.acknowledging(receiver::acknowledging);
            inputAgents.add(inputRing.stage("ack", new AckStage(toPrimary, sequences, ctx.nodeId(),
                () -> status.role() == NodeRole.STANDBY, receiver::epoch))
                .gatedOn(journalStage).errorPolicy(StageErrorPolicy.SKIP).build());
        }
        inputAgents.add(journalStage);
        if (null != heartbeat)
        {
            heartbeat.journalSequence(journalStage.sequenceCounter());
        }
        if (null != replicationStage)
        {
            inputAgents.add(replicationStage);
        }
        replication = replicationHandler;

        // Processor and output side.
        final BackgroundSnapshotWriter snapshots = new BackgroundSnapshotWriter(
            new SnapshotStore(ctx.snapshotDirectory()), ctx.snapshotsKept());
        closeables.add(snapshots);
        // Single-threaded: the processor stage records, the status agent on the same thread reads and resets.
        final Histogram latency = new Histogram(3);
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
        // One stage for the three: each event's header is read once and the ring polled by one stage, not three.
        final OutboundStage egressHandler = new OutboundStage(egress, new int[]{
            ExecutionReportDecoder.TEMPLATE_ID, CancelRejectDecoder.TEMPLATE_ID, BusinessRejectDecoder.TEMPLATE_ID,
            LogonsUnlockedDecoder.TEMPLATE_ID, UserDefinitionDecoder.TEMPLATE_ID,
            UserDirectoryEndDecoder.TEMPLATE_ID },
            false, Long.MAX_VALUE, ctx.newIdleStrategy(), dropped);
        final OutboundStage marketDataHandler = new OutboundStage(marketData, new int[]{
            InstrumentDefinitionDecoder.TEMPLATE_ID, BookLevelUpdateDecoder.TEMPLATE_ID,
            BestBidOfferDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID, BookSnapshotDecoder.TEMPLATE_ID },
            true, 1000, ctx.newIdleStrategy(), dropped);
        final OutboundStage riskHandler = new OutboundStage(risk, new int[]{
            AccountRiskUpdateDecoder.TEMPLATE_ID, AdminResponseDecoder.TEMPLATE_ID, TradeDecoder.TEMPLATE_ID,
            InstrumentDefinitionDecoder.TEMPLATE_ID }, false, Long.MAX_VALUE, ctx.newIdleStrategy(), dropped);
        final List<Agent> outputAgents = List.of(outputRing.stage("publishers",
            new FanOutHandler(egressHandler, marketDataHandler, riskHandler))
            .errorPolicy(StageErrorPolicy.SKIP).build());

        final StatusAgent.Sources sources = new StatusAgent.Sources();
        sources.output = ringSink;
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
            }, () -> status.role() == NodeRole.PRIMARY, catchUpAgent::standbyVerified);
        }
        if (primary)
        {
            sink.target(ringSink);
            sources.refreshOutput = true;
            // Its epoch, as primary, starts with the first command after recovery.
            sources.epochStartSequence = sequences::firstCommandSequence;
        }
        else
        {
            final Promotion promotion = new Promotion(receiver, ingress, aeron.addSubscription(ctx.controlChannel(),
                ctx.controlStreamId()), inputRing, clock, status, ctx.nodeId(), ctx.autoPromoteTimeoutNs(),
                replicationHandler);
            final AtomicCounter resent = counters.newCounter("promotion-reports-resent");
            processorStage.promotion(promotion, () ->
            {
                sink.target(ringSink);
                final long oldest = window.oldestCommandSequence();
                final int count = window.republish(ringSink, promotion.epoch());
                resent.setRelease(count);
                LOG.log(System.Logger.Level.WARNING, "promoted: re-sent the {0} most recent client reports (commands " +
                    "{1} and on) before new output, in case the old primary had not", count, oldest);
                sources.refreshOutput = true;
            });
            inputAgents.add(0, promotion);
            sources.epochStartSequence = () -> sequences.commandSequence(promotion.promotionSequence());
            sources.promotedEpoch = promotion::epoch;
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

    private void startRunners(final List<Agent> inputAgents, final List<Agent> outputAgents)
    {
        if (null != pretoucher)
        {
            // Off the pipeline's threads on purpose: a page fault taken here stalls no one. Waking each millisecond
            // is ample: at 50K commands/s the writer moves ~5 KB/ms, the touched region reaches 16 MiB ahead.
            start(pretoucher, new SleepingMillisIdleStrategy(1));
        }
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
            if (null != replication)
            {
                // The SYNC wait holds this thread until the peer monitor, on the processor's thread, reads the
                // acknowledgement. The processor may itself be waiting for output slots that only the publishers
                // free: the wait runs them (and serves a standby catching up), or it would last the whole timeout.
                final List<Agent> whileWaiting = new ArrayList<>(outputAgents);
                if (null != catchUpAgent)
                {
                    whileWaiting.add(0, catchUpAgent);
                }
                replication.whileWaiting(new CompositeAgent(whileWaiting));
            }
            start(new CompositeAgent(ioThread));
            processorRunner = start(processorAndStatus);
        }
        else
        {
            inputAgents.forEach(this::start);
            processorRunner = start(processorAndStatus);
            outputAgents.forEach(this::start);
        }
    }

    private AgentRunner start(final Agent agent)
    {
        return start(agent, ctx.newIdleStrategy());
    }

    private AgentRunner start(final Agent agent, final IdleStrategy idleStrategy)
    {
        final AgentRunner runner = new AgentRunner(idleStrategy, (ex) ->
            LOG.log(System.Logger.Level.ERROR, "agent " + agent.roleName() + " failed", ex), null, agent);
        AgentRunner.startOnThread(runner, (r) ->
        {
            final Thread thread = new Thread(r, "ringex-" + agent.roleName().replace('/', '-'));
            thread.setDaemon(true);
            return thread;
        });
        runners.add(runner);
        return runner;
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
     * @return the sequence of the last command written to the journal (the input ring may hold later ones).
     */
    public long journaledSequence()
    {
        return sequences.commandSequence(journalRingStage.sequenceCounter().get());
    }

    /**
     * @return whether this node replicates in SYNC mode degraded to ASYNC now (no standby in step).
     */
    public boolean replicationDegraded()
    {
        return null != replication && replication.degraded();
    }

    /**
     * @return how many times replication degraded (or dropped sends) since start: the counter
     * {@code replication-degraded}.
     */
    public long replicationDegradations()
    {
        return degradations.get();
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
            receiver.close();
        }
        if (null != inputRing && null != outputRing && !runners.isEmpty())
        {
            inputRing.drain(TimeUnit.SECONDS.toNanos(5), ctx.newIdleStrategy());
            // The processor's thread is the output ring's only producer (its status and heartbeat agents too): stop
            // it before the output ring closes, so nothing there claims a slot of a closed ring.
            CloseHelper.quietClose(processorRunner);
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
        CloseHelper.quietClose(bootstrap);
    }
}
