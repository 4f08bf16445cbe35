package io.ringex.engine.node;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.ringex.journal.SnapshotStore;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes snapshots off the processor's thread. The processor serialises its state into memory at a sequence (its
 * only pause, proportional to the state's size) and hands the bytes here; a background thread writes, forces and
 * renames the file and prunes old ones. A snapshot still being written when the next is asked for makes the next
 * one wait its turn: snapshots are rare, and each stands alone.
 * <p>
 * Thread safety: {@link #submit} from the processor's thread; queries from any thread.
 */
final class BackgroundSnapshotWriter implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundSnapshotWriter.class);

    private final SnapshotStore store;
    private final int kept;
    private final NanoClock clock;
    private final ExecutorService executor = Executors.newSingleThreadExecutor((r) ->
    {
        final Thread thread = new Thread(r, "ringex-snapshot-writer");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong lastWrittenSequence = new AtomicLong();

    /**
     * @param store where snapshots go.
     * @param kept  snapshot files kept.
     * @param clock times each write, for the log (read on the writer's thread).
     */
    BackgroundSnapshotWriter(final SnapshotStore store, final int kept, final NanoClock clock)
    {
        this.store = store;
        this.kept = kept;
        this.clock = clock;
    }

    void submit(final long sequence, final long timestampNs, final long stateHash, final int stateVersion,
        final byte[] state, final int length)
    {
        executor.execute(() ->
        {
            try
            {
                final long startNs = clock.nanoTime();
                store.write(sequence, timestampNs, stateHash, stateVersion, new UnsafeBuffer(state), 0, length);
                store.prune(kept);
                lastWrittenSequence.set(sequence);
                LOG.info("snapshot at sequence {}: {} bytes in {} ms", sequence, length,
                    (clock.nanoTime() - startNs) / 1_000_000);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("snapshot at sequence " + sequence + " failed", ex);
            }
        });
    }

    long lastWrittenSequence()
    {
        return lastWrittenSequence.get();
    }

    public void close()
    {
        executor.shutdown();
        try
        {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS))
            {
                LOG.warn("snapshot writer still busy at close");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
