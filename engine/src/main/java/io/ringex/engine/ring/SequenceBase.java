package io.ringex.engine.ring;

/**
 * Maps ring sequences (which start at 0 in every process) to the sequences of the commands the slots carry (which
 * continue the journal across restarts): {@code commandSequence = base + ringSequence}, where {@code base} is the
 * first command sequence this process takes, one past the last journaled.
 * <p>
 * Immutable; shared by the stages of one node.
 */
public final class SequenceBase
{
    private final long base;

    /**
     * @param firstCommandSequence the command sequence of ring sequence 0.
     */
    public SequenceBase(final long firstCommandSequence)
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
