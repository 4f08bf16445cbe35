package io.ringex.client;

import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;

/**
 * Sends admin commands to an engine's ingress as an admin source (gateway 0, named in the frame's reserved value)
 * and waits for their {@code AdminResponse}s on the risk stream: how a venue's static data is installed (the
 * all-in-one's demo data, tests). The risk service has its own, correlated by request id.
 * <pre>
 *     try (AdminClient admin = new AdminClient(aeron, ingressChannel, 1001, riskChannel, 1004))
 *     {
 *         admin.send(admin.commands().addInstrument(...));
 *         admin.awaitResponses(1);
 *     }
 * </pre>
 * Thread safety: one thread.
 */
public final class AdminClient implements AutoCloseable
{
    private static final long ADMIN_SOURCE = SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, 99);

    private final CommandEncoder commands = new CommandEncoder();
    private final ExclusivePublication ingress;
    private final Subscription risk;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private long answered;
    private String firstRejection;

    /**
     * @param aeron          a connected client.
     * @param ingressChannel the engine's ingress channel.
     * @param ingressStream  its stream.
     * @param riskChannel    the engine's risk channel (subscriber side).
     * @param riskStream     its stream.
     */
    public AdminClient(
        final Aeron aeron,
        final String ingressChannel,
        final int ingressStream,
        final String riskChannel,
        final int riskStream)
    {
        ingress = aeron.addExclusivePublication(ingressChannel, ingressStream);
        risk = aeron.addSubscription(riskChannel, riskStream);
    }

    /**
     * @return the encoder to write the next command with.
     */
    public CommandEncoder commands()
    {
        return commands;
    }

    /**
     * Send the command {@link #commands()} last encoded, waiting (up to 30 s) for the streams to connect and for
     * back-pressure to clear.
     *
     * @param length the command's length.
     */
    public void send(final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // Answers go out only to a connected subscriber: be one before asking.
        while (!risk.isConnected() || !ingress.isConnected())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("engine streams not connected");
            }
            Thread.yield();
        }
        long result;
        while ((result = ingress.offer(commands.buffer(), 0, length, (termBuffer, termOffset, frameLength) ->
            ADMIN_SOURCE)) < 0)
        {
            if (result == Publication.CLOSED || System.nanoTime() > deadline)
            {
                throw new IllegalStateException("engine ingress unavailable: " + Publication.errorString(result));
            }
            poll();
            Thread.onSpinWait();
        }
    }

    /**
     * Wait until the engine has answered {@code count} commands in all, and fail if any was rejected.
     *
     * @param count answers expected since this client was made.
     */
    public void awaitResponses(final long count)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answered < count)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("engine answered " + answered + " of " + count + " admin commands");
            }
            if (poll() == 0)
            {
                Thread.yield();
            }
        }
        if (firstRejection != null)
        {
            throw new IllegalStateException("engine rejected demo data: " + firstRejection);
        }
    }

    private int poll()
    {
        return risk.poll((buffer, offset, length, h) ->
        {
            header.wrap(buffer, offset);
            if (header.templateId() == AdminResponseDecoder.TEMPLATE_ID)
            {
                response.wrapAndApplyHeader(buffer, offset, header);
                answered++;
                if (response.status() != AdminStatus.ACCEPTED && firstRejection == null)
                {
                    firstRejection = "request " + response.requestId() + ": " + response.rejectReason();
                }
            }
        }, 64);
    }

    public void close()
    {
        ingress.close();
        risk.close();
    }
}
