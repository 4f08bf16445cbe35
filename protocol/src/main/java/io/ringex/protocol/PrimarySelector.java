package io.ringex.protocol;

import io.ringex.protocol.codecs.NodeRole;

/**
 * Which engine node of a primary/standby pair a gateway or the risk service follows, so every part of the venue
 * agrees on the primary: the rule a client of the engine's streams applies to {@code EngineStatus}. Follow the node
 * claiming PRIMARY, in its
 * latest EngineStatus, at the highest epoch; only while it is heard from (within the status timeout); never one whose
 * epoch is below the highest any node has claimed PRIMARY at (a superseded primary that still calls itself primary
 * is not believed); between two claims at the same epoch keep the one followed now, so a promotion's transient double
 * claim does not flap.
 * <p>
 * With a single engine configured there is nothing to choose: it is always followed, status or not (the behaviour
 * before the dashboard knew pairs).
 * <p>
 * Thread safety: not thread safe; one thread, or the caller's lock.
 */
public final class PrimarySelector
{
    /** No primary known. */
    public static final int NONE = -1;

    private final NodeRole[] roles;
    private final long[] epochs;
    private final long[] lastHeardNs;
    private final boolean[] heard;
    private final long statusTimeoutNs;
    private final boolean singleNodeFollowsStatus;
    private long highestPrimaryEpoch = -1;
    private int primary;
    private int lastFollowed;
    private long switches;

    /**
     * @param engineCount     nodes configured.
     * @param statusTimeoutNs how long a silent node is still followed.
     */
    public PrimarySelector(final int engineCount, final long statusTimeoutNs)
    {
        this(engineCount, statusTimeoutNs, false);
    }

    /**
     * @param engineCount             nodes configured.
     * @param statusTimeoutNs         how long a silent node is still followed.
     * @param singleNodeFollowsStatus with one node: false, it is always the one followed; true, it is until it has
     *                                been heard, then only while heard claiming PRIMARY (as with a pair), so a node
     *                                that falls silent is not sent what it cannot take.
     */
    public PrimarySelector(final int engineCount, final long statusTimeoutNs, final boolean singleNodeFollowsStatus)
    {
        if (engineCount < 1)
        {
            throw new IllegalArgumentException("at least one engine");
        }
        roles = new NodeRole[engineCount];
        epochs = new long[engineCount];
        lastHeardNs = new long[engineCount];
        heard = new boolean[engineCount];
        this.statusTimeoutNs = statusTimeoutNs;
        this.singleNodeFollowsStatus = singleNodeFollowsStatus;
        primary = engineCount == 1 ? 0 : NONE;
        lastFollowed = primary;
    }

    /**
     * A node's status arrived.
     *
     * @param engine index of the node in the configuration.
     * @param role   the role it claims.
     * @param epoch  its epoch.
     * @param nowNs  the caller's clock.
     */
    public void onStatus(final int engine, final NodeRole role, final long epoch, final long nowNs)
    {
        roles[engine] = role;
        epochs[engine] = epoch;
        lastHeardNs[engine] = nowNs;
        heard[engine] = true;
        if (role == NodeRole.PRIMARY && epoch > highestPrimaryEpoch)
        {
            highestPrimaryEpoch = epoch;
        }
    }

    /**
     * Choose again.
     *
     * @param nowNs the caller's clock.
     * @return the index of the node to follow, or {@link #NONE}.
     */
    public int select(final long nowNs)
    {
        if (roles.length == 1 && (!singleNodeFollowsStatus || !heard[0]))
        {
            return primary;
        }
        int best = NONE;
        for (int i = 0; i < roles.length; i++)
        {
            if (heard[i] && roles[i] == NodeRole.PRIMARY && epochs[i] == highestPrimaryEpoch &&
                nowNs - lastHeardNs[i] <= statusTimeoutNs && (best == NONE || i == primary))
            {
                best = i;
            }
        }
        if (best != NONE && best != lastFollowed)
        {
            switches++;
            lastFollowed = best;
        }
        primary = best;
        return best;
    }

    /** @return the node chosen by the last {@link #select(long)}, or {@link #NONE}. */
    public int primary()
    {
        return primary;
    }

    /** @return the last node ever followed (the followed one, or the one before a gap), or {@link #NONE}. */
    public int lastFollowed()
    {
        return lastFollowed;
    }

    /** @return how many times the followed node changed to another (the first choice included). */
    public long switches()
    {
        return switches;
    }

    /** @return nodes configured. */
    public int engineCount()
    {
        return roles.length;
    }

    /**
     * @param engine index of a node.
     * @return its role in its last status, or null if none has arrived.
     */
    public NodeRole role(final int engine)
    {
        return roles[engine];
    }

    /**
     * @param engine index of a node.
     * @param nowNs  the caller's clock.
     * @return true while its last status is within the timeout.
     */
    public boolean isHeard(final int engine, final long nowNs)
    {
        return heard[engine] && nowNs - lastHeardNs[engine] <= statusTimeoutNs;
    }

    /**
     * @param engine index of a node.
     * @return when its last status arrived (the caller's clock; meaningless if none has).
     */
    public long lastHeardNs(final int engine)
    {
        return lastHeardNs[engine];
    }

    /** @return the highest epoch any node has claimed PRIMARY at, or -1. */
    public long highestPrimaryEpoch()
    {
        return highestPrimaryEpoch;
    }
}
