package io.ringex.bench.engine;

import io.ringex.bench.workload.WorkloadCommand;
import io.ringex.bench.workload.WorkloadCommandType;
import io.ringex.bench.workload.WorkloadFile;
import io.ringex.bench.workload.WorkloadPreamble;
import io.ringex.client.CommandEncoder;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.MutableDirectBuffer;

/**
 * Maps workload records ({@link WorkloadCommand}) to Ringex SBE commands, and a workload's preamble to admin
 * commands:
 * <ul>
 * <li>{@code PLACE_GTC} -&gt; NewOrder LIMIT GTC; {@code PLACE_IOC} -&gt; NewOrder LIMIT IOC: the record's account,
 * instrument, side, price and size; client order id = the record's client id; self-trade prevention
 * ACCOUNT_DEFAULT.</li>
 * <li>{@code CANCEL} -&gt; CancelOrder by origClientOrderId (the order's current client id), orderId 0; the cancel
 * request's own client id = the record's client id.</li>
 * <li>{@code MOVE} -&gt; ReplaceOrder to {@code newPrice} with {@code newSize}, the unchanged total quantity.</li>
 * <li>{@code REDUCE} -&gt; ReplaceOrder at {@code newPrice} (= price) with {@code newSize}, the new total.</li>
 * <li>{@code PLACE_STOP_LIMIT} -&gt; NewOrder STOP_LIMIT GTC, limit {@code price}, stop price {@code newPrice};
 * {@code PLACE_ICEBERG} -&gt; NewOrder LIMIT GTC with display quantity {@code newSize}.</li>
 * </ul>
 * Every order-entry command carries session {@link #SESSION_ID} (gateway 1, session 1), which is also its ring source
 * id; admin commands have source id 0, as the node's ingress stamps them.
 * <p>
 * Threading: not thread-safe; one per encoding thread.
 */
public final class WorkloadEncoder
{
    /** Session of every order-entry command: gateway 1, session 1. */
    public static final long SESSION_ID = SessionIds.sessionId(1, 1);

    /** Source id of admin commands. */
    public static final long ADMIN_SOURCE_ID = 0;

    private final CommandEncoder encoder = new CommandEncoder();
    private long requestId;

    /** @return the buffer the last command was encoded into, at offset 0. */
    public MutableDirectBuffer buffer()
    {
        return encoder.buffer();
    }

