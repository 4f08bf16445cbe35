package io.ringex.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ringex.engine.cluster.ClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a cluster member whose journal is not a prefix of the cluster's log gets one that is, with no operator: its
 * journal and snapshot directories are moved aside (kept, for investigation) and its cluster snapshots forgotten, so
 * the next start replays the whole log from the first command into an empty journal and processor. A journal found to
 * differ at runtime is marked ({@link #mark}); the mark is acted on when the node next starts.
 * <p>
 * Thread safety: the thread that launches the node (and the journal stage's, for the mark).
 */
final class JournalRebuild
{
    /** The file, in the journal directory, that asks the next start to rebuild the journal from the log. */
    static final String MARKER = "REBUILD-FROM-CLUSTER-LOG";
    private static final Logger LOG = LoggerFactory.getLogger(JournalRebuild.class);

    private JournalRebuild()
    {
    }

    /**
     * Ask the next start to rebuild this journal.
     *
     * @param journalDirectory the journal's directory.
     * @param sequence         the first command found to differ from the log's.
     */
    static void mark(final Path journalDirectory, final long sequence)
    {
        try
        {
            Files.writeString(journalDirectory.resolve(MARKER), "the journal's command " + sequence +
                " differs from the cluster log's\n", StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            LOG.error("could not mark {} for a rebuild", journalDirectory, ex);
        }
    }

    /**
     * @param journalDirectory the journal's directory.
     * @return whether a rebuild was asked for.
     */
    static boolean isMarked(final Path journalDirectory)
    {
        return Files.exists(journalDirectory.resolve(MARKER));
    }

    /**
     * Move the journal and snapshots aside and forget the cluster's snapshots: the next start replays the whole log.
     *
     * @param ctx the node's configuration.
     * @param why what was found, for the log.
     */
    static void rebuild(final EngineContext ctx, final String why)
    {
        final Path journal = moveAside(ctx.journalDirectory());
        final Path snapshots = moveAside(ctx.snapshotDirectory());
        final int invalidated = ClusterNode.invalidateSnapshots(ctx.clusterDirectory());
        LOG.warn("{}: rebuilding this member's journal and state from the cluster's log (the journal moved to {}, " +
            "the snapshots to {}, {} cluster snapshots forgotten); the whole log is replayed", why, journal, snapshots,
            invalidated);
    }

    private static Path moveAside(final Path directory)
    {
        if (!Files.exists(directory))
        {
            return null;
        }
        try
        {
            for (int i = 1; ; i++)
            {
                final Path aside = directory.resolveSibling(directory.getFileName() + ".replaced-" + i);
                if (!Files.exists(aside))
                {
                    return Files.move(directory, aside);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not move " + directory + " aside", ex);
        }
    }
}
