package io.ringex.bench.engine;

import io.ringex.bench.workload.WorkloadFile;
import io.ringex.common.IdleStrategies;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.RingEventSink;
import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.engine.ring.Ring;
import io.ringex.engine.ring.Sequencer;
import io.ringex.engine.ring.SlotDescriptor;
import io.ringex.engine.ring.SlotHandler;
import io.ringex.engine.ring.Stage;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.Locale;

/**
 * "In-process pipeline": the engine's rings and processor without the journal and without Aeron: a producer on the main
 * thread, the processor stage as the node's {@code ProcessorStage} runs it ({@link RingEventSink}), and a consumer
 * stage counting every event ({@link EventTally}); docs/benchmarks-engine.md, "The harnesses". Each thread waits with
 * {@link Ring#defaultIdleStrategy()} unless {@code --idle} says otherwise.
 * <pre>
 * java ${ringex.jvm.flags} -Xms2g -Xmx2g -cp ... io.ringex.bench.engine.PipelineBenchmark --workload FILE \
 *     [--passes 2] [--idle backoff|yield|spin|sleep-ms|sleep-ns] [--ring 16384] [--output-slot 1024]
 * </pre>
 */
public final class PipelineBenchmark
{
    private PipelineBenchmark()
    {
    }

    /**
     * @param args see the class comment.
     * @throws Exception on failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final BenchArgs options = new BenchArgs(args);
        final Path workload = Path.of(options.required("--workload"));
        final int passes = options.integer("--passes", 2);
        final String idle = options.string("--idle", "backoff");
        final int ringCapacity = options.integer("--ring", EngineContext.Configuration.INPUT_RING_CAPACITY_DEFAULT);
        final int outputSlotLength = options.integer(
            "--output-slot", EngineContext.Configuration.OUTPUT_SLOT_LENGTH_DEFAULT_BYTES);

        final WorkloadEncoder.Encoded encoded;
        final int instruments;
        try (WorkloadFile file = WorkloadFile.open(workload))
        {
            encoded = WorkloadEncoder.encodeAll(file);
            instruments = file.instruments();
        }
        final int expectedOrders = Math.max(1 << 16, Integer.highestOneBit(encoded.prefill().count()) * 4);
        final long timed = encoded.timed().count();

        final double[] mcps = new double[passes];
        EventTally tally = null;
        for (int pass = 0; pass < passes; pass++)
        {
            tally = new EventTally();
            try (Pipeline pipeline = new Pipeline(ringCapacity, outputSlotLength, idle, tally, expectedOrders))
            {
                pipeline.produce(encoded.preamble());
                pipeline.produce(encoded.prefill());
                pipeline.awaitDone();
                if (tally.rejects() != 0)
                {
                    throw new IllegalStateException("preamble or prefill refused: " + tally.rejectSummary());
                }
                tally.reset();

                // Quiesce the heap before the clock, as both sides' harnesses do: else the garbage of the passes
                // before starts G1's concurrent marking inside a timed one, on one of the machine's two cores.
                System.gc();
                final long start = System.nanoTime();
                pipeline.produce(encoded.timed());
                pipeline.awaitDone();
                final long ns = System.nanoTime() - start;
                mcps[pass] = timed * 1_000.0 / ns;
                System.out.printf(Locale.ROOT, "pass=%d commands=%d ms=%.1f mcps=%.3f events=%d rejects=%d " +
                    "stateHash=%016x%n", pass, timed, ns / 1e6, mcps[pass], tally.events(), tally.rejects(),
                    pipeline.stateHash());
            }
        }
        System.out.println("REJECTS " + tally.rejectSummary());
        System.out.println("EVENTS " + tally.templateSummary());
        System.out.printf(Locale.ROOT, "RESULT impl=ringex-pipeline instruments=%d commands=%d passes=%d idle=%s " +
            "mcps=%.3f perPass=%s rejects=%d events=%d%n", instruments, timed, passes, idle, mcps[passes - 1],
            BlpBenchmark.perPass(mcps), tally.rejects(), tally.events());
    }

    static IdleStrategy idleStrategy(final String name)
    {
        // the engine's own names and parameters (ringex.engine.idle.strategy): Agrona's aliases
        return IdleStrategies.of(name);
    }

    /**
     * One assembly of rings, stages and threads; a fresh one per pass.
     */
    static final class Pipeline implements AutoCloseable
    {
        private final Ring input;
        private final Ring output;
        private final Sequencer sequencer;
        private final AtomicBuffer slots;
        private final IdleStrategy producerIdle;
        private final Stage processorStage;
        private final Stage consumerStage;
        private final BusinessLogicProcessor processor;
        private final AgentRunner processorRunner;
        private final AgentRunner consumerRunner;
        private long lastSequence = -1;

