package io.ringex.engine.replay;

import io.ringex.engine.processor.RandomCommandSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * For random command streams, the state the replay tools rebuild as of every k-th sequence (from the nearest snapshot
 * before it, then the journal) equals the live processor's state at that sequence: the same state hash and the same
 * exported JSON. As of a time, it equals the state after the last command at or before that time.
 */
class PointInTimePropertyTest
{
    @TempDir
    Path temp;

    private int run;

    @Test
    void pointInTimeStateEqualsTheLiveStateAtThatSequence()
    {
        qt().withExamples(12).forAll(longs().all(), integers().between(40, 150), integers().between(90, 400))
            .checkAssert(this::rebuiltEqualsLive);
    }

    private void rebuiltEqualsLive(final long seed, final int every, final int snapshotEvery)
    {
        final Path directory = temp.resolve("run" + run++);
        final List<long[]> points = new ArrayList<>();
        final List<String> liveJson = new ArrayList<>();
        try (JournalFixture venue = new JournalFixture(directory))
        {
            final RandomCommandSource commands = new RandomCommandSource(seed, venue.encoder, venue.live);
            for (int i = 0; i < 1200; i++)
            {
                venue.send(RandomCommandSource.SOURCE, commands.next());
                if (venue.sequence % snapshotEvery == 0)
                {
                    venue.snapshot();
                }
                if (venue.sequence % every == 0)
                {
                    points.add(new long[]{ venue.sequence, venue.timeNs, venue.live.stateHash() });
                    liveJson.add(StateExport.json(StateExport.export(venue.live.state(), venue.sequence, venue.timeNs,
                        0, 0)));
                }
            }
        }
        for (int i = 0; i < points.size(); i++)
        {
            final long[] point = points.get(i);
            final boolean bySequence = (i & 1) == 0;
            final boolean withSnapshots = (i & 2) == 0;
            try (Replayer replayer = Replayer.open(directory.resolve("journal"),
                withSnapshots ? directory.resolve("snapshots") : null))
            {
                final PointInTime.State state = bySequence ? PointInTime.atSequence(replayer, point[0]) :
                    PointInTime.atTime(replayer, point[1]);
                final String where = "seed " + seed + " sequence " + point[0] + (bySequence ? "" : " (by time)") +
                    (withSnapshots ? " from snapshot " + replayer.restoredSequence() : " from the start");
                assertEquals(point[0], state.sequence(), where);
                assertEquals(point[2], state.stateHash(), where);
                assertEquals(liveJson.get(i), StateExport.json(StateExport.export(replayer.processor().state(),
                    state.sequence(), state.timestampNs(), 0, 0)), where);
            }
        }
        assertEquals(true, Files.isDirectory(directory.resolve("snapshots")));
    }
}
