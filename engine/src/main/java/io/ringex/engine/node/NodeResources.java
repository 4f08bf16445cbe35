package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.aeron.Aeron;
import io.ringex.common.aeron.AeronBootstrap;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.cluster.ReportWindow;
import io.ringex.engine.replay.ReportReplayService;
import io.ringex.engine.ring.ProducerType;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.StageErrorPolicy;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalPretoucher;
import io.ringex.journal.JournalWriter;
import io.ringex.journal.SnapshotStore;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What a node is made of before its agents (Aeron, counters, rings, processor, journal, snapshot writer, report
 * replay), created from its concluded {@link EngineContext} in the order recovery needs and closed here in reverse. The
 * role's agents ({@link SingleNodeAgents}, {@link ClusterAgents}) are built from these. Recovery runs here, before any
 * stream the node's peers or clients could fill is opened.
 * <p>
 * Thread safety: built and closed on the thread that launches and closes the node; the objects its final fields hold
 * state their own threading.
 */
final class NodeResources implements AutoCloseable
{
    /** Open orders the processor preallocates for. */
    private static final int EXPECTED_ORDERS = 1 << 16;

    final EngineContext ctx;
    final EpochNanoClock epochClock;
    final NanoClock clock;
    /** RECOVERING until the role's agents open the node. */
    final ActingRole role = new ActingRole();
    final AeronBootstrap bootstrap;
    final Aeron aeron;
    final NodeCounters counters;
    final Ring inputRing;
    final Ring outputRing;
    /** The processor's events into the output ring. */
    final RingEventSink ringSink;
    /** How the processor waits for output-ring slots: COMPACT gives it the publishers to run meanwhile. */
    final WorkingIdleStrategy outputFullWait;
    /** The processor's sink: discards (or fills a follower's report window) until the node serves clients. */
    final SwitchableEventSink sink;
    /** A cluster follower's recent client reports, re-sent if it leads; null on a single node. */
    final ReportWindow reportWindow;
    final BusinessLogicProcessor processor;
    final Journal journal;
    final long recoveredCommands;
    /** The snapshot the processor was restored from at the start, 0 if none (a cluster member: 0). */
    final long recoveredSnapshotSequence;
    /** Ring sequences to command sequences: the first command this process takes follows the journal's last. */
    final SequenceBase sequences;
    final JournalStage journalHandler;
    final Stage journalStage;
    /** Null when pretouching is off. */
    final JournalPretoucher pretoucher;
    final BackgroundSnapshotWriter snapshots;
    /** Ingress-to-processed latency: recorded by the processor stage, read and reset by the status (one thread). */
    final Histogram latency = new Histogram(3);
    /** Each command's time per stage, and the per-hop latency the status reports. */
    final StageTrace trace;
    final AtomicCounter malformed;
    /** Checks operator commands' keys at the ingress; refusals counted in {@code ingress-admin-refused}. */
    final AdminAuthenticator adminAuthenticator;
    final AtomicCounter backPressure;
    /** Client-bound events not sent: the publishers' (no subscriber, retries spent) and the ingress's rejects. */
    final AtomicCounter dropped;
    /** A cluster member's last command taken from the committed log. */
    final AtomicCounter committed;
    final AtomicCounter accepted;
    final AtomicCounter trades;
    final AtomicCounter rejects;
    /** The processor's earliest deadline (epoch ns; Long.MAX_VALUE for none): the ingress journals a Tick at it. */
    final AtomicCounter nextDeadline;
    /** Serves gateways' report replays from the journal, on a thread of its own once the node's threads start. */
    final ReportReplayService replay;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /**
     * Create everything and recover.
     *
     * @param ctx the node's concluded configuration.
     * @throws RuntimeException if anything cannot be created or recovery refuses the journal; what was created is
     *                          closed first.
     */
    NodeResources(final EngineContext ctx)
    {
        this.ctx = ctx;
        this.epochClock = ctx.epochNanoClock();
        this.clock = ctx.nanoClock();
        try
        {
            // The common bootstrap's error handler logs and counts: Aeron's default exits the JVM when the driver
            // goes away, and a node shares its JVM with others (the all-in-one, tests); agents stop on their errors.
            final String name = "ringex-engine-" + ctx.nodeId();
            bootstrap = ctx.embeddedMediaDriver() ?
                AeronBootstrap.launchEmbedded(name, ctx.aeronDirectoryName(), null, null, null) :
                AeronBootstrap.connect(name, ctx.aeronDirectoryName(), 0, null);
            aeron = bootstrap.aeron();

            counters = closing(new NodeCounters(ctx.journalDirectory().toAbsolutePath().getParent()));
            inputRing = closing(Ring.builder().name("input").capacity(ctx.inputRingCapacity())
                .slotLength(ctx.inputSlotLength()).producerType(ProducerType.SINGLE)
                .countersManager(counters.manager()).build());
            // the output ring holds only what the business logic encoded: its slots are read without bounds checks;
            // the input ring carries clients' bytes and keeps them
            outputRing = closing(Ring.builder().name("output").capacity(ctx.outputRingCapacity())
                .slotLength(ctx.outputSlotLength()).producerType(ProducerType.SINGLE)
                .countersManager(counters.manager()).uncheckedSlots().build());
            outputFullWait = new WorkingIdleStrategy(ctx.newIdleStrategy());
            ringSink = new RingEventSink(outputRing, outputFullWait);
            sink = new SwitchableEventSink(ctx.outputSlotLength());
            // A cluster member keeps its recent reports while it does not serve clients, to re-send them when it comes
            // to lead; a single node's replay output is discarded.
            final boolean clusterMember = ctx.replicationMode() == EngineContext.ReplicationMode.CLUSTER;
            reportWindow = clusterMember ? new ReportWindow(ctx.reportWindowBytes(), outputRing.maxPayloadLength()) :
                null;
            sink.target(reportWindow);
            // Every error the processor catches is counted (the status's ERRORS); the first ones are also logged with
            // their stack, the rest only counted, so a stream of poison commands cannot flood the log.
            processor = new BusinessLogicProcessor(sink, EXPECTED_ORDERS,
                ThrottledErrorLog.of(BusinessLogicProcessor.class.getName(), "processor", clock));

            journal = Journal.open(ctx.journalDirectory(), ctx.durability());
            // A cluster member's processor starts from the cluster's snapshot and log (its service restores it): its
            // journal is only checked here, and what it holds is compared with the log as the log is replayed.
            final NodeRecovery recovery = clusterMember ? NodeRecovery.verifyOnly(ctx, journal) :
                NodeRecovery.recover(ctx, journal, processor);
            recoveredCommands = recovery.recoveredCommands;
            recoveredSnapshotSequence = recovery.snapshotSequence;
            sequences = new SequenceBase(recovery.lastSequence + 1);

            malformed = counters.newCounter("ingress-malformed");
            adminAuthenticator = new AdminAuthenticator(ctx.adminKeys(), ctx.adminAuthWindowNs(),
                inputRing.maxPayloadLength(), counters.newCounter("ingress-admin-refused"));
            backPressure = counters.newCounter("ingress-back-pressure");
            committed = counters.newCounter("cluster-committed-sequence");
            dropped = counters.newCounter("outbound-dropped");

            final JournalWriter journalWriter = journal.newWriter(recovery.lastSequence);
            journalHandler = new JournalStage(journalWriter, sequences,
                clusterMember ? journal : null, recovery.lastSequence);
            pretoucher = ctx.journalPretouchBytes() > 0 ?
                new JournalPretoucher(journalWriter, ctx.journalPretouchBytes()) : null;
            trace = new StageTrace(inputRing.capacity(), sequences, counters);
            journalStage = inputRing.stage("journal", trace.journaled(journalHandler))
                .errorPolicy(StageErrorPolicy.HALT).errorHandler(stageErrors("input/journal")).build();

            snapshots = closing(new BackgroundSnapshotWriter(new SnapshotStore(ctx.snapshotDirectory()),
                ctx.snapshotsKept(), clock));
            accepted = counters.newCounter("orders-accepted");
            trades = counters.newCounter("trades");
            rejects = counters.newCounter("rejects");
            nextDeadline = counters.newCounter("next-deadline-ns");
            nextDeadline.setRelease(processor.nextDeadlineNs());

            replay = new ReportReplayService(ctx.journalDirectory(), ctx.snapshotDirectory(), ctx.allowJournalGaps(),
                closing(aeron.addSubscription(ctx.ingressChannel(), ctx.replayRequestStreamId())),
                closing(aeron.addPublication(ctx.outboundChannel(), ctx.replayStreamId())),
                counters.newCounter("replay-served"), counters.newCounter("replay-refused"),
                counters.newCounter("replay-failed"));
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Where a stage's errors go: counted by the stage, logged here with their stack at most
     * {@link ThrottledErrorLog#MAX_PER_WINDOW} a minute (a SKIP stage may meet one per event).
     *
     * @param stageName the stage's role name, ring included ({@code output/publishers}).
     * @return the stage's own error log (a stage runs on one thread).
     */
    ErrorHandler stageErrors(final String stageName)
    {
        return ThrottledErrorLog.of(Stage.class.getName(), "stage " + stageName, clock);
    }

    /**
     * The client ingress every role has: it takes commands from the ingress stream and answers the refused on the
     * egress stream.
     *
     * @param commands where it puts the commands it takes (the input ring, or a cluster leader's log).
     * @return the ingress, closed by the role's agents when the node stops taking commands.
     */
    IngressAgent newIngress(final CommandSink commands)
    {
        return new IngressAgent(aeron.addSubscription(ctx.ingressChannel(), ctx.ingressStreamId()), commands,
            inputRing.maxPayloadLength(), epochClock, clock,
            aeron.addPublication(ctx.outboundChannel(), ctx.egressStreamId()), malformed, backPressure, dropped,
            nextDeadline, trace, adminAuthenticator);
    }

    /**
     * The output ring's publishers every role has; under COMPACT the processor runs them while it waits for an
     * output-ring slot ({@link #outputFullWait}), as they share its thread.
     *
     * @return the publishers.
     */
    Publishers newPublishers()
    {
        final Publishers publishers = new Publishers(this);
        if (ctx.threading() == EngineContext.Threading.COMPACT)
        {
            outputFullWait.work(publishers.stage);
        }
        return publishers;
    }

    /**
     * @return the last command sequence journaled when the node started.
     */
    long lastRecoveredSequence()
    {
        return sequences.firstCommandSequence() - 1;
    }

    /**
     * Release everything, in reverse: the replay service's publication and subscription, the snapshot writer
     * (finishing its last write), the rings, the counters file, the journal, then the Aeron client and driver. The
     * agents and the replay service must have stopped.
     */
    public void close()
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
        CloseHelper.quietClose(journal);
        CloseHelper.quietClose(bootstrap);
    }

    private <T extends AutoCloseable> T closing(final T resource)
    {
        closeables.add(resource);
        return resource;
    }
}
