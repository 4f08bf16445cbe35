package io.ringex.engine.replication;

import io.aeron.Publication;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CatchUpRequestEncoder;
import io.ringex.protocol.codecs.CatchUpStopEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A standby's side of the catch-up conversation: the {@code CatchUpRequest}s and {@code CatchUpStop}s it sends its
 * primary on the primary's acknowledgement channel. Neither is retried here beyond a term rotation
 * ({@code ADMIN_ACTION}): the {@link StandbyReceiver} sends a request again every
 * {@link StandbyReceiver#REQUEST_INTERVAL_NS} until it is answered, and a stop again whenever catch-up commands still
 * arrive after it has gone live, so one not sent (no primary yet, back-pressure) is sent again by its schedule.
 * <p>
 * Thread safety: the receiver's thread.
 */
final class CatchUpRequester
{
    private static final int ADMIN_ACTION_ATTEMPTS = 3;

    private final Publication toPrimary;
    private final int nodeId;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final CatchUpRequestEncoder request = new CatchUpRequestEncoder();
    private final CatchUpStopEncoder stop = new CatchUpStopEncoder();

    /**
     * @param toPrimary the publication to the primary's acknowledgement channel.
     * @param nodeId    this node's id.
     */
    CatchUpRequester(final Publication toPrimary, final int nodeId)
    {
        this.toPrimary = toPrimary;
        this.nodeId = nodeId;
    }

    /**
     * Ask the primary to stream from a sequence after checking the record before it, or (a probe) only to check it.
     *
     * @param epoch        the highest epoch heard from the primary.
     * @param requestId    the request's id, which its answer and stream carry.
     * @param fromSequence the next sequence this node needs.
     * @param lastChecksum the CRC-32C of this node's record {@code fromSequence - 1} (0 if none).
     * @param probe        whether only to check the record.
     * @return whether it was sent.
     */
    boolean request(
        final long epoch, final long requestId, final long fromSequence, final int lastChecksum, final boolean probe)
    {
        request.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(epoch)
            .nodeId(nodeId)
            .fromSequence(fromSequence)
            .requestId(requestId)
            .lastChecksum(lastChecksum)
            .probe(probe ? BooleanType.TRUE : BooleanType.FALSE);
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + request.encodedLength());
    }

    /**
     * Tell the primary to end the catch-up session: this node is live (or promoted).
     *
     * @param epoch        the highest epoch heard from the primary.
     * @param requestId    the session's request id.
     * @param liveSequence the first sequence this node took from the live stream.
     * @return whether it was sent.
     */
    boolean stop(final long epoch, final long requestId, final long liveSequence)
    {
        stop.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .epoch(epoch)
            .nodeId(nodeId)
            .requestId(requestId)
            .liveSequence(liveSequence);
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + stop.encodedLength());
    }

    private boolean offer(final int length)
    {
        long result = Publication.ADMIN_ACTION;
        for (int i = 0; i < ADMIN_ACTION_ATTEMPTS && result == Publication.ADMIN_ACTION; i++)
        {
            result = toPrimary.offer(buffer, 0, length);
        }
        return result > 0;
    }
}
