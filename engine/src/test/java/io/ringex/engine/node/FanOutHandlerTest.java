package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.ringex.engine.ring.SlotHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FanOutHandlerTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final List<String> calls = new ArrayList<>();

    private SlotHandler recording(final String name)
    {
        return (buffer, slotOffset, sequence, endOfBatch) -> calls.add(name + ":" + sequence + ":" + endOfBatch);
    }

    @Test
    void everyHandlerGetsEverySlotInOrder() throws Exception
    {
        final FanOutHandler fanOut = new FanOutHandler(recording("egress"), recording("market-data"));
        fanOut.onSlot(buffer, 0, 7, false);
        fanOut.onSlot(buffer, 0, 8, true);
        assertEquals(List.of("egress:7:false", "market-data:7:false", "egress:8:true", "market-data:8:true"), calls);
    }

    @Test
    void aHandlerThatThrowsDoesNotKeepTheSlotFromTheOthersAndTheFirstFailureIsReported()
    {
        final IllegalStateException first = new IllegalStateException("egress publication closed");
        final IllegalStateException second = new IllegalStateException("risk publication closed");
        final FanOutHandler fanOut = new FanOutHandler(
            (buffer, slotOffset, sequence, endOfBatch) ->
            {
                throw first;
            },
            recording("market-data"),
            (buffer, slotOffset, sequence, endOfBatch) ->
            {
                throw second;
            },
            recording("statistics"));

        final Exception thrown = assertThrows(Exception.class, () -> fanOut.onSlot(buffer, 0, 3, true));
        assertSame(first, thrown);
        assertSame(second, thrown.getSuppressed()[0]);
        assertEquals(List.of("market-data:3:true", "statistics:3:true"), calls);
    }
}
