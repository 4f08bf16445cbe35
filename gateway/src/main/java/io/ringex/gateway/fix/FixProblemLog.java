package io.ringex.gateway.fix;

import org.agrona.collections.ObjectHashSet;

import java.util.function.Consumer;

/**
 * Logs the first occurrence of each kind of problem the FIX agent meets on its output (an encoder that threw, a
 * value fitted to what FIX can carry), with the identity of the message it happened to; later ones of the same kind
 * are only counted (by the agent's counters), so a client that provokes the same problem on every message cannot
 * flood the log. Kinds are remembered up to {@link #MAX_KINDS}; beyond that, nothing more is logged.
 * <p>
 * Thread safety: the agent thread only.
 */
final class FixProblemLog
{
    /** Distinct kinds remembered. */
    static final int MAX_KINDS = 256;

    private final ObjectHashSet<String> seen = new ObjectHashSet<>();
    private final String prefix;
    private final Consumer<String> log;

    /**
     * @param prefix put before each line, e.g. the gateway's name.
     * @param log    where lines go (stderr in production).
     */
    FixProblemLog(final String prefix, final Consumer<String> log)
    {
        this.prefix = prefix;
        this.log = log;
    }

    /**
     * Record one occurrence.
     *
     * @param kind   what went wrong, without values that vary per message (e.g. "could not encode ExecutionReport:
     *               ArithmeticException").
     * @param detail the message's identity and the specifics.
     * @return true if this was the first of its kind and was logged.
     */
    boolean record(final String kind, final CharSequence detail)
    {
        if (seen.size() >= MAX_KINDS || !seen.add(kind))
        {
            return false;
        }
        log.accept(prefix + kind + ": " + detail + " (further ones of this kind are counted, not logged)");
        return true;
    }
}
