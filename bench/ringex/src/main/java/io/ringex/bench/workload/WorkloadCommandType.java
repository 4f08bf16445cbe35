package io.ringex.bench.workload;

/**
 * The command type byte of a workload record ({@link WorkloadFileDescriptor#TYPE_OFFSET}). Plain constants, not an
 * enum, so a reader switches on the byte without a lookup.
 */
public final class WorkloadCommandType
{
    /** Good-till-cancel limit order. */
    public static final byte PLACE_GTC = 1;

    /** Immediate-or-cancel limit order at the band edge. */
    public static final byte PLACE_IOC = 2;

    /** Cancel a live order. */
    public static final byte CANCEL = 3;

    /** Replace a live order's price, same total quantity. */
    public static final byte MOVE = 4;

    /** Replace a live order to a smaller quantity, same price. */
    public static final byte REDUCE = 5;

    /** Stop-limit GTC (a Ringex-only workload: {@code newPrice} is the stop price, {@code price} the limit). */
    public static final byte PLACE_STOP_LIMIT = 6;

    /** Iceberg GTC limit (a Ringex-only workload: {@code newSize} is the display quantity). */
    public static final byte PLACE_ICEBERG = 7;

    /** Number of types, for arrays indexed by type. */
    public static final int TYPE_COUNT = 8;

    private WorkloadCommandType()
    {
    }

    /**
     * Name for logs.
     *
     * @param type a type byte.
     * @return its name, or "UNKNOWN(n)".
     */
    public static String name(final int type)
    {
        switch (type)
        {
            case PLACE_GTC:
                return "GTC";
            case PLACE_IOC:
                return "IOC";
            case CANCEL:
                return "CANCEL";
            case MOVE:
                return "MOVE";
            case REDUCE:
                return "REDUCE";
            case PLACE_STOP_LIMIT:
                return "STOP_LIMIT";
            case PLACE_ICEBERG:
                return "ICEBERG";
            default:
                return "UNKNOWN(" + type + ")";
        }
    }
}
