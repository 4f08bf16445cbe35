package io.ringex.engine.cluster;

import java.util.concurrent.TimeUnit;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.aeron.FragmentAssembler;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.HEADER_LENGTH;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.LAST_TIMESTAMP_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.LOG_TERM_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.MAGIC;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.MAGIC_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.NEXT_SEQUENCE_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.STATE_HASH_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.STATE_LENGTH_OFFSET;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.VERSION;
import static io.ringex.engine.cluster.ClusterSnapshotDescriptor.VERSION_OFFSET;

/**
 * The engine's clustered service: the replication stage in front of the ring. It sees only what a majority of the
 * members hold (Aeron Cluster delivers the log up to its commit position) and, on every member alike, gives each
 * committed command its sequence and time and puts it into the input ring, where the journal stage and then the
 * processor take it. So every member journals and applies the same commands in the same order, whichever of them the
 * leader is, and no member applies a command the cluster could still lose.
 * <p>
 * Deterministic on the log: a command stamped with a term other than the log's current one (offered by a leader that
 * has since been deposed, reaching the log late) is refused and counted on every member alike; a command's time is
 * the leader's stamp, never less than the last one. What it keeps (next sequence, last time, the log's term) goes into
 * the cluster's snapshots with the processor's state ({@link ClusterSnapshotDescriptor}).
 * <p>
 * Thread safety: Aeron's service thread. Leadership is handed to the engine's other threads through {@link Leadership}.
 */
public final class EngineService implements ClusteredService
{
    private static final Logger LOG = LoggerFactory.getLogger(EngineService.class);
    private static final long SNAPSHOT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final EngineLog engine;
    private final Leadership leadership;
    private final AtomicCounter fenced;
    private final AtomicCounter committed;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ReplicatedCommandDecoder decoder = new ReplicatedCommandDecoder();
    private final UnsafeBuffer commandBuffer = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer snapshotHeader = new UnsafeBuffer(new byte[HEADER_LENGTH]);
    private final int memberId;
    private Cluster cluster;
    private long nextSequence = 1;
    private long lastTimestampNs;
    private long logTerm = Leadership.NO_TERM;

    /**
     * @param memberId   this member's id.
     * @param engine     the member's engine, fed with committed commands.
     * @param leadership where this member's leadership is told to the engine's threads.
     * @param fenced     counts the commands refused: taken in another term than the log's, or not commands.
     * @param committed  the sequence of the last command fed, readable from outside.
     */
    public EngineService(
        final int memberId,
        final EngineLog engine,
        final Leadership leadership,
        final AtomicCounter fenced,
        final AtomicCounter committed)
    {
        this.memberId = memberId;
        this.engine = engine;
        this.leadership = leadership;
        this.fenced = fenced;
        this.committed = committed;
    }

    public void onStart(final Cluster cluster, final Image snapshotImage)
    {
        this.cluster = cluster;
        if (null == snapshotImage)
        {
            engine.start(nextSequence, null, 0);
        }
        else
        {
            loadSnapshot(snapshotImage);
        }
        committed.setRelease(nextSequence - 1);
        leadership.role(cluster.role());
        LOG.info("cluster member {} started: next sequence {}, log term {}", memberId, nextSequence, logTerm);
    }

