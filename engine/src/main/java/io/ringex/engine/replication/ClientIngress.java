package io.ringex.engine.replication;

import org.agrona.concurrent.Agent;

/**
 * The node's intake of client commands, as a failover acts on it: a promotion opens it, fencing closes it. Until
 * opened it takes nothing; what arrives waits in its stream.
 * <p>
 * Thread safety: {@link #doWork()} on the input thread; {@link #open} and {@link #close} from any thread.
 */
public interface ClientIngress extends Agent
{
    /**
     * Take what has arrived, if open.
     *
     * @return the work done.
     */
    int doWork();

    /**
     * Start taking commands.
     *
     * @param epoch the primary term stamped on what the ingress answers itself (rejects).
     */
    void open(long epoch);

    /**
     * Stop taking commands; what is in flight stays in the stream.
     */
    void close();
}
