package io.ringex.gateway.sbe;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.gateway.EngineEndpoint;
import io.ringex.gateway.EngineRouter;
import io.ringex.gateway.GatewayContext;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.DropCopyEvent;
import io.ringex.protocol.codecs.DropCopyStatusEncoder;
import io.ringex.protocol.codecs.DropCopySubscribeDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReportReplayEndDecoder;
import io.ringex.protocol.codecs.ReportReplayRequestEncoder;
import io.ringex.protocol.codecs.ReportReplayResponseDecoder;
import io.ringex.protocol.codecs.ReportReplayStatus;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * SBE drop copy: a DROP_COPY or CLEARING session that sends {@code DropCopySubscribe(fromSequence)} gets every
 * ExecutionReport and TradeBusted of its scope, first replayed from the engine's journal (the node's report replay
 * service), then live, with no gap and no duplicate at the switch (docs/client.md, "Drop copy").
 * <p>
 * Live copies are held from the subscribe and those at or before the replay's last command dropped, since the engine
 * journals a command before it processes it. A client that does not keep up is logged out and resumes from the last
 * command it processed.
 * <p>
 * Threading: the gateway agent's thread only.
 */
final class SbeDropCopy
{
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final ByteOrder ORDER = MessageHeaderDecoder.BYTE_ORDER;
    private static final int FRAGMENT_LIMIT = 64;
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long ANSWER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int MAX_QUEUED_BYTES = 32 * 1024 * 1024;
    private static final int MAX_HELD_BYTES = 32 * 1024 * 1024;
    private static final int DRAIN_LIMIT = 256;

    /** What a subscriber is doing. */
    enum State
    {
        /** Its replay is to be asked for (or asked again). */
        WAITING,
        /** Its replay request is out; the answer has not come. */
        REQUESTED,
        /** The engine accepted it: its reports are arriving. */
        REPLAYING,
        /** Replayed: it gets live copies. */
        LIVE
    }

    /** One drop-copy subscription (one session's). */
    static final class Subscriber
    {
        final ClientSession session;
        final long clientRequestId;
        final long fromSequence;
        final CopyQueue out = new CopyQueue();
        final CopyQueue held = new CopyQueue();
        State state = State.WAITING;
        long resumeFrom;
        long skipSequence = -1;
        int skipCount;
        long lastSequenceSent = -1;
        int copiesOfLastSequence;
        long replayRequestId;
        long received;
        long retryAtNs;
        long lastHeardNs;
        boolean heldOverflow;
        /** The last command its replay covered: a live copy of it or of an earlier one is a duplicate. */
        long replayedTo = -1;

        Subscriber(final ClientSession session, final long clientRequestId, final long fromSequence)
        {
            this.session = session;
            this.clientRequestId = clientRequestId;
            this.fromSequence = fromSequence;
            this.resumeFrom = fromSequence;
        }
    }

    private final GatewayContext ctx;
    private final EngineRouter router;
    private final SbeSessionEnder ender;
    private final Publication[] requests;
    private final Subscription[] answers;
    private final FragmentHandler onAnswer = (buffer, offset, length, h) -> onAnswer(buffer, offset, length);
    private final List<Subscriber> subscribers = new ArrayList<>();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final DropCopySubscribeDecoder subscribe = new DropCopySubscribeDecoder();
    private final ReportReplayResponseDecoder response = new ReportReplayResponseDecoder();
    private final ReportReplayEndDecoder end = new ReportReplayEndDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReportReplayRequestEncoder request = new ReportReplayRequestEncoder();
    private final DropCopyStatusEncoder status = new DropCopyStatusEncoder();
    private final UnsafeBuffer encodeBuffer = new UnsafeBuffer(new byte[128]);
    private final MessageValidator validator;
    private final AtomicCounter copies;
    private final AtomicCounter replays;
    private final AtomicCounter slowDropped;
    /** The subscriber whose replay is out, or null: one at a time. */
    private Subscriber replaying;
    private long nextRequestId;
    private long nowNs;

