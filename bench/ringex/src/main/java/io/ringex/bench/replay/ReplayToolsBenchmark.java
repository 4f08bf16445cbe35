package io.ringex.bench.replay;

import io.ringex.bench.engine.BenchArgs;
import io.ringex.engine.replay.AuditTrail;
import io.ringex.engine.replay.DemoJournal;
import io.ringex.engine.replay.PointInTime;
import io.ringex.engine.replay.Replayer;
import io.ringex.engine.replay.StateExport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Time to answer the replay tools' questions on a large demo journal, in one warm JVM (as the risk service's audit
 * page answers them; the CLI adds a JVM start, measured by bench/replay-tools-bench.sh):
 * <ol>
 * <li>writes the journal with {@link DemoJournal} (10M commands, a snapshot every 1M) unless DIR holds one;</li>
 * <li>the state as of sequences at growing distances after a snapshot (0 to every-1 commands), exported as JSON:
 * time to answer against distance from the nearest snapshot;</li>
 * <li>the audit trail of orders accepted at those distances, and of an account over a one-minute window;</li>
 * <li>the full replay's rate through the same path at full speed (no snapshot).</li>
 * </ol>
 * Each point is asked {@code --rounds} times (a fresh replayer each time); the median and the fastest are printed.
 * <pre>
 * java ${ringex.jvm.flags} -XX:+UseParallelGC -Xmx2g -cp ... io.ringex.bench.replay.ReplayToolsBenchmark \
 *     --dir /tmp/replay-bench [--commands 10000000] [--every 1000000] [--rounds 3]
 * </pre>
 */
public final class ReplayToolsBenchmark
{
    private ReplayToolsBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        final BenchArgs options = new BenchArgs(args);
        final Path dir = Path.of(options.required("--dir"));
        final long commands = options.number("--commands", 10_000_000);
        final long every = options.number("--every", 1_000_000);
        final int rounds = options.integer("--rounds", 3);
        final Path journal = dir.resolve("journal");
        final Path snapshots = dir.resolve("snapshots");
        if (!Files.isDirectory(journal))
        {
            final long startNs = System.nanoTime();
            final DemoJournal.Summary summary = DemoJournal.write(journal, snapshots, commands, every, 42,
                DemoJournal.DEFAULT_START_NS);
            System.out.printf("wrote %,d commands, %d snapshots in %.1f s%n", summary.commands(),
                summary.snapshots(), (System.nanoTime() - startNs) / 1e9);
        }

        System.out.println("\npoint-in-time state (JSON export), by distance from the nearest snapshot");
        System.out.println("sequence       distance   median s   fastest s   commands/s (median)");
        final long base = (commands / every - 1) * every;
        for (final long distance : new long[]{ 0, 1, every / 4, every / 2, 3 * every / 4, every - 1 })
        {
            final long sequence = Math.max(1, base + distance);
            final double[] seconds = new double[rounds];
            for (int r = 0; r < rounds; r++)
            {
                final long startNs = System.nanoTime();
                try (Replayer replayer = Replayer.open(journal, snapshots))
                {
                    final PointInTime.State state = PointInTime.atSequence(replayer, sequence);
                    StateExport.json(StateExport.export(replayer.processor().state(), state.sequence(),
                        state.timestampNs(), 0, 0));
                }
                seconds[r] = (System.nanoTime() - startNs) / 1e9;
            }
            Arrays.sort(seconds);
            final double median = seconds[rounds / 2];
            System.out.printf("%,12d %,10d %10.3f %11.3f   %,.0f%n", sequence, distance, median, seconds[0],
                distance / median);
        }

        System.out.println("\naudit trail of an order, by distance of its acceptance from the nearest snapshot");
        System.out.println("order id       commands replayed   entries   median s   fastest s");
        final long lastOrderId;
        try (Replayer replayer = Replayer.open(journal, snapshots))
        {
            lastOrderId = PointInTime.atSequence(replayer, commands).sequence() > 0 ?
                replayer.processor().state().lastOrderId() : 0;
        }
        for (final double fraction : new double[]{ 0.905, 0.95, 0.999 })
        {
            final long orderId = (long)(lastOrderId * fraction);
            final double[] seconds = new double[rounds];
            AuditTrail.Result result = null;
            for (int r = 0; r < rounds; r++)
            {
                final long startNs = System.nanoTime();
                try (Replayer replayer = Replayer.open(journal, snapshots))
                {
                    result = new AuditTrail().run(replayer, AuditTrail.Query.order(orderId));
                }
                seconds[r] = (System.nanoTime() - startNs) / 1e9;
            }
            Arrays.sort(seconds);
            System.out.printf("%,12d %,19d %9d %10.3f %11.3f%n", orderId, result.commandsReplayed(),
                result.entries().size(), seconds[rounds / 2], seconds[0]);
        }

        System.out.println("\naudit trail of account 1003 over one minute, by the window's distance from a snapshot");
        System.out.println("window start (ns)        commands replayed   entries   median s   fastest s");
        final long spanNs;
        final long firstNs;
        final long snapshotNs;
        try (Replayer replayer = Replayer.open(journal, snapshots))
        {
            firstNs = replayer.ends().firstTimestampNs();
            spanNs = replayer.ends().lastTimestampNs() - firstNs;
            PointInTime.atSequence(replayer, base);
            snapshotNs = replayer.lastTimestampNs();
        }
        for (final long afterSnapshotNs : new long[]{ 60_000_000_000L, spanNs / (commands / every) / 2 })
        {
            final long fromNs = snapshotNs + afterSnapshotNs;
            final double[] seconds = new double[rounds];
            AuditTrail.Result result = null;
            for (int r = 0; r < rounds; r++)
            {
                final long startNs = System.nanoTime();
                try (Replayer replayer = Replayer.open(journal, snapshots))
                {
                    result = new AuditTrail().run(replayer, AuditTrail.Query.account(1003)
                        .window(fromNs, fromNs + 60_000_000_000L));
                }
                seconds[r] = (System.nanoTime() - startNs) / 1e9;
            }
            Arrays.sort(seconds);
            System.out.printf("%s %,19d %9d %10.3f %11.3f%n", java.time.Instant.ofEpochSecond(0, fromNs),
                result.commandsReplayed(), result.entries().size(), seconds[rounds / 2], seconds[0]);
        }

        System.out.println("\nfull replay, no snapshot (the state command's path at full speed)");
        for (int r = 0; r < rounds; r++)
        {
            final long startNs = System.nanoTime();
            try (Replayer replayer = Replayer.open(journal, null))
            {
                PointInTime.atSequence(replayer, commands);
                final double seconds = (System.nanoTime() - startNs) / 1e9;
                System.out.printf("round %d: %,d commands in %.2f s: %,.0f commands/s, state hash %016x%n", r + 1,
                    replayer.appliedCount(), seconds, replayer.appliedCount() / seconds,
                    replayer.processor().stateHash());
            }
        }
    }
}
