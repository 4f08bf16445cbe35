package io.ringex.bench.engine;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.bench.workload.WorkloadCommand;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.bench.workload.WorkloadPreamble;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.EngineNode;
import io.ringex.engine.node.ProcessorReplayTarget;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.processor.SnapshotDescriptor;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalReader;
import io.ringex.journal.JournalWriter;
import io.ringex.journal.SnapshotStore;
import org.agrona.CloseHelper;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.IoUtil;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Journal replay and recovery of a large journal (10M commands and more):
 * <ol>
 * <li><b>write</b>: the workload (preamble, prefill, timed commands) encoded one by one straight into a fresh
 * journal with {@link JournalWriter} (PROCESS durability), as the journal stage would have written it; timed too.</li>
 * <li><b>replay</b>: the {@code journal replay} path in process: {@link ProcessorReplayTarget} (a fresh processor,
 * events discarded) fed by a {@link JournalReader} in reads of 4096 with an end of batch after each, as
 * {@code JournalCli replay} does (minus its progress bar). Reports commands/s and the state hash.</li>
 * <li><b>snapshot</b> (untimed): replays again up to {@code total - --tail} and writes a state snapshot there.</li>
 * <li><b>start-up</b>: {@code EngineNode.launch} on the journal, first with an empty snapshot directory (verify the
 * whole journal, replay all of it), then with the snapshot (verify, restore, replay the tail); the time until launch
 * returns, and the node's state hash checked against the replay's.</li>
 * </ol>
 * <pre>
 * java ${ringex.jvm.flags} -Xms2g -Xmx2g -cp ... io.ringex.bench.engine.ReplayBenchmark --workload FILE --dir DIR \
 *     [--tail 1000000] [--keep true]
 * </pre>
 * With {@code --keep true} the journal stays in DIR/journal for the CLI ({@code JournalCli replay DIR/journal}).
 */
public final class ReplayBenchmark
{
    private static final int READ_LIMIT = 4096;

    private ReplayBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final BenchArgs options = new BenchArgs(args);
        final Path workload = Path.of(options.required("--workload"));
        final Path dir = Path.of(options.required("--dir"));
        final long tail = options.number("--tail", 1_000_000);
        final boolean keep = Boolean.parseBoolean(options.string("--keep", "false"));
        IoUtil.delete(dir.toFile(), true);
        final Path journalDir = dir.resolve("journal");
        final Path snapshotDir = dir.resolve("snapshots");
        final Path noSnapshotDir = dir.resolve("no-snapshots");
        Files.createDirectories(snapshotDir);
        Files.createDirectories(noSnapshotDir);

        final long total = write(workload, journalDir);
        final long journalBytes = NodeBenchmark.size(journalDir);

