package io.ringex.bench.workload;

/**
 * Layout of a workload file: a fixed header followed by fixed-size command records, all little-endian. The one
 * place these offsets are named; the exchange-core peer (bench/exchange-core, which may not depend on this module)
 * mirrors them in its own reader, and {@code WorkloadFileDescriptorTest} pins the values so that a change here
 * fails a test until the peer is changed too (bump {@link #VERSION} on any change).
 * <p>
 * Header, {@link #HEADER_LENGTH} bytes:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      Magic 'RXWL' (int32)                     |  0
 *  |                         Version (int32)                       |  4
 *  |                      Header Length (int32)                    |  8
 *  |                      Record Length (int32)                    | 12
 *  |                  Prefill Count (int64): untimed               | 16
 *  |                  Command Count (int64): timed                 | 24
 *  |                          Seed (int64)                         | 32
 *  |                       Instruments (int32)                     | 40
 *  |                        Accounts (int32)                       | 44
 *  |                       Price Scale (int32)                     | 48
 *  |          Resting Orders Target per instrument (int32)         | 52
 *  |                 Tick Size (int64, at price scale)             | 56
 *  |                    Lot Size (int64, units)                    | 64
 *  |              Reference Price (int64, at price scale)          | 72
 *  |          Min Price (int64): lowest price any record uses      | 80
 *  |          Max Price (int64): highest price any record uses     | 88
 *  |       Price Band (int64, ticks either side of the reference)  | 96
 *  |                      Reserved (24 bytes, zero)                | 104..127
 *  +---------------------------------------------------------------+
 * </pre>
 * Records follow the header: first {@code prefillCount} untimed GTC places that build the books to their resting
 * target, then {@code commandCount} timed commands. Record {@code i} is at
 * {@code HEADER_LENGTH + i * RECORD_LENGTH}. Record, {@link #RECORD_LENGTH} bytes:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |  Type (uint8) |  Side (uint8) |        Reserved (uint16)      |  0
 *  +---------------+---------------+-------------------------------+
 *  |                      Instrument Id (int32)                    |  4
 *  |                       Account Id (int64)                      |  8
 *  |      Order Id (int64): the order's id from its placement      | 16
 *  |   Client Id (int64): id of this request; a replaced order     | 24
 *  |                      takes it as its new client id            |
 *  |   Orig Client Id (int64): the target's current client id      | 32
 *  |                      (0 for places)                           |
 *  |                 Price (int64, at price scale)                 | 40
 *  |                       Size (int64, units)                     | 48
 *  |               New Price (int64, replace only)                 | 56
 *  |       New Size (int64, replace only; total, filled included)  | 64
 *  +---------------------------------------------------------------+
 * </pre>
 * Field meaning per {@link WorkloadCommandType}:
 * <ul>
 * <li>{@code PLACE_GTC}, {@code PLACE_IOC}: limit order; {@code orderId == clientId} (unique, client-assigned,
 * never reused in a file), {@code price}/{@code size} its limit and quantity. IOC limits are the band edge
 * ({@code maxPrice} to buy, {@code minPrice} to sell), sweeping up to {@code size}.</li>
 * <li>{@code CANCEL}: {@code orderId} the live order, {@code clientId} the cancel request's own id,
 * {@code price}/{@code size} the order's price and open quantity at that moment (informational).</li>
 * <li>{@code MOVE}: replace the price; {@code price} the old price, {@code size} 0, {@code newPrice} the new one,
 * {@code newSize} the order's unchanged total quantity (filled part included), for engines whose replace carries
 * the total (FIX, Ringex {@code ReplaceOrder}).</li>
 * <li>{@code REDUCE}: replace to a smaller quantity at the same price; {@code size} the quantity taken off the open
 * quantity (exchange-core's {@code reduceSize}), always less than the open quantity so the order stays live;
 * {@code newPrice == price}; {@code newSize} the new total quantity, filled part included (Ringex semantics).</li>
 * <li>{@code PLACE_STOP_LIMIT}, {@code PLACE_ICEBERG} (Ringex-only workloads, which the exchange-core peer refuses):
 * like {@code PLACE_GTC}, with {@code newPrice} the stop price of a stop-limit (its {@code price} the limit) and
 * {@code newSize} the display quantity of an iceberg.</li>
 * </ul>
 * Side values are the SBE {@code Side} values ({@link #SIDE_BUY}, {@link #SIDE_SELL}).
 * <p>
 * A file is at most 2 GiB (one mapping): about 29M records.
 */
public final class WorkloadFileDescriptor
{
    /** 'RXWL' read as a little-endian int32. */
    public static final int MAGIC = 0x4C575852;

    /** Layout version; bump on any change to this class's offsets or meanings. */
    public static final int VERSION = 1;

    /** Bytes before the first record. */
    public static final int HEADER_LENGTH = 128;

    /** Bytes per record. */
    public static final int RECORD_LENGTH = 72;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int HEADER_LENGTH_OFFSET = 8;
    public static final int RECORD_LENGTH_OFFSET = 12;
    public static final int PREFILL_COUNT_OFFSET = 16;
    public static final int COMMAND_COUNT_OFFSET = 24;
    public static final int SEED_OFFSET = 32;
    public static final int INSTRUMENTS_OFFSET = 40;
    public static final int ACCOUNTS_OFFSET = 44;
    public static final int PRICE_SCALE_OFFSET = 48;
    public static final int RESTING_ORDERS_TARGET_OFFSET = 52;
    public static final int TICK_SIZE_OFFSET = 56;
    public static final int LOT_SIZE_OFFSET = 64;
    public static final int REFERENCE_PRICE_OFFSET = 72;
    public static final int MIN_PRICE_OFFSET = 80;
    public static final int MAX_PRICE_OFFSET = 88;
    public static final int PRICE_BAND_TICKS_OFFSET = 96;

    public static final int TYPE_OFFSET = 0;
    public static final int SIDE_OFFSET = 1;
    public static final int INSTRUMENT_ID_OFFSET = 4;
    public static final int ACCOUNT_ID_OFFSET = 8;
    public static final int ORDER_ID_OFFSET = 16;
    public static final int CLIENT_ID_OFFSET = 24;
    public static final int ORIG_CLIENT_ID_OFFSET = 32;
    public static final int PRICE_OFFSET = 40;
    public static final int SIZE_OFFSET = 48;
    public static final int NEW_PRICE_OFFSET = 56;
    public static final int NEW_SIZE_OFFSET = 64;

    /** SBE {@code Side.BUY}. */
    public static final byte SIDE_BUY = 1;

    /** SBE {@code Side.SELL}. */
    public static final byte SIDE_SELL = 2;

    private WorkloadFileDescriptor()
    {
    }

    /**
     * Byte offset of record {@code index}.
     *
     * @param index 0-based record index, prefill records first.
     * @return its offset from the start of the file.
     */
    public static long recordOffset(final long index)
    {
        return HEADER_LENGTH + index * RECORD_LENGTH;
    }
}
