package io.ringex.engine.replication;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.ringex.engine.ring.SequenceBase;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.ReplicatedCommandEncoder;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The replication stage on the primary: sends each input slot to the standby as a {@code ReplicatedCommand}.
 * <p>
 * In ASYNC mode its sequence passes a slot once the command is handed to Aeron. In SYNC mode, at each end of batch it
 * waits until the standby acknowledges having journaled the whole batch, so the processor, gated on this stage, only
 * acts on commands two journals hold; a batch is one round trip, whatever its size. If no acknowledgement comes
 * within the timeout (standby lost) the stage degrades to ASYNC, counts it and logs it loudly, rather than stopping
 * the venue. While degraded, an acknowledged order is on one journal only (docs/operations.md). It returns to SYNC
 * once the standby has caught up: when its acknowledgements have advanced since the last try and are within
 * {@link #RESYNC_LAG} commands of the batch just sent, the stage waits (at most the timeout) for that batch's
 * acknowledgement once, and is SYNC again if it comes. A standby far behind (catching up from the journal, which
 * {@link CatchUpAgent} serves on another stream) never stalls the primary. With no standby connected in ASYNC mode,
 * commands are not sent; a standby that joins later catches up from the journal. A send back-pressured for longer
 * than the timeout (a standby that reads nothing: stopped, or refusing its primary) is treated like a missing
 * acknowledgement: the stage degrades (counted, logged), drops that send and, until a send succeeds again, every
 * back-pressured one at once; the gap makes the standby catch up from the journal when it reads again.
 * <p>
 * On a standby the stage is present but idle (it passes every slot) until a promotion {@link #activate}s it: the
 * promoted node then replicates to its own standby, starting degraded (no standby is known to be in step yet).
 * <p>
 * Run with {@link io.ringex.engine.ring.StageErrorPolicy#HALT}. Thread safety: the stage's thread only.
 */
public final class ReplicationStage implements SlotHandler
{
    private static final System.Logger LOG = System.getLogger(ReplicationStage.class.getName());
    /** A degraded stage tries to return to SYNC when the standby acknowledges within this many commands. */
    static final long RESYNC_LAG = 1024;

    private final ExclusivePublication publication;
    private final boolean sync;
    private final long ackTimeoutNs;
    private final SequenceBase sequences;
    private final NanoClock clock;
    private final IdleStrategy idleStrategy;
    private final AtomicCounter ackedCounter;
    private final AtomicCounter degradedCounter;
    private final Agent whileWaiting;
    private final UnsafeBuffer sendBuffer;
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicatedCommandEncoder encoder = new ReplicatedCommandEncoder();
    private long epoch;
    private volatile boolean degraded;
    private long ackedAtLastResync = -1;
    private volatile boolean active;
    private boolean dropping;

    /**
     * @param publication      the replication stream to the standby.
     * @param sync             SYNC (wait for acknowledgements) rather than ASYNC.
     * @param ackTimeoutNs     how long to wait for an acknowledgement, a connection or a back-pressured send.
     * @param sequences        ring to command sequences.
     * @param clock            the node's clock, for every timeout.
     * @param idleStrategy     how to wait.
     * @param ackedCounter     what the standby has acknowledged (advanced by the {@link PeerMonitor}).
     * @param degradedCounter  counts degradations and dropped sends.
     * @param maxPayloadLength the longest command.
     * @param whileWaiting     work to do instead of idling while waiting, when it shares this stage's thread: the
     *                         {@link CatchUpAgent}, so that a standby catching up (which acknowledges nothing until
     *                         its primary serves it) is served while SYNC replication waits for it; and the output
     *                         ring's publishers, so that a processor waiting for output slots gets them, finishes its
     *                         batch, and lets the peer monitor on its thread read the acknowledgement this stage waits
     *                         for. Null for none (each has a thread of its own).
     */
    public ReplicationStage(
        final ExclusivePublication publication,
        final boolean sync,
        final long ackTimeoutNs,
        final SequenceBase sequences,
        final NanoClock clock,
        final IdleStrategy idleStrategy,
        final AtomicCounter ackedCounter,
        final AtomicCounter degradedCounter,
        final int maxPayloadLength,
        final Agent whileWaiting)
    {
        this.publication = publication;
        this.sync = sync;
        this.ackTimeoutNs = ackTimeoutNs;
        this.sequences = sequences;
        this.clock = clock;
        this.idleStrategy = idleStrategy;
        this.ackedCounter = ackedCounter;
        this.degradedCounter = degradedCounter;
        this.whileWaiting = whileWaiting;
        this.sendBuffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
            ReplicatedCommandEncoder.BLOCK_LENGTH + ReplicatedCommandEncoder.commandHeaderLength() + maxPayloadLength]);
    }

    /**
     * Start replicating (a primary at start, before its stages run; a promoted standby, from the input thread before
     * it publishes its promotion command, whose slot this stage then sends).
     *
     * @param epoch         the epoch stamped on replicated commands.
     * @param startDegraded whether to start as ASYNC until a standby catches up.
     */
    public void activate(final long epoch, final boolean startDegraded)
    {
        this.epoch = epoch;
        // Only acknowledgements that arrive from now on can bring a degraded stage back to SYNC: what the counter
        // holds already is no sign of a standby in step, and waiting on it would stall a node just promoted for a
        // whole ack timeout when its old primary, the only peer it knew, is dead.
        ackedAtLastResync = ackedCounter.getAcquire();
        if (startDegraded && sync)
        {
            degraded = true;
            LOG.log(System.Logger.Level.WARNING, "replication active at epoch {0}: ASYNC until a standby catches up, " +
                "then SYNC", epoch);
        }
        // Release: the stage may run on another thread; its next slot reads the flag, and the fields above with it.
        active = true;
    }

    /**
     * @return whether the stage is SYNC and degraded to ASYNC now (any thread).
     */
    public boolean degraded()
    {
        return degraded;
    }

    /**
     * @return whether the stage replicates: activated, on a primary at start or on a standby by its promotion (any
     * thread).
     */
    public boolean isActive()
    {
        return active;
    }

    public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence, final boolean endOfBatch)
    {
        if (!active)
        {
            return;
        }
        final long commandSequence = sequences.commandSequence(sequence);
        final int length = buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET);
        encoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(epoch)
            .sequence(commandSequence)
            .timestampNs(buffer.getLong(slotOffset + SlotDescriptor.TIMESTAMP_OFFSET))
            .sourceId(buffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET))
            .templateId(buffer.getInt(slotOffset + SlotDescriptor.TEMPLATE_ID_OFFSET))
            .putCommand(buffer, slotOffset + SlotDescriptor.PAYLOAD_OFFSET, length);
        send(MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength());

        if (sync && endOfBatch)
        {
            awaitAck(commandSequence);
        }
    }

    private void send(final int length)
    {
        idleStrategy.reset();
        long deadlineNs = 0;
        while (true)
        {
            final long result = publication.offer(sendBuffer, 0, length);
            if (result > 0)
            {
                dropping = false;
                return;
            }
            if (result == Publication.NOT_CONNECTED && (!sync || degraded))
            {
                return;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("replication publication unusable: " + Publication.errorString(result));
            }
            if (result == Publication.NOT_CONNECTED && sync)
            {
                // No standby: give it the ack timeout to appear before degrading.
                if (!awaitConnected())
                {
                    degrade("no standby connected");
                    return;
                }
                continue;
            }
            // Back-pressured: a standby that reads nothing (stopped, or refusing) must not stop the venue either.
            if (dropping && result == Publication.BACK_PRESSURED)
            {
                return;
            }
            final long nowNs = clock.nanoTime();
            if (0 == deadlineNs)
            {
                deadlineNs = nowNs + ackTimeoutNs;
            }
            else if (nowNs >= deadlineNs)
            {
                startDropping();
                return;
            }
            if (result != Publication.ADMIN_ACTION)
            {
                idle();
            }
        }
    }

    private void startDropping()
    {
        dropping = true;
        final String why = "the standby took nothing for " + ackTimeoutNs / 1_000_000 + " ms (replication " +
            "back-pressured): commands are not sent to it until it reads again, then it catches up from the journal";
        if (sync && !degraded)
        {
            degrade(why);
        }
        else
        {
            degradedCounter.incrementRelease();
            LOG.log(System.Logger.Level.ERROR, "replication DROPPING sends: {0}", why);
        }
    }

    private void awaitAck(final long commandSequence)
    {
        if (degraded)
        {
            final long acked = ackedCounter.getAcquire();
            if (acked >= commandSequence ||
                acked > ackedAtLastResync && commandSequence - acked <= RESYNC_LAG && ackWithinTimeout(commandSequence))
            {
                degraded = false;
                LOG.log(System.Logger.Level.WARNING, "replication back to SYNC at sequence {0}", commandSequence);
            }
            ackedAtLastResync = acked;
            return;
        }
        if (!ackWithinTimeout(commandSequence))
        {
            degrade("no acknowledgement of sequence " + commandSequence + " within " + ackTimeoutNs / 1_000_000 +
                " ms");
        }
    }

    private boolean ackWithinTimeout(final long commandSequence)
    {
        final long deadlineNs = clock.nanoTime() + ackTimeoutNs;
        idleStrategy.reset();
        // Acquire: pairs with the PeerMonitor's release on the processor's thread.
        while (ackedCounter.getAcquire() < commandSequence && clock.nanoTime() < deadlineNs)
        {
            idle();
        }
        return ackedCounter.getAcquire() >= commandSequence;
    }

    private boolean awaitConnected()
    {
        final long deadlineNs = clock.nanoTime() + ackTimeoutNs;
        idleStrategy.reset();
        while (!publication.isConnected())
        {
            if (clock.nanoTime() >= deadlineNs)
            {
                return false;
            }
            idle();
        }
        return true;
    }

    private void idle()
    {
        try
        {
            if (null == whileWaiting || whileWaiting.doWork() == 0)
            {
                idleStrategy.idle();
            }
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("work done while waiting for the standby failed", ex);
        }
    }

    private void degrade(final String why)
    {
        degraded = true;
        degradedCounter.incrementRelease();
        LOG.log(System.Logger.Level.ERROR, "replication DEGRADED to ASYNC: {0}; acknowledged commands are now on " +
            "the primary's journal only until the standby catches up", why);
    }
}
