package io.ringex.engine.node;

import org.agrona.DirectBuffer;

/**
 * Where the ingress puts a command it has validated and stamped: the input ring of a single node
 * ({@link RingCommandSink}), or the cluster's log while the member leads, from which every member's service puts it
 * into its ring once a majority holds it.
 * <p>
 * Thread safety: the ingress's thread.
 */
interface CommandSink
{
    /**
     * @param timestampNs the time the ingress stamped (never decreasing).
     * @param sourceId    who sent it: a session, or an admin source.
     * @param templateId  its SBE template.
     * @param buffer      the command, SBE header included.
     * @param offset      where it starts.
     * @param length      its length (validated to fit an input slot).
     * @param receivedNs  when its poll took it, for the stage trace.
     * @return false if it cannot be taken now: the ingress lets Aeron redeliver it.
     */
    boolean offer(
        long timestampNs, long sourceId, int templateId, DirectBuffer buffer, int offset, int length, long receivedNs);
}