    public void onSessionOpen(final ClientSession session, final long timestamp)
    {
    }

    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason)
    {
    }

    public void onSessionMessage(
        final ClientSession session,
        final long timestamp,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final Header header)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + ReplicatedCommandDecoder.BLOCK_LENGTH +
            ReplicatedCommandDecoder.commandHeaderLength())
        {
            fenced.incrementRelease();
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != ReplicatedCommandDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != ReplicatedCommandDecoder.TEMPLATE_ID)
        {
            fenced.incrementRelease();
            return;
        }
        decoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        if (decoder.epoch() != logTerm)
        {
            // Taken by the leader of another term: a deposed leader's command, appended after the election. Every
            // member refuses it here alike; the gateway that sent it settles it as in doubt.
            fenced.incrementRelease();
            return;
        }
        final long timestampNs = Math.max(decoder.timestampNs(), lastTimestampNs);
        final long sourceId = decoder.sourceId();
        final int templateId = decoder.templateId();
        final int commandLength = decoder.commandLength();
        final int commandOffset = decoder.limit() + ReplicatedCommandDecoder.commandHeaderLength();
        if (commandLength > engine.maxCommandLength() || commandOffset + commandLength > offset + length)
        {
            // The leader took it, so it fitted the leader's ring: members must agree on the slot length.
            throw new IllegalStateException("committed command " + nextSequence + " of " + commandLength + " bytes " +
                "does not fit this member's input slot (" + engine.maxCommandLength() + "): every member must have " +
                "the same ringex.engine.input.slot.length");
        }
        commandBuffer.wrap(buffer, commandOffset, commandLength);
        while (!engine.tryAppend(nextSequence, timestampNs, sourceId, templateId, commandBuffer, 0, commandLength))
        {
            cluster.idleStrategy().idle();
        }
        lastTimestampNs = timestampNs;
        committed.setRelease(nextSequence);
        nextSequence++;
    }

    public void onTimerEvent(final long correlationId, final long timestamp)
    {
    }

    public void onTakeSnapshot(final ExclusivePublication snapshotPublication)
    {
        final long sequence = nextSequence - 1;
        engine.requestSnapshot(sequence, lastTimestampNs);
        final long deadlineNs = System.nanoTime() + SNAPSHOT_TIMEOUT_NS;
        EngineLog.ProcessorState state;
        while (null == (state = engine.snapshot(sequence)))
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the processor did not reach sequence " + sequence + " for the " +
                    "cluster's snapshot within " + TimeUnit.NANOSECONDS.toSeconds(SNAPSHOT_TIMEOUT_NS) + " s");
            }
            cluster.idleStrategy().idle();
        }
        snapshotHeader.putInt(MAGIC_OFFSET, MAGIC);
        snapshotHeader.putInt(VERSION_OFFSET, VERSION);
        snapshotHeader.putLong(NEXT_SEQUENCE_OFFSET, nextSequence);
        snapshotHeader.putLong(LAST_TIMESTAMP_OFFSET, lastTimestampNs);
        snapshotHeader.putLong(LOG_TERM_OFFSET, logTerm);
        snapshotHeader.putLong(STATE_HASH_OFFSET, state.stateHash());
        snapshotHeader.putInt(STATE_LENGTH_OFFSET, state.length());
        offer(snapshotPublication, snapshotHeader, 0, HEADER_LENGTH);
        final int chunk = Math.min(snapshotPublication.maxMessageLength(), 64 * 1024);
        for (int offset = 0; offset < state.length(); offset += chunk)
        {
            offer(snapshotPublication, state.state(), offset, Math.min(chunk, state.length() - offset));
        }
        LOG.info("cluster snapshot at sequence {}: {} bytes of state", sequence, state.length());
    }

    private void offer(final Publication publication, final DirectBuffer buffer, final int offset, final int length)
    {
        while (true)
        {
            final long result = publication.offer(buffer, offset, length);
            if (result > 0)
            {
                return;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED ||
                result == Publication.NOT_CONNECTED)
            {
                throw new IllegalStateException("cluster snapshot not written: " + Publication.errorString(result));
            }
            cluster.idleStrategy().idle();
        }
    }

    private void loadSnapshot(final Image image)
    {
        final SnapshotLoader loader = new SnapshotLoader();
        final FragmentAssembler assembler = new FragmentAssembler(loader);
        while (!loader.done)
        {
            if (image.poll(assembler, 16) == 0)
            {
                if (image.isEndOfStream() || image.isClosed())
                {
                    throw new IllegalStateException("cluster snapshot ends before its state: " + loader.received +
                        " of " + loader.stateLength + " bytes");
                }
                cluster.idleStrategy().idle();
            }
        }
        nextSequence = loader.nextSequence;
        lastTimestampNs = loader.lastTimestampNs;
        logTerm = loader.logTerm;
        engine.start(nextSequence, new UnsafeBuffer(loader.state, 0, loader.stateLength), loader.stateHash);
        LOG.info("cluster member {} restored its processor from the cluster's snapshot at sequence {} ({} bytes)",
            memberId, nextSequence - 1, loader.stateLength);
    }

    public void onRoleChange(final Cluster.Role newRole)
    {
        LOG.info("cluster member {}: {}", memberId, newRole);
        leadership.role(newRole);
    }

    public void onTerminate(final Cluster cluster)
    {
        leadership.role(Cluster.Role.FOLLOWER);
    }

    public void onNewLeadershipTermEvent(
        final long leadershipTermId,
        final long logPosition,
        final long timestamp,
        final long termBaseLogPosition,
        final int leaderMemberId,
        final int logSessionId,
        final TimeUnit timeUnit,
        final int appVersion)
    {
        logTerm = leadershipTermId;
        LOG.info("cluster member {}: term {} led by member {} (log position {}, next sequence {})", memberId,
            leadershipTermId, leaderMemberId, logPosition, nextSequence);
        if (leaderMemberId == memberId && cluster.role() == Cluster.Role.LEADER)
        {
            leadership.lead(leadershipTermId);
        }
    }

    /** Assembles the engine's part of a snapshot from its messages. */
    private static final class SnapshotLoader implements FragmentHandler
    {
        long nextSequence;
        long lastTimestampNs;
        long logTerm;
        long stateHash;
        int stateLength = -1;
        int received;
        boolean done;
        final ExpandableArrayBuffer state = new ExpandableArrayBuffer(1 << 20);

        public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            if (stateLength < 0)
            {
                if (length != HEADER_LENGTH || buffer.getInt(offset + MAGIC_OFFSET) != MAGIC ||
                    buffer.getInt(offset + VERSION_OFFSET) != VERSION)
                {
                    throw new IllegalStateException("not an engine cluster snapshot of version " + VERSION);
                }
                nextSequence = buffer.getLong(offset + NEXT_SEQUENCE_OFFSET);
                lastTimestampNs = buffer.getLong(offset + LAST_TIMESTAMP_OFFSET);
                logTerm = buffer.getLong(offset + LOG_TERM_OFFSET);
                stateHash = buffer.getLong(offset + STATE_HASH_OFFSET);
                stateLength = buffer.getInt(offset + STATE_LENGTH_OFFSET);
            }
            else
            {
                state.putBytes(received, buffer, offset, length);
                received += length;
            }
            done = received >= stateLength;
        }
    }
}
