package io.ringex.engine.ring;

/**
 * Maps ring sequences (which start at 0 in every process) to the sequences of the commands the slots carry (which
 * continue the journal across restarts): {@code commandSequence = base + ringSequence}, where {@code base} is the
 * first command sequence this process takes, one past the last journaled. A cluster member learns its base only
 * when the cluster's service starts (from the cluster's snapshot): it {@link #start}s it then, before it publishes
 * the ring's first slot.
 * <p>
 * Shared by the stages of one node; the base is written before the ring's first slot is published, so a stage that
 * has acquired a slot reads it.
 */
public final class SequenceBase
{
    private long base;

    /**
     * @param firstCommandSequence the command sequence of ring sequence 0.
     */
    public SequenceBase(final long firstCommandSequence)
    {
        this.base = firstCommandSequence;
    }

    /**
     * Set the command sequence of ring sequence 0, before the ring's first slot is published (a cluster member, once
     * its service knows where the log's numbering stands).
     *
     * @param firstCommandSequence the command sequence of ring sequence 0.
     */
    public void start(final long firstCommandSequence)
    {
        this.base = firstCommandSequence;
    }

    /**
     * @param ringSequence a ring sequence.
     * @return the command sequence it carries.
     */
    public long commandSequence(final long ringSequence)
    {
        return base + ringSequence;
    }

    /**
     * @return the first command sequence this process takes.
     */
    public long firstCommandSequence()
    {
        return base;
    }
}
