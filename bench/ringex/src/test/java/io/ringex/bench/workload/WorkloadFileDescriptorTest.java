package io.ringex.bench.workload;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the file layout. The exchange-core peer (bench/exchange-core, which cannot depend on this module) mirrors
 * these values in its {@code WorkloadFileReader}: if this test fails, change the peer's mirror and bump VERSION.
 */
class WorkloadFileDescriptorTest
{
    @Test
    void layoutIsWhatThePeerMirrors()
    {
        assertEquals(0x4C575852, WorkloadFileDescriptor.MAGIC);
        assertEquals(1, WorkloadFileDescriptor.VERSION);
        assertEquals(128, WorkloadFileDescriptor.HEADER_LENGTH);
        assertEquals(72, WorkloadFileDescriptor.RECORD_LENGTH);

        assertEquals(0, WorkloadFileDescriptor.MAGIC_OFFSET);
        assertEquals(4, WorkloadFileDescriptor.VERSION_OFFSET);
        assertEquals(8, WorkloadFileDescriptor.HEADER_LENGTH_OFFSET);
        assertEquals(12, WorkloadFileDescriptor.RECORD_LENGTH_OFFSET);
        assertEquals(16, WorkloadFileDescriptor.PREFILL_COUNT_OFFSET);
        assertEquals(24, WorkloadFileDescriptor.COMMAND_COUNT_OFFSET);
        assertEquals(40, WorkloadFileDescriptor.INSTRUMENTS_OFFSET);
        assertEquals(44, WorkloadFileDescriptor.ACCOUNTS_OFFSET);
        assertEquals(80, WorkloadFileDescriptor.MIN_PRICE_OFFSET);
        assertEquals(88, WorkloadFileDescriptor.MAX_PRICE_OFFSET);

        assertEquals(0, WorkloadFileDescriptor.TYPE_OFFSET);
        assertEquals(1, WorkloadFileDescriptor.SIDE_OFFSET);
        assertEquals(4, WorkloadFileDescriptor.INSTRUMENT_ID_OFFSET);
        assertEquals(8, WorkloadFileDescriptor.ACCOUNT_ID_OFFSET);
        assertEquals(16, WorkloadFileDescriptor.ORDER_ID_OFFSET);
        assertEquals(40, WorkloadFileDescriptor.PRICE_OFFSET);
        assertEquals(48, WorkloadFileDescriptor.SIZE_OFFSET);
        assertEquals(56, WorkloadFileDescriptor.NEW_PRICE_OFFSET);

        assertEquals(1, WorkloadCommandType.PLACE_GTC);
        assertEquals(2, WorkloadCommandType.PLACE_IOC);
        assertEquals(3, WorkloadCommandType.CANCEL);
        assertEquals(4, WorkloadCommandType.MOVE);
        assertEquals(5, WorkloadCommandType.REDUCE);
        assertEquals(1, WorkloadFileDescriptor.SIDE_BUY);
    }

    @Test
    void lastFieldEndsAtTheRecordLength()
    {
        assertEquals(WorkloadFileDescriptor.RECORD_LENGTH, WorkloadFileDescriptor.NEW_SIZE_OFFSET + Long.BYTES);
        assertEquals(128 + 3 * 72, WorkloadFileDescriptor.recordOffset(3));
    }
}
