package io.ringex.gateway;

import io.aeron.Publication;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelEncoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.SessionStatusEncoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * The gateway's side of the engine ingress stream: forwards commands to the primary's publication ({@link
 * #target(Publication)}, set by {@link EngineRouter}) and guarantees delivery of the gateway's own control messages
 * (SessionStatus, cancel-on-disconnect MassCancel) in order: while any is pending, {@link #offer} reports back-pressure
 * so client commands cannot overtake it.
 * <p>
 * On a change of primary the recent control messages are sent again ({@link #resendSince(long)}), except those of a
 * session that logged on again since: session ids persist across reconnects, and a re-sent cancel-on-disconnect would
 * cancel the orders placed after.
 * <p>
 * Thread safety: one instance per agent thread; the underlying {@link Publication}s may be shared.
 */
public final class EngineIngress
{
    /** Returned by {@link #offer} while no primary is known: not an Aeron code (those are -1..-5). */
    public static final long NO_PRIMARY = -100;

    private static final int SENT_CONTROL_KEPT = 4096;

    private Publication publication;
    private final InFlightCommands inFlight;
    private boolean held;
    private long nowNs;
    private final ArrayDeque<UnsafeBuffer> pendingControl = new ArrayDeque<>();
    private final ArrayDeque<SentControl> sentControl = new ArrayDeque<>();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final SessionStatusEncoder sessionStatusEncoder = new SessionStatusEncoder();
    private final MassCancelEncoder massCancelEncoder = new MassCancelEncoder();
    private final UnsafeBuffer controlBuffer = new UnsafeBuffer(new byte[128]);
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final SessionStatusDecoder sessionStatusDecoder = new SessionStatusDecoder();
    private final MassCancelDecoder massCancelDecoder = new MassCancelDecoder();
    private final LongHashSet loggedOnSince = new LongHashSet();
    private int controlSuperseded;

    /**
     * @param publication to the engine ingress, or null until a primary is known.
     */
    public EngineIngress(final Publication publication)
    {
        this(publication, null);
    }

    /**
     * @param publication to the engine ingress, or null until a primary is known.
     * @param inFlight    where forwarded order commands are kept until answered, or null to keep none.
     */
    public EngineIngress(final Publication publication, final InFlightCommands inFlight)
    {
        this.publication = publication;
        this.inFlight = inFlight;
    }

    /**
     * Hold client commands back (refused as back-pressured) or let them go again.
     *
     * @param held true while the commands in doubt after a change of primary are being settled.
     */
    public void hold(final boolean held)
    {
        this.held = held;
    }

    /**
     * @return whether client commands are held back.
     */
    public boolean isHeld()
    {
        return held;
    }

    /**
     * @return the publication commands go to now, or null.
     */
    public Publication publication()
    {
        return publication;
    }

    /**
     * Send from now on to another node (the new primary), or to none.
     *
     * @param publication the node's ingress publication, or null.
     */
    public void target(final Publication publication)
    {
        this.publication = publication;
    }

    /**
     * @param nowNs the agent's clock, stamped on the control messages sent from now on.
     */
    public void clock(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    /**
     * Queue again, ahead of anything pending and in their original order, the control messages sent since a time: the
     * ones a primary that has since failed may have taken into its publication and lost. A cancel-on-disconnect
     * MassCancel or a logged-off SessionStatus whose session logged on again later (a logged-on SessionStatus sent or
     * pending after it) is dropped instead: re-sent, it would end the new logon's session or cancel its new orders.
     *
     * @param sinceNs the agent's clock time from which messages are in doubt.
     * @return how many were queued again.
     */
    public int resendSince(final long sinceNs)
    {
        // Newest first, so the set holds the sessions that logged on after the message looked at.
        loggedOnSince.clear();
        for (final UnsafeBuffer pending : pendingControl)
        {
            noteLogon(pending);
        }
        int count = 0;
        SentControl last;
        while ((last = sentControl.peekLast()) != null && last.sentNs - sinceNs >= 0)
        {
            sentControl.pollLast();
            if (isUndoneByLaterLogon(last.message))
            {
                controlSuperseded++;
                continue;
            }
            noteLogon(last.message);
            pendingControl.addFirst(last.message);
            count++;
        }
        return count;
    }

    /**
     * @return cancel-on-disconnects and logoffs left out of a re-send because their session logged on again since.
     */
    public int controlSuperseded()
    {
        return controlSuperseded;
    }

    /**
     * Offer a command, unless control messages are still pending.
     *
     * @param buffer holding the message.
     * @param offset of its header.
     * @param length whole message length.
     * @return the new position, or an Aeron code (&lt; 0) or {@link #NO_PRIMARY} if not sent.
     */
    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        if (publication == null)
        {
            return NO_PRIMARY;
        }
        if (held)
        {
            return Publication.BACK_PRESSURED;
        }
        if (!pendingControl.isEmpty())
        {
            drainPending();
            if (!pendingControl.isEmpty())
            {
                return Publication.BACK_PRESSURED;
            }
        }
        final boolean tracked = inFlight != null &&
            InFlightCommands.isTracked(buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF);
        if (tracked && !inFlight.hasRoom())
        {
            return Publication.BACK_PRESSURED;
        }
        final long result = publication.offer(buffer, offset, length);
        if (result > 0 && tracked)
        {
            inFlight.add(buffer, offset, length, nowNs);
        }
        return result;
    }

    /**
     * Tell the engine a session came or went.
     *
     * @param sessionId the session.
     * @param accountId its default account.
     * @param loggedOn  true on logon.
     */
    public void sessionStatus(final long sessionId, final long accountId, final boolean loggedOn)
    {
        sessionStatus(sessionId, accountId, loggedOn, 0);
    }

    /**
     * Tell the engine a session came or went; one that went with a grace has its orders cancelled by the engine when
     * the grace runs out, unless a logged-on SessionStatus of the same session comes first.
     *
     * @param sessionId the session.
     * @param accountId its default account.
     * @param loggedOn  true on logon.
     * @param graceMs   logged off: the session's cancel-on-disconnect grace, or 0 for none (nothing for the engine to
     *                  do: without a grace the gateway sends {@link #cancelOnDisconnect} itself).
     */
    public void sessionStatus(final long sessionId, final long accountId, final boolean loggedOn, final int graceMs)
    {
        // Every field written: the buffer is shared with the MassCancel, whose bytes would otherwise read as a grace.
        sessionStatusEncoder.wrapAndApplyHeader(controlBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .loggedOn(loggedOn ? BooleanType.TRUE : BooleanType.FALSE)
            .cancelOnDisconnectGraceMs(loggedOn ? 0 : graceMs);
        sendControl(MessageHeaderEncoder.ENCODED_LENGTH + sessionStatusEncoder.encodedLength());
    }

    /**
     * Cancel every order of a session that went away and asked for it.
     *
     * @param sessionId the session.
     * @param accountId its default account.
     */
    public void cancelOnDisconnect(final long sessionId, final long accountId)
    {
        massCancelEncoder.wrapAndApplyHeader(controlBuffer, 0, headerEncoder)
            .sessionId(sessionId)
            .accountId(accountId)
            .clientRequestId("COD")
            .scope(MassCancelScope.SESSION)
            .instrumentId(0)
            .cancelOnDisconnect(BooleanType.TRUE);
        sendControl(MessageHeaderEncoder.ENCODED_LENGTH + massCancelEncoder.encodedLength());
    }

    /**
     * Retry pending control messages, oldest first.
     *
     * @return how many were sent.
     */
    public int drainPending()
    {
        int sent = 0;
        if (publication == null)
        {
            return 0;
        }
        UnsafeBuffer next;
        while ((next = pendingControl.peek()) != null)
        {
            final long result = publication.offer(next, 0, next.capacity());
            if (result > 0)
            {
                remember(pendingControl.poll());
                sent++;
            }
            else
            {
                // Back-pressured, not connected or admin action: retry on the next duty cycle. If the publication
                // is closed they stay here and pendingControlCount() shows it.
                break;
            }
        }
        return sent;
    }

    /**
     * @return control messages not yet taken by the publication.
     */
    public int pendingControlCount()
    {
        return pendingControl.size();
    }

    private void sendControl(final int length)
    {
        // Control messages come with logons and logouts, not orders: a copy each is fine.
        final byte[] copy = new byte[length];
        controlBuffer.getBytes(0, copy);
        final UnsafeBuffer message = new UnsafeBuffer(copy);
        if (pendingControl.isEmpty() && publication != null && publication.offer(message, 0, length) > 0)
        {
            remember(message);
            return;
        }
        pendingControl.add(message);
    }

    private void noteLogon(final UnsafeBuffer message)
    {
        headerDecoder.wrap(message, 0);
        if (headerDecoder.templateId() == SessionStatusDecoder.TEMPLATE_ID)
        {
            sessionStatusDecoder.wrapAndApplyHeader(message, 0, headerDecoder);
            if (sessionStatusDecoder.loggedOn() == BooleanType.TRUE)
            {
                loggedOnSince.add(sessionStatusDecoder.sessionId());
            }
        }
    }

    private boolean isUndoneByLaterLogon(final UnsafeBuffer message)
    {
        headerDecoder.wrap(message, 0);
        final int templateId = headerDecoder.templateId();
        if (templateId == SessionStatusDecoder.TEMPLATE_ID)
        {
            sessionStatusDecoder.wrapAndApplyHeader(message, 0, headerDecoder);
            return sessionStatusDecoder.loggedOn() != BooleanType.TRUE &&
                loggedOnSince.contains(sessionStatusDecoder.sessionId());
        }
        if (templateId == MassCancelDecoder.TEMPLATE_ID)
        {
            massCancelDecoder.wrapAndApplyHeader(message, 0, headerDecoder);
            return massCancelDecoder.cancelOnDisconnect() == BooleanType.TRUE &&
                loggedOnSince.contains(massCancelDecoder.sessionId());
        }
        return false;
    }

    private void remember(final UnsafeBuffer message)
    {
        if (sentControl.size() == SENT_CONTROL_KEPT)
        {
            sentControl.pollFirst();
        }
        sentControl.addLast(new SentControl(nowNs, message));
    }

    /** A control message the publication took, and when. */
    private static final class SentControl
    {
        final long sentNs;
        final UnsafeBuffer message;

        SentControl(final long sentNs, final UnsafeBuffer message)
        {
            this.sentNs = sentNs;
            this.message = message;
        }
    }
}
