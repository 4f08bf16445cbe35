package io.ringex.engine.replay;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.journal.Journal;
import io.ringex.journal.SnapshotFileDescriptor;
import io.ringex.journal.SnapshotStore;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReportReplayEndEncoder;
import io.ringex.protocol.codecs.ReportReplayRequestDecoder;
import io.ringex.protocol.codecs.ReportReplayResponseEncoder;
import io.ringex.protocol.codecs.ReportReplayStatus;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engine node's report replay service: the execution reports and trade busts the engine published for the commands
 * after a sequence, regenerated from the node's journal for a gateway whose drop-copy client was away
 * (docs/protocol.md, "Report replay and drop copy").
 * <p>
 * An agent on a thread of its own that never touches the running processor: each request replays the journal read-only
 * ({@link Replayer}), and since the processor is deterministic the reports are the bytes the live engine published.
 * Replays run one at a time; up to {@link #MAX_WAITING} requests wait.
 * <p>
 * Thread safety: {@link #doWork()} on the agent's thread; {@link #stop()} from any.
 */
public final class ReportReplayService implements Agent
{
    /** Requests that may wait while one is served. */
    public static final int MAX_WAITING = 4;

    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final int FRAGMENT_LIMIT = 16;
    private static final int POLL_EVERY_COMMANDS = 1024;
    private static final long SEND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    /** The gateway id and request id a MALFORMED answer echoes, when the request is long enough to hold them. */
    private static final int ECHO_LENGTH = HEADER + ReportReplayRequestDecoder.requestIdEncodingOffset() + 8;

    private final Path journalDirectory;
    private final Path snapshotDirectory;
    private final boolean allowGaps;
    private final Subscription requests;
    private final Publication answers;
    private final AtomicCounter served;
    private final AtomicCounter refused;
    private final AtomicCounter failed;
    private final MessageValidator validator = new MessageValidator(1024);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ReportReplayRequestDecoder request = new ReportReplayRequestDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReportReplayResponseEncoder response = new ReportReplayResponseEncoder();
    private final ReportReplayEndEncoder end = new ReportReplayEndEncoder();
    private final UnsafeBuffer answer = new UnsafeBuffer(new byte[128]);
    private final IdleStrategy sendIdle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);
    private final FragmentHandler onRequest = (buffer, offset, length, h) -> onRequest(buffer, offset, length);
    private final int[] waitingGateway = new int[MAX_WAITING];
    private final long[] waitingRequest = new long[MAX_WAITING];
    private final long[] waitingFrom = new long[MAX_WAITING];
    private final long[] waitingTo = new long[MAX_WAITING];
    private int waitingHead;
    private int waitingCount;
    private volatile boolean stopping;
    private boolean replaying;
    private boolean sendFailed;
    private long sentReports;
    private long commandsSeen;

    /**
     * @param journalDirectory  the node's journal (opened read-only per replay).
     * @param snapshotDirectory the node's snapshots (may not exist yet).
     * @param allowGaps         replay over a gap in the journal, as the node itself does.
     * @param requests          the request stream (on the node's ingress channel).
     * @param answers           the replay stream (on the node's outbound channel).
     * @param served            counts replays completed.
     * @param refused           counts requests refused (BUSY, MALFORMED, beyond retention, ahead, unavailable).
     * @param failed            counts replays stopped before their end.
     */
    public ReportReplayService(
        final Path journalDirectory,
        final Path snapshotDirectory,
        final boolean allowGaps,
        final Subscription requests,
        final Publication answers,
        final AtomicCounter served,
        final AtomicCounter refused,
        final AtomicCounter failed)
    {
        this.journalDirectory = journalDirectory;
        this.snapshotDirectory = snapshotDirectory;
        this.allowGaps = allowGaps;
        this.requests = requests;
        this.answers = answers;
        this.served = served;
        this.refused = refused;
        this.failed = failed;
    }

    /**
     * Stop the replay running, if any, at its next command (the node is closing); further requests are not served.
     */
    public void stop()
    {
        stopping = true;
    }

    /** {@inheritDoc} */
    public int doWork()
    {
        if (stopping)
        {
            return 0;
        }
        int work = requests.poll(onRequest, FRAGMENT_LIMIT);
        if (waitingCount > 0)
        {
            final int slot = waitingHead;
            waitingHead = (waitingHead + 1) % MAX_WAITING;
            waitingCount--;
            serve(waitingGateway[slot], waitingRequest[slot], waitingFrom[slot], waitingTo[slot]);
            work++;
        }
        return work;
    }

    /** {@inheritDoc} */
    public void onClose()
    {
        CloseHelper.closeAll(requests, answers);
    }

    /** {@inheritDoc} */
    public String roleName()
    {
        return "report-replay";
    }

    private void onRequest(final DirectBuffer buffer, final int offset, final int length)
    {
        final boolean valid = validator.validate(buffer, offset, length) == RejectReason.NONE &&
            header.wrap(buffer, offset).templateId() == ReportReplayRequestDecoder.TEMPLATE_ID;
        if (!valid)
        {
            final boolean echo = length >= ECHO_LENGTH && header.wrap(buffer, offset).templateId() ==
                ReportReplayRequestDecoder.TEMPLATE_ID;
            final int body = offset + HEADER;
            refuse(echo ? buffer.getInt(body + ReportReplayRequestDecoder.gatewayIdEncodingOffset(),
                ReportReplayRequestDecoder.BYTE_ORDER) : 0,
                echo ? buffer.getLong(body + ReportReplayRequestDecoder.requestIdEncodingOffset(),
                ReportReplayRequestDecoder.BYTE_ORDER) : 0,
                ReportReplayStatus.MALFORMED, 0, 0, 0);
            return;
        }
        request.wrapAndApplyHeader(buffer, offset, header);
        final long from = request.fromSequence();
        final long to = request.toSequence();
        if (from < 0 || to < 0 || (to != 0 && to < from))
        {
            refuse(request.gatewayId(), request.requestId(), ReportReplayStatus.MALFORMED, from, 0, 0);
            return;
        }
        if (waitingCount == MAX_WAITING)
        {
            refuse(request.gatewayId(), request.requestId(), ReportReplayStatus.BUSY, from, 0, 0);
            return;
        }
        final int slot = (waitingHead + waitingCount) % MAX_WAITING;
        waitingGateway[slot] = request.gatewayId();
        waitingRequest[slot] = request.requestId();
        waitingFrom[slot] = from;
        waitingTo[slot] = to;
        waitingCount++;
    }

    private void refuse(
        final int gatewayId,
        final long requestId,
        final ReportReplayStatus status,
        final long from,
        final long firstAvailable,
        final long last)
    {
        refused.increment();
        if (!replaying)
        {
            sendFailed = false;
        }
        respond(gatewayId, requestId, status, from, 0, firstAvailable, last);
    }

    private void serve(final int gatewayId, final long requestId, final long from, final long toAsked)
    {
        sendFailed = false;
        final Replayer replayer;
        try
        {
            replayer = Replayer.open(journalDirectory,
                Files.isDirectory(snapshotDirectory) ? snapshotDirectory : null).allowGaps(allowGaps);
        }
        catch (final ReplayException ex)
        {
            refuse(gatewayId, requestId, ReportReplayStatus.UNAVAILABLE, from, 0, 0);
            return;
        }
        try
        {
            final Journal.Ends ends = replayer.ends();
            final long last = ends.lastSequence();
            final long firstAvailable = firstAvailable(ends);
            if (from > last)
            {
                refuse(gatewayId, requestId, ReportReplayStatus.AHEAD_OF_JOURNAL, from, firstAvailable, last);
                return;
            }
            if (from < firstAvailable)
            {
                refuse(gatewayId, requestId, ReportReplayStatus.BEYOND_RETENTION, from, firstAvailable, last);
                return;
            }
            final long to = toAsked == 0 ? last : Math.min(toAsked, last);
            if (!respond(gatewayId, requestId, ReportReplayStatus.ACCEPTED, from, to, firstAvailable, last))
            {
                failed.increment();
                return;
            }
            replay(replayer, gatewayId, requestId, from, to);
        }
        finally
        {
            replayer.close();
        }
    }

    private void replay(
        final Replayer replayer, final int gatewayId, final long requestId, final long from, final long to)
    {
        sentReports = 0;
        commandsSeen = 0;
        replaying = true;
        ReportReplayStatus status = ReportReplayStatus.COMPLETE;
        try
        {
            replayer.startAtOrBefore(from, Long.MAX_VALUE);
            if (replayer.lastApplied() < from)
            {
                // Up to the point asked for nothing is sent: replay at full speed.
                replayer.replay(from, Long.MAX_VALUE, null);
            }
            if (replayer.lastApplied() < to)
            {
                replayer.replay(to, Long.MAX_VALUE, (sequence, timestampNs, sourceId, buffer, offset, length, events) ->
                    onReplayed(events));
            }
            if (sendFailed || stopping || replayer.lastApplied() < to)
            {
                status = ReportReplayStatus.FAILED;
            }
        }
        catch (final ReplayException ex)
        {
            status = ReportReplayStatus.FAILED;
        }
        finally
        {
            replaying = false;
        }
        if (status == ReportReplayStatus.COMPLETE)
        {
            served.increment();
        }
        else
        {
            failed.increment();
        }
        end.wrapAndApplyHeader(answer, 0, headerEncoder)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .status(status)
            .lastSequence(status == ReportReplayStatus.COMPLETE ? to : Math.min(replayer.lastApplied(), to))
            .reportCount(sentReports);
        send(answer, 0, HEADER + ReportReplayEndEncoder.BLOCK_LENGTH);
    }

    private boolean onReplayed(final EventLog events)
    {
        for (int i = 0, n = events.count(); i < n && !sendFailed; i++)
        {
            final int templateId = events.templateId(i);
            if (templateId == ExecutionReportDecoder.TEMPLATE_ID || templateId == TradeBustedDecoder.TEMPLATE_ID)
            {
                if (send(events.events(), events.offset(i), events.length(i)))
                {
                    sentReports++;
                }
            }
        }
        if (++commandsSeen % POLL_EVERY_COMMANDS == 0)
        {
            // A long replay still answers the requests beyond the waiting room (BUSY) as they come.
            requests.poll(onRequest, FRAGMENT_LIMIT);
        }
        return !sendFailed && !stopping;
    }

    /**
     * The oldest {@code fromSequence} this node can serve now: 0 when the journal starts at the first command; else
     * the oldest snapshot from which the journal goes on (the node's journal files were removed before it).
     */
    private long firstAvailable(final Journal.Ends ends)
    {
        if (ends.firstSequence() <= 1)
        {
            return 0;
        }
        if (Files.isDirectory(snapshotDirectory))
        {
            final List<Path> files = new SnapshotStore(snapshotDirectory).list();
            for (final Path file : files)
            {
                final long sequence = SnapshotFileDescriptor.sequenceOf(file);
                if (sequence != Long.MAX_VALUE && sequence >= ends.firstSequence() - 1)
                {
                    return sequence;
                }
            }
        }
        return ends.lastSequence();
    }

    private boolean respond(
        final int gatewayId,
        final long requestId,
        final ReportReplayStatus status,
        final long from,
        final long to,
        final long firstAvailable,
        final long last)
    {
        response.wrapAndApplyHeader(answer, 0, headerEncoder)
            .gatewayId(gatewayId)
            .requestId(requestId)
            .status(status)
            .fromSequence(from)
            .toSequence(to)
            .firstAvailableSequence(firstAvailable)
            .lastSequence(last);
        return send(answer, 0, HEADER + ReportReplayResponseEncoder.BLOCK_LENGTH);
    }

    /**
     * Offer, waiting while back-pressured (this thread is the service's alone), up to a bound: a gateway that stops
     * reading must not hold the service for ever. No reader at all fails at once.
     */
    private boolean send(final DirectBuffer buffer, final int offset, final int length)
    {
        if (sendFailed)
        {
            return false;
        }
        sendIdle.reset();
        final long deadlineNs = System.nanoTime() + SEND_TIMEOUT_NS;
        while (true)
        {
            final long result = answers.offer(buffer, offset, length);
            if (result > 0)
            {
                return true;
            }
            if (result == Publication.NOT_CONNECTED || result == Publication.CLOSED ||
                result == Publication.MAX_POSITION_EXCEEDED || stopping || System.nanoTime() - deadlineNs > 0)
            {
                sendFailed = true;
                return false;
            }
            if (result != Publication.ADMIN_ACTION)
            {
                sendIdle.idle();
            }
        }
    }
}
