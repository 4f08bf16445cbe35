package io.ringex.engine.replication;

import java.util.function.LongSupplier;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalRecordHandler;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CatchUpRequestDecoder;
import io.ringex.protocol.codecs.CatchUpResponseEncoder;
import io.ringex.protocol.codecs.CatchUpStatus;
import io.ringex.protocol.codecs.CatchUpStopDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.ReplicatedCommandEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * On the primary: serves a standby's catch-up from this node's own journal, on a stream of its own so the live
 * replication stream is untouched.
 * <p>
 * A {@code CatchUpRequest} names the standby's next sequence F and its record F-1 (sequence and CRC-32C). The agent
 * scans its journal to F-1 and compares: the same record means the standby's journal is a prefix of this one, and the
 * agent answers {@code STREAMING} and sends every record from F on as a {@code ReplicatedCommand}, tailing the
 * journal while it grows, until the standby sends {@code CatchUpStop} (it has gone live), another request replaces
 * it, or the standby stays unreachable for the timeout. A different record at F-1, or a journal that will never reach
 * F-1 (this node has sequenced less), is answered {@code DIVERGED}; a probe request (the standby bisecting for the
 * first diverging record) is answered {@code MATCHED} or {@code DIVERGED} and streams nothing. A gap in this node's
 * journal is answered {@code UNAVAILABLE}.
 * <p>
 * Work is bounded per {@link #doWork()}: at most {@link #SCAN_LIMIT} records scanned or {@link #SEND_LIMIT} sent.
 * A back-pressured send is kept and offered first on the next call, so nothing is skipped. It serves only while the
 * node is primary. One standby at a time: a pair has one. A request repeated while it is verified is ignored; one
 * repeated while streaming means the standby never had the answer, which is sent again, and the stream restarts from
 * the sequence the request names.
 * <p>
 * Thread safety: one thread (the node's I/O thread), which creates, uses and closes the journal readers.
 */
public final class CatchUpAgent implements Agent, FragmentHandler
{
    static final int SCAN_LIMIT = 4096;
    static final int SEND_LIMIT = 256;
    private static final System.Logger LOG = System.getLogger(CatchUpAgent.class.getName());
    private static final JournalRecordHandler SKIP = (sequence, timestampNs, sourceId, templateId, buffer, offset,
        length) -> { };

    private enum State
    {
        IDLE, VERIFYING, STREAMING
    }

    private final Subscription requests;
    private final ExclusivePublication publication;
    private final Journal journal;
    private final LongSupplier sequenced;
    private final LongSupplier epoch;
    private final ActingRole role;
    private final NanoClock clock;
    private final int nodeId;
    private final long unreachableTimeoutNs;
    private final AtomicCounter sentCounter;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final CatchUpRequestDecoder request = new CatchUpRequestDecoder();
    private final CatchUpStopDecoder stop = new CatchUpStopDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicatedCommandEncoder command = new ReplicatedCommandEncoder();
    private final CatchUpResponseEncoder response = new CatchUpResponseEncoder();
    private final JournalRecordHandler encoder = this::encode;
    private final UnsafeBuffer sendBuffer;
    private int pendingLength;
    private long unreachableSinceNs;
    private State state = State.IDLE;
    private JournalReader reader;
    private long requestId;
    private int standbyNodeId;
    private long fromSequence;
    private int checksum;
    private boolean probe;
    private long sent;
    private volatile boolean standbyVerified;

    /**
     * @param requests             this node's acknowledgement channel, where catch-up requests and stops arrive.
     * @param publication          the catch-up stream to the standby.
     * @param journal              this node's journal.
     * @param sequenced            the highest command sequence this node has taken.
     * @param epoch                this node's epoch.
     * @param role                 the node's role: it serves while PRIMARY only.
     * @param clock                the node's clock, for the unreachable timeout.
     * @param nodeId               this node's id.
     * @param unreachableTimeoutNs how long a standby may take nothing before its session is ended.
     * @param sentCounter          counts the commands sent.
     * @param maxPayloadLength     the longest command.
     */
    public CatchUpAgent(
        final Subscription requests,
        final ExclusivePublication publication,
        final Journal journal,
        final LongSupplier sequenced,
        final LongSupplier epoch,
        final ActingRole role,
        final NanoClock clock,
        final int nodeId,
        final long unreachableTimeoutNs,
        final AtomicCounter sentCounter,
        final int maxPayloadLength)
    {
        this.requests = requests;
        this.publication = publication;
        this.journal = journal;
        this.sequenced = sequenced;
        this.epoch = epoch;
        this.role = role;
        this.clock = clock;
        this.nodeId = nodeId;
        this.unreachableTimeoutNs = unreachableTimeoutNs;
        this.sentCounter = sentCounter;
        this.sendBuffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
            ReplicatedCommandEncoder.BLOCK_LENGTH + ReplicatedCommandEncoder.commandHeaderLength() + maxPayloadLength]);
    }

    public int doWork()
    {
        int work = requests.poll(this, 8);
        if (pendingLength > 0 && !offerPending())
        {
            return work;
        }
        if (state == State.IDLE)
        {
            return work;
        }
        if (!role.isPrimary())
        {
            finish("this node is no longer primary");
            return work + 1;
        }
        work += state == State.VERIFYING ? verify() : stream();
        return work;
    }

    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header frame)
    {
        header.wrap(buffer, offset);
        if (header.schemaId() != CatchUpRequestDecoder.SCHEMA_ID)
        {
            return;
        }
        if (header.templateId() == CatchUpRequestDecoder.TEMPLATE_ID && role.isPrimary())
        {
            request.wrapAndApplyHeader(buffer, offset, header);
            if (state == State.VERIFYING && request.requestId() == requestId && request.nodeId() == standbyNodeId)
            {
                return;
            }
            if (state == State.STREAMING && request.requestId() == requestId && request.nodeId() == standbyNodeId)
            {
                // Still asking: the STREAMING answer was lost (a standby restarted quickly). Answer again and stream
                // from the sequence it names.
                LOG.log(System.Logger.Level.INFO, "catch-up request {0} repeated by standby node {1}: answering " +
                    "again, from sequence {2}", requestId, standbyNodeId, request.fromSequence());
            }
            closeReader();
            pendingLength = 0;
            requestId = request.requestId();
            standbyNodeId = request.nodeId();
            fromSequence = Math.max(1, request.fromSequence());
            checksum = request.lastChecksum();
            probe = request.probe() == BooleanType.TRUE;
            unreachableSinceNs = 0;
            state = State.VERIFYING;
            if (!probe)
            {
                standbyVerified = false;
                LOG.log(System.Logger.Level.INFO, "catch-up for standby node {0} from sequence {1} (request {2})",
                    standbyNodeId, fromSequence, requestId);
            }
        }
        else if (header.templateId() == CatchUpStopDecoder.TEMPLATE_ID && state != State.IDLE)
        {
            stop.wrapAndApplyHeader(buffer, offset, header);
            if (stop.requestId() == requestId)
            {
                finish("standby node " + stop.nodeId() + " is live from sequence " + stop.liveSequence());
            }
        }
    }

    private int verify()
    {
        final long check = fromSequence - 1;
        if (null == reader)
        {
            reader = journal.newReader();
        }
        if (check > 0 && reader.lastSequence() < check)
        {
            final int read = reader.read(SKIP, (int)Math.min(SCAN_LIMIT, check - reader.lastSequence()));
            if (read < 0)
            {
                LOG.log(System.Logger.Level.ERROR, "catch-up cannot read this journal: {0}", reader.problem());
                respond(CatchUpStatus.UNAVAILABLE, reader.lastSequence() + 1);
                finish("journal unreadable");
                return 1;
            }
            if (reader.lastSequence() < check)
            {
                final long highest = sequenced.getAsLong();
                if (read == 0 && check > highest)
                {
                    // The standby holds records this node never sequenced: the first of them diverges at least.
                    diverged(highest + 1);
                    return 1;
                }
                return read;
            }
        }
        if (check > 0 && reader.lastChecksum() != checksum)
        {
            diverged(check);
            return 1;
        }
        if (probe)
        {
            respond(CatchUpStatus.MATCHED, check);
            finish(null);
            return 1;
        }
        respond(CatchUpStatus.STREAMING, fromSequence);
        reader.fromSequence(fromSequence);
        state = State.STREAMING;
        standbyVerified = true;
        return 1;
    }

    /**
     * Whether the standby's journal has been checked against this node's since this node started: its latest
     * catch-up request named a record this journal holds. Until then what it acknowledges may be records this node
     * does not hold (a standby ahead of a primary restarted with a lost tail), so the {@link PeerMonitor} ignores it.
     *
     * @return true once a request has been answered STREAMING, until the next request (from any thread).
     */
    boolean standbyVerified()
    {
        return standbyVerified;
    }

    private void diverged(final long sequence)
    {
        if (!probe)
        {
            LOG.log(System.Logger.Level.WARNING, "standby node {0} asked to catch up after sequence {1}, a record " +
                "this journal does not hold: refused as DIVERGED (this node has sequenced up to {2})", standbyNodeId,
                fromSequence - 1, sequenced.getAsLong());
        }
        respond(CatchUpStatus.DIVERGED, sequence);
        finish(null);
    }

    private int stream()
    {
        int work = 0;
        while (work < SEND_LIMIT)
        {
            final int read = reader.read(encoder, 1);
            if (read < 0)
            {
                LOG.log(System.Logger.Level.ERROR, "catch-up stopped by this journal: {0}", reader.problem());
                respond(CatchUpStatus.UNAVAILABLE, reader.lastSequence() + 1);
                finish("journal unreadable");
                return work + 1;
            }
            if (read == 0)
            {
                break;
            }
            work++;
            sent++;
            sentCounter.incrementRelease();
            if (!offerPending())
            {
                break;
            }
        }
        return work;
    }

    private void encode(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        command.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(epoch.getAsLong())
            .sequence(sequence)
            .timestampNs(timestampNs)
            .sourceId(sourceId)
            .templateId(templateId)
            .putCommand(buffer, offset, length);
        pendingLength = MessageHeaderEncoder.ENCODED_LENGTH + command.encodedLength();
    }

    private void respond(final CatchUpStatus status, final long sequence)
    {
        response.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(epoch.getAsLong())
            .nodeId(nodeId)
            .requestId(requestId)
            .status(status)
            .sequence(sequence)
            .primarySequence(sequenced.getAsLong());
        pendingLength = MessageHeaderEncoder.ENCODED_LENGTH + response.encodedLength();
        offerPending();
    }

    /**
     * @return true once the pending message is sent (or given up on, with the session, after the timeout).
     */
    private boolean offerPending()
    {
        final long result = publication.offer(sendBuffer, 0, pendingLength);
        if (result > 0)
        {
            pendingLength = 0;
            unreachableSinceNs = 0;
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            throw new IllegalStateException("catch-up publication unusable: " + Publication.errorString(result));
        }
        final long now = clock.nanoTime();
        if (0 == unreachableSinceNs)
        {
            unreachableSinceNs = now;
        }
        else if (now - unreachableSinceNs > unreachableTimeoutNs)
        {
            pendingLength = 0;
            finish("standby node " + standbyNodeId + " unreachable (" + Publication.errorString(result) + ")");
            return true;
        }
        return false;
    }

    private void finish(final String why)
    {
        if (null != why && state == State.STREAMING)
        {
            LOG.log(System.Logger.Level.INFO, "catch-up for standby node {0} ended after {1} commands: {2}",
                standbyNodeId, sent, why);
        }
        closeReader();
        state = State.IDLE;
        sent = 0;
    }

    private void closeReader()
    {
        if (null != reader)
        {
            reader.close();
            reader = null;
        }
    }

    public void onClose()
    {
        closeReader();
    }

    public String roleName()
    {
        return "catch-up";
    }
}
