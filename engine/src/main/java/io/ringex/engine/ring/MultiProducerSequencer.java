package io.ringex.engine.ring;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * {@link Sequencer} for any number of producing threads. Claims complete out of order, so each slot's sequence field is
 * its availability flag: publish stores the sequence there with release semantics, and stages gated on the cursor scan
 * the flags with acquire loads ({@link #highestPublished(long, long)}).
 * <p>
 * The engine node does not use it (docs/architecture.md, "Inside the node", says why it stays).
 * <p>
 * Threading: claim and publish from any number of threads; everything else from any thread.
 */
public final class MultiProducerSequencer implements Sequencer
{
    private final Ring ring;
    private final AtomicBuffer buffer;
    private final AtomicCounter claim;
    private final AtomicCounter gatingCache;
    private final int capacity;
    // Lifecycle flag, read once per claim.
    private volatile boolean closed;

    MultiProducerSequencer(final Ring ring, final AtomicCounter claim, final AtomicCounter gatingCache)
    {
        this.ring = ring;
        this.buffer = ring.buffer();
        this.claim = claim;
        this.gatingCache = gatingCache;
        this.capacity = ring.capacity();
        claim.setRelease(-1);
        gatingCache.setRelease(-1);
    }

    /**
     * {@inheritDoc}
     */
    public long next(final IdleStrategy idleStrategy)
    {
        return next(1, idleStrategy);
    }

    /**
     * {@inheritDoc}
     */
    public long next(final int n, final IdleStrategy idleStrategy)
    {
        SingleProducerSequencer.checkBatch(n, capacity);
        if (closed)
        {
            return CLOSED;
        }

        // Full fence RMW: the claim is ours from here, so we must wait for room even if closed meanwhile.
        final long current = claim.getAndAdd(n);
        final long next = current + n;
        final long wrapPoint = next - capacity;
        // Acquire: a stale (lower) cache only costs a re-read of the gating sequences, never safety.
        if (wrapPoint > gatingCache.getAcquire())
        {
            idleStrategy.reset();
            long min;
            while (wrapPoint > (min = ring.minGatingSequence(current)))
            {
                idleStrategy.idle();
            }
            gatingCache.setRelease(min);
        }

        return next;
    }

    /**
     * {@inheritDoc}
     */
    public long tryNext()
    {
        return tryNext(1);
    }

    /**
     * {@inheritDoc}
     */
    public long tryNext(final int n)
    {
        SingleProducerSequencer.checkBatch(n, capacity);
        long current;
        long next;
        do
        {
            if (closed)
            {
                return CLOSED;
            }
            current = claim.getAcquire();
            next = current + n;
            final long wrapPoint = next - capacity;
            if (wrapPoint > gatingCache.getAcquire())
            {
                final long min = ring.minGatingSequence(current);
                gatingCache.setRelease(min);
                if (wrapPoint > min)
                {
                    return INSUFFICIENT_CAPACITY;
                }
            }
        }
        while (!claim.compareAndSet(current, next)); // full fence CAS on the claim sequence

        return next;
    }

    /**
     * {@inheritDoc}
     */
    public void publish(final long sequence)
    {
        // Release: the producer's header and payload stores become visible before the flag does.
        buffer.putLongRelease(ring.slotOffset(sequence) + SlotDescriptor.SEQUENCE_OFFSET, sequence);
    }

    /**
     * {@inheritDoc}
     */
    public void publish(final long lo, final long hi)
    {
        for (long s = lo; s <= hi; s++)
        {
            buffer.putLongRelease(ring.slotOffset(s) + SlotDescriptor.SEQUENCE_OFFSET, s);
        }
    }

    /**
     * {@inheritDoc}
     */
    public long highestPublished(final long lo, final long available)
    {
        for (long s = lo; s <= available; s++)
        {
            // Acquire: pairs with the release in publish, so the slot's contents are visible once the flag is.
            if (buffer.getLongAcquire(ring.slotOffset(s) + SlotDescriptor.SEQUENCE_OFFSET) != s)
            {
                return s - 1;
            }
        }

        return available;
    }

    /**
     * {@inheritDoc}
     */
    public long cursor()
    {
        return claim.getAcquire();
    }

    /**
     * {@inheritDoc}
     */
    public long remainingCapacity()
    {
        final long claimed = claim.getAcquire();
        return capacity - (claimed - ring.minGatingSequence(claimed));
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        closed = true;
    }

    /**
     * {@inheritDoc}
     */
    public boolean isClosed()
    {
        return closed;
    }
}
