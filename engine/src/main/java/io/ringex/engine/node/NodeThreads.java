package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.ringex.journal.JournalPretoucher;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

/**
 * Puts a node's agents on threads as {@link EngineContext.Threading} says, and stops them. COMPACT: every agent on
 * one thread ({@code ringex-compact}), in the order a command flows: the input side, the processor and its agents,
 * then the publishers, so one duty cycle can take a command from the ingress to the egress. SHARED: the input side
 * (ingress or receiver, journal, replication or ack, catch-up) and the publishers on one thread, the processor with
 * its status, refresh, heartbeat and peer monitor on another. DEDICATED: each input agent and the publishers on a
 * thread of their own; the processor's thread is the same. The journal pretoucher, when on, always has its own.
 * <p>
 * COMPACT is safe because nothing on its thread waits for work that only the same thread does without doing that
 * work while it waits: the processor, waiting for output-ring slots, runs the publishers
 * ({@link RingEventSink#whileFull}); a SYNC replication stage, waiting for the standby, runs the catch-up server, the
 * publishers and the peer monitor that reads the acknowledgements ({@link ReplicationToStandby}); a promotion,
 * waiting for input-ring slots, runs the stages behind it ({@link StandbyAgents}).
 * <p>
 * Thread safety: started and closed on the thread that launches and closes the node.
 */
final class NodeThreads implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(NodeThreads.class.getName());

    private final List<AgentRunner> runners = new ArrayList<>();
    private final AgentRunner processorRunner;

    /**
     * Start the agents' threads.
     *
     * @param ctx        the node's configuration: threading and idle strategy.
     * @param pretoucher the journal pretoucher, or null when off.
     * @param agents     the role's agents.
     * @param replay     the report replay service, on a thread of its own like the market-data recovery.
     */
    NodeThreads(
        final EngineContext ctx, final JournalPretoucher pretoucher, final RoleAgents agents, final Agent replay)
    {
        try
        {
            if (null != pretoucher)
            {
                // Off the pipeline's threads on purpose: a page fault taken here stalls no one. Waking each
                // millisecond is ample: at 50K commands/s the writer moves ~5 KB/ms, the touched region reaches
                // 16 MiB ahead.
                start(pretoucher, new SleepingMillisIdleStrategy(1));
            }
            // Its own thread, resting when idle: a storm of market-data requests costs this thread, not the engine's.
            start(agents.marketDataRecovery(), new BackoffIdleStrategy(100, 10, 1_000, 1_000_000));
            // Likewise a replay: it reads the journal and replays it into a processor of its own on this thread.
            start(replay, new BackoffIdleStrategy(100, 10, 1_000, 1_000_000));
            if (ctx.threading() == EngineContext.Threading.COMPACT)
            {
                final List<Agent> all = new ArrayList<>(agents.inputAgents());
                all.addAll(agents.processorAgents());
                all.add(agents.publishers());
                processorRunner = start(new CompositeAgent(all), ctx.newIdleStrategy(), "ringex-compact");
                return;
            }
            final Agent processorThread = new CompositeAgent(agents.processorAgents());
            if (ctx.threading() == EngineContext.Threading.SHARED)
            {
                // The publishers must not share the processor's thread: the processor waits for output-ring slots
                // that only they free, so one input batch producing more events than the output ring holds would
                // wait forever. The input side never waits on the processor (a full input ring makes the ingress
                // ABORT), so the publishers are safe there; the processor and its agents have a thread to themselves.
                final List<Agent> ioThread = new ArrayList<>(agents.inputAgents());
                ioThread.add(agents.publishers());
                start(new CompositeAgent(ioThread), ctx.newIdleStrategy());
                processorRunner = start(processorThread, ctx.newIdleStrategy());
            }
            else
            {
                for (final Agent agent : agents.inputAgents())
                {
                    start(agent, ctx.newIdleStrategy());
                }
                processorRunner = start(processorThread, ctx.newIdleStrategy());
                start(agents.publishers(), ctx.newIdleStrategy());
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Stop the processor's thread (the output ring's only producer), so the output ring can drain and close. Under
     * COMPACT that is the node's one thread: drain the output ring first.
     */
    void stopProcessor()
    {
        CloseHelper.quietClose(processorRunner);
    }

    /**
     * Stop every thread.
     */
    public void close()
    {
        for (final AgentRunner runner : runners)
        {
            CloseHelper.quietClose(runner);
        }
    }

    private AgentRunner start(final Agent agent, final IdleStrategy idleStrategy)
    {
        return start(agent, idleStrategy, "ringex-" + agent.roleName().replace('/', '-'));
    }

    private AgentRunner start(final Agent agent, final IdleStrategy idleStrategy, final String threadName)
    {
        final AgentRunner runner = new AgentRunner(idleStrategy, (ex) ->
            LOG.log(System.Logger.Level.ERROR, "agent " + agent.roleName() + " failed", ex), null, agent);
        AgentRunner.startOnThread(runner, (r) ->
        {
            final Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
        runners.add(runner);
        return runner;
    }
}