        final long replayHash;
        final double replayCps;
        try (Journal journal = Journal.open(journalDir, Journal.Durability.PROCESS))
        {
            final ProcessorReplayTarget target = new ProcessorReplayTarget();
            final long[] applied = new long[1];
            final long start = System.nanoTime();
            try (JournalReader reader = journal.newReader().fromSequence(1))
            {
                while (reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset, length) ->
                {
                    target.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                    applied[0]++;
                }, READ_LIMIT) > 0)
                {
                    target.onEndOfBatch();
                }
            }
            final long ns = System.nanoTime() - start;
            replayCps = applied[0] * 1e9 / ns;
            replayHash = target.stateHash();
            System.out.printf(Locale.ROOT, "REPLAY commands=%d s=%.3f commandsPerSecond=%.0f stateHash=%016x%n",
                applied[0], ns / 1e9, replayCps, replayHash);
            if (applied[0] != total)
            {
                throw new IllegalStateException("replayed " + applied[0] + " of " + total);
            }
            snapshot(journal, total - tail, snapshotDir);
        }

        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        try
        {
            final double fullMs = launch(driver, dir, journalDir, noSnapshotDir, replayHash, total, "none");
            final double snapMs = launch(driver, dir, journalDir, snapshotDir, replayHash, tail, "tail=" + tail);
            System.out.printf(Locale.ROOT, "RESULT impl=ringex-replay commands=%d journalBytes=%d " +
                "replayCommandsPerSecond=%.0f startupFullReplayMs=%.0f startupWithSnapshotMs=%.0f tail=%d%n", total,
                journalBytes, replayCps, fullMs, snapMs, tail);
        }
        finally
        {
            CloseHelper.quietClose(driver);
            if (!keep)
            {
                IoUtil.delete(dir.toFile(), true);
            }
        }
    }

    private static long write(final Path workload, final Path journalDir)
    {
        final WorkloadEncoder encoder = new WorkloadEncoder();
        final long start = System.nanoTime();
        long sequence = 0;
        try (WorkloadFile file = WorkloadFile.open(workload);
            Journal journal = Journal.open(journalDir, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            final WorkloadPreamble preamble = WorkloadPreamble.of(file);
            final EncodedCommands admin = EncodedCommands.forCommands(WorkloadEncoder.preambleCommands(preamble));
            encoder.encodePreamble(preamble, admin);
            for (int frame = 0; frame < admin.limit(); frame = admin.next(frame))
            {
                ++sequence;
                writer.append(sequence, sequence, admin.sourceId(frame), admin.templateId(frame), admin.buffer(),
                    EncodedCommands.messageOffset(frame), admin.length(frame));
            }
            final WorkloadCommand command = new WorkloadCommand();
            for (long i = 0, n = file.recordCount(); i < n; i++)
            {
                final int length = encoder.encode(file.command(i, command));
                ++sequence;
                writer.append(sequence, sequence, WorkloadEncoder.SESSION_ID, encoder.templateId(), encoder.buffer(),
                    0, length);
                if ((sequence & (READ_LIMIT - 1)) == 0)
                {
                    writer.endOfBatch();
                }
            }
            writer.endOfBatch();
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        final long ns = System.nanoTime() - start;
        System.out.printf(Locale.ROOT, "WRITE commands=%d s=%.3f commandsPerSecond=%.0f (encoding included)%n",
            sequence, ns / 1e9, sequence * 1e9 / ns);
        return sequence;
    }

    private static void snapshot(final Journal journal, final long at, final Path snapshotDir)
    {
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(
            new TallyingEventSink(1 << 16, new EventTally()), 1 << 16, null);
        final long[] last = { 0, 0 };
        try (JournalReader reader = journal.newReader().fromSequence(1))
        {
            while (last[0] < at && reader.read((sequence, timestampNs, sourceId, templateId, buffer, offset,
                length) ->
            {
                processor.onCommand(sequence, timestampNs, sourceId, buffer, offset, length);
                last[0] = sequence;
                last[1] = timestampNs;
            }, (int)Math.min(READ_LIMIT, at - last[0])) > 0)
            {
                processor.onEndOfBatch();
            }
        }
        final ExpandableArrayBuffer state = new ExpandableArrayBuffer(1 << 20);
        final int length = processor.writeSnapshot(state, 0);
        new SnapshotStore(snapshotDir).write(last[0], last[1], processor.stateHash(), SnapshotDescriptor.VERSION,
            state, 0, length);
        System.out.printf(Locale.ROOT, "SNAPSHOT sequence=%d bytes=%d%n", last[0], length);
    }

    private static double launch(
        final MediaDriver driver, final Path dir, final Path journalDir, final Path snapshotDir,
        final long expectedHash, final long expectedRecovered, final String what)
    {
        final EngineContext ctx = NodeBenchmark.context(driver, dir.resolve("node"), "backoff",
            EngineContext.Threading.DEDICATED).journalDirectory(journalDir).snapshotDirectory(snapshotDir);
        final long start = System.nanoTime();
        final EngineNode node = EngineNode.launch(ctx);
        final double ms = (System.nanoTime() - start) / 1e6;
        try
        {
            final long hash = node.stateHash();
            System.out.printf(Locale.ROOT, "STARTUP snapshot=%s ms=%.0f recovered=%d stateHashMatchesReplay=%b%n",
                what, ms, node.recoveredCommands(), hash == expectedHash);
            if (hash != expectedHash || node.recoveredCommands() != expectedRecovered)
            {
                throw new IllegalStateException("recovery differs from replay: hash " + Long.toHexString(hash) +
                    " recovered " + node.recoveredCommands());
            }
        }
        finally
        {
            node.close();
        }
        return ms;
    }
}
