package io.ringex.bench.engine;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.EventBatches;
import io.ringex.engine.node.EngineContext;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A benchmark client of an engine node over Aeron: offers pre-encoded commands on the ingress from the calling
 * thread, and on its own thread polls the egress, market-data and risk streams and counts every event in an
 * {@link EventTally}. The node answers every order-entry command with an ExecutionReport or CancelReject carrying
 * the command's sequence, so {@link EventTally#maxCommandSequence()} reaching the last sequence sent means every
 * command has been processed and answered.
 * <p>
 * Threading: {@link #send} from one thread; the receiving thread is internal; read {@link #tally()} counts after
 * {@link #close()} (which joins it).
 */
public final class EgressCounter implements AutoCloseable
{
    private final Aeron aeron;
    private final Publication ingress;
    private final BenchAdmin admin = new BenchAdmin();
    private final Subscription[] outbound;
    private final EventTally tally = new EventTally();
    private final Thread receiver;
    private volatile boolean running = true;

    /**
     * @param aeronDirectory the media driver's directory.
     * @param ctx            the node's context (channels and streams).
     * @param idle           how the receiver waits when nothing arrives.
     */
    public EgressCounter(final String aeronDirectory, final EngineContext ctx, final IdleStrategy idle)
    {
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory));
        ingress = aeron.addPublication(ctx.ingressChannel(), ctx.ingressStreamId());
        outbound = new Subscription[]{
            aeron.addSubscription(ctx.outboundChannel(), ctx.egressStreamId()),
            aeron.addSubscription(ctx.outboundChannel(), ctx.marketDataStreamId()),
            aeron.addSubscription(ctx.outboundChannel(), ctx.riskStreamId()) };
        final FragmentHandler handler = EventBatches.unpacking(
            (buffer, offset, length, header) -> tally.onEvent(buffer, offset));
        receiver = new Thread(() ->
        {
            while (running)
            {
                int work = 0;
                for (final Subscription subscription : outbound)
                {
                    work += subscription.poll(handler, 256);
                }
                idle.idle(work);
            }
        }, "bench-egress");
        receiver.setDaemon(true);
    }

    /**
     * Wait until the ingress and every outbound stream are connected, then start receiving.
     *
     * @param timeoutNs how long to wait.
     */
    public void awaitConnected(final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!ingress.isConnected() || !outbound[0].isConnected() || !outbound[1].isConnected() ||
            !outbound[2].isConnected())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("node not connected over Aeron");
            }
            Thread.yield();
        }
        receiver.start();
    }

    /**
     * Offer every command, retrying while back-pressured.
     *
     * @param commands pre-encoded commands.
     * @param idle     how to wait on back-pressure.
     */
    public void send(final EncodedCommands commands, final IdleStrategy idle)
    {
        final UnsafeBuffer buffer = commands.buffer();
        final int limit = commands.limit();
        for (int frame = 0; frame < limit; frame = commands.next(frame))
        {
            final int commandOffset = EncodedCommands.messageOffset(frame);
            final int signedLength = admin.signIfOperator(buffer, commandOffset, commands.length(frame));
            final UnsafeBuffer message = signedLength > 0 ? admin.signed() : buffer;
            final int offset = signedLength > 0 ? 0 : commandOffset;
            final int length = signedLength > 0 ? signedLength : commands.length(frame);
            idle.reset();
            long result;
            while ((result = ingress.offer(message, offset, length)) < 0)
            {
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
                {
                    throw new IllegalStateException("ingress unusable: " + Publication.errorString(result));
                }
                if (result != Publication.ADMIN_ACTION)
                {
                    idle.idle();
                }
            }
        }
    }

    /**
     * Wait until the command with this sequence has been answered.
     *
     * @param sequence  command sequence.
     * @param idle      how to wait.
     * @param timeoutNs how long at most.
     */
    public void awaitAnswered(final long sequence, final IdleStrategy idle, final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        idle.reset();
        while (tally.maxCommandSequence() < sequence)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("timed out: answered up to " + tally.maxCommandSequence() +
                    ", waiting for " + sequence);
            }
            idle.idle();
        }
    }

    /** @return the counts (read after {@link #close()}). */
    public EventTally tally()
    {
        return tally;
    }

    /** Stop receiving (joins the thread) and close the client. */
    public void close()
    {
        running = false;
        if (receiver.isAlive())
        {
            try
            {
                receiver.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        CloseHelper.quietClose(aeron);
    }
}
