package io.ringex.engine.replay;

/**
 * The state as of a command: restored from the newest usable snapshot at or before it, then the journal replayed up to
 * it at full speed. As of a time, it is the state after the last command stamped at or before that time.
 * <p>
 * Threading: the caller's, which owns the replayer.
 */
public final class PointInTime
{
    /**
     * Where the rebuilt state is.
     *
     * @param sequence    the last command applied.
     * @param timestampNs its time.
     * @param stateHash   the state's hash.
     */
    public record State(long sequence, long timestampNs, long stateHash)
    {
    }

    private PointInTime()
    {
    }

    /**
     * @param replayer a replayer not yet started; afterwards its processor holds the state.
     * @param sequence the command the state is to be as of.
     * @return where the state is.
     * @throws ReplayException for a sequence outside the journal or in a gap.
     */
    public static State atSequence(final Replayer replayer, final long sequence)
    {
        return rebuild(replayer, new ReplayCli.Point(sequence, 0));
    }

    /**
     * @param replayer    a replayer not yet started; afterwards its processor holds the state.
     * @param timestampNs the time the state is to be as of: after the last command stamped at or before it.
     * @return where the state is.
     * @throws ReplayException for a time outside the journal.
     */
    public static State atTime(final Replayer replayer, final long timestampNs)
    {
        return rebuild(replayer, ReplayCli.Point.time(timestampNs));
    }

    /**
     * @param replayer a replayer not yet started; afterwards its processor holds the state.
     * @param point    a sequence, or a time.
     * @return the sequence and time the state is at, and its hash.
     * @throws ReplayException for a point outside the journal or in a gap.
     */
    static State rebuild(final Replayer replayer, final ReplayCli.Point point)
    {
        if (point.isTime())
        {
            final long timeNs = replayer.checkTime(point.timestampNs());
            replayer.startAtOrBefore(Long.MAX_VALUE, timeNs);
            replayer.replay(Long.MAX_VALUE, timeNs, null);
        }
        else
        {
            final long sequence = replayer.checkSequence(point.sequence());
            replayer.startAtOrBefore(sequence, Long.MAX_VALUE);
            replayer.replay(sequence, Long.MAX_VALUE, null);
            if (replayer.lastApplied() != sequence)
            {
                throw new ReplayException("sequence " + sequence + " is in a gap of the journal: the last command " +
                    "before it is " + replayer.lastApplied() + " and the next one is later; ask for " +
                    replayer.lastApplied() + " or a sequence after the gap");
            }
        }
        return new State(replayer.lastApplied(), replayer.lastTimestampNs(), replayer.processor().stateHash());
    }
}