    /**
     * Ends a session (a drop-copy client that cannot keep up).
     */
    @FunctionalInterface
    interface SbeSessionEnder
    {
        /**
         * @param session the session.
         * @param nowNs   the agent's clock.
         */
        void end(ClientSession session, long nowNs);
    }

    /**
     * @param ctx     concluded configuration: the engines and the replay streams.
     * @param aeron   the gateway's client.
     * @param router  the link to the engines: which one is followed.
     * @param ender   logs out a client that cannot keep up.
     * @param copies  counts copies sent.
     * @param replays counts replays asked for.
     * @param slow    counts drop-copy sessions logged out for not keeping up.
     */
    SbeDropCopy(
        final GatewayContext ctx,
        final Aeron aeron,
        final EngineRouter router,
        final SbeSessionEnder ender,
        final AtomicCounter copies,
        final AtomicCounter replays,
        final AtomicCounter slow)
    {
        this.ctx = ctx;
        this.router = router;
        this.ender = ender;
        this.copies = copies;
        this.replays = replays;
        this.slowDropped = slow;
        this.validator = new MessageValidator(ctx.maxMessageLength());
        final List<EngineEndpoint> engines = ctx.engines();
        requests = new Publication[engines.size()];
        answers = new Subscription[engines.size()];
        for (int i = 0; i < engines.size(); i++)
        {
            requests[i] = aeron.addPublication(engines.get(i).ingressChannel(), ctx.engineReplayRequestStreamId());
            answers[i] = aeron.addSubscription(engines.get(i).egressChannel(), ctx.engineReplayStreamId());
        }
        // Request ids differ between runs of a gateway, so an answer to an earlier run's request is never taken.
        nextRequestId = System.nanoTime();
    }

    /**
     * A DropCopySubscribe from an active session (validated as a message already).
     *
     * @param session the session.
     * @param buffer  holding the message.
     * @param offset  of its header.
     * @param nowNs   the agent's clock.
     */
    void onSubscribe(final ClientSession session, final DirectBuffer buffer, final int offset, final long nowNs)
    {
        this.nowNs = nowNs;
        subscribe.wrapAndApplyHeader(buffer, offset, header);
        final long clientRequestId = subscribe.requestId();
        final long from = subscribe.fromSequence();
        if (!session.user.isDropCopy())
        {
            notice(session, clientRequestId, DropCopyEvent.REFUSED, RejectReason.DROP_COPY_NOT_ALLOWED, from, 0, 0);
            return;
        }
        if (from < 0)
        {
            notice(session, clientRequestId, DropCopyEvent.REFUSED, RejectReason.MALFORMED, from, 0, 0);
            return;
        }
        // A second subscribe of the same session replaces the first.
        for (int i = subscribers.size() - 1; i >= 0; i--)
        {
            if (subscribers.get(i).session == session)
            {
                remove(i);
            }
        }
        final Subscriber subscriber = new Subscriber(session, clientRequestId, from);
        subscriber.retryAtNs = nowNs;
        subscribers.add(subscriber);
    }

    /**
     * Every ExecutionReport and TradeBusted the router lets through (whichever gateway's session it is for), in
     * order: held for a subscriber replaying, queued for a live one.
     *
     * @param templateId ExecutionReport or TradeBusted.
     * @param buffer     holding it.
     * @param offset     of its header.
     * @param length     whole message.
     * @param sequence   the command it came from.
     */
    void onCopy(
        final int templateId, final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        for (int i = 0, n = subscribers.size(); i < n; i++)
        {
            final Subscriber subscriber = subscribers.get(i);
            if (!inScope(subscriber, templateId, buffer, offset))
            {
                continue;
            }
            if (subscriber.state == State.LIVE)
            {
                // The replay may end before the live engine has published the reports of the journal's last
                // commands (its journal stage runs ahead of its processor): those were replayed already.
                if (sequence > subscriber.replayedTo)
                {
                    queue(subscriber, buffer, offset, length, sequence);
                }
            }
            else if (!subscriber.heldOverflow)
            {
                if (subscriber.held.bytes() + length > MAX_HELD_BYTES)
                {
                    // The journal has them: once this replay ends, another one from its end fetches them.
                    subscriber.held.clear();
                    subscriber.heldOverflow = true;
                }
                else
                {
                    subscriber.held.append(buffer, offset, length, sequence);
                }
            }
        }
    }

