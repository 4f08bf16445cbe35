package io.ringex.journal;

import org.agrona.DirectBuffer;

/**
 * A fresh state machine the {@code journal replay} command feeds with every command of a journal. The engine
 * provides one (its business-logic processor) through {@link java.util.ServiceLoader}, so this module needs no
 * dependency on the engine.
 * <p>
 * Thread safety: called from one thread.
 */
public interface ReplayTarget
{
    /**
     * @return a short name for the output.
     */
    String name();

    /**
     * Start from the state in a snapshot instead of empty.
     *
     * @param snapshot loaded by {@link SnapshotStore}.
     */
    void restore(SnapshotStore.Snapshot snapshot);

    /**
     * @return the state format version this target's snapshots have.
     */
    int snapshotStateVersion();

    /**
     * Apply one journaled command.
     *
     * @param sequence    its sequence.
     * @param timestampNs its ingress time.
     * @param sourceId    its source.
     * @param buffer      holding the SBE command.
     * @param offset      where it starts.
     * @param length      its length.
     */
    void onCommand(long sequence, long timestampNs, long sourceId, DirectBuffer buffer, int offset, int length);

    /**
     * The end of a batch of commands (as the journal stage saw them, approximately).
     */
    void onEndOfBatch();

    /**
     * @return the state hash after the commands applied so far.
     */
    long stateHash();
}
