package io.ringex.client;

import io.aeron.exceptions.AeronException;
import org.agrona.concurrent.IdleStrategy;

/**
 * A connection in progress that its caller polls, as Aeron's {@code AeronCluster.AsyncConnect}: {@link #poll()} until
 * it returns the connected client. The clients' blocking {@code connect} is {@link #complete} over one.
 *
 * @param <T> the client it ends in.
 */
public interface PolledConnect<T> extends AutoCloseable
{
    /**
     * Take the next step.
     *
     * @return the connected client, or null while it is not yet.
     */
    T poll();

    /**
     * @return the step it is at.
     */
    Enum<?> state();

    /**
     * Give up: release what was opened so far.
     */
    void close();

    /**
     * Poll a connection to its end: idle while a step waits, afresh after each new step.
     *
     * @param connect      the connection in progress; closed if it fails.
     * @param idleStrategy how to wait between polls.
     * @param <T>          the client.
     * @return the connected client.
     * @throws RuntimeException what the connection threw (a timeout, a refusal), or an {@link AeronException} if the
     *                          thread was interrupted.
     */
    static <T> T complete(final PolledConnect<T> connect, final IdleStrategy idleStrategy)
    {
        try
        {
            Enum<?> state = connect.state();
            T client;
            while (null == (client = connect.poll()))
            {
                if (state != connect.state())
                {
                    state = connect.state();
                    idleStrategy.reset();
                }
                else
                {
                    idleStrategy.idle();
                }
                if (Thread.currentThread().isInterrupted())
                {
                    throw new AeronException("interrupted while connecting (" + connect.state() + ")");
                }
            }
            return client;
        }
        catch (final RuntimeException ex)
        {
            connect.close();
            throw ex;
        }
    }
}
