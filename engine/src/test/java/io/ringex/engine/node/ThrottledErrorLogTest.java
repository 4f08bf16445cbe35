package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node's processor errors go to a log that keeps their stack traces but cannot be flooded: a stream of poison
 * commands (here NewOrders cut short after their header, which the processor fails to decode) logs the first few
 * with their stack in each window of the node's clock and counts the rest.
 */
class ThrottledErrorLogTest
{
    private static final String LOGGER = "io.ringex.test.ThrottledErrorLogTest";
    private static final long MINUTE_NS = 60_000_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler capture = new Handler()
    {
        public void publish(final LogRecord record)
        {
            records.add(record);
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    };

    @BeforeEach
    void capture()
    {
        Logger.getLogger(LOGGER).addHandler(capture);
        Logger.getLogger(LOGGER).setUseParentHandlers(false);
    }

    @AfterEach
    void release()
    {
        Logger.getLogger(LOGGER).removeHandler(capture);
        Logger.getLogger(LOGGER).setUseParentHandlers(true);
    }

    @Test
    void aPoisonCommandStreamLogsTheFirstErrorsWithTheirStackAndCountsTheRest()
    {
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(new SwitchableEventSink(4096), 1024,
            new ThrottledErrorLog(LOGGER, "processor", 3, MINUTE_NS, clock));
        final UnsafeBuffer poison = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH]);
        new MessageHeaderEncoder().wrap(poison, 0).blockLength(NewOrderEncoder.BLOCK_LENGTH)
            .templateId(NewOrderEncoder.TEMPLATE_ID).schemaId(NewOrderEncoder.SCHEMA_ID)
            .version(NewOrderEncoder.SCHEMA_VERSION);

        for (long sequence = 1; sequence <= 100; sequence++)
        {
            processor.onCommand(sequence, sequence, 1, poison, 0, poison.capacity());
        }
        assertEquals(100, processor.errorCount(), "every error counted");
        assertEquals(4, records.size(), "3 with their stack, then one line saying the rest are counted");
        for (int i = 0; i < 3; i++)
        {
            assertEquals(Level.SEVERE, records.get(i).getLevel());
            assertNotNull(records.get(i).getThrown(), "logged with its stack trace");
        }
        assertEquals(Level.WARNING, records.get(3).getLevel());
        assertNull(records.get(3).getThrown());

        // Within the window nothing more is logged; once it has passed, the count left out, then the error.
        clock.advance(MINUTE_NS - 1);
        processor.onCommand(101, 101, 1, poison, 0, poison.capacity());
        assertEquals(4, records.size());
        clock.advance(1);
        processor.onCommand(102, 102, 1, poison, 0, poison.capacity());
        assertEquals(6, records.size());
        final String summary = java.text.MessageFormat.format(records.get(4).getMessage(),
            records.get(4).getParameters());
        assertTrue(summary.contains("98 more errors"), summary);
        assertNotNull(records.get(5).getThrown());
    }
}
