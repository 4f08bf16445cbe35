package io.ringex.engine.node;

import java.util.List;

import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.ring.Stage;
import org.agrona.concurrent.Agent;

/**
 * The agents of the processor's thread, which every node has: the processor stage (the input ring's last stage, gated
 * on the journal), the late-joiner refresh and the status agent. On a cluster member the processor stage hands the
 * node over to clients at the {@code NewEpoch} of the term it leads ({@link ClusterHandoff}), and the cluster's
 * snapshots are taken here too ({@link ClusterSnapshotTaker}).
 * <p>
 * Thread safety: built on the launching thread; the agents then run on the processor's thread.
 */
final class ProcessorAgents
{
    final ProcessorStage handler;
    final Stage stage;
    final LateJoinerRefresh refresh;
    final StatusAgent status;
    /** A cluster member's snapshot taker; null on a single node. */
    final ClusterSnapshotTaker snapshotTaker;

    /**
     * @param resources  the node's resources.
     * @param publishers the output ring's publishers (the risk stream carries the status).
     * @param leadership a cluster member's leadership, or null on a single node (which serves clients, and refreshes
     *                   late joiners, from the start).
     */
    ProcessorAgents(final NodeResources resources, final Publishers publishers, final Leadership leadership)
    {
        final EngineContext ctx = resources.ctx;
        // Late joiners are refreshed every 5 status intervals (the interval itself if that overflows).
        refresh = new LateJoinerRefresh(resources.processor, resources.ringSink, resources.clock,
            Math.max(ctx.statusIntervalNs(), 5 * ctx.statusIntervalNs()), null == leadership);
        final ClusterHandoff handoff = null == leadership ? null : new ClusterHandoff(leadership, ctx.nodeId(),
            resources.sink, resources.ringSink, resources.reportWindow, refresh,
            resources.counters.newCounter("handoff-reports-resent"));
        // A cluster member's snapshots are the cluster's (taken when the consensus module asks, on every member at
        // the same command), not every N commands of its own.
        final long snapshotEveryCommands = null == leadership ? ctx.snapshotEveryCommands() : Long.MAX_VALUE;
        handler = new ProcessorStage(resources.processor, resources.sink, resources.ringSink, resources.sequences,
            resources.epochClock, resources.latency, resources.snapshots, snapshotEveryCommands,
            ctx.bookSnapshotIntervalNs(), handoff, resources.nextDeadline, resources.trace);
        // Gated on the journal: the processor acts only on commands that survive a crash.
        stage = resources.inputRing.stage("processor", handler).gatedOn(resources.journalStage)
            .errorHandler(resources.stageErrors("input/processor")).build();
        status = new StatusAgent(resources, stage.sequenceCounter(), leadership, publishers.risk);
        if (null != handoff)
        {
            handoff.announceWith(status::announce);
        }
        snapshotTaker = null == leadership ? null :
            new ClusterSnapshotTaker(resources.processor, resources.sequences, stage.sequenceCounter(),
            resources.snapshots, leadership, resources.aeron.countersReader(), ctx.snapshotEveryCommands(),
            resources.clock);
        if (null != snapshotTaker)
        {
            handler.takeSnapshotListener(snapshotTaker::onTakeSnapshotCommand);
        }
    }

    /**
     * @return the processor's thread's agents, the stage first.
     */
    List<Agent> agents()
    {
        return null == snapshotTaker ? List.of(stage, refresh, status) : List.of(stage, refresh, status, snapshotTaker);
    }
}