    /**
     * One duty cycle: the replay answers, the next replay to ask for, the copies waiting for their clients.
     *
     * @param nowNs the agent's clock.
     * @return work done.
     */
    int doWork(final long nowNs)
    {
        this.nowNs = nowNs;
        int work = 0;
        for (final Subscription subscription : answers)
        {
            work += subscription.poll(onAnswer, FRAGMENT_LIMIT);
        }
        for (int i = subscribers.size() - 1; i >= 0; i--)
        {
            if (subscribers.get(i).session.state != ClientSession.State.ACTIVE)
            {
                remove(i);
                work++;
            }
        }
        work += requestNext();
        for (int i = subscribers.size() - 1; i >= 0; i--)
        {
            work += drain(i);
        }
        return work;
    }

    /**
     * @return drop-copy subscriptions now.
     */
    int size()
    {
        return subscribers.size();
    }

    /**
     * Close the replay streams.
     */
    void close()
    {
        CloseHelper.closeAll(requests);
        CloseHelper.closeAll(answers);
    }

    private void remove(final int index)
    {
        final Subscriber subscriber = subscribers.remove(index);
        if (replaying == subscriber)
        {
            replaying = null;
        }
    }

    private int requestNext()
    {
        if (replaying != null)
        {
            if (nowNs - replaying.lastHeardNs < ANSWER_TIMEOUT_NS)
            {
                return 0;
            }
            // Nothing heard for long: the request or its answer was lost (an engine restart, a lost image).
            retryAfterFailure(replaying);
        }
        for (int i = 0, n = subscribers.size(); i < n; i++)
        {
            final Subscriber subscriber = subscribers.get(i);
            if (subscriber.state == State.WAITING && nowNs - subscriber.retryAtNs >= 0)
            {
                final int engine = router.followedEngine();
                if (engine < 0)
                {
                    return 0;
                }
                final long requestId = ++nextRequestId;
                final int length = HEADER + request.wrapAndApplyHeader(encodeBuffer, 0, headerEncoder)
                    .gatewayId(ctx.gatewayId())
                    .requestId(requestId)
                    .fromSequence(subscriber.resumeFrom)
                    .toSequence(0)
                    .encodedLength();
                if (requests[engine].offer(encodeBuffer, 0, length) <= 0)
                {
                    subscriber.retryAtNs = nowNs + RETRY_NS;
                    return 0;
                }
                replays.increment();
                subscriber.replayRequestId = requestId;
                subscriber.state = State.REQUESTED;
                subscriber.lastHeardNs = nowNs;
                replaying = subscriber;
                return 1;
            }
        }
        return 0;
    }

