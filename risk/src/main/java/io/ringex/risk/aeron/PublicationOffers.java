package io.ringex.risk.aeron;

import java.util.concurrent.locks.LockSupport;

import org.agrona.DirectBuffer;

import io.aeron.Publication;
import io.aeron.ReservedValueSupplier;

/**
 * Offer with Aeron's retry rules: a negative result means nothing was sent. ADMIN_ACTION is retried at once (normal
 * at term rotation); BACK_PRESSURED and NOT_CONNECTED are retried after a short park until the deadline, then
 * reported; CLOSED and MAX_POSITION_EXCEEDED are final. Called from HTTP threads; a {@code ConcurrentPublication}
 * allows that.
 */
public final class PublicationOffers
{
    private static final long RETRY_PARK_NS = 1_000_000L;

    private PublicationOffers()
    {
    }

    /**
     * @param publication   where to offer, may be null before start.
     * @param buffer        the message.
     * @param offset        its offset.
     * @param length        its length.
     * @param reservedValue stamped in the frame header's reserved value, or null.
     * @param timeoutNs     how long to keep retrying back pressure or a missing subscriber.
     * @return what happened.
     */
    public static OfferOutcome offer(
        final Publication publication,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final ReservedValueSupplier reservedValue,
        final long timeoutNs)
    {
        if (publication == null)
        {
            return OfferOutcome.NOT_STARTED;
        }
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            final long result = publication.offer(buffer, offset, length, reservedValue);
            if (result > 0)
            {
                return OfferOutcome.SENT;
            }
            if (result == Publication.ADMIN_ACTION)
            {
                continue;
            }
            if (result == Publication.CLOSED)
            {
                return OfferOutcome.CLOSED;
            }
            if (result == Publication.MAX_POSITION_EXCEEDED)
            {
                return OfferOutcome.MAX_POSITION_EXCEEDED;
            }
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return result == Publication.BACK_PRESSURED ? OfferOutcome.BACK_PRESSURED : OfferOutcome.NOT_CONNECTED;
            }
            LockSupport.parkNanos(RETRY_PARK_NS);
        }
    }
}
