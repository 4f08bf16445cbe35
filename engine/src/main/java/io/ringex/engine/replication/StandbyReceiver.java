package io.ringex.engine.replication;

import java.util.function.IntSupplier;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.journal.Journal;
import io.ringex.protocol.codecs.CatchUpResponseDecoder;
import io.ringex.protocol.codecs.CatchUpStatus;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import io.ringex.protocol.codecs.ReplicationHeartbeatDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The standby's input: claims the primary's commands into the standby's input ring with the primary's sequence, time
 * and source, so the standby's journal and processor see exactly what the primary's did. Commands come from the live
 * replication stream or from the catch-up stream, where the primary's {@link CatchUpAgent} sends its journal.
 * <pre>
 *  REQUESTING --STREAMING--> CATCHING_UP --live command at the next sequence--> LIVE
 *      |  ^                                                                       |
 *      |  +------------------------- a gap in the live stream --------------------+
 *      +--DIVERGED--> PROBING (bisect for the first diverging record) --> REFUSED
 * </pre>
 * On start, after a gap, and when the primary restarts (its commands or heartbeats come from a new publication; it
 * stops acknowledging until answered) it asks the primary for a catch-up ({@code CatchUpRequest} on the acknowledgement
 * channel), once its journal holds everything it took, naming its next sequence and its last record (sequence and
 * CRC-32C), and asks again every {@link #REQUEST_INTERVAL_NS} until answered. Catching up, it asks again with a new
 * request when the primary answers UNAVAILABLE, or when the catch-up stream brings nothing for that interval while the
 * primary (its heartbeats, its live commands) holds sequences this node lacks: the primary ended the session. It
 * applies nothing until the primary has matched that record. Catching up, it takes each sequence from whichever
 * stream has it next and ignores live commands ahead of it; the first live command it applies makes it LIVE, and it
 * tells the primary to stop ({@code CatchUpStop}). If the primary does not hold its last record, it bisects with probe
 * requests to the first record the two journals differ on, logs it with what to do, counts it and reports DIVERGED, and
 * applies nothing more: its journal holds commands the primary's does not (an old primary's unacknowledged tail), which
 * no catch-up can reconcile. Refused or stopped (promoted), it still reads both streams and discards what arrives, so
 * that the sender is never held up by a reader that will apply nothing. A full ring pushes back with ABORT.
 * <p>
 * Thread safety: one thread (the input thread); the only user of the standby input ring's sequencer.
 * {@link #acknowledging()} and {@link #isDiverged()} from any thread.
 */
public final class StandbyReceiver implements Agent
{
    static final long REQUEST_INTERVAL_NS = 250_000_000L;
    private static final System.Logger LOG = System.getLogger(StandbyReceiver.class.getName());
    private static final int FRAGMENT_LIMIT = 64;
    private static final FragmentHandler DISCARD = (buffer, offset, length, header) ->
    {
    };

    private enum State
    {
        REQUESTING, CATCHING_UP, LIVE, PROBING, REFUSED, STOPPED
    }

    private final Subscription live;
    private final Subscription catchUp;
    private final CatchUpRequester requester;
    private final DivergenceProbe probe;
    private final PrimarySessions sessions = new PrimarySessions();
    private final ReplicatedCommandWriter writer;
    private final SequenceBase sequences;
    private final AtomicCounter journalSequence;
    private final IntSupplier journaledChecksum;
    private final AtomicCounter gaps;
    private final AtomicCounter caughtUp;
    private final NanoClock clock;
    private final int nodeId;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ReplicatedCommandDecoder decoder = new ReplicatedCommandDecoder();
    private final CatchUpResponseDecoder response = new CatchUpResponseDecoder();
    private final ReplicationHeartbeatDecoder heartbeat = new ReplicationHeartbeatDecoder();
    private final ControlledFragmentHandler liveHandler = this::onLive;
    private final ControlledFragmentHandler catchUpHandler = this::onCatchUp;
    private State state = State.REQUESTING;
    private volatile boolean acknowledging;
    private volatile boolean diverged;
    private volatile boolean closed;
    private boolean ringFull;
    private long nextSequence;
    private volatile long epoch;
    private long lastHeardNs;
    private long lastCatchUpNs;
    private long primarySequence;
    private long nowNs;
    private long requestId;
    private long nextRequestNs;
    private int primaryNodeId;

    /**
     * @param live              the replication stream: the primary's live commands and heartbeats.
     * @param catchUp           the catch-up stream: the primary's answers and its journal's commands.
     * @param toPrimary         the primary's acknowledgement channel, where requests and stops go.
     * @param ring              the standby's input ring, of which this receiver is the only producer.
     * @param sequences         ring to command sequences.
     * @param journal           this node's journal, read when bisecting a divergence.
     * @param journalSequence   the journal stage's sequence: what this node has journaled.
     * @param journaledChecksum the CRC-32C of the last record journaled.
     * @param counters          where the receiver's counters are allocated.
     * @param role              the node's role, set DIVERGED when its journal is found to differ.
     * @param clock             the node's clock, for every interval.
     * @param nodeId            this node's id.
     */
    public StandbyReceiver(
        final Subscription live,
        final Subscription catchUp,
        final Publication toPrimary,
        final Ring ring,
        final SequenceBase sequences,
        final Journal journal,
        final AtomicCounter journalSequence,
        final IntSupplier journaledChecksum,
        final CountersManager counters,
        final ActingRole role,
        final NanoClock clock,
        final int nodeId)
    {
        this.live = live;
        this.catchUp = catchUp;
        this.requester = new CatchUpRequester(toPrimary, nodeId);
        this.probe = new DivergenceProbe(journal, counters.newCounter("standby-diverged"), role, nodeId);
        this.writer = new ReplicatedCommandWriter(ring);
        this.sequences = sequences;
        this.journalSequence = journalSequence;
        this.journaledChecksum = journaledChecksum;
        this.gaps = counters.newCounter("standby-gaps");
        this.caughtUp = counters.newCounter("standby-caught-up-commands");
        this.clock = clock;
        this.nodeId = nodeId;
        this.nextSequence = sequences.firstCommandSequence();
        // Distinct from the ids a previous life of this node used, which its primary may still be serving.
        this.requestId = clock.nanoTime();
    }

    public int doWork()
    {
        nowNs = clock.nanoTime();
        if (closed)
        {
            return 0;
        }
        if (state == State.STOPPED || state == State.REFUSED)
        {
            // Keep reading and discard: a subscription left unread fills, and its primary's replication then waits.
            return live.poll(DISCARD, FRAGMENT_LIMIT) + catchUp.poll(DISCARD, FRAGMENT_LIMIT);
        }
        ringFull = false;
        int work = 0;
        if ((state == State.REQUESTING || state == State.PROBING) && nowNs >= nextRequestNs)
        {
            work += sendRequest();
        }
        work += catchUp.controlledPoll(catchUpHandler, FRAGMENT_LIMIT);
        work += live.controlledPoll(liveHandler, FRAGMENT_LIMIT);
        if (state == State.CATCHING_UP && primarySequence >= nextSequence &&
            nowNs - lastCatchUpNs > REQUEST_INTERVAL_NS)
        {
            // The primary holds what this node lacks but its catch-up went quiet: it ended the session (the standby
            // unreachable for a while, a restart), and only a new request starts another.
            LOG.log(System.Logger.Level.WARNING, "standby node {0}: no catch-up from primary node {1} for {2} ms " +
                "at sequence {3} (primary at {4}): asking again", nodeId, primaryNodeId,
                REQUEST_INTERVAL_NS / 1_000_000, nextSequence, primarySequence);
            askAgain(0);
            work++;
        }
        return work;
    }

    public String roleName()
    {
        return "standby-receiver";
    }

    /**
     * Before a promotion: apply what has already arrived, polling until nothing more comes (waiting for the processor
     * while the ring is full), for at most {@link #REQUEST_INTERVAL_NS} so that a primary still sending cannot hold
     * the promotion up.
     *
     * @param whileRingFull how to wait for the processor while the ring is full (one that runs it, when it shares
     *                      this thread).
     * @return the work done.
     */
    int drain(final IdleStrategy whileRingFull)
    {
        final long deadlineNs = clock.nanoTime() + REQUEST_INTERVAL_NS;
        int work = 0;
        int polled;
        whileRingFull.reset();
        do
        {
            polled = doWork();
            work += polled;
            if (ringFull)
            {
                whileRingFull.idle();
            }
        }
        while ((polled > 0 || ringFull) && clock.nanoTime() < deadlineNs);
        return work;
    }

    /**
     * @return when anything last arrived from the primary (a command or a heartbeat), by the node's clock; 0 if never.
     */
    long lastHeardNs()
    {
        return lastHeardNs;
    }

    /**
     * Stop taking replicated commands (on promotion); a catch-up in progress is told to stop.
     */
    void stop()
    {
        if (state == State.CATCHING_UP)
        {
            // If it is not sent, the old primary stops serving when it finds itself superseded (or is gone).
            requester.stop(epoch, requestId, nextSequence);
        }
        state = State.STOPPED;
    }

    /**
     * Stop taking commands because the node is closing (from any thread).
     */
    public void close()
    {
        closed = true;
    }

    /**
     * @return the highest epoch seen from the primary (any thread).
     */
    long epoch()
    {
        return epoch;
    }

    /**
     * @return the next command sequence expected.
     */
    long nextSequence()
    {
        return nextSequence;
    }

    /**
     * @return whether the primary has matched this node's journal, so what it has journaled may be acknowledged
     * (any thread).
     */
    boolean acknowledging()
    {
        return acknowledging;
    }

    /**
     * @return whether this receiver is in step with its primary (input thread only): LIVE, or catching up with every
     * sequence the primary last said it had journaled (on a quiet market no live command comes to make it LIVE).
     */
    boolean isInStep()
    {
        return state == State.LIVE || state == State.CATCHING_UP && nextSequence > primarySequence;
    }

    /**
     * @return the catch-up state, for logs (input thread only).
     */
    String stateName()
    {
        return state.name();
    }

    /**
     * @return whether this node's journal was found to diverge from the primary's.
     */
    boolean isDiverged()
    {
        return diverged;
    }

    private int sendRequest()
    {
        final boolean probing = state == State.PROBING;
        final long fromSequence;
        final int checksum;
        if (!probing)
        {
            // Name the record the journal holds last: wait until it holds everything taken.
            if (sequences.commandSequence(journalSequence.get()) != nextSequence - 1)
            {
                return 0;
            }
            fromSequence = nextSequence;
            checksum = nextSequence > 1 ? journaledChecksum.getAsInt() : 0;
        }
        else
        {
            fromSequence = probe.fromSequence();
            checksum = probe.checksum();
        }
        // Sent or not, asked again after the interval until answered (CatchUpRequester).
        requester.request(epoch, requestId, fromSequence, checksum, probing);
        nextRequestNs = nowNs + REQUEST_INTERVAL_NS;
        return 1;
    }

    private void askAgain(final long delayNs)
    {
        state = State.REQUESTING;
        requestId++;
        nextRequestNs = nowNs + delayNs;
    }

    private ControlledFragmentHandler.Action onLive(
        final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        lastHeardNs = nowNs;
        if (!isCommand(buffer, offset))
        {
            if (headerDecoder.schemaId() == ReplicationHeartbeatDecoder.SCHEMA_ID &&
                headerDecoder.templateId() == ReplicationHeartbeatDecoder.TEMPLATE_ID)
            {
                if (primaryRestarted(true, header.sessionId()))
                {
                    return ControlledFragmentHandler.Action.BREAK;
                }
                heartbeat.wrapAndApplyHeader(buffer, offset, headerDecoder);
                primarySequence = Math.max(primarySequence, heartbeat.sequence());
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (primaryRestarted(false, header.sessionId()))
        {
            return ControlledFragmentHandler.Action.BREAK;
        }
        final long sequence = decoder.sequence();
        primarySequence = Math.max(primarySequence, sequence);
        if (sequence != nextSequence || (state != State.LIVE && state != State.CATCHING_UP))
        {
            if (sequence > nextSequence && state == State.LIVE)
            {
                gaps.incrementRelease();
                LOG.log(System.Logger.Level.WARNING, "standby missed live commands {0}..{1}: catching up from the " +
                    "primary''s journal", nextSequence, sequence - 1);
                state = State.REQUESTING;
                nextRequestNs = 0;
                requestId++;
                return ControlledFragmentHandler.Action.BREAK;
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        final ControlledFragmentHandler.Action action = apply();
        if (action == ControlledFragmentHandler.Action.CONTINUE && state == State.CATCHING_UP)
        {
            state = State.LIVE;
            // If it is not sent, sent again when the primary's catch-up stream brings more (onCatchUp).
            requester.stop(epoch, requestId, sequence);
            LOG.log(System.Logger.Level.INFO, "standby node {0} caught up: live from sequence {1}", nodeId, sequence);
        }
        return action;
    }

    /**
     * Live commands or heartbeats from another publication than before: the primary restarted (or another node took
     * its place). Its journal may now end before this one (a tail lost in a crash), and then it re-sequences this
     * node's last numbers with other commands: taking them on as if they followed this journal would diverge
     * silently. So stop acknowledging and ask for a catch-up again, which checks this node's last record against the
     * primary's journal (and refuses the primary if it lacks it).
     */
    private boolean primaryRestarted(final boolean heartbeat, final int sessionId)
    {
        final boolean changed = heartbeat ? sessions.heartbeatsFrom(sessionId) : sessions.commandsFrom(sessionId);
        if (!changed || (state != State.LIVE && state != State.CATCHING_UP))
        {
            return false;
        }
        LOG.log(System.Logger.Level.WARNING, "standby node {0}: the primary''s replication comes from a new " +
            "publication (a restart?): checking this journal''s last record, sequence {1}, against it again",
            nodeId, nextSequence - 1);
        acknowledging = false;
        askAgain(0);
        return true;
    }

    private ControlledFragmentHandler.Action onCatchUp(
        final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        lastHeardNs = nowNs;
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() == CatchUpResponseDecoder.SCHEMA_ID &&
            headerDecoder.templateId() == CatchUpResponseDecoder.TEMPLATE_ID)
        {
            response.wrapAndApplyHeader(buffer, offset, headerDecoder);
            if (response.requestId() == requestId)
            {
                onResponse();
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (!isCommand(buffer, offset))
        {
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (state == State.LIVE && nowNs >= nextRequestNs)
        {
            // The stop was lost: the primary is still streaming what the live stream already gave.
            requester.stop(epoch, requestId, nextSequence);
            nextRequestNs = nowNs + REQUEST_INTERVAL_NS;
        }
        if (state != State.CATCHING_UP || decoder.sequence() != nextSequence)
        {
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        lastCatchUpNs = nowNs;
        final ControlledFragmentHandler.Action action = apply();
        if (action == ControlledFragmentHandler.Action.CONTINUE)
        {
            caughtUp.incrementRelease();
        }
        return action;
    }

    private void onResponse()
    {
        final CatchUpStatus status = response.status();
        epoch = Math.max(epoch, response.epoch());
        primaryNodeId = response.nodeId();
        if (state == State.REQUESTING && status == CatchUpStatus.STREAMING)
        {
            state = State.CATCHING_UP;
            acknowledging = true;
            lastCatchUpNs = nowNs;
            primarySequence = Math.max(primarySequence, response.primarySequence());
            LOG.log(System.Logger.Level.INFO, "standby node {0} catching up from primary node {1}: sequences {2}.." +
                "{3} and on", nodeId, primaryNodeId, nextSequence, response.primarySequence());
        }
        else if (state == State.REQUESTING && status == CatchUpStatus.DIVERGED)
        {
            acknowledging = false;
            LOG.log(System.Logger.Level.WARNING, "primary node {0} does not hold this standby''s record {1}: " +
                "finding the first diverging sequence", primaryNodeId, nextSequence - 1);
            state = State.PROBING;
            nextProbe(probe.start(response.sequence()));
        }
        else if (state == State.PROBING && (status == CatchUpStatus.MATCHED || status == CatchUpStatus.DIVERGED))
        {
            nextProbe(status == CatchUpStatus.MATCHED ? probe.matched() : probe.diverged(response.sequence()));
        }
        else if (status == CatchUpStatus.UNAVAILABLE)
        {
            LOG.log(System.Logger.Level.ERROR, "primary node {0} cannot serve a catch-up from sequence {1} (a gap " +
                "in its journal): asking again in {2} ms; see its log", primaryNodeId, response.sequence(),
                REQUEST_INTERVAL_NS / 1_000_000);
            if (state == State.REQUESTING || state == State.CATCHING_UP)
            {
                askAgain(REQUEST_INTERVAL_NS);
            }
        }
    }

    private void nextProbe(final boolean more)
    {
        requestId++;
        nextRequestNs = 0;
        if (!more)
        {
            refuse(probe.firstDiverging());
        }
    }

    private void refuse(final long firstDiverging)
    {
        state = State.REFUSED;
        acknowledging = false;
        diverged = true;
        probe.refuse(primaryNodeId, firstDiverging, nextSequence - 1);
    }

    private boolean isCommand(final DirectBuffer buffer, final int offset)
    {
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != ReplicatedCommandDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != ReplicatedCommandDecoder.TEMPLATE_ID)
        {
            return false;
        }
        decoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        return true;
    }

    private ControlledFragmentHandler.Action apply()
    {
        final long ringSequence = writer.claim();
        if (ringSequence < 0)
        {
            ringFull = true;
            return ControlledFragmentHandler.Action.ABORT;
        }
        if (decoder.epoch() > epoch)
        {
            // Written only when it changes, and before the command is published: the ack stage, on another thread,
            // acknowledges the command with the epoch it reads.
            epoch = decoder.epoch();
        }
        writer.write(ringSequence, decoder);
        nextSequence++;
        return ControlledFragmentHandler.Action.CONTINUE;
    }
}
