package io.ringex.engine.node;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.ringex.engine.cluster.ClusterNode;
import io.ringex.engine.cluster.ClusterSecret;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.protocol.codecs.NodeRole;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engine node: the LMAX pipeline in one process, made durable (docs/architecture.md, "Data flow").
 * <p>
 * Built as Aeron builds a consensus module: the context is concluded, {@link NodeResources} creates what the node is
 * made of and recovers, then its agents are built ({@link SingleNodeAgents}, {@link ClusterAgents}), put on threads
 * ({@link NodeThreads}) and opened. Nothing opens the ingress before recovery is done; commands keep their sequences
 * across restarts ({@link SequenceBase}).
 * <p>
 * Thread safety: launch and close from one thread; the queries from any.
 */
public final class EngineNode implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(EngineNode.class);
    private static final long HASH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);

    private final EngineContext ctx;
    private NodeResources resources;
    private RoleAgents agents;
    private NodeThreads threads;
    private ClusterNode cluster;
    private boolean closed;

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
        if (ctx.replicationMode() == EngineContext.ReplicationMode.CLUSTER)
        {
            startClusterMember();
            return;
        }
        resources = new NodeResources(ctx);
        agents = new SingleNodeAgents(resources);
        threads = new NodeThreads(ctx, resources.pretoucher, agents, resources.replay);
        agents.open();
        LOG.info("engine node {} up: recovered {}", ctx.nodeId(), recoverySummary());
    }

    /**
     * A cluster member: its resources (the journal only verified), then the cluster's parts, whose service restores
     * the processor from the cluster's snapshot (or starts it empty) before the agents run and the log is replayed
     * into the ring. A journal that cannot follow from that snapshot, or one marked at a previous run as not this
     * cluster's log, is moved aside and rebuilt from the whole log ({@link JournalRebuild}).
     */
    private void startClusterMember()
    {
        for (int attempt = 0; ; attempt++)
        {
            if (JournalRebuild.isMarked(ctx.journalDirectory()))
            {
                JournalRebuild.rebuild(ctx, "the journal was found at the last run to differ from the cluster's log");
            }
            resources = new NodeResources(ctx);
            final ClusterAgents member = new ClusterAgents(resources);
            agents = member;
            cluster = ClusterNode.launch(new ClusterNode.Settings(ctx.nodeId(), ctx.clusterMembers(),
                ctx.clusterDirectory(), resources.aeron.context().aeronDirectoryName(),
                new ClusterSecret(ctx.clusterSecret()), ctx.clusterLeaderHeartbeatTimeoutNs(),
                ctx.clusterLeaderHeartbeatIntervalNs(), ctx.clusterElectionTimeoutNs(),
                ctx.clusterStartupCanvassTimeoutNs(), ctx.clusterLogTermLength(), resources.bootstrap.errorHandler(),
                ctx::newIdleStrategy),
                member.service());
            final long deadlineNs = System.nanoTime() + START_TIMEOUT_NS;
            final IdleStrategy idle = ctx.newIdleStrategy();
            while (!member.isStarted() && null == member.rebuildNeeded())
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("the cluster's service did not start within " +
                        TimeUnit.NANOSECONDS.toSeconds(START_TIMEOUT_NS) + " s");
                }
                idle.idle();
            }
            if (null != member.rebuildNeeded() && attempt == 0)
            {
                final String why = member.rebuildNeeded();
                closeResources();
                closed = false;
                JournalRebuild.rebuild(ctx, why);
                continue;
            }
            if (null != member.rebuildNeeded())
            {
                throw new IllegalStateException("cannot start: " + member.rebuildNeeded());
            }
            break;
        }
        threads = new NodeThreads(ctx, resources.pretoucher, agents, resources.replay);
        LOG.info("engine node {} up as a member of a cluster of {}: next sequence {}",
            ctx.nodeId(), ctx.clusterMembers().size(), resources.sequences.firstCommandSequence());
    }

    /**
     * @return the role the node acts in now (a cluster member: PRIMARY while it leads and serves clients).
     */
    public NodeRole role()
    {
        return agents instanceof ClusterAgents ? agents.processing().status.role() : resources.role.get();
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
        return agents.processing().status.stateHash(HASH_TIMEOUT_NS);
    }

    /**
     * The processor, for tests in this package that compare what the node published with its state once it is
     * quiescent (read it only then: its thread owns it).
     *
     * @return the processor.
     */
    io.ringex.engine.processor.BusinessLogicProcessor processor()
    {
        return resources.processor;
    }

    /**
     * @return the sequence of the last command the processor has applied.
     */
    public long processedSequence()
    {
        return resources.sequences.commandSequence(agents.processing().stage.sequenceCounter().get());
    }

    /**
     * @return the sequence of the last command written to the journal (the input ring may hold later ones).
     */
    public long journaledSequence()
    {
        return resources.sequences.commandSequence(resources.journalStage.sequenceCounter().get());
    }

    /**
     * Each hop's latency inside the node since the start or {@link #resetStageLatencies()}, up to the last status
     * interval: {@code journal}, {@code replication}, {@code processor}, {@code publishers} and {@code total}
     * (docs/operations.md, "Where a command's time goes"). For benchmarks and tests; an operator reads the same
     * figures per status interval from the counters ({@code ./ringex node latency}).
     *
     * @return a copy of each hop's histogram (nanoseconds), by hop name, in path order.
     */
    public Map<String, Histogram> stageLatencies()
    {
        final Map<String, Histogram> byName = new LinkedHashMap<>();
        resources.trace.totals().forEach((hop, histogram) -> byName.put(hop.label(), histogram));
        return byName;
    }

    /**
     * Forget the stage latencies recorded so far (a benchmark's warm-up).
     */
    public void resetStageLatencies()
    {
        resources.trace.resetTotals();
    }

    /**
     * @return the sequence of the first command this process took: one past what it recovered (a cluster member, one
     * past the cluster's snapshot it restored).
     */
    public long firstSequence()
    {
        return resources.sequences.firstCommandSequence();
    }

    /**
     * @return the sequence of the newest snapshot written (0 for none).
     */
    public long snapshotSequence()
    {
        return resources.snapshots.lastWrittenSequence();
    }

    /**
     * @return commands replayed from the journal at start.
     */
    public long recoveredCommands()
    {
        return resources.recoveredCommands;
    }

    /**
     * @return the journal's last sequence when the node started (its next command takes the one after).
     */
    public long recoveredSequence()
    {
        return resources.lastRecoveredSequence();
    }

    /**
     * What the node recovered at its start, in the words its log, its ready line and the all-in-one's banner all use:
     * {@code the journal to sequence 363 (363 commands replayed, no snapshot), next sequence 364}. Fixed at the start:
     * commands journaled since do not change it.
     *
     * @return the words.
     */
    public String recoverySummary()
    {
        return NodeRecovery.summary(resources.lastRecoveredSequence(), resources.recoveredSnapshotSequence,
            resources.recoveredCommands);
    }

    /**
     * One of the node's counters, as {@code <data>/counters.dat} holds it ({@code ingress-admin-refused},
     * {@code marketdata-requests-dropped}, ...).
     *
     * @param label the counter's label.
     * @return its value.
     * @throws IllegalArgumentException if the node has no such counter.
     */
    public long counter(final String label)
    {
        final org.agrona.concurrent.status.CountersManager counters = resources.counters.manager();
        final int[] found = { -1 };
        counters.forEach((counterId, counterLabel) ->
        {
            if (found[0] < 0 && counterLabel.equals(label))
            {
                found[0] = counterId;
            }
        });
        if (found[0] < 0)
        {
            throw new IllegalArgumentException("no counter " + label);
        }
        return counters.getCounterValue(found[0]);
    }

    /**
     * @return the Aeron directory the node's client uses.
     */
    public String aeronDirectoryName()
    {
        return resources.aeron.context().aeronDirectoryName();
    }

    /**
     * Stop taking commands, let the rings drain, stop the agents and release everything.
     */
    public void close()
    {
        closeResources();
    }

    private void closeResources()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        // A cluster member's service feeds the input ring: stop it first.
        CloseHelper.quietClose(cluster);
        cluster = null;
        if (null != agents)
        {
            agents.stopInput();
        }
        if (null != resources)
        {
            resources.replay.stop();
        }
        if (null != threads)
        {
            resources.inputRing.drain(DRAIN_TIMEOUT_NS, ctx.newIdleStrategy());
            if (ctx.threading() == EngineContext.Threading.COMPACT)
            {
                // The publishers run on the processor's one thread: let them take what the last commands made before
                // it stops. The ring stays open meanwhile (its producer still runs), so this waits, not drains.
                final long deadlineNs = System.nanoTime() + DRAIN_TIMEOUT_NS;
                final IdleStrategy idle = ctx.newIdleStrategy();
                while (!resources.outputRing.isDrained() && System.nanoTime() - deadlineNs < 0)
                {
                    idle.idle();
                }
            }
            // The processor's thread is the output ring's only producer (its status and heartbeat agents too): stop
            // it before the output ring closes, so nothing there claims a slot of a closed ring.
            threads.stopProcessor();
            resources.outputRing.drain(DRAIN_TIMEOUT_NS, ctx.newIdleStrategy());
            threads.close();
        }
        if (null != resources)
        {
            resources.close();
        }
        threads = null;
        agents = null;
        resources = null;
    }
}
