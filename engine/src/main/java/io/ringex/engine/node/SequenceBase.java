package io.ringex.engine.node;

/**
 * Maps ring sequences (which start at 0 in every process) to command sequences (which continue the journal across
 * restarts): {@code commandSequence = base + ringSequence}, where {@code base} is the first command sequence this
 * process will take, one past the last journaled.
 * <p>
 * Immutable; shared by the stages of one node.
 */
final class SequenceBase
{
    private final long base;

    SequenceBase(final long firstCommandSequence)
    {
        this.base = firstCommandSequence;
    }

    long commandSequence(final long ringSequence)
    {
        return base + ringSequence;
    }

    long ringSequence(final long commandSequence)
    {
        return commandSequence - base;
    }

    long firstCommandSequence()
    {
        return base;
    }
}
