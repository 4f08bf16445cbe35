package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;

/**
 * A rough single-thread throughput figure: mixed random commands straight into the processor (no ring), batches of
 * 16. Not a benchmark harness (see bench/); run by hand: {@code java ... ThroughputMain [commands]}.
 */
public final class ThroughputMain
{
    private ThroughputMain()
    {
    }

    /**
     * @param args optional command count.
     */
    public static void main(final String[] args)
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final CapturingEventSink sink = new CapturingEventSink(1 << 20, 4096);
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(sink, 1 << 14, null);
        final CommandEncoder encoder = new CommandEncoder();
        final RandomCommands commands = new RandomCommands(99, encoder, processor);
        long sequence = 0;
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            processor.onCommand(++sequence, sequence, 1, encoder.buffer(), 0, commands.setupCommand(i));
        }
        for (int round = 0; round < 5; round++)
        {
            long events = 0;
            final long allocatedBefore = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            final long start = System.nanoTime();
            for (int i = 0; i < count; i++)
            {
                final int length = commands.next();
                processor.onCommand(++sequence, sequence, 1, encoder.buffer(), 0, length);
                if ((i & 15) == 15)
                {
                    processor.onEndOfBatch();
                    events += sink.size();
                    sink.clear();
                }
            }
            final long elapsed = System.nanoTime() - start;
            final long allocated =
                threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - allocatedBefore;
            System.out.printf("round %d: %,d commands in %d ms = %,d commands/s, %,d events, %,d trades total, " +
                "%,d bytes allocated%n",
                round, count, elapsed / 1_000_000, count * 1_000_000_000L / elapsed, events,
                processor.state().lastTradeId(), allocated);
        }
    }
}
