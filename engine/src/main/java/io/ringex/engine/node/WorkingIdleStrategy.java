package io.ringex.engine.node;

import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

/**
 * How an agent waits for work that runs on its own thread ({@link EngineContext.Threading#COMPACT}): before each
 * idle it does that work ({@link #work(Agent)}), and idles only when the work found nothing to do. Without it a
 * processor waiting for output-ring slots would wait for publishers that cannot run until it returns. With no work
 * set (the other profiles, where the work has a thread of its own) it is the strategy it wraps.
 * <p>
 * The work must not include the waiting agent itself (a stage re-entered while it waits would read its own state
 * half-written): the node gives it only the agents downstream of the waiter.
 * <p>
 * Thread safety: the waiting agent's thread; {@link #work(Agent)} before that thread starts.
 */
final class WorkingIdleStrategy implements IdleStrategy
{
    private final IdleStrategy idleStrategy;
    private Agent work;

    /**
     * @param idleStrategy how to idle when the work found nothing to do.
     */
    WorkingIdleStrategy(final IdleStrategy idleStrategy)
    {
        this.idleStrategy = idleStrategy;
    }

    /**
     * @param work the agents to run while waiting (set once, before the threads start).
     */
    void work(final Agent work)
    {
        this.work = work;
    }

    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    public void idle()
    {
        int workCount = 0;
        if (null != work)
        {
            try
            {
                workCount = work.doWork();
            }
            catch (final Exception ex)
            {
                LangUtil.rethrowUnchecked(ex);
            }
        }
        if (workCount > 0)
        {
            idleStrategy.reset();
        }
        else
        {
            idleStrategy.idle();
        }
    }

    public void reset()
    {
        idleStrategy.reset();
    }

    public String alias()
    {
        return "working-" + idleStrategy.alias();
    }
}
