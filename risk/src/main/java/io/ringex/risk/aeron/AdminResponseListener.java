package io.ringex.risk.aeron;

import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.RejectReason;

/** Told of each AdminResponse on the risk stream, on the Aeron agent thread: implementations must not block. */
@FunctionalInterface
public interface AdminResponseListener
{
    /**
     * @param requestId       the request answered.
     * @param templateId      template id of the command answered.
     * @param status          ACCEPTED or REJECTED.
     * @param reason          why, when rejected.
     * @param commandSequence the command's input-ring sequence.
     */
    void onAdminResponse(long requestId, int templateId, AdminStatus status, RejectReason reason,
        long commandSequence);
}