        Pipeline(
            final int capacity,
            final int outputSlotLength,
            final String idle,
            final EventTally tally,
            final int expectedOrders)
        {
            input = Ring.builder().name("input").capacity(capacity)
                .slotLength(EngineContext.Configuration.INPUT_SLOT_LENGTH_DEFAULT_BYTES).build();
            output = Ring.builder().name("output").capacity(capacity).slotLength(outputSlotLength).build();
            sequencer = input.sequencer();
            slots = input.buffer();
            producerIdle = idleStrategy(idle);
            final RingEventSink sink = new RingEventSink(output, idleStrategy(idle));
            processor = new BusinessLogicProcessor(sink, expectedOrders, Throwable::printStackTrace);
            processorStage = input.stage("processor", new ProcessingHandler(processor, sink)).build();
            consumerStage = output.stage("events", (buffer, slotOffset, sequence, endOfBatch) ->
                tally.onEvent(buffer, slotOffset + SlotDescriptor.PAYLOAD_OFFSET)).build();
            processorRunner = new AgentRunner(idleStrategy(idle), Throwable::printStackTrace, null, processorStage);
            consumerRunner = new AgentRunner(idleStrategy(idle), Throwable::printStackTrace, null, consumerStage);
            AgentRunner.startOnThread(processorRunner);
            AgentRunner.startOnThread(consumerRunner);
        }

        void produce(final EncodedCommands commands)
        {
            final UnsafeBuffer source = commands.buffer();
            final int limit = commands.limit();
            for (int frame = 0; frame < limit; frame = commands.next(frame))
            {
                final long sequence = sequencer.next(producerIdle);
                final int slot = input.slotOffset(sequence);
                final int length = commands.length(frame);
                slots.putLong(slot + SlotDescriptor.TIMESTAMP_OFFSET, System.nanoTime());
                slots.putLong(slot + SlotDescriptor.SOURCE_ID_OFFSET, commands.sourceId(frame));
                slots.putInt(slot + SlotDescriptor.TEMPLATE_ID_OFFSET, commands.templateId(frame));
                slots.putInt(slot + SlotDescriptor.LENGTH_OFFSET, length);
                slots.putBytes(slot + SlotDescriptor.PAYLOAD_OFFSET, source, EncodedCommands.messageOffset(frame),
                    length);
                sequencer.publish(sequence);
                lastSequence = sequence;
            }
        }

        /** Wait until the processor has passed the last command and the consumer every event of it. */
        void awaitDone()
        {
            producerIdle.reset();
            while (processorStage.sequence() < lastSequence)
            {
                producerIdle.idle();
            }
            final long lastEvent = output.sequencer().cursor();
            while (consumerStage.sequence() < lastEvent)
            {
                producerIdle.idle();
            }
        }

        long stateHash()
        {
            // The processor's thread is idle once awaitDone returned; its writes happened-before the sequence read.
            return processor.stateHash();
        }

        public void close()
        {
            CloseHelper.quietCloseAll(processorRunner, consumerRunner);
            input.close();
            output.close();
        }
    }

    /**
     * The hot path of the node's ProcessorStage: sequence and timestamp to the sink, the command to the processor,
     * the end of batch where the ring's batch ends, the command's events published at once.
     */
    static final class ProcessingHandler implements SlotHandler
    {
        private final BusinessLogicProcessor processor;
        private final RingEventSink sink;

        ProcessingHandler(final BusinessLogicProcessor processor, final RingEventSink sink)
        {
            this.processor = processor;
            this.sink = sink;
        }

        public void onSlot(final AtomicBuffer buffer, final int slotOffset, final long sequence,
            final boolean endOfBatch)
        {
            final long commandSequence = sequence + 1;
            final long timestampNs = buffer.getLong(slotOffset + SlotDescriptor.TIMESTAMP_OFFSET);
            sink.command(commandSequence, timestampNs);
            processor.onCommand(commandSequence, timestampNs,
                buffer.getLong(slotOffset + SlotDescriptor.SOURCE_ID_OFFSET), buffer,
                slotOffset + SlotDescriptor.PAYLOAD_OFFSET, buffer.getInt(slotOffset + SlotDescriptor.LENGTH_OFFSET));
            if (endOfBatch)
            {
                processor.onEndOfBatch();
            }
            sink.publish();
        }
    }
}
