package io.ringex.engine.replication;

import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Writes a primary's {@code ReplicatedCommand} into a standby's input ring with the primary's time, source and
 * template, so the standby's journal and processor see exactly what the primary's did (the sequence follows from the
 * ring's, as on the primary).
 * <p>
 * Thread safety: the standby's input thread, the only producer of its input ring.
 */
final class ReplicatedCommandWriter
{
    private final Ring ring;
    private final Sequencer sequencer;

    /**
     * @param ring the standby's input ring.
     */
    ReplicatedCommandWriter(final Ring ring)
    {
        this.ring = ring;
        this.sequencer = ring.sequencer();
    }

    /**
     * @return the ring sequence of the next slot, claimed; -1 if the ring is full.
     */
    long claim()
    {
        return sequencer.tryNext();
    }

    /**
     * Copy the command into the claimed slot and publish it.
     *
     * @param ringSequence the slot {@link #claim()} returned.
     * @param command      the decoder, wrapped on the command.
     */
    void write(final long ringSequence, final ReplicatedCommandDecoder command)
    {
        final AtomicBuffer slots = ring.buffer();
        final int slot = ring.slotOffset(ringSequence);
        slots.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, command.timestampNs());
        slots.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, command.sourceId());
        slots.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, command.templateId());
        final int commandLength = command.commandLength();
        slots.putInt(slot + SlotDescriptor.LENGTH_OFFSET, commandLength);
        command.getCommand(slots, slot + SlotDescriptor.PAYLOAD_OFFSET, commandLength);
        sequencer.publish(ringSequence);
    }
}