    private void onAnswer(final DirectBuffer buffer, final int offset, final int length)
    {
        if (validator.validate(buffer, offset, length) != RejectReason.NONE)
        {
            return;
        }
        header.wrap(buffer, offset);
        final Subscriber subscriber = replaying;
        switch (header.templateId())
        {
            case ReportReplayResponseDecoder.TEMPLATE_ID:
                response.wrapAndApplyHeader(buffer, offset, header);
                if (subscriber != null && subscriber.state == State.REQUESTED &&
                    response.gatewayId() == ctx.gatewayId() && response.requestId() == subscriber.replayRequestId)
                {
                    onResponse(subscriber);
                }
                break;
            case ReportReplayEndDecoder.TEMPLATE_ID:
                end.wrapAndApplyHeader(buffer, offset, header);
                if (subscriber != null && subscriber.state == State.REPLAYING &&
                    end.gatewayId() == ctx.gatewayId() && end.requestId() == subscriber.replayRequestId)
                {
                    onEnd(subscriber);
                }
                break;
            case ExecutionReportDecoder.TEMPLATE_ID:
                if (subscriber != null && subscriber.state == State.REPLAYING)
                {
                    report.wrapAndApplyHeader(buffer, offset, header);
                    onReplayed(subscriber, header.templateId(), buffer, offset, length, report.commandSequence());
                }
                break;
            case TradeBustedDecoder.TEMPLATE_ID:
                if (subscriber != null && subscriber.state == State.REPLAYING)
                {
                    onReplayed(subscriber, header.templateId(), buffer, offset, length, buffer.getLong(
                        offset + HEADER + TradeBustedDecoder.commandSequenceEncodingOffset(), ORDER));
                }
                break;
            default:
                break;
        }
    }

    private void onResponse(final Subscriber subscriber)
    {
        subscriber.lastHeardNs = nowNs;
        final ReportReplayStatus replayStatus = response.status();
        switch (replayStatus)
        {
            case ACCEPTED:
                subscriber.state = State.REPLAYING;
                subscriber.received = 0;
                return;
            case BUSY:
                subscriber.state = State.WAITING;
                subscriber.retryAtNs = nowNs + RETRY_NS;
                break;
            case BEYOND_RETENTION:
                notice(subscriber.session, subscriber.clientRequestId, DropCopyEvent.GAP, RejectReason.NONE,
                    subscriber.resumeFrom, response.firstAvailableSequence(), response.lastSequence());
                subscriber.resumeFrom = response.firstAvailableSequence();
                subscriber.skipSequence = -1;
                subscriber.skipCount = 0;
                subscriber.state = State.WAITING;
                subscriber.retryAtNs = nowNs;
                break;
            default:
                // AHEAD_OF_JOURNAL, UNAVAILABLE, MALFORMED: nothing this subscription can be served from.
                notice(subscriber.session, subscriber.clientRequestId, DropCopyEvent.REFUSED,
                    replayStatus == ReportReplayStatus.MALFORMED ? RejectReason.MALFORMED :
                    RejectReason.REPLAY_UNAVAILABLE, subscriber.resumeFrom, response.firstAvailableSequence(),
                    response.lastSequence());
                subscribers.remove(subscriber);
                break;
        }
        replaying = null;
    }

    private void onReplayed(
        final Subscriber subscriber,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long sequence)
    {
        subscriber.lastHeardNs = nowNs;
        subscriber.received++;
        if (!inScope(subscriber, templateId, buffer, offset))
        {
            return;
        }
        if (sequence == subscriber.skipSequence && subscriber.skipCount > 0)
        {
            subscriber.skipCount--; // sent before a replay that failed
            return;
        }
        queue(subscriber, buffer, offset, length, sequence);
    }

    private void onEnd(final Subscriber subscriber)
    {
        replaying = null;
        if (end.status() != ReportReplayStatus.COMPLETE || end.reportCount() != subscriber.received)
        {
            retryAfterFailure(subscriber);
            return;
        }
        final long last = end.lastSequence();
        if (subscriber.heldOverflow)
        {
            // Live copies were dropped while it ran: fetch what followed from the journal too, holding anew.
            subscriber.heldOverflow = false;
            subscriber.held.clear();
            subscriber.resumeFrom = last;
            subscriber.skipSequence = -1;
            subscriber.skipCount = 0;
            subscriber.state = State.WAITING;
            subscriber.retryAtNs = nowNs;
            return;
        }
        notice(subscriber.session, subscriber.clientRequestId, DropCopyEvent.REPLAY_COMPLETE, RejectReason.NONE,
            subscriber.fromSequence, 0, last);
        subscriber.held.moveAfter(last, subscriber.out);
        subscriber.replayedTo = last;
        subscriber.state = State.LIVE;
    }

