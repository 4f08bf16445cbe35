package io.ringex.app;

import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringex.engine.processor.CommandEncoder;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;

/**
 * Sends admin commands to the engine's ingress as an admin source (gateway 0, named in the frame's reserved value)
 * and waits for their {@code AdminResponse}s on the risk stream. Used once, at a fresh venue's start.
 * <p>
 * Thread safety: one thread.
 */
final class AdminChannel implements AutoCloseable
{
    private static final long ADMIN_SOURCE = SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, 99);

    private final CommandEncoder commands = new CommandEncoder();
    private final ExclusivePublication ingress;
    private final Subscription risk;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private long answered;
    private String firstRejection;

    AdminChannel(final Aeron aeron, final String ingressChannel, final int ingressStream, final String riskChannel,
        final int riskStream)
    {
        ingress = aeron.addExclusivePublication(ingressChannel, ingressStream);
        risk = aeron.addSubscription(riskChannel, riskStream);
    }

    CommandEncoder commands()
    {
        return commands;
    }

    void send(final int length)
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

    void awaitResponses(final long count)
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
