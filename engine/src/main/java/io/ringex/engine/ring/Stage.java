package io.ringex.engine.ring;

import java.util.ArrayList;
import java.util.List;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.CountedErrorHandler;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A consumer of a {@link Ring}: an Agrona {@link Agent} that hands every slot its gates have passed to a {@link
 * SlotHandler} as ONE batch, then publishes its own sequence once for the batch (the Disruptor's {@code
 * BatchEventProcessor}, as an agent). Its gates are the ring's cursor and/or other stages of the ring; a stage never
 * hands its handler a sequence a gate has not passed.
 * <p>
 * Handler exceptions are counted by a {@link CountedErrorHandler} and then handled by the {@link StageErrorPolicy}.
 * <p>
 * Threading: {@link #doWork()} on ONE thread at a time, its own {@link org.agrona.concurrent.AgentRunner} or a {@link
 * org.agrona.concurrent.CompositeAgent}; the queries ({@link #sequence()}, {@link #isHalted()}, {@link #errorCount()})
 * from any thread. Zero allocation per slot.
 */
public final class Stage implements Agent
{
    private final String roleName;
    private final AtomicBuffer buffer;
    private final long mask;
    private final int slotShift;
    private final Sequencer sequencer;
    private final SlotHandler handler;
    private final AtomicCounter sequence;
    private final AtomicCounter errors;
    private final CountedErrorHandler errorHandler;
    private final AtomicCounter[] gates;
    private final boolean scanAvailability;
    private final StageErrorPolicy errorPolicy;
    // Written by the stage thread, read by monitors: a lifecycle flag, not on the per-slot path.
    private volatile boolean halted;

    private Stage(final Builder builder, final Ring ring)
    {
        roleName = ring.name() + "/" + builder.stageName;
        buffer = ring.buffer();
        mask = ring.capacity() - 1;
        slotShift = Integer.numberOfTrailingZeros(ring.slotLength());
        sequencer = ring.sequencer();
        handler = builder.handler;
        errorPolicy = builder.errorPolicy;
        sequence = ring.countersManager().newCounter("ring-stage: " + roleName, Ring.STAGE_SEQUENCE_TYPE_ID);
        sequence.setRelease(-1);
        errors = ring.countersManager().newCounter("ring-stage-errors: " + roleName, Ring.STAGE_ERRORS_TYPE_ID);
        errorHandler = new CountedErrorHandler(
            null != builder.errorHandler ? builder.errorHandler : Ring.defaultErrorHandler(roleName), errors);

        final List<AtomicCounter> gateList = new ArrayList<>();
        final boolean onCursor = builder.gatedOnCursor || builder.upstream.isEmpty();
        if (onCursor)
        {
            gateList.add(ring.cursorCounter());
        }
        for (final Stage up : builder.upstream)
        {
            gateList.add(up.sequence);
        }
        gates = gateList.toArray(new AtomicCounter[0]);
        // Multi-producer cursor = claim sequence: check the per-slot flags. Upstream stages only ever pass
        // published slots, so gates made only of stages need no check.
        scanAvailability = onCursor && ProducerType.MULTI == ring.producerType();
    }

    /**
     * Process everything the gates have passed as one batch.
     *
     * @return number of slots handled, 0 when there was nothing (the runner then idles).
     */
    public int doWork()
    {
        if (halted)
        {
            return 0;
        }

        // Plain: this stage is the only writer of its sequence.
        final long next = sequence.getPlain() + 1;
        long available = Long.MAX_VALUE;
        for (final AtomicCounter gate : gates)
        {
            // Acquire: pairs with the release by the producer or upstream stage that advanced the gate.
            available = Math.min(available, gate.getAcquire());
        }
        if (available < next)
        {
            return 0;
        }
        if (scanAvailability)
        {
            available = sequencer.highestPublished(next, available);
            if (available < next)
            {
                return 0;
            }
        }

        for (long s = next; s <= available; s++)
        {
            try
            {
                handler.onSlot(buffer, (int)(s & mask) << slotShift, s, s == available);
            }
            catch (final Throwable ex)
            {
                errorHandler.onError(ex);
                if (StageErrorPolicy.HALT == errorPolicy)
                {
                    halted = true;
                    // Release: downstream may take the slots before the failing one, never the failing one.
                    sequence.setRelease(s - 1);
                    return (int)(s - next) + 1;
                }
            }
        }
        // Release, once per batch.
        sequence.setRelease(available);

        return (int)(available - next) + 1;
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return roleName;
    }

    /**
     * The last sequence this stage finished with.
     *
     * @return sequence, acquire ordering; -1 before the first slot.
     */
    public long sequence()
    {
        return sequence.getAcquire();
    }

    /**
     * The counter holding this stage's sequence (for external readers and metrics).
     *
     * @return sequence counter.
     */
    public AtomicCounter sequenceCounter()
    {
        return sequence;
    }

    /**
     * Whether the stage stopped on a handler error under {@link StageErrorPolicy#HALT}.
     *
     * @return true once halted.
     */
    public boolean isHalted()
    {
        return halted;
    }

    /**
     * Handler exceptions so far.
     *
     * @return error count.
     */
    public long errorCount()
    {
        return errors.get();
    }

    /**
     * The error policy of this stage.
     *
     * @return policy.
     */
    public StageErrorPolicy errorPolicy()
    {
        return errorPolicy;
    }

    void closeCounters()
    {
        sequence.close();
        errorHandler.close();
    }

    /**
     * Configuration of a {@link Stage}; {@link #build()} adds it to the ring's graph. Threading: the thread that
     * configures the ring, before any stage or producer runs.
     */
    public static final class Builder
    {
        private final Ring ring;
        private final String stageName;
        private final SlotHandler handler;
        private final List<Stage> upstream = new ArrayList<>();
        private boolean gatedOnCursor;
        private StageErrorPolicy errorPolicy = StageErrorPolicy.HALT;
        private ErrorHandler errorHandler;

        Builder(final Ring ring, final String stageName, final SlotHandler handler)
        {
            if (null == stageName || stageName.isEmpty() || null == handler)
            {
                throw new IllegalArgumentException("a stage needs a name and a handler");
            }
            this.ring = ring;
            this.stageName = stageName;
            this.handler = handler;
        }

        /**
         * Gate on these upstream stages (added to any gates already set).
         *
         * @param stages upstream stages of the same ring.
         * @return this.
         */
        public Builder gatedOn(final Stage... stages)
        {
            upstream.addAll(List.of(stages));
            return this;
        }

        /**
         * Gate on the cursor too (implied when no upstream stage is given).
         *
         * @return this.
         */
        public Builder gatedOnCursor()
        {
            gatedOnCursor = true;
            return this;
        }

        /**
         * @param errorPolicy what to do when the handler throws; default {@link StageErrorPolicy#HALT}, the safe one.
         * @return this.
         */
        public Builder errorPolicy(final StageErrorPolicy errorPolicy)
        {
            this.errorPolicy = errorPolicy;
            return this;
        }

        /**
         * @param errorHandler where handler exceptions go before being counted; stderr if not set.
         * @return this.
         */
        public Builder errorHandler(final ErrorHandler errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }

        /**
         * Build the stage and add it to the ring's dependency graph.
         *
         * @return the stage, ready to be run by an agent runner.
         */
        public Stage build()
        {
            if (null == errorPolicy)
            {
                throw new IllegalArgumentException("errorPolicy must be set");
            }
            final Stage stage = new Stage(this, ring);
            ring.register(stage, upstream.toArray(new Stage[0]));
            return stage;
        }
    }
}