    /**
     * Ask again from the last command whose copies were all sent, skipping those of the next one already sent.
     */
    private void retryAfterFailure(final Subscriber subscriber)
    {
        if (subscriber.lastSequenceSent > subscriber.resumeFrom)
        {
            subscriber.resumeFrom = subscriber.lastSequenceSent - 1;
            subscriber.skipSequence = subscriber.lastSequenceSent;
            subscriber.skipCount = subscriber.copiesOfLastSequence;
        }
        subscriber.state = State.WAITING;
        subscriber.retryAtNs = nowNs + RETRY_NS;
        if (replaying == subscriber)
        {
            replaying = null;
        }
    }

    private boolean inScope(
        final Subscriber subscriber, final int templateId, final DirectBuffer buffer, final int offset)
    {
        final int body = offset + HEADER;
        if (templateId == ExecutionReportDecoder.TEMPLATE_ID)
        {
            return subscriber.session.user.copies(
                buffer.getLong(body + ExecutionReportDecoder.accountIdEncodingOffset(), ORDER));
        }
        return subscriber.session.user.copies(
            buffer.getLong(body + TradeBustedDecoder.buyAccountIdEncodingOffset(), ORDER)) ||
            subscriber.session.user.copies(
            buffer.getLong(body + TradeBustedDecoder.sellAccountIdEncodingOffset(), ORDER));
    }

    private void queue(
        final Subscriber subscriber, final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        subscriber.out.append(buffer, offset, length, sequence);
        if (sequence == subscriber.lastSequenceSent)
        {
            subscriber.copiesOfLastSequence++;
        }
        else
        {
            subscriber.lastSequenceSent = sequence;
            subscriber.copiesOfLastSequence = 1;
        }
    }

    private void notice(
        final ClientSession session,
        final long clientRequestId,
        final DropCopyEvent event,
        final RejectReason reason,
        final long from,
        final long firstAvailable,
        final long last)
    {
        final int length = HEADER + status.wrapAndApplyHeader(encodeBuffer, 0, headerEncoder)
            .sessionId(session.sessionId)
            .requestId(clientRequestId)
            .dropCopyEvent(event)
            .rejectReason(reason)
            .fromSequence(from)
            .firstAvailableSequence(firstAvailable)
            .lastSequence(last)
            .encodedLength();
        Subscriber subscriber = null;
        for (int i = 0, n = subscribers.size(); i < n; i++)
        {
            if (subscribers.get(i).session == session)
            {
                subscriber = subscribers.get(i);
            }
        }
        if (subscriber != null && !subscriber.out.isEmpty())
        {
            subscriber.out.append(encodeBuffer, 0, length, -1);
        }
        else if (session.publication.offer(encodeBuffer, 0, length) > 0)
        {
            session.lastSentNs = nowNs;
        }
        else if (subscriber != null)
        {
            subscriber.out.append(encodeBuffer, 0, length, -1);
        }
    }

    private int drain(final int index)
    {
        final Subscriber subscriber = subscribers.get(index);
        final CopyQueue out = subscriber.out;
        int sent = 0;
        while (!out.isEmpty() && sent < DRAIN_LIMIT)
        {
            final long result = subscriber.session.publication.offer(out.buffer(), out.headOffset(), out.headLength());
            if (result > 0)
            {
                if (out.headSequence() >= 0)
                {
                    copies.increment();
                }
                out.removeHead();
                subscriber.session.lastSentNs = nowNs;
                sent++;
            }
            else if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
            {
                break;
            }
            else
            {
                ender.end(subscriber.session, nowNs);
                remove(index);
                return sent + 1;
            }
        }
        if (out.bytes() > MAX_QUEUED_BYTES)
        {
            // It cannot keep up: it resumes from the last command it processed with a new subscribe.
            slowDropped.increment();
            ender.end(subscriber.session, nowNs);
            remove(index);
            return sent + 1;
        }
        return sent;
    }
}
