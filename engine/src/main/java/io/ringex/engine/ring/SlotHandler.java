package io.ringex.engine.ring;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The work a {@link Stage} does for each slot. Called on the stage's thread only (the thread of the
 * {@link org.agrona.concurrent.AgentRunner} or {@link org.agrona.concurrent.CompositeAgent} running the stage), for
 * sequences in strict order without gaps.
 * <p>
 * The slot is {@code buffer} from {@code slotOffset} for the ring's slot length; header fields are at
 * {@link SlotDescriptor} offsets from {@code slotOffset}. A handler may read the slot, and may write to it only if no
 * other stage reads what it writes concurrently (for example a field only stages gated on this one read). It must
 * not keep the offset beyond the call: the slot is reused once every gating stage has passed it.
 */
@FunctionalInterface
public interface SlotHandler
{
    /**
     * Handle one slot.
     *
     * @param buffer     the ring buffer.
     * @param slotOffset offset of the slot's header in {@code buffer}.
     * @param sequence   sequence of the slot.
     * @param endOfBatch true for the last slot of what was available when the batch started: flush here.
     * @throws Exception on failure, which goes to the stage's error handler and {@link StageErrorPolicy}.
     */
    void onSlot(AtomicBuffer buffer, int slotOffset, long sequence, boolean endOfBatch) throws Exception;
}
