package io.ringex.risk.aeron;

import org.agrona.DirectBuffer;

/**
 * Where encoded admin commands go. Implemented over Aeron; tests may record instead.
 * <p>
 * Thread safety: called from HTTP threads; implementations must allow concurrent calls.
 */
public interface AdminCommandSink
{
    /**
     * Offer one SBE admin command on the ingress of the engine followed now (with several nodes, the primary: the
     * cluster's leader; with none known, {@link OfferOutcome#NO_PRIMARY} at once).
     *
     * @param buffer the message, header included.
     * @param offset its offset.
     * @param length its length.
     * @return what happened after the configured retry window.
     */
    OfferOutcome offerIngress(DirectBuffer buffer, int offset, int length);
}
