package io.ringex.engine.node;

import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.ReplicatedCommandDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The standby's input: takes {@code ReplicatedCommand}s from the primary and claims them into the standby's input
 * ring with the primary's sequence, time and source, so the standby's journal and processor see exactly what the
 * primary's did.
 * <p>
 * Commands must arrive in sequence. One already held (a resend) is skipped; one past the next expected means the
 * standby missed commands (it joined late or lost messages): it stops applying, counts it and reports it, because
 * going on would make its state differ from the primary's. A full ring pushes back with ABORT.
 * <p>
 * Thread safety: one thread; the only user of the standby input ring's sequencer.
 */
final class StandbyReceiver implements Agent, ControlledFragmentHandler
{
    private static final System.Logger LOG = System.getLogger(StandbyReceiver.class.getName());

    private final Subscription subscription;
    private final Ring ring;
    private final Sequencer sequencer;
    private final SequenceBase sequences;
    private final AtomicCounter gapCounter;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ReplicatedCommandDecoder decoder = new ReplicatedCommandDecoder();
    private long nextSequence;
    private long epoch;
    private volatile boolean stopped;
    private long lastHeardNs;
    private long nowNs;

    StandbyReceiver(
        final Subscription subscription, final Ring ring, final SequenceBase sequences, final AtomicCounter gapCounter)
    {
        this.subscription = subscription;
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.sequences = sequences;
        this.gapCounter = gapCounter;
        this.nextSequence = sequences.firstCommandSequence();
    }

    public int doWork()
    {
        nowNs = System.nanoTime();
        return stopped ? 0 : subscription.controlledPoll(this, 64);
    }

    /**
     * @return when anything last arrived from the primary (a command or a heartbeat), 0 if never.
     */
    long lastHeardNs()
    {
        return lastHeardNs;
    }

    public String roleName()
    {
        return "standby-receiver";
    }

    /**
     * Stop taking replicated commands (on promotion).
     */
    void stop()
    {
        stopped = true;
    }

    /**
     * @return the highest epoch seen from the primary.
     */
    long epoch()
    {
        return epoch;
    }

    /**
     * @return the next command sequence expected.
     */
    long nextSequence()
    {
        return nextSequence;
    }

    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        lastHeardNs = nowNs;
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != ReplicatedCommandDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != ReplicatedCommandDecoder.TEMPLATE_ID)
        {
            return Action.CONTINUE;
        }
        decoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final long sequence = decoder.sequence();
        if (sequence < nextSequence)
        {
            return Action.CONTINUE;
        }
        if (sequence > nextSequence)
        {
            gapCounter.incrementRelease();
            LOG.log(System.Logger.Level.ERROR, "standby missed commands {0}..{1}: it stops applying; restart it to " +
                "catch up from the primary's journal", nextSequence, sequence - 1);
            stopped = true;
            return Action.BREAK;
        }

        final long ringSequence = sequencer.tryNext();
        if (ringSequence < 0)
        {
            return Action.ABORT;
        }
        if (sequences.commandSequence(ringSequence) != sequence)
        {
            throw new IllegalStateException("standby ring out of step: ring " + ringSequence + " command " + sequence);
        }
        epoch = Math.max(epoch, decoder.epoch());
        final AtomicBuffer slots = ring.buffer();
        final int slot = ring.slotOffset(ringSequence);
        slots.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, decoder.timestampNs());
        slots.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, decoder.sourceId());
        slots.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, decoder.templateId());
        final int commandLength = decoder.commandLength();
        slots.putInt(slot + SlotDescriptor.LENGTH_OFFSET, commandLength);
        decoder.getCommand(slots, slot + SlotDescriptor.PAYLOAD_OFFSET, commandLength);
        sequencer.publish(ringSequence);
        nextSequence = sequence + 1;
        return Action.CONTINUE;
    }
}
