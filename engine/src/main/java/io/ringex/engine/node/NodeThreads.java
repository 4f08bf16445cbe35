package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.ringex.common.IdleStrategies;
import io.ringex.engine.ring.Stage;
import io.ringex.engine.ring.WakeableIdleStrategy;
import io.ringex.journal.JournalPretoucher;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a node's agents on threads as {@link EngineContext.Threading} says, and stops them (docs/architecture.md,
 * "Threading"). Under wake-ups each thread idles on a {@link WakeableIdleStrategy} that the agents feeding it wake.
 * <p>
 * COMPACT is safe because nothing on its thread waits for work only that thread does without doing it while it waits:
 * the processor, waiting for output slots, runs the publishers ({@link RingEventSink#whileFull}).
 * <p>
 * Thread safety: started and closed on the thread that launches and closes the node.
 */
final class NodeThreads implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeThreads.class);

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
                start(pretoucher, IdleStrategies.background());
            }
            // Its own thread, a background one (a millisecond is nothing to a recovering client): a storm of
            // market-data requests costs this thread, not the engine's, and following the feed costs a batch a
            // millisecond rather than a back-off after every update.
            start(agents.marketDataRecovery(), IdleStrategies.background());
            // Likewise a replay: it reads the journal and replays it into a processor of its own on this thread.
            start(replay, IdleStrategies.background());
            if (ctx.threading() == EngineContext.Threading.COMPACT)
            {
                final List<Agent> all = new ArrayList<>(agents.inputAgents());
                all.addAll(agents.processorAgents());
                all.add(agents.publishers());
                processorRunner = start(new CompositeAgent(all), ctx.newIdleStrategy(), "ringex-compact");
                return;
            }
            // Who wakes whom (WakeableIdleStrategy): the input ring's producer the threads of the input stages; the
            // input stages the processor's thread; the processor's thread (its events) the publishers' thread.
            final List<Agent> input = agents.inputAgents();
            final Agent producer = input.get(0);
            final List<Agent> inputStages = input.subList(1, input.size());
            final IdleStrategy processorIdle = newIdleStrategy(ctx);
            final Agent processorThread = new CompositeAgent(agents.processorAgents());
            if (ctx.threading() == EngineContext.Threading.SHARED)
            {
                // The publishers must not share the processor's thread: the processor waits for output-ring slots
                // that only they free, so one input batch producing more events than the output ring holds would
                // wait forever. The input side never waits on the processor (a full input ring makes the ingress
                // ABORT), so the publishers are safe there; the processor and its agents have a thread to themselves.
                // The producer runs first, so its command is journaled in the same duty cycle: it wakes no one.
                final IdleStrategy ioIdle = newIdleStrategy(ctx);
                final List<Agent> ioThread = new ArrayList<>();
                ioThread.add(producer);
                for (final Agent stage : inputStages)
                {
                    ioThread.add(stage instanceof Stage ? wakes(ctx, stage, processorIdle) : stage);
                }
                ioThread.add(agents.publishers());
                start(new CompositeAgent(ioThread), ioIdle);
                processorRunner = start(wakes(ctx, processorThread, ioIdle), processorIdle);
            }
            else
            {
                // Only the ring's stages are fed by the producer and feed the processor (not the catch-up server).
                final List<IdleStrategy> stageIdles = new ArrayList<>();
                final IdleStrategy[] inputIdles = new IdleStrategy[inputStages.size()];
                for (int i = 0; i < inputIdles.length; i++)
                {
                    inputIdles[i] = newIdleStrategy(ctx);
                    if (inputStages.get(i) instanceof Stage)
                    {
                        stageIdles.add(inputIdles[i]);
                    }
                }
                final IdleStrategy publishersIdle = newIdleStrategy(ctx);
                start(wakes(ctx, producer, stageIdles.toArray(new IdleStrategy[0])), newIdleStrategy(ctx));
                for (int i = 0; i < inputIdles.length; i++)
                {
                    final Agent agent = inputStages.get(i);
                    start(agent instanceof Stage ? wakes(ctx, agent, processorIdle) : agent, inputIdles[i]);
                }
                processorRunner = start(wakes(ctx, processorThread, publishersIdle), processorIdle);
                start(agents.publishers(), publishersIdle);
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

    /**
     * A thread's idle strategy: with {@code backoff} and {@link EngineContext#idleWake()}, one the agents feeding the
     * thread wake; otherwise the configured one.
     */
    private static IdleStrategy newIdleStrategy(final EngineContext ctx)
    {
        return wakeable(ctx) ? new WakeableIdleStrategy(IdleStrategies.BACKOFF_SPINS, IdleStrategies.BACKOFF_YIELDS,
            IdleStrategies.BACKOFF_MIN_PARK_NS, ctx.idleMaxParkNs()) : ctx.newIdleStrategy();
    }

    private static boolean wakeable(final EngineContext ctx)
    {
        return ctx.idleWake() && BackoffIdleStrategy.ALIAS.equals(ctx.idleStrategy());
    }

    /**
     * @return the agent, waking the threads of these idle strategies whenever it did work (as it is, when the
     * strategies are not wakeable).
     */
    private static Agent wakes(final EngineContext ctx, final Agent agent, final IdleStrategy... fed)
    {
        if (!wakeable(ctx) || fed.length == 0)
        {
            return agent;
        }
        final List<WakeableIdleStrategy> downstream = new ArrayList<>();
        for (final IdleStrategy strategy : fed)
        {
            downstream.add((WakeableIdleStrategy)strategy);
        }
        return new WakeableIdleStrategy.Waker(agent, downstream);
    }

    private AgentRunner start(final Agent agent, final IdleStrategy idleStrategy)
    {
        return start(agent, idleStrategy, "ringex-" + agent.roleName().replace('/', '-'));
    }

    private AgentRunner start(final Agent agent, final IdleStrategy idleStrategy, final String threadName)
    {
        final AgentRunner runner = new AgentRunner(idleStrategy, (ex) ->
            LOG.error("agent " + agent.roleName() + " failed", ex), null, agent);
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
