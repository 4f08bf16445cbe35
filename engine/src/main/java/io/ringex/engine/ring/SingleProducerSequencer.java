package io.ringex.engine.ring;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * {@link Sequencer} for exactly one producing thread: a claim is a plain increment of a thread-local field, no CAS.
 * <p>
 * Threading: claim and publish methods from ONE thread at a time; {@link #close()}, {@link #cursor()} and
 * {@link #isClosed()} from any thread; {@link #highestPublished(long, long)} from stages.
 */
public final class SingleProducerSequencer implements Sequencer
{
    private final Ring ring;
    private final AtomicCounter cursor;
    private final int capacity;
    private long nextValue = -1;
    private long cachedGatingMin = -1;
    // Lifecycle flag, read once per claim: a volatile load is a plain load on x86 and TSO-cheap elsewhere.
    private volatile boolean closed;

    SingleProducerSequencer(final Ring ring, final AtomicCounter cursor)
    {
        this.ring = ring;
        this.cursor = cursor;
        this.capacity = ring.capacity();
        cursor.setRelease(-1);
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
        checkBatch(n, capacity);
        if (closed)
        {
            return CLOSED;
        }

        final long current = nextValue;
        final long next = current + n;
        final long wrapPoint = next - capacity;
        if (wrapPoint > cachedGatingMin)
        {
            idleStrategy.reset();
            long min;
            while (wrapPoint > (min = ring.minGatingSequence(current)))
            {
                if (closed)
                {
                    return CLOSED;
                }
                idleStrategy.idle();
            }
            cachedGatingMin = min;
        }
        nextValue = next;

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
        checkBatch(n, capacity);
        if (closed)
        {
            return CLOSED;
        }

        final long current = nextValue;
        final long next = current + n;
        final long wrapPoint = next - capacity;
        if (wrapPoint > cachedGatingMin)
        {
            final long min = ring.minGatingSequence(current);
            cachedGatingMin = min;
            if (wrapPoint > min)
            {
                return INSUFFICIENT_CAPACITY;
            }
        }
        nextValue = next;

        return next;
    }

    /**
     * {@inheritDoc}
     */
    public void publish(final long sequence)
    {
        // The cursor is the only flag a single producer needs: its release store orders the producer's slot writes
        // before any stage's acquire load of it. The slot itself is left as the producer wrote it.
        cursor.setRelease(sequence);
    }

    /**
     * {@inheritDoc}
     */
    public void publish(final long lo, final long hi)
    {
        cursor.setRelease(hi);
    }

    /**
     * {@inheritDoc}
     */
    public long highestPublished(final long lo, final long available)
    {
        return available;
    }

    /**
     * {@inheritDoc}
     */
    public long cursor()
    {
        return cursor.getAcquire();
    }

    /**
     * {@inheritDoc}
     */
    public long remainingCapacity()
    {
        final long produced = cursor.getAcquire();
        return capacity - (produced - ring.minGatingSequence(produced));
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

    static void checkBatch(final int n, final int capacity)
    {
        if (n < 1 || n > capacity)
        {
            throw new IllegalArgumentException("n must be in 1.." + capacity + ": " + n);
        }
    }
}
