package io.ringex.risk.aeron;

import org.agrona.DirectBuffer;

/** Where encoded admin commands and promotion requests go. Implemented over Aeron; tests may record instead. */
public interface AdminCommandSink
{
    /**
     * Offer one SBE admin command on the engine's ingress.
     *
     * @param buffer the message, header included.
     * @param offset its offset.
     * @param length its length.
     * @return what happened after the configured retry window.
     */
    OfferOutcome offerIngress(DirectBuffer buffer, int offset, int length);

    /**
     * Offer one SBE message on the standby's control stream.
     *
     * @param buffer the message, header included.
     * @param offset its offset.
     * @param length its length.
     * @return what happened after the configured retry window.
     */
    OfferOutcome offerControl(DirectBuffer buffer, int offset, int length);
}
