package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.ringex.engine.processor.BusinessLogicProcessor;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderEncoder;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

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
    private static final long MINUTE_NS = 60_000_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final RecordingLogger log = new RecordingLogger();

    @Test
    void aPoisonCommandStreamLogsTheFirstErrorsWithTheirStackAndCountsTheRest()
    {
        final BusinessLogicProcessor processor = new BusinessLogicProcessor(new SwitchableEventSink(4096), 1024,
            new ThrottledErrorLog(log, "processor", 3, MINUTE_NS, clock));
        final UnsafeBuffer poison = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH]);
        new MessageHeaderEncoder().wrap(poison, 0).blockLength(NewOrderEncoder.BLOCK_LENGTH)
            .templateId(NewOrderEncoder.TEMPLATE_ID).schemaId(NewOrderEncoder.SCHEMA_ID)
            .version(NewOrderEncoder.SCHEMA_VERSION);

        for (long sequence = 1; sequence <= 100; sequence++)
        {
            processor.onCommand(sequence, sequence, 1, poison, 0, poison.capacity());
        }
        assertEquals(100, processor.errorCount(), "every error counted");
        assertEquals(4, log.records.size(), "3 with their stack, then one line saying the rest are counted");
        for (int i = 0; i < 3; i++)
        {
            assertEquals(Level.ERROR, log.records.get(i).level);
            assertNotNull(log.records.get(i).thrown, "logged with its stack trace");
        }
        assertEquals(Level.WARN, log.records.get(3).level);
        assertNull(log.records.get(3).thrown);

        // Within the window nothing more is logged; once it has passed, the count left out, then the error.
        clock.advance(MINUTE_NS - 1);
        processor.onCommand(101, 101, 1, poison, 0, poison.capacity());
        assertEquals(4, log.records.size());
        clock.advance(1);
        processor.onCommand(102, 102, 1, poison, 0, poison.capacity());
        assertEquals(6, log.records.size());
        final String summary = log.records.get(4).message;
        assertTrue(summary.contains("98 more errors"), summary);
        assertNotNull(log.records.get(5).thrown);
    }

    /** One logging call as an SLF4J backend receives it: level, formatted message and throwable. */
    record Event(Level level, String message, Throwable thrown)
    {
    }

    /** An SLF4J logger that keeps every call, all levels enabled. */
    static final class RecordingLogger extends LegacyAbstractLogger
    {
        final List<Event> records = new ArrayList<>();

        RecordingLogger()
        {
            name = ThrottledErrorLogTest.class.getName();
        }

        public boolean isTraceEnabled()
        {
            return true;
        }

        public boolean isDebugEnabled()
        {
            return true;
        }

        public boolean isInfoEnabled()
        {
            return true;
        }

        public boolean isWarnEnabled()
        {
            return true;
        }

        public boolean isErrorEnabled()
        {
            return true;
        }

        protected String getFullyQualifiedCallerName()
        {
            return null;
        }

        protected void handleNormalizedLoggingCall(
            final Level level, final Marker marker, final String pattern, final Object[] arguments,
            final Throwable throwable)
        {
            records.add(new Event(level, MessageFormatter.basicArrayFormat(pattern, arguments), throwable));
        }
    }
}
