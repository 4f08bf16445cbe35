package io.ringex.client;

import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends admin commands to an engine's ingress, each signed with the sender's admin key ({@link AdminCommandSigner}),
 * and waits for their {@code AdminResponse}s on the risk stream: how a venue's static data is installed (the demo data,
 * tests, {@code ./ringex admin}).
 * <p>
 * {@link #request} waits for the command's own answer, recognised by the command the engine echoes in it, so another
 * admin source's answer to a reused request id is never taken for it.
 * <p>
 * Thread safety: one thread.
 */
public final class AdminClient implements AutoCloseable
{
    /** Why an engine may say nothing: it answers no command whose key it does not take. */
    private static final String UNANSWERED_HINT = " (an engine leaves unanswered, and counts as " +
        "ingress-admin-refused, an admin command signed with a key it does not hold or at a time more than its " +
        "window from its own clock: check the key and the clocks)";

    private final CommandEncoder commands = new CommandEncoder();
    private final AdminCommandSigner signer;
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(4096)]);
    private final ExclusivePublication ingress;
    private final Subscription risk;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final FragmentHandler onRisk = EventBatches.unpacking(this::onRisk);
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private final UnsafeBuffer pending = new UnsafeBuffer(new byte[4096]);
    private int pendingLength = -1;
    private long pendingRequestId;
    private int pendingTemplateId;
    private Answer pendingAnswer;
    private long timeoutNs = TimeUnit.SECONDS.toNanos(30);
    private long answered;
    private String firstRejection;

    /**
     * The engine's answer to one admin command.
     *
     * @param requestId        the command's request id.
     * @param templateId       the command's template id.
     * @param accepted         whether it was applied.
     * @param reason           why not ({@link RejectReason#NONE} when accepted).
     * @param commandSequence  the command's place in the journal.
     */
    public record Answer(long requestId, int templateId, boolean accepted, RejectReason reason, long commandSequence)
    {
    }

    /**
     * @param aeron          a connected client.
     * @param ingressChannel the engine's ingress channel.
     * @param ingressStream  its stream.
     * @param riskChannel    the engine's risk channel (subscriber side).
     * @param riskStream     its stream.
     * @param key            the admin key its commands are signed with (one the engine holds), or null for a client
     *                       that only reads and asks for the user directory: it refuses to send an operator's command.
     */
    public AdminClient(
        final Aeron aeron,
        final String ingressChannel,
        final int ingressStream,
        final String riskChannel,
        final int riskStream,
        final AdminKey key)
    {
        signer = null == key ? null : new AdminCommandSigner(key);
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
     * @return whether it holds an admin key, so it can send an operator's command
     * ({@link io.ringex.protocol.MessageCatalog#isOperatorCommand}).
     */
    public boolean signs()
    {
        return null != signer;
    }

    /**
     * @param timeoutNs how long {@link #send}, {@link #request} and {@link #awaitResponses} wait (30 s unless set).
     * @return this.
     */
    public AdminClient timeoutNs(final long timeoutNs)
    {
        this.timeoutNs = timeoutNs;
        return this;
    }

    /**
     * Send the command {@link #commands()} last encoded and wait for the engine's answer to it.
     *
     * @param length the command's length.
     * @return the answer.
     * @throws IllegalStateException if the engine cannot be reached or does not answer within the timeout.
     */
    public Answer request(final int length)
    {
        final MessageHeaderDecoder sent = new MessageHeaderDecoder().wrap(commands.buffer(), 0);
        pending.putBytes(0, commands.buffer(), 0, length);
        pendingLength = length;
        pendingTemplateId = sent.templateId();
        // Every admin command's body starts with its request id (schema convention).
        pendingRequestId = commands.buffer().getLong(MessageHeaderDecoder.ENCODED_LENGTH,
            java.nio.ByteOrder.LITTLE_ENDIAN);
        pendingAnswer = null;
        try
        {
            send(length);
            final long deadline = System.nanoTime() + timeoutNs;
            while (null == pendingAnswer)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("no answer from the engine to request " + pendingRequestId +
                        " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms" + UNANSWERED_HINT);
                }
                if (poll() == 0)
                {
                    Thread.yield();
                }
            }
            return pendingAnswer;
        }
        finally
        {
            pendingLength = -1;
        }
    }

    /**
     * Send the command {@link #commands()} last encoded, waiting (up to the timeout) for the streams to connect and for
     * back-pressure to clear.
     *
     * @param length the command's length.
     */
    public void send(final int length)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        // Answers go out only to a connected subscriber: be one before asking.
        while (!risk.isConnected() || !ingress.isConnected())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("engine streams not connected");
            }
            Thread.yield();
        }
        final int templateId = commands.buffer().getShort(MessageHeaderDecoder.templateIdEncodingOffset(),
            java.nio.ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        final DirectBuffer message;
        final int messageLength;
        if (MessageCatalog.isOperatorCommand(templateId))
        {
            if (null == signer)
            {
                throw new IllegalStateException("no admin key: the engine takes no " +
                    MessageCatalog.name(templateId) + " unsigned (give the key file of an admin key it holds)");
            }
            // Signed as late as possible: the engine refuses a command signed too long before it arrives.
            messageLength = signer.sign(commands.buffer(), 0, length, signed, 0);
            message = signed;
        }
        else
        {
            messageLength = length;
            message = commands.buffer();
        }
        long result;
        while ((result = ingress.offer(message, 0, messageLength)) < 0)
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
        final long deadline = System.nanoTime() + timeoutNs;
        while (answered < count)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("engine answered " + answered + " of " + count + " admin commands" +
                    UNANSWERED_HINT);
            }
            if (poll() == 0)
            {
                Thread.yield();
            }
        }
        if (firstRejection != null)
        {
            throw new IllegalStateException("engine rejected an admin command: " + firstRejection);
        }
    }

    private int poll()
    {
        return risk.poll(onRisk, 64);
    }

    private void onRisk(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        header.wrap(buffer, offset);
        if (header.templateId() == AdminResponseDecoder.TEMPLATE_ID)
        {
            response.wrapAndApplyHeader(buffer, offset, header);
            // SBE's access order: the fixed fields, then the echoed command.
            final long requestId = response.requestId();
            final int templateId = response.templateId();
            final boolean accepted = response.status() == AdminStatus.ACCEPTED;
            final RejectReason reason = response.rejectReason();
            final long commandSequence = response.commandSequence();
            answered++;
            if (!accepted && firstRejection == null)
            {
                firstRejection = "request " + requestId + ": " + reason;
            }
            if (pendingLength >= 0 && null == pendingAnswer && isPending(buffer, requestId, templateId))
            {
                pendingAnswer = new Answer(requestId, templateId, accepted, reason, commandSequence);
            }
        }
    }

    /**
     * Whether the response the decoder is on answers the pending command: the echoed command is byte for byte the
     * one sent (an engine before schema version 2 echoes nothing: then by request and template id).
     */
    private boolean isPending(final DirectBuffer buffer, final long requestId, final int templateId)
    {
        if (requestId != pendingRequestId || templateId != pendingTemplateId)
        {
            return false;
        }
        if (header.version() < 2)
        {
            return true;
        }
        final int echoLength = response.commandLength();
        if (0 == echoLength)
        {
            return true;
        }
        if (echoLength != pendingLength)
        {
            response.skipCommand();
            return false;
        }
        final int echoOffset = response.limit() + AdminResponseDecoder.commandHeaderLength();
        boolean same = true;
        for (int i = 0; i < echoLength && same; i++)
        {
            same = buffer.getByte(echoOffset + i) == pending.getByte(i);
        }
        response.skipCommand();
        return same;
    }

    public void close()
    {
        ingress.close();
        risk.close();
    }
}