    /**
     * @return template id of the command last encoded.
     */
    public int templateId()
    {
        return encoder.buffer().getShort(MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
    }

    /**
     * Encode one workload record at offset 0 of {@link #buffer()}.
     *
     * @param command the record.
     * @return the encoded length, SBE header included.
     * @throws IllegalArgumentException for an unknown record type.
     */
    public int encode(final WorkloadCommand command)
    {
        final byte type = command.type();
        switch (type)
        {
            case WorkloadCommandType.PLACE_GTC:
            case WorkloadCommandType.PLACE_IOC:
                return encoder.newOrder(SESSION_ID, command.accountId(), command.clientId(), command.instrumentId(),
                    Side.get(command.side()), OrderType.LIMIT,
                    type == WorkloadCommandType.PLACE_GTC ? TimeInForce.GTC : TimeInForce.IOC, false,
                    SelfTradePrevention.ACCOUNT_DEFAULT, command.price(), command.size());
            case WorkloadCommandType.PLACE_STOP_LIMIT:
                return encoder.newOrder(SESSION_ID, command.accountId(), command.clientId(), command.instrumentId(),
                    Side.get(command.side()), OrderType.STOP_LIMIT, TimeInForce.GTC, false,
                    SelfTradePrevention.ACCOUNT_DEFAULT, command.price(), command.size(), command.newPrice(), 0, 0, 0);
            case WorkloadCommandType.PLACE_ICEBERG:
                return encoder.newOrder(SESSION_ID, command.accountId(), command.clientId(), command.instrumentId(),
                    Side.get(command.side()), OrderType.LIMIT, TimeInForce.GTC, false,
                    SelfTradePrevention.ACCOUNT_DEFAULT, command.price(), command.size(), 0, command.newSize(), 0, 0);
            case WorkloadCommandType.CANCEL:
                return encoder.cancel(SESSION_ID, command.accountId(), command.clientId(), command.origClientId(), 0,
                    command.instrumentId());
            case WorkloadCommandType.MOVE:
            case WorkloadCommandType.REDUCE:
                return encoder.replace(SESSION_ID, command.accountId(), command.clientId(), command.origClientId(), 0,
                    command.instrumentId(), command.newPrice(), command.newSize());
            default:
                throw new IllegalArgumentException("unknown workload record type " + type);
        }
    }

    /**
     * Encode a workload's preamble: AddInstrument per instrument, then per account AddAccount, SetLimits and
     * AdjustBalance (a cash deposit).
     *
     * @param preamble what to set up.
     * @param out      where the admin commands go, source id 0.
     */
    public void encodePreamble(final WorkloadPreamble preamble, final EncodedCommands out)
    {
        for (int id = 1; id <= preamble.instruments(); id++)
        {
            append(out, ADMIN_SOURCE_ID, encoder.addInstrument(++requestId, id, preamble.symbol(id),
                preamble.priceScale(), preamble.tickSize(), preamble.lotSize(), preamble.referencePrice(),
                preamble.priceBandType(), preamble.priceBand()));
        }
        final int[] noInstruments = new int[0];
        final long[] noLimits = new long[0];
        for (long account = 1; account <= preamble.accounts(); account++)
        {
            append(out, ADMIN_SOURCE_ID, encoder.addAccount(++requestId, account, preamble.selfTradePrevention()));
            append(out, ADMIN_SOURCE_ID, encoder.setLimits(++requestId, account, preamble.maxOrderQuantity(),
                preamble.maxOrderNotional(), preamble.creditLimit(), preamble.defaultPositionLimit(),
                preamble.maxOpenOrders(), preamble.allowShort(), noInstruments, noLimits));
            append(out, ADMIN_SOURCE_ID, encoder.adjustBalance(++requestId, account, preamble.cashDeposit()));
        }
    }

    /**
     * Encode records {@code [from, to)} of a workload file.
     *
     * @param file the file.
     * @param from first record.
     * @param to   one past the last.
     * @param out  where they go, source id {@link #SESSION_ID}.
     */
    public void encodeRecords(final WorkloadFile file, final long from, final long to, final EncodedCommands out)
    {
        final WorkloadCommand command = new WorkloadCommand();
        for (long i = from; i < to; i++)
        {
            append(out, SESSION_ID, encode(file.command(i, command)));
        }
    }

    /**
     * Number of admin commands {@link #encodePreamble} writes.
     *
     * @param preamble the preamble.
     * @return instruments + 3 per account.
     */
    public static int preambleCommands(final WorkloadPreamble preamble)
    {
        return preamble.instruments() + 3 * preamble.accounts();
    }

    private void append(final EncodedCommands out, final long sourceId, final int length)
    {
        out.append(sourceId, templateId(), encoder.buffer(), 0, length);
    }

    /**
     * A workload file encoded whole: preamble, prefill (both untimed) and the timed commands.
     *
     * @param preamble admin commands.
     * @param prefill  the book-building GTC places.
     * @param timed    the timed commands.
     */
    public record Encoded(EncodedCommands preamble, EncodedCommands prefill, EncodedCommands timed)
    {
        /** @return every command of the three parts. */
        public long total()
        {
            return (long)preamble.count() + prefill.count() + timed.count();
        }
    }

    /**
     * Encode a whole workload file.
     *
     * @param file the file.
     * @return its commands.
     */
    public static Encoded encodeAll(final WorkloadFile file)
    {
        final WorkloadEncoder encoder = new WorkloadEncoder();
        final WorkloadPreamble preamble = WorkloadPreamble.of(file);
        final EncodedCommands admin = EncodedCommands.forCommands(preambleCommands(preamble));
        encoder.encodePreamble(preamble, admin);
        final EncodedCommands prefill = EncodedCommands.forCommands(file.prefillCount());
        encoder.encodeRecords(file, 0, file.prefillCount(), prefill);
        final EncodedCommands timed = EncodedCommands.forCommands(file.commandCount());
        encoder.encodeRecords(file, file.prefillCount(), file.recordCount(), timed);
        return new Encoded(admin, prefill, timed);
    }
}
