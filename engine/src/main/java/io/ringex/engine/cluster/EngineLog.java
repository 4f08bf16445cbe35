package io.ringex.engine.cluster;

import org.agrona.DirectBuffer;

/**
 * What the cluster's service drives in a member's engine: the input ring it feeds with committed commands, and the
 * processor whose state goes into (and comes back from) the cluster's snapshots.
 * <p>
 * Thread safety: every method on the service's thread; the implementation hands work to the engine's threads through
 * the ring and through volatile requests.
 */
public interface EngineLog
{
    /**
     * Once, before any command: restore the processor from a cluster snapshot, or start it empty.
     *
     * @param nextSequence the sequence the first command fed will carry.
     * @param state        the processor's snapshot, or null to start empty.
     * @param stateHash    the hash the snapshot was written with (checked after the restore).
     */
    void start(long nextSequence, DirectBuffer state, long stateHash);

    /**
     * Put one committed command into the input ring.
     *
     * @param sequence    its command sequence: one more than the last one fed.
     * @param timestampNs its time, never less than the last one fed.
     * @param sourceId    who sent it.
     * @param templateId  its SBE template.
     * @param buffer      holding the command, SBE header included.
     * @param offset      where it starts.
     * @param length      its length.
     * @return false if the ring is full: wait and call again.
     */
    boolean tryAppend(
        long sequence, long timestampNs, long sourceId, int templateId, DirectBuffer buffer, int offset, int length);

    /**
     * @return the longest command the ring takes.
     */
    int maxCommandLength();

    /**
     * Ask the processor for its state once it has applied every command fed, up to this one.
     *
     * @param sequence    the last command fed.
     * @param timestampNs its time.
     */
    void requestSnapshot(long sequence, long timestampNs);

    /**
     * @param sequence the sequence asked for.
     * @return the processor's state at that sequence once taken, otherwise null.
     */
    ProcessorState snapshot(long sequence);

    /**
     * The processor's state at a command, serialised.
     *
     * @param sequence the last command applied.
     * @param stateHash its state hash.
     * @param state     the bytes (valid until the next snapshot is asked for).
     * @param length    how many of them.
     */
    record ProcessorState(long sequence, long stateHash, DirectBuffer state, int length)
    {
    }
}
