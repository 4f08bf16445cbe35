package io.ringex.engine.node;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalVerifier;
import io.ringex.journal.SnapshotStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's recovery before it starts its agents: verify the journal (refusing a gap in the middle unless allowed),
 * restore the newest valid snapshot, and replay the journal after it into the processor, whose output the caller
 * points where it wants (discarded, or a cluster follower's {@link io.ringex.engine.cluster.ReportWindow}).
 * <p>
 * Thread safety: the thread that launches the node, before any agent runs.
 */
final class NodeRecovery
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeRecovery.class);

    long lastSequence;
    long recoveredCommands;
    /** The sequence of the snapshot restored, 0 if none. */
    long snapshotSequence;

    /**
     * @param ctx       the node's configuration.
     * @param journal   its open journal.
     * @param processor the processor to restore and replay into.
     * @return what was recovered: the last sequence and its record's checksum, and the commands replayed.
     */
    static NodeRecovery recover(final EngineContext ctx, final Journal journal, final BusinessLogicProcessor processor)
    {
        final JournalVerifier.Report report = verify(ctx, journal);
        long fromSequence = 1;
        long snapshotSequence = 0;
        final SnapshotStore.Snapshot snapshot = new SnapshotStore(ctx.snapshotDirectory()).loadNewest(
            SnapshotDescriptor.VERSION, (problem) -> LOG.warn("snapshot passed over: {}", problem));
        if (null != snapshot)
        {
            processor.restore(snapshot.state(), 0, snapshot.state().capacity());
            if (processor.stateHash() != snapshot.stateHash())
            {
                throw new IllegalStateException("snapshot " + snapshot.file() + " restores to a different state " +
                    "hash than it was written with: refusing it; move it aside to recover from the journal alone");
            }
            fromSequence = snapshot.sequence() + 1;
            snapshotSequence = snapshot.sequence();
            LOG.info("restored snapshot {} at sequence {}", snapshot.file(),
                snapshot.sequence());
        }

        final NodeRecovery result = new NodeRecovery();
        result.snapshotSequence = snapshotSequence;
        final long startNs = ctx.nanoClock().nanoTime();
        final long[] last = { fromSequence - 1 };
        try (JournalReader reader = journal.newReader().fromSequence(fromSequence).allowGaps(ctx.allowJournalGaps()))
        {
            int read;
            while ((read = reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
            {
                processor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                last[0] = sequence;
                result.recoveredCommands++;
            }, 4096)) > 0)
            {
                processor.onEndOfBatch();
            }
            if (read < 0)
            {
                throw new IllegalStateException("journal replay stopped: " + reader.problem());
            }
        }
        if (result.recoveredCommands > 0)
        {
            final long ns = Math.max(1, ctx.nanoClock().nanoTime() - startNs);
            LOG.info("replayed {} commands in {} ms ({} commands/s)",
                result.recoveredCommands, ns / 1_000_000, result.recoveredCommands * 1_000_000_000L / ns);
        }
        result.lastSequence = Math.max(last[0], report.lastSequence());
        return result;
    }

    /**
     * What a node recovered, in the one wording its log line, the engine's ready line and the all-in-one's banner
     * share: {@code the journal to sequence 363 (363 commands replayed, no snapshot), next sequence 364}, or with a
     * snapshot {@code the journal to sequence 363 (snapshot at 300, 63 commands replayed after it), next sequence
     * 364}.
     *
     * @param lastSequence      the journal's last sequence at the start.
     * @param snapshotSequence  the snapshot restored, 0 if none.
     * @param replayedCommands  commands replayed from the journal.
     * @return the words.
     */
    static String summary(final long lastSequence, final long snapshotSequence, final long replayedCommands)
    {
        return "the journal to sequence " + lastSequence + " (" + (snapshotSequence > 0 ?
            "snapshot at " + snapshotSequence + ", " + replayedCommands + " commands replayed after it" :
            replayedCommands + " commands replayed, no snapshot") + "), next sequence " + (lastSequence + 1);
    }

    /**
     * A cluster member's start: only verify the journal (refusing a gap in the middle unless allowed). Its processor
     * starts from the cluster's snapshot and log.
     *
     * @param ctx     the node's configuration.
     * @param journal its open journal.
     * @return the journal's last sequence; no commands replayed.
     */
    static NodeRecovery verifyOnly(final EngineContext ctx, final Journal journal)
    {
        final JournalVerifier.Report report = verify(ctx, journal);
        final NodeRecovery result = new NodeRecovery();
        result.lastSequence = report.lastSequence();
        return result;
    }

    private static JournalVerifier.Report verify(final EngineContext ctx, final Journal journal)
    {
        final JournalVerifier.Report report = JournalVerifier.verify(journal);
        LOG.info("journal {}: {}", ctx.journalDirectory(), report);
        if (report.tornTail())
        {
            LOG.warn("journal ends with a torn record: a crash cut it short before it " +
                "was processed; it is ignored and its sequence will be written again");
        }
        if (!report.isClean() && !ctx.allowJournalGaps())
        {
            throw new IllegalStateException("journal has a gap in the middle (" + report.firstProblem() + "): " +
                "refusing to start; inspect with `journal verify`, and start with ringex.engine.journal.allow.gaps=" +
                "true only if the commands after the gap should be applied without those missing");
        }

        return report;
    }
}
