package io.ringex.engine.node;

import io.ringex.testing.FreePorts;

/**
 * Small helpers the node tests (and the gateway's failover drills) share.
 */
public final class NodeTestSupport
{
    private static final String IPC = "aeron:ipc";

    private NodeTestSupport()
    {
    }

    /**
     * @return a UDP port free at the time of asking.
     */
    public static int freeUdpPort()
    {
        return FreePorts.udp();
    }
}
