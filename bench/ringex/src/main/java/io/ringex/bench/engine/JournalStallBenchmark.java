package io.ringex.bench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.ringex.journal.Journal;
import io.ringex.journal.JournalPretoucher;
import io.ringex.journal.JournalWriter;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * How long single journal appends stall, with and without the {@link JournalPretoucher}: the journal writer alone,
 * paced at a fixed rate like the venue's journal stage under load (64-byte payloads, an end of batch every 16 records).
 * Rounds alternate pretoucher off and on, each in a fresh queue directory under {@code --dir} (put it on the disk the
 * journal lives on: the stalls are the file system's page faults; on tmpfs there are none).
 * <p>
 * {@code java ... JournalStallBenchmark --dir /var/tmp/stall --rate 50000 --seconds 12 --rounds 2}
 * <p>
 * Prints per round the worst append and the appends over 1 ms after the first 0.5 s (start-up excluded), with where in
 * the file they happened, and one {@code RESULT} line per round.
 */
public final class JournalStallBenchmark
{
    private static final int PAYLOAD = 64;
    private static final long SLOW_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SETTLE_NS = TimeUnit.MILLISECONDS.toNanos(500);

    private JournalStallBenchmark()
    {
    }

    /**
     * @param args {@code --dir D [--rate R] [--seconds S] [--rounds N] [--pretouch-bytes B]}.
     * @throws Exception on I/O failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final BenchArgs options = new BenchArgs(args);
        final Path dir = Path.of(options.required("--dir"));
        final int rate = options.integer("--rate", 50_000);
        final int seconds = options.integer("--seconds", 12);
        final int rounds = options.integer("--rounds", 2);
        final long pretouchBytes = Long.parseLong(options.string("--pretouch-bytes", String.valueOf(16L << 20)));
        for (int round = 1; round <= rounds; round++)
        {
            for (final boolean pretouch : new boolean[]{false, true})
            {
                final Path queue = dir.resolve("round-" + round + (pretouch ? "-on" : "-off"));
                IoUtil.delete(queue.toFile(), true);
                Files.createDirectories(queue);
                run(queue, rate, seconds, pretouch ? pretouchBytes : 0, round);
                IoUtil.delete(queue.toFile(), true);
            }
        }
    }

    private static void run(final Path queue, final int rate, final int seconds, final long pretouchBytes,
        final int round)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
        final long intervalNs = TimeUnit.SECONDS.toNanos(1) / rate;
        final long total = (long)rate * seconds;
        long worstNs = 0;
        int slow = 0;
        AgentRunner pretoucher = null;
        try (Journal journal = Journal.open(queue, Journal.Durability.PROCESS);
            JournalWriter writer = journal.newWriter(0))
        {
            if (pretouchBytes > 0)
            {
                pretoucher = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null,
                    new JournalPretoucher(writer, pretouchBytes));
                AgentRunner.startOnThread(pretoucher);
            }
            final long startNs = System.nanoTime();
            for (long sequence = 1; sequence <= total; sequence++)
            {
                final long dueNs = startNs + sequence * intervalNs;
                while (System.nanoTime() < dueNs)
                {
                    Thread.onSpinWait();
                }
                final long beforeNs = System.nanoTime();
                payload.putLong(0, sequence);
                writer.append(sequence, beforeNs, 1, 1, payload, 0, PAYLOAD);
                if ((sequence & 15) == 0)
                {
                    writer.endOfBatch();
                }
                final long tookNs = System.nanoTime() - beforeNs;
                if (beforeNs - startNs > SETTLE_NS)
                {
                    worstNs = Math.max(worstNs, tookNs);
                    if (tookNs > SLOW_NS)
                    {
                        slow++;
                        System.out.printf("  round %d pretouch=%s: append %,d at %.3f s took %.1f ms%n", round,
                            pretouchBytes > 0, sequence, (beforeNs - startNs) / 1e9, tookNs / 1e6);
                    }
                }
            }
            // Stop touching before the journal closes.
            CloseHelper.quietClose(pretoucher);
            pretoucher = null;
        }
        finally
        {
            CloseHelper.quietClose(pretoucher);
        }
        System.out.printf("RESULT round=%d pretouch=%s rate=%d appends=%d worstMs=%.2f over1ms=%d%n", round,
            pretouchBytes > 0, rate, total, worstNs / 1e6, slow);
    }
}
