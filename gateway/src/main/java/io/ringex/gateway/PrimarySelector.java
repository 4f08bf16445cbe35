package io.ringex.gateway;

import io.ringex.protocol.codecs.NodeRole;

/**
 * Which engine node the gateway sends commands to: the one claiming PRIMARY, in its latest {@code EngineStatus}, at
 * the highest epoch. A node is followed only while it is heard from (within the status timeout), and never one whose
 * epoch is below the highest any node has claimed PRIMARY at: a superseded primary that still (or again) calls itself
 * primary is not believed. Between two claims at the same epoch the one followed now is kept, so a promotion's
 * transient double claim (the new primary's status can precede its NewEpoch) does not flap.
 * <p>
 * With a single engine configured there is nothing to choose: it is always the target, whether or not it publishes
 * status (the behaviour before gateways followed pairs).
 * <p>
 * Thread safety: one thread (the agent's).
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
    private long highestPrimaryEpoch = -1;
    private int primary;

    /**
     * @param engineCount     nodes configured.
     * @param statusTimeoutNs how long a silent node is still followed.
     */
    public PrimarySelector(final int engineCount, final long statusTimeoutNs)
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
        primary = engineCount == 1 ? 0 : NONE;
    }

    /**
     * A node's status arrived.
     *
     * @param engine index of the node in the configuration.
     * @param role   the role it claims.
     * @param epoch  its epoch.
     * @param nowNs  the gateway's clock.
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
     * @param nowNs the gateway's clock.
     * @return the index of the node to send to, or {@link #NONE}.
     */
    public int select(final long nowNs)
    {
        if (roles.length == 1)
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
        primary = best;
        return best;
    }

    /**
     * @return the node chosen by the last {@link #select(long)}, or {@link #NONE}.
     */
    public int primary()
    {
        return primary;
    }

    /**
     * @param engine index of a node.
     * @return when its last status arrived (the gateway's clock; meaningless if none has).
     */
    public long lastHeardNs(final int engine)
    {
        return lastHeardNs[engine];
    }

    /**
     * @return the highest epoch any node has claimed PRIMARY at, or -1.
     */
    public long highestPrimaryEpoch()
    {
        return highestPrimaryEpoch;
    }
}
