package io.ringex.journal;

import org.agrona.DirectBuffer;

/**
 * Receives journal records as a reader finds them. The buffer is only valid during the call.
 */
@FunctionalInterface
public interface JournalRecordHandler
{
    /**
     * One good record.
     *
     * @param sequence    input-ring sequence.
     * @param timestampNs ingress time.
     * @param sourceId    source (session) id.
     * @param templateId  SBE template id of the command.
     * @param buffer      holding the command, SBE header included.
     * @param offset      where the command starts.
     * @param length      command length.
     */
    void onRecord(
        long sequence, long timestampNs, long sourceId, int templateId, DirectBuffer buffer, int offset, int length);
}
