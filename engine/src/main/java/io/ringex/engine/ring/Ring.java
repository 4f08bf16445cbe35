package io.ringex.engine.ring;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.ringex.common.IdleStrategies;
import org.agrona.BufferUtil;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Disruptor-class ring: a power-of-two number of fixed-length slots preallocated in ONE aligned off-heap buffer
 * (layout in {@link SlotDescriptor}), a {@link Sequencer} for the producers and any graph of {@link Stage}s over the
 * same slots (pipelines, multicast, diamonds). Its sequences are Agrona {@link AtomicCounter}s from a {@link
 * CountersManager}, readable from outside the process (docs/architecture.md, "Inside the node", has an example).
 * <p>
 * Producers gate on the terminal stages, so a slot is reused only after every stage has passed it.
 * <p>
 * Threading: build the ring and ALL its stages on one thread before any producer or stage thread starts. After that:
 * {@link #sequencer()} per its contract, each stage on its own agent thread, and the queries ({@link #isDrained()},
 * counters) from any thread. {@link #close()} once, after every producer and stage thread has stopped.
 */
public final class Ring implements AutoCloseable
{
    /**
     * Counter type id of the cursor.
     */
    public static final int CURSOR_TYPE_ID = 1101;

    /**
     * Counter type id of a stage's sequence.
     */
    public static final int STAGE_SEQUENCE_TYPE_ID = 1102;

    /**
     * Counter type id of a stage's error count.
     */
    public static final int STAGE_ERRORS_TYPE_ID = 1103;

    /**
     * Counter type id of the multi-producer gating cache.
     */
    public static final int GATING_CACHE_TYPE_ID = 1104;

    private static final int OWN_COUNTERS = 64;

    private final String name;
    private final int capacity;
    private final int slotLength;
    private final long mask;
    private final int slotShift;
    private final AtomicBuffer buffer;
    private final CountersManager countersManager;
    private final AtomicCounter cursorCounter;
    private final AtomicCounter gatingCacheCounter;
    private final Sequencer sequencer;
    private final ProducerType producerType;
    private final List<Stage> stages = new ArrayList<>();
    private AtomicCounter[] gatingSequences = new AtomicCounter[0];
    private boolean closed;

    private Ring(final Builder builder)
    {
        name = builder.name;
        capacity = builder.capacity;
        slotLength = builder.slotLength;
        producerType = builder.producerType;
        mask = capacity - 1;
        slotShift = Integer.numberOfTrailingZeros(slotLength);

        final long length = (long)capacity * slotLength;
        if (length > Integer.MAX_VALUE - SlotDescriptor.BUFFER_ALIGNMENT)
        {
            throw new IllegalArgumentException("capacity * slotLength too large: " + length);
        }
        final ByteBuffer byteBuffer = BufferUtil.allocateDirectAligned((int)length, SlotDescriptor.BUFFER_ALIGNMENT);
        buffer = builder.uncheckedSlots ? new SlotBuffer(byteBuffer) : new UnsafeBuffer(byteBuffer);
        if (ProducerType.MULTI == producerType)
        {
            // the availability flags: no slot published yet
            for (int i = 0; i < capacity; i++)
            {
                buffer.putLong(i * slotLength + SlotDescriptor.SEQUENCE_OFFSET, SlotDescriptor.UNPUBLISHED);
            }
        }

        countersManager = null != builder.countersManager ? builder.countersManager : newCountersManager();
        cursorCounter = countersManager.newCounter("ring-cursor: " + name, CURSOR_TYPE_ID);
        if (ProducerType.SINGLE == producerType)
        {
            gatingCacheCounter = null;
            sequencer = new SingleProducerSequencer(this, cursorCounter);
        }
        else
        {
            gatingCacheCounter = countersManager.newCounter("ring-gating-cache: " + name, GATING_CACHE_TYPE_ID);
            sequencer = new MultiProducerSequencer(this, cursorCounter, gatingCacheCounter);
        }
    }

    /**
     * Start configuring a ring.
     *
     * @return a builder with defaults: 65536 slots of 128 bytes, single producer, a private counters manager.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * The default way stages and blocking producers wait: the venue's back-off ({@link IdleStrategies#backoff()}),
     * which spins briefly, yields, then parks from 1 us up to 100 us. Right for 2 cores shared by several agents;
     * busy-spin only where every spinning thread has its own core.
     *
     * @return a new idle strategy (they are stateful: one per thread).
     */
    public static IdleStrategy defaultIdleStrategy()
    {
        return IdleStrategies.backoff();
    }

    /**
     * Start configuring a stage over this ring: gated on the cursor unless {@link Stage.Builder#gatedOn} says
     * otherwise.
     *
     * @param stageName name for counters and the agent role.
     * @param handler   what the stage does with each slot.
     * @return the stage builder.
     */
    public Stage.Builder stage(final String stageName, final SlotHandler handler)
    {
        return new Stage.Builder(this, stageName, handler);
    }

    /**
     * The producers' side of this ring.
     *
     * @return the sequencer.
     */
    public Sequencer sequencer()
    {
        return sequencer;
    }

    /**
     * The slot memory; header fields at {@link SlotDescriptor} offsets from {@link #slotOffset(long)}.
     *
     * @return the ring buffer.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /**
     * Offset of a sequence's slot in {@link #buffer()}.
     *
     * @param sequence any sequence.
     * @return the slot offset: {@code (sequence & mask) * slotLength}.
     */
    public int slotOffset(final long sequence)
    {
        return (int)(sequence & mask) << slotShift;
    }

    /**
     * Number of slots.
     *
     * @return capacity, a power of two.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Bytes per slot, header included.
     *
     * @return slot length, a power of two.
     */
    public int slotLength()
    {
        return slotLength;
    }

    /**
     * Payload room per slot.
     *
     * @return slot length minus the header.
     */
    public int maxPayloadLength()
    {
        return SlotDescriptor.maxPayloadLength(slotLength);
    }

    /**
     * Name of the ring, used in counter labels.
     *
     * @return name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Single or multi producer.
     *
     * @return producer type.
     */
    public ProducerType producerType()
    {
        return producerType;
    }

    /**
     * The counters holding this ring's sequences, for external readers.
     *
     * @return counters reader.
     */
    public CountersReader counters()
    {
        return countersManager;
    }

    /**
     * The cursor counter (what stages gated on the cursor read).
     *
     * @return cursor counter.
     */
    public AtomicCounter cursorCounter()
    {
        return cursorCounter;
    }

    /**
     * Whether every stage has processed every claimed slot. With the sequencer closed this is the drain condition.
     *
     * @return true when nothing is in flight.
     */
    public boolean isDrained()
    {
        final long cursor = sequencer.cursor();
        return minGatingSequence(cursor) >= cursor;
    }

    /**
     * Drain: close the sequencer so producers get {@link Sequencer#CLOSED}, then wait until the stages reach the
     * cursor or the timeout passes (a halted stage never does).
     *
     * @param timeoutNs    how long to wait.
     * @param idleStrategy how to wait.
     * @return true if drained.
     */
    public boolean drain(final long timeoutNs, final IdleStrategy idleStrategy)
    {
        sequencer.close();
        final long deadlineNs = System.nanoTime() + timeoutNs;
        idleStrategy.reset();
        while (!isDrained())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            idleStrategy.idle();
        }

        return true;
    }

    /**
     * Close the sequencer and free the counters. Call after every producer and stage thread has stopped. The slot
     * memory is left to the garbage collector so that a straggling reader can never touch freed memory.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            sequencer.close();
            for (final Stage stage : stages)
            {
                stage.closeCounters();
            }
            cursorCounter.close();
            if (null != gatingCacheCounter)
            {
                gatingCacheCounter.close();
            }
        }
    }

    long minGatingSequence(final long minimum)
    {
        final AtomicCounter[] sequences = gatingSequences;
        long min = minimum;
        for (final AtomicCounter sequence : sequences)
        {
            // Acquire: pairs with the stage's release of its sequence after it finished with the slots.
            min = Math.min(min, sequence.getAcquire());
        }

        return min;
    }

    CountersManager countersManager()
    {
        return countersManager;
    }

    void register(final Stage stage, final Stage[] upstream)
    {
        if (closed)
        {
            throw new IllegalStateException("ring closed: " + name);
        }
        for (final Stage up : upstream)
        {
            if (!stages.contains(up))
            {
                throw new IllegalArgumentException("stage " + up.roleName() + " is not on ring " + name);
            }
        }

        final List<AtomicCounter> gating = new ArrayList<>(List.of(gatingSequences));
        for (final Stage up : upstream)
        {
            gating.remove(up.sequenceCounter());
        }
        gating.add(stage.sequenceCounter());
        stages.add(stage);
        gatingSequences = gating.toArray(new AtomicCounter[0]);
    }

    private static CountersManager newCountersManager()
    {
        final int valuesLength = OWN_COUNTERS * CountersReader.COUNTER_LENGTH;
        return new CountersManager(
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(valuesLength * 4, SlotDescriptor.BUFFER_ALIGNMENT)),
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(valuesLength, SlotDescriptor.BUFFER_ALIGNMENT)));
    }

    /**
     * Configuration of a {@link Ring}, Aeron-Context style: fluent setters, validated in {@link #build()}.
     * Threading: one thread.
     */
    public static final class Builder
    {
        private String name = "ring";
        private int capacity = 1 << 16;
        private int slotLength = 128;
        private ProducerType producerType = ProducerType.SINGLE;
        private CountersManager countersManager;
        private boolean uncheckedSlots;

        private Builder()
        {
        }

        /**
         * @param name used in counter labels.
         * @return this.
         */
        public Builder name(final String name)
        {
            this.name = name;
            return this;
        }

        /**
         * @param capacity number of slots, a power of two.
         * @return this.
         */
        public Builder capacity(final int capacity)
        {
            this.capacity = capacity;
            return this;
        }

        /**
         * @param slotLength bytes per slot, a power of two: &gt;= 64 for a multi-producer ring (its availability
         *                   flag) or to carry the engine's 32-byte header; a single-producer ring's slots may be as
         *                   small as its messages (&gt;= 8).
         * @return this.
         */
        public Builder slotLength(final int slotLength)
        {
            this.slotLength = slotLength;
            return this;
        }

        /**
         * @param producerType single or multi producer.
         * @return this.
         */
        public Builder producerType(final ProducerType producerType)
        {
            this.producerType = producerType;
            return this;
        }

        /**
         * @param countersManager where the sequences live, so external tools can read them; a private one if null.
         * @return this.
         */
        public Builder countersManager(final CountersManager countersManager)
        {
            this.countersManager = countersManager;
            return this;
        }

        /**
         * Read and write slots without Agrona's per-access bounds check ({@link SlotBuffer}), for a ring whose every
         * byte this process's own code wrote. A ring carrying a client's bytes keeps the checks (the default).
         *
         * @return this.
         */
        public Builder uncheckedSlots()
        {
            uncheckedSlots = true;
            return this;
        }

        /**
         * Validate and build.
         *
         * @return the ring.
         * @throws IllegalArgumentException naming the invalid setting.
         */
        public Ring build()
        {
            if (capacity < 2 || Integer.bitCount(capacity) != 1)
            {
                throw new IllegalArgumentException("capacity must be a power of two >= 2: " + capacity);
            }
            if (null == producerType)
            {
                throw new IllegalArgumentException("producerType must be set");
            }
            SlotDescriptor.checkSlotLength(slotLength, producerType);
            if (null == name || name.isEmpty())
            {
                throw new IllegalArgumentException("name must be set");
            }

            return new Ring(this);
        }
    }

    static ErrorHandler defaultErrorHandler(final String roleName)
    {
        final Logger log = LoggerFactory.getLogger(Ring.class);
        return (throwable) -> log.error(roleName + " failed", throwable);
    }
}
