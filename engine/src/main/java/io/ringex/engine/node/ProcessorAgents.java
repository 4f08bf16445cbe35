package io.ringex.engine.node;

import java.util.List;

import io.ringex.engine.replication.Promotion;
import io.ringex.engine.ring.Stage;
import org.agrona.concurrent.Agent;

/**
 * The agents of the processor's thread, which every role has: the processor stage (the input ring's last stage, gated
 * on the journal and, when the node replicates, the replication stage), the late-joiner refresh and the status agent.
 * On a standby the processor stage hands the node over to clients at its promotion command ({@link PromotionHandoff}).
 * <p>
 * Thread safety: built on the launching thread; the agents then run on the processor's thread.
 */
final class ProcessorAgents
{
    final ProcessorStage handler;
    final Stage stage;
    final LateJoinerRefresh refresh;
    final StatusAgent status;

    /**
     * @param resources   the node's resources.
     * @param publishers  the output ring's publishers (the risk stream carries the status).
     * @param replication the node's replication to a standby, or null if it has none.
     * @param promotion   a standby's promotion, or null on a node started as primary (which serves clients, and
     *                    refreshes late joiners, from the start).
     */
    ProcessorAgents(
        final NodeResources resources,
        final Publishers publishers,
        final ReplicationToStandby replication,
        final Promotion promotion)
    {
        final EngineContext ctx = resources.ctx;
        // Late joiners are refreshed every 5 status intervals (the interval itself if that overflows).
        refresh = new LateJoinerRefresh(resources.processor, resources.ringSink, resources.clock,
            Math.max(ctx.statusIntervalNs(), 5 * ctx.statusIntervalNs()), null == promotion);
        final PromotionHandoff handoff = null == promotion ? null : new PromotionHandoff(promotion, resources.sink,
            resources.ringSink, resources.reportWindow, refresh, resources.counters.newCounter(
            "promotion-reports-resent"));
        handler = new ProcessorStage(resources.processor, resources.sink, resources.ringSink, resources.sequences,
            resources.epochClock, resources.latency, resources.snapshots, ctx.snapshotEveryCommands(),
            ctx.bookSnapshotIntervalNs(), handoff, resources.nextDeadline, resources.trace);
        // Gated on the journal (and the replication): the processor acts only on commands that survive a crash.
        final Stage.Builder builder = resources.inputRing.stage("processor", handler).gatedOn(resources.journalStage)
            .errorHandler(resources.stageErrors("input/processor"));
        stage = null == replication ? builder.build() : builder.gatedOn(replication.stage).build();
        status = new StatusAgent(resources, stage.sequenceCounter(), null == replication ? null : replication.handler,
            promotion, publishers.risk);
        if (null != handoff)
        {
            handoff.announceWith(status::announce);
        }
    }

    /**
     * @return the processor's thread's agents, the stage first.
     */
    List<Agent> agents()
    {
        return List.of(stage, refresh, status);
    }
}
