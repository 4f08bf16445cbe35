package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;
import io.ringex.engine.book.Order;
import io.ringex.protocol.codecs.MassStatusScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderStatusReportDecoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries change nothing, whatever the state: two processors take the same seeded stream of mixed commands, one with
 * random order status and mass status queries between them. Every event that is not a query's answer is the same,
 * byte for byte, and the state hashes agree after every query; and a mass status of every account lists exactly the
 * venue's open orders, numbered in account then acceptance order.
 */
final class OrderStatusPropertyTest
{
    private static final int COMMANDS = 20_000;
    private static final long[] ALL_ACCOUNTS = { 1, 2, 3, 4 };

    @ParameterizedTest
    @ValueSource(longs = { 7, 2024, 99_991 })
    void queriesChangeNeitherEventsNorHash(final long seed)
    {
        final CapturingEventSink plainSink = new CapturingEventSink(1 << 20, 4096);
        final CapturingEventSink querySink = new CapturingEventSink(1 << 20, 4096);
        final BusinessLogicProcessor plain = new BusinessLogicProcessor(plainSink, 1 << 12, null);
        final BusinessLogicProcessor queried = new BusinessLogicProcessor(querySink, 1 << 12, null);
        final CommandEncoder plainEncoder = new CommandEncoder();
        final CommandEncoder queryEncoder = new CommandEncoder();
        final RandomCommands plainCommands = new RandomCommands(seed, plainEncoder, plain);
        // Both streams are drawn from the plain processor: a generator reads its processor's last sequence (GTD
        // expiries are drawn from it), and the queried one's counts the queries' sequences too.
        final RandomCommands queriedCommands = new RandomCommands(seed, queryEncoder, plain);
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            final int plainLength = plainCommands.setupCommand(i);
            final int queriedLength = queriedCommands.setupCommand(i);
            plain.onCommand(2L * i, 1000L * i, 1, plainEncoder.buffer(), 0, plainLength);
            queried.onCommand(2L * i, 1000L * i, 1, queryEncoder.buffer(), 0, queriedLength);
        }

        int queries = 0;
        int reports = 0;
        for (int i = RandomCommands.setupCount(); i < COMMANDS; i++)
        {
            // Same sequence and time for the command on both; the query takes the odd sequence between, at the same
            // time as the command before it, so the clock it sets is one the state has already seen.
            final long time = 1000L * i;
            final int plainBefore = plainSink.size();
            final int queriedBefore = querySink.size();
            // Both drawn before either is applied, from the same state.
            final int plainLength = plainCommands.next();
            final int queriedLength = queriedCommands.next();
            plain.onCommand(2L * i, time, 1, plainEncoder.buffer(), 0, plainLength);
            queried.onCommand(2L * i, time, 1, queryEncoder.buffer(), 0, queriedLength);
            if (i % 16 == 0)
            {
                plain.onEndOfBatch();
                queried.onEndOfBatch();
            }
            assertSameEvents(plainSink, plainBefore, querySink, queriedBefore, i);

            if (i % 3 == 0)
            {
                final long hashBefore = queried.stateHash();
                final int before = querySink.size();
                final int length = i % 30 == 0 ?
                    queryEncoder.orderMassStatusRequest(1L << 32, 0, i, MassStatusScope.ACCOUNTS, 0, ALL_ACCOUNTS) :
                    queriedCommands.nextQuery();
                queried.onCommand(2L * i + 1, time, 1, queryEncoder.buffer(), 0, length);
                queries++;
                for (int e = before; e < querySink.size(); e++)
                {
                    assertEquals(OrderStatusReportDecoder.TEMPLATE_ID, querySink.templateId(e), "only reports");
                    reports++;
                }
                assertEquals(hashBefore, queried.stateHash(), "hash changed by a query at command " + i);
                if (i % 30 == 0)
                {
                    assertEquals(openOrderIds(queried), reportedOrderIds(querySink, before), "mass status at " + i);
                }
                querySink.clear();
                plainSink.clear();
            }
        }
        plain.onEndOfBatch();
        queried.onEndOfBatch();
        assertEquals(plain.stateHash(), queried.stateHash());
        assertEquals(0, queried.errorCount());
        assertTrue(queries > 5000 && reports > queries, "queries " + queries + ", reports " + reports);
    }

    private static void assertSameEvents(
        final CapturingEventSink a, final int aFrom, final CapturingEventSink b, final int bFrom, final int command)
    {
        assertEquals(a.size() - aFrom, b.size() - bFrom, "events of command " + command);
        for (int i = 0; i < a.size() - aFrom; i++)
        {
            assertArrayEquals(a.eventBytes(aFrom + i), b.eventBytes(bFrom + i), "command " + command + " event " + i);
        }
    }

    /** The venue's open orders, account by account, each in acceptance order: what a mass status must list. */
    private static List<Long> openOrderIds(final BusinessLogicProcessor processor)
    {
        final List<Long> ids = new ArrayList<>();
        for (final long accountId : ALL_ACCOUNTS)
        {
            for (Order o = processor.state().account(accountId).firstOpenOrder(); o != null; o = o.accountNext)
            {
                ids.add(o.orderId());
            }
        }
        final long[] venue = new long[processor.state().orders.size()];
        int n = 0;
        for (Order o = processor.state().orders.first(); o != null; o = o.venueNext)
        {
            venue[n++] = o.orderId();
        }
        final long[] sorted = ids.stream().mapToLong(Long::longValue).sorted().toArray();
        assertArrayEquals(venue, sorted, "the accounts' lists hold the venue's open orders");
        return ids;
    }

    private static List<Long> reportedOrderIds(final CapturingEventSink sink, final int from)
    {
        final List<Long> ids = new ArrayList<>();
        final OrderStatusReportDecoder d = new OrderStatusReportDecoder();
        final int count = sink.size() - from;
        for (int e = from; e < sink.size(); e++)
        {
            d.wrap(sink.events(), sink.offset(e) + MessageHeaderDecoder.ENCODED_LENGTH,
                OrderStatusReportDecoder.BLOCK_LENGTH, OrderStatusReportDecoder.SCHEMA_VERSION);
            if (d.totalReports() == 0)
            {
                assertEquals(1, count, "an empty answer is one report");
                return ids;
            }
            assertEquals(count, d.totalReports());
            assertEquals(e - from + 1, d.reportNumber());
            ids.add(d.orderId());
        }
        return Arrays.asList(ids.toArray(new Long[0]));
    }
}
