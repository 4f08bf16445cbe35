package io.ringex.engine.replication;

import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.protocol.codecs.NodeRole;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A standby's search for the first record its journal and its primary's differ on, once the primary has answered a
 * catch-up request DIVERGED: a bisection over this node's own journal. Each probe names one of this node's records
 * (its sequence and CRC-32C) in a probe request, which the primary answers MATCHED (the journals agree up to it) or
 * DIVERGED (they differ at or before it); the search ends when the two bounds meet. Its verdict ({@link #refuse}) is
 * logged with what the operator does about it, counted, and makes the node DIVERGED.
 * <p>
 * Thread safety: the {@link StandbyReceiver}'s thread, with nothing being journaled meanwhile (a diverged standby
 * applies nothing).
 */
final class DivergenceProbe
{
    private static final System.Logger LOG = System.getLogger(DivergenceProbe.class.getName());

    private final Journal journal;
    private final AtomicCounter divergences;
    private final ActingRole role;
    private final int nodeId;
    private long low;
    private long high;
    private long sequence;
    private int checksum;

    /**
     * @param journal     this node's journal, read to find each probed record's checksum.
     * @param divergences counts the journals found to diverge.
     * @param role        the node's role, made DIVERGED by the verdict.
     * @param nodeId      this node's id, for the log.
     */
    DivergenceProbe(final Journal journal, final AtomicCounter divergences, final ActingRole role, final int nodeId)
    {
        this.journal = journal;
        this.divergences = divergences;
        this.role = role;
        this.nodeId = nodeId;
    }

    /**
     * Start a search below a record the primary does not hold.
     *
     * @param diverged a sequence at which the journals differ.
     * @return true if there is a record to probe, false if {@link #firstDiverging()} is known already.
     */
    boolean start(final long diverged)
    {
        low = 0;
        high = diverged;
        return next();
    }

    /**
     * The primary holds the probed record: the journals agree up to it.
     *
     * @return true if there is another record to probe.
     */
    boolean matched()
    {
        low = sequence;
        return next();
    }

    /**
     * The primary does not hold the probed record.
     *
     * @param diverged the sequence the primary named as differing (at or before the probed one).
     * @return true if there is another record to probe.
     */
    boolean diverged(final long diverged)
    {
        high = Math.min(high, Math.min(sequence, diverged));
        return next();
    }

    /**
     * @return the next sequence the probe request names (one past the probed record).
     */
    long fromSequence()
    {
        return sequence + 1;
    }

    /**
     * @return the CRC-32C of the probed record in this node's journal.
     */
    int checksum()
    {
        return checksum;
    }

    /**
     * @return the first sequence the journals differ on, once the search has ended.
     */
    long firstDiverging()
    {
        return high;
    }

    /**
     * The verdict: this node's journal holds commands its primary's does not, which no catch-up can reconcile.
     *
     * @param primaryNodeId  the primary's id.
     * @param firstDiverging the first sequence the journals differ on.
     * @param lastSequence   the last sequence this node's journal holds.
     */
    void refuse(final int primaryNodeId, final long firstDiverging, final long lastSequence)
    {
        LOG.log(System.Logger.Level.ERROR, "standby node {0}''s journal DIVERGES from primary node {1}''s at " +
            "sequence {2}: this journal holds commands {2}..{3} that the primary does not (an old primary''s " +
            "commands the new primary never saw, or a tail the primary lost). This node applies nothing and cannot " +
            "be promoted. To rejoin: stop it, move its journal and snapshot directories aside, list the commands " +
            "with `./ringex journal dump --from {2}` on the moved journal, and restart it with an empty journal to " +
            "catch up in full (docs/operations.md)", nodeId, primaryNodeId, firstDiverging, lastSequence);
        divergences.incrementRelease();
        role.set(NodeRole.DIVERGED);
    }

    private boolean next()
    {
        if (high - low <= 1)
        {
            return false;
        }
        sequence = low + (high - low) / 2;
        checksum = checksumAt(journal, sequence);
        return true;
    }

    /**
     * The CRC-32C of this node's own record at a sequence (a scan from the start; only when bisecting a divergence,
     * with nothing being journaled meanwhile).
     *
     * @param journal  the journal.
     * @param sequence the record's sequence.
     * @return its checksum, or 0 if the journal does not hold it.
     */
    static int checksumAt(final Journal journal, final long sequence)
    {
        try (JournalReader reader = journal.newReader())
        {
            while (reader.lastSequence() < sequence && reader.read((s, t, src, template, buffer, offset, length) ->
            {
            }, (int)Math.min(CatchUpAgent.SCAN_LIMIT, sequence - reader.lastSequence())) > 0)
            {
                Thread.onSpinWait();
            }
            return reader.lastSequence() == sequence ? reader.lastChecksum() : 0;
        }
    }
}
