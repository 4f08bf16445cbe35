package io.ringex.engine.node;

import java.util.List;

import io.ringex.engine.cluster.Leadership;
import io.ringex.engine.replication.Promotion;
import io.ringex.engine.ring.Stage;
import org.agrona.concurrent.Agent;

/**
 * The agents of the processor's thread, which every role has: the processor stage (the input ring's last stage, gated
 * on the journal and, when the node replicates, the replication stage), the late-joiner refresh and the status agent.
 * On a standby the processor stage hands the node over to clients at its promotion command ({@link PromotionHandoff});
 * on a cluster member at the {@code NewEpoch} of the term it leads ({@link ClusterHandoff}), where the cluster's
 * snapshots are also taken ({@link ClusterSnapshotTaker}).
 * <p>
 * Thread safety: built on the launching thread; the agents then run on the processor's thread.
 */
final class ProcessorAgents
{
    final ProcessorStage handler;
    final Stage stage;
    final LateJoinerRefresh refresh;
    final StatusAgent status;
    /** A cluster member's snapshot taker; null otherwise. */
    final ClusterSnapshotTaker snapshotTaker;

    /**
     * @param resources   the node's resources.
     * @param publishers  the output ring's publishers (the risk stream carries the status).
     * @param replication the node's replication to a standby, or null if it has none.
     * @param promotion   a standby's promotion, or null on a node started as primary (which serves clients, and
     *                    refreshes late joiners, from the start) or a cluster member.
     * @param leadership  a cluster member's leadership, or null.
     */
    ProcessorAgents(
        final NodeResources resources,
        final Publishers publishers,
        final ReplicationToStandby replication,
        final Promotion promotion,
        final Leadership leadership)
    {
        final EngineContext ctx = resources.ctx;
        final boolean servesFromStart = null == promotion && null == leadership;
        // Late joiners are refreshed every 5 status intervals (the interval itself if that overflows).
        refresh = new LateJoinerRefresh(resources.processor, resources.ringSink, resources.clock,
            Math.max(ctx.statusIntervalNs(), 5 * ctx.statusIntervalNs()), servesFromStart);
        final EpochHandoff handoff;
        final Runnable[] announceTarget = new Runnable[1];
        if (null != promotion)
        {
            final PromotionHandoff promotionHandoff = new PromotionHandoff(promotion, resources.sink,
                resources.ringSink, resources.reportWindow, refresh, resources.counters.newCounter(
                "promotion-reports-resent"));
            promotionHandoff.announceWith(() -> announceTarget[0].run());
            handoff = promotionHandoff;
        }
        else if (null != leadership)
        {
            final ClusterHandoff clusterHandoff = new ClusterHandoff(leadership, ctx.nodeId(), resources.sink,
                resources.ringSink, resources.reportWindow, refresh, resources.counters.newCounter(
                "promotion-reports-resent"));
            clusterHandoff.announceWith(() -> announceTarget[0].run());
            handoff = clusterHandoff;
        }
        else
        {
            handoff = null;
        }
        // A cluster member's snapshots are the cluster's (taken when the consensus module asks, on every member at
        // the same command), not every N commands of its own.
        final long snapshotEveryCommands = null == leadership ? ctx.snapshotEveryCommands() : Long.MAX_VALUE;
        handler = new ProcessorStage(resources.processor, resources.sink, resources.ringSink, resources.sequences,
            resources.epochClock, resources.latency, resources.snapshots, snapshotEveryCommands,
            ctx.bookSnapshotIntervalNs(), handoff, resources.nextDeadline, resources.trace);
        // Gated on the journal (and the replication): the processor acts only on commands that survive a crash.
        final Stage.Builder builder = resources.inputRing.stage("processor", handler).gatedOn(resources.journalStage)
            .errorHandler(resources.stageErrors("input/processor"));
        stage = null == replication ? builder.build() : builder.gatedOn(replication.stage).build();
        status = new StatusAgent(resources, stage.sequenceCounter(), null == replication ? null : replication.handler,
            promotion, leadership, publishers.risk);
        announceTarget[0] = status::announce;
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
