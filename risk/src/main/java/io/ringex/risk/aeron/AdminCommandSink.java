package io.ringex.risk.aeron;

import org.agrona.DirectBuffer;

/**
 * Where encoded admin commands and promotion requests go. Implemented over Aeron; tests may record instead.
 * <p>
 * Thread safety: called from HTTP threads; implementations must allow concurrent calls.
 */
public interface AdminCommandSink
{
    /**
     * Offer one SBE admin command on the ingress of the engine followed now (with a pair, the primary; with none
     * known, {@link OfferOutcome#NO_PRIMARY} at once).
     *
     * @param buffer the message, header included.
     * @param offset its offset.
     * @param length its length.
     * @return what happened after the configured retry window.
     */
    OfferOutcome offerIngress(DirectBuffer buffer, int offset, int length);

    /**
     * Offer one SBE message on a node's control stream.
     *
     * @param engine index of the node in the configuration (0 = {@code streams.*}, 1 = {@code standby.*}).
     * @param buffer the message, header included.
     * @param offset its offset.
     * @param length its length.
     * @return what happened after the configured retry window.
     */
    OfferOutcome offerControl(int engine, DirectBuffer buffer, int offset, int length);
}
