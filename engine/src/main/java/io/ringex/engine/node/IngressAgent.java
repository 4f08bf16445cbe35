package io.ringex.engine.node;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.concurrent.Agent;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BusinessRejectEncoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's intake of commands: polls the ingress subscription, validates each fragment, and hands it to its {@link
 * CommandSink} with a never-decreasing timestamp, the only clock the processor reads (docs/architecture.md, "Why each
 * part exists").
 * <p>
 * An admin command is taken only inside an {@code AuthenticatedCommand} its {@link AdminAuthenticator} accepts; a
 * fragment that fails validation never reaches the ring. When the sink cannot take a fragment the poll returns ABORT
 * and Aeron redelivers it: back-pressure, never a drop.
 * <p>
 * Thread safety: one thread (its agent runner's); the only producer of what its {@link CommandSink} feeds.
 */
final class IngressAgent implements Agent, ControlledFragmentHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(IngressAgent.class);
    private static final int FRAGMENT_LIMIT = 64;
    private static final long LOG_INTERVAL_NS = 1_000_000_000L;
    private static final int SESSION_ID_BODY_OFFSET = 0;
    private static final long NOT_POLLED = Long.MIN_VALUE;

    private final Subscription subscription;
    private final CommandSink sink;
    private final EpochNanoClock epochClock;
    private final NanoClock clock;
    private final MessageValidator validator;
    private final Publication rejects;
    private final AtomicCounter malformedCounter;
    private final AtomicCounter backPressureCounter;
    private final AtomicCounter rejectsDropped;
    private final AdminAuthenticator admin;
    private final int maxCommandLength;
    private final UnsafeBuffer rejectBuffer = new UnsafeBuffer(new byte[256]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final BusinessRejectEncoder rejectEncoder = new BusinessRejectEncoder();
    private final long[] lastLogNsByReason = new long[RejectReason.values().length];
    private final AtomicCounter nextDeadline;
    private final UnsafeBuffer tickBuffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
        TickEncoder.BLOCK_LENGTH]);
    private final TickEncoder tickEncoder = new TickEncoder();
    private long lastTickDeadline = Long.MAX_VALUE;
    private volatile boolean open;
    private final StageTrace trace;
    private long lastTimestampNs;
    private long epoch;
    /** When this duty cycle's poll took its first command (the trace's clock), or NOT_POLLED. */
    private long pollNs = NOT_POLLED;

    /**
     * @param subscription        the ingress stream.
     * @param sink                where validated commands go: the input ring, or the cluster's log.
     * @param maxCommandLength    the longest command an input slot holds.
     * @param epochClock          stamps each command (the time the processor knows).
     * @param clock               times the log's rate limit.
     * @param rejects             the egress, where refused fragments that name a session are answered.
     * @param malformedCounter    counts the fragments refused.
     * @param backPressureCounter counts the times the ring was full.
     * @param rejectsDropped      counts the rejects the egress did not take.
     * @param nextDeadline        the processor's earliest deadline: a Tick is journaled when the clock reaches it.
     * @param trace               where each command's receipt is stamped (once per poll).
     * @param admin               checks operator commands' keys.
     */
    IngressAgent(
        final Subscription subscription,
        final CommandSink sink,
        final int maxCommandLength,
        final EpochNanoClock epochClock,
        final NanoClock clock,
        final Publication rejects,
        final AtomicCounter malformedCounter,
        final AtomicCounter backPressureCounter,
        final AtomicCounter rejectsDropped,
        final AtomicCounter nextDeadline,
        final StageTrace trace,
        final AdminAuthenticator admin)
    {
        this.admin = admin;
        this.maxCommandLength = maxCommandLength;
        this.nextDeadline = nextDeadline;
        this.trace = trace;
        this.subscription = subscription;
        this.sink = sink;
        this.epochClock = epochClock;
        this.clock = clock;
        // An AuthenticatedCommand is longer than the command it carries: the command itself must fit a slot.
        this.validator = new MessageValidator(AdminAuthenticator.maxEnvelopeLength(maxCommandLength));
        this.rejects = rejects;
        this.malformedCounter = malformedCounter;
        this.backPressureCounter = backPressureCounter;
        this.rejectsDropped = rejectsDropped;
    }

    /**
     * Start taking commands (after recovery, or when a cluster member starts to lead). Until then fragments wait in the
     * subscription's image.
     *
     * @param epoch the primary term stamped on rejects.
     */
    public void open(final long epoch)
    {
        admin.signedNotBefore(epochClock.nanoTime());
        this.epoch = epoch;
        this.open = true;
    }

    /**
     * Stop taking commands (fenced, or shutting down); what is in flight stays in the image.
     */
    public void close()
    {
        this.open = false;
    }

    /**
     * Drop what waits in the ingress stream, unread (a cluster member about to lead a new term: what gateways sent
     * while it led an earlier one, and did not get answered, they settle as in doubt; taken now, it could execute after
     * they re-submitted it elsewhere).
     *
     * @return the fragments dropped.
     */
    int discardPending()
    {
        int discarded = 0;
        int polled;
        while ((polled = subscription.poll((buffer, offset, length, header) -> {}, FRAGMENT_LIMIT)) > 0)
        {
            discarded += polled;
        }
        return discarded;
    }

    public int doWork()
    {
        if (!open)
        {
            return 0;
        }
        pollNs = NOT_POLLED;
        return subscription.controlledPoll(this, FRAGMENT_LIMIT) + tickIfDue();
    }

    /**
     * Journal a Tick when the clock has reached the processor's earliest deadline and nothing else has carried the
     * time there: the ring's clock moves only with commands, so an expiry or a scheduled phase would otherwise wait for
     * the next one. One Tick per deadline; a full ring tries again next cycle.
     */
    private int tickIfDue()
    {
        final long deadline = nextDeadline.getAcquire();
        if (deadline == Long.MAX_VALUE || deadline == lastTickDeadline)
        {
            return 0;
        }
        final long now = Math.max(epochClock.nanoTime(), lastTimestampNs);
        if (now < deadline)
        {
            return 0;
        }
        final int length = MessageHeaderEncoder.ENCODED_LENGTH +
            tickEncoder.wrapAndApplyHeader(tickBuffer, 0, headerEncoder).deadlineNs(deadline).encodedLength();
        if (!sink.offer(now, 0, TickEncoder.TEMPLATE_ID, tickBuffer, 0, length, pollNs()))
        {
            return 0;
        }
        lastTimestampNs = now;
        lastTickDeadline = deadline;
        return 1;
    }

    public String roleName()
    {
        return "ingress";
    }

    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final RejectReason reason = validator.validate(buffer, offset, length);
        final int templateId = length >= MessageHeaderDecoder.ENCODED_LENGTH ?
            buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF : -1;
        if (reason != RejectReason.NONE)
        {
            refuse(buffer, offset, length, templateId, reason);
            return Action.CONTINUE;
        }
        final MessageCatalog.Kind kind = MessageCatalog.kind(templateId);
        if (kind == MessageCatalog.Kind.AUTHENTICATED)
        {
            return onAuthenticated(buffer, offset, length, templateId);
        }
        if (kind != MessageCatalog.Kind.ORDER_ENTRY && kind != MessageCatalog.Kind.ADMIN)
        {
            refuse(buffer, offset, length, templateId, RejectReason.UNKNOWN_MESSAGE);
            return Action.CONTINUE;
        }
        if (length > maxCommandLength)
        {
            refuse(buffer, offset, length, templateId, RejectReason.MALFORMED);
            return Action.CONTINUE;
        }
        if (kind == MessageCatalog.Kind.ADMIN && !MessageCatalog.isGatewayBookkeeping(templateId))
        {
            // An operator's command without a key (or a NewEpoch, which only a node journals): never journaled.
            admin.refused(AdminAuthenticator.Refusal.UNSIGNED, templateId, clock.nanoTime());
            return Action.CONTINUE;
        }

        // Order entry, SessionStatus and GatewayBarrier name their session in the message. A user directory request
        // names no one: source 0, whatever the frame claims (an admin source is a key's, only ever stamped here).
        final long sourceId = carriesSession(templateId) ?
            buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH + SESSION_ID_BODY_OFFSET,
            MessageHeaderDecoder.BYTE_ORDER) : 0;
        return offer(sourceId, templateId, buffer, offset, length) ? Action.CONTINUE : Action.ABORT;
    }

    /**
     * An operator's admin command in the proof of its sender's key: checked, then the command alone goes to the sink,
     * its source the key's number. A refusal is counted and logged, never answered.
     */
    private Action onAuthenticated(final DirectBuffer buffer, final int offset, final int length, final int templateId)
    {
        final long wallNs = epochClock.nanoTime();
        final AdminAuthenticator.Refusal refusal = admin.check(buffer, offset, length, wallNs);
        if (refusal != AdminAuthenticator.Refusal.NONE)
        {
            admin.refused(refusal, templateId, clock.nanoTime());
            return Action.CONTINUE;
        }
        final int commandOffset = admin.commandOffset();
        final int commandTemplateId = buffer.getShort(commandOffset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        if (!offer(SessionIds.sessionId(SessionIds.ADMIN_GATEWAY_ID, admin.keyId()), commandTemplateId, buffer,
            commandOffset, admin.commandLength()))
        {
            return Action.ABORT; // redelivered and checked again: its nonce is remembered only once it is in
        }
        admin.accept(wallNs);
        return Action.CONTINUE;
    }

    /**
     * @return whether the sink took the command; if not, the ring or the log is full, counted as back-pressure.
     */
    private boolean offer(
        final long sourceId, final int templateId, final DirectBuffer buffer, final int offset, final int length)
    {
        final long now = Math.max(epochClock.nanoTime(), lastTimestampNs);
        if (!sink.offer(now, sourceId, templateId, buffer, offset, length, pollNs()))
        {
            backPressureCounter.incrementRelease();
            return false;
        }
        lastTimestampNs = now;
        return true;
    }

    /**
     * One clock read per poll: the commands of one poll were received together.
     */
    private long pollNs()
    {
        if (pollNs == NOT_POLLED)
        {
            pollNs = System.nanoTime();
        }
        return pollNs;
    }

    private static boolean carriesSession(final int templateId)
    {
        // Order-entry commands, SessionStatus and GatewayBarrier start their body with the session id (schema
        // convention), so the journal and the audit trail name the gateway that sent them.
        return MessageCatalog.kind(templateId) == MessageCatalog.Kind.ORDER_ENTRY ||
            templateId == io.ringex.protocol.codecs.SessionStatusDecoder.TEMPLATE_ID ||
            templateId == io.ringex.protocol.codecs.GatewayBarrierDecoder.TEMPLATE_ID;
    }

    private void refuse(
        final DirectBuffer buffer, final int offset, final int length, final int templateId, final RejectReason reason)
    {
        malformedCounter.incrementRelease();
        final long now = clock.nanoTime();
        if (now - lastLogNsByReason[reason.ordinal()] >= LOG_INTERVAL_NS)
        {
            lastLogNsByReason[reason.ordinal()] = now;
            LOG.warn("ingress refused a fragment: reason={} template={} length={} " +
                "(further ones for this reason within 1s are counted, not logged)", reason,
                MessageCatalog.name(templateId), length);
        }

        // A session can be named only if the header and the whole root block of an order-entry message are there.
        if (templateId >= 0 && MessageCatalog.kind(templateId) == MessageCatalog.Kind.ORDER_ENTRY &&
            length >= MessageHeaderDecoder.ENCODED_LENGTH + MessageCatalog.blockLength(templateId))
        {
            final long sessionId = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH,
                MessageHeaderDecoder.BYTE_ORDER);
            rejectEncoder.wrapAndApplyHeader(rejectBuffer, 0, headerEncoder)
                .epoch(epoch)
                .sessionId(sessionId)
                .refTemplateId(templateId)
                .refClientOrderId("")
                .rejectReason(reason)
                .text(reason.name());
            final int rejectLength = MessageHeaderEncoder.ENCODED_LENGTH + rejectEncoder.encodedLength();
            long result = rejects.offer(rejectBuffer, 0, rejectLength);
            if (result == Publication.ADMIN_ACTION)
            {
                result = rejects.offer(rejectBuffer, 0, rejectLength);
            }
            if (result < 0)
            {
                // Not waited for: the input thread must not stall on a slow gateway for a message it refused. The
                // refusal is counted (ingress-malformed) and logged above; the lost answer is counted here.
                rejectsDropped.incrementRelease();
            }
        }
    }
}
