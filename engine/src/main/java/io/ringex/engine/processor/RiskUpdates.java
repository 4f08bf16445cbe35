package io.ringex.engine.processor;

import io.ringex.engine.book.MarkPrices;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder.PositionsEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderEncoder;

/**
 * Coalesces AccountRiskUpdate events: every account touched during a batch is queued once (in the order it was first
 * touched, which is deterministic) and published once at the end of the batch with its totals and the positions that
 * changed in the batch (readers keep the others). Events are written at the schema's offsets by
 * {@link FixedFieldWriter}. A full picture, every position that is not flat, is published on
 * demand ({@link #publish(Account, boolean)}), which the node does periodically for late joiners. An account with
 * more positions than fit one event is split over several events, each with the account's totals.
 * <p>
 * Threading: single business-logic thread.
 */
public final class RiskUpdates
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final EngineState state;
    private final EventEncoder events;
    private final FixedFieldWriter writer = new FixedFieldWriter();
    private Account[] queue = new Account[64];
    private int[] slots = new int[64];
    private int queued;

    /**
     * @param state  engine state (for marks).
     * @param events the encoder whose sink and timestamp are used.
     */
    public RiskUpdates(final EngineState state, final EventEncoder events)
    {
        this.state = state;
        this.events = events;
    }

    /**
     * Queue an account for the end-of-batch update.
     *
     * @param account an account that changed.
     */
    public void touch(final Account account)
    {
        if (!account.queued())
        {
            account.queued(true);
            if (queued == queue.length)
            {
                queue = java.util.Arrays.copyOf(queue, queued * 2);
            }
            queue[queued++] = account;
        }
    }

    /** @return accounts waiting for the end of the batch. */
    public int pending()
    {
        return queued;
    }

    /** Publish every queued account and empty the queue. */
    public void flush()
    {
        for (int i = 0; i < queued; i++)
        {
            final Account account = queue[i];
            queue[i] = null;
            account.queued(false);
            publish(account, false);
        }
        queued = 0;
    }

    /**
     * Publish one account now.
     * <p>
     * The totals value every position at its book's current mark: one pass over the account's net quantities and
     * the venue's marks, both primitive arrays, without touching the position objects (cost and realised P&amp;L are
     * running totals on the account). Only the positions reported are read in full.
     *
     * @param account the account.
     * @param full    every position that is not flat (a full picture for late joiners), not only those that changed.
     */
    public void publish(final Account account, final boolean full)
    {
        final long[] marks = state.marks.marks();
        final long[] markMoney = state.marks.markMoney();
        final long[] nets = account.nets();
        final int[] markIndexes = account.markIndexes();
        final int positionCount = account.positionCount();
        long value = 0;
        long exposure = 0;
        long unvaluedCost = 0;
        for (int i = 0; i < positionCount; i++)
        {
            final long positionValue = MarkPrices.value(markMoney[markIndexes[i]], nets[i]);
            if (positionValue == FixedPoint.INVALID)
            {
                // as Settlement.unrealisedPnl and exposure: a position whose value does not fit counts as 0
                unvaluedCost += account.positionAt(i).cost();
            }
            else
            {
                value += positionValue;
                exposure += Math.abs(positionValue);
            }
        }
        final long unrealised = value - account.costTotal() + unvaluedCost;
        final long realised = account.realisedTotal();
        final int reportable = full ? allReportable(account) : changedInCreationOrder(account);

        final EventSink sink = events.sink();
        final int fixed = HEADER + AccountRiskUpdateEncoder.BLOCK_LENGTH + PositionsEncoder.HEADER_SIZE;
        final int entryLength = PositionsEncoder.sbeBlockLength();
        final int perEvent = Math.max(1, Math.min(0xFFFE, (sink.maxEventLength() - fixed) / entryLength));
        int next = 0;
        int remaining = reportable;
        do
        {
            final int count = Math.min(perEvent, remaining);
            final int length = fixed + count * entryLength;
            final FixedFieldWriter w = writer.wrap(sink.buffer(), sink.claim(length), length,
                AccountRiskUpdateEncoder.BLOCK_LENGTH, AccountRiskUpdateEncoder.TEMPLATE_ID,
                AccountRiskUpdateEncoder.SCHEMA_ID, AccountRiskUpdateEncoder.SCHEMA_VERSION);
            w.putLong(HEADER + AccountRiskUpdateEncoder.accountIdEncodingOffset(), account.accountId());
            w.putLong(HEADER + AccountRiskUpdateEncoder.timestampNsEncodingOffset(), events.timestampNs());
            w.putLong(HEADER + AccountRiskUpdateEncoder.balanceEncodingOffset(), account.balance());
            w.putLong(HEADER + AccountRiskUpdateEncoder.reservedEncodingOffset(), account.reserved());
            w.putLong(HEADER + AccountRiskUpdateEncoder.realisedPnlEncodingOffset(), realised);
            w.putLong(HEADER + AccountRiskUpdateEncoder.unrealisedPnlEncodingOffset(), unrealised);
            w.putLong(HEADER + AccountRiskUpdateEncoder.exposureEncodingOffset(), exposure);
            w.putLong(HEADER + AccountRiskUpdateEncoder.creditLimitEncodingOffset(), account.creditLimit());
            w.putLong(HEADER + AccountRiskUpdateEncoder.maxOrderQuantityEncodingOffset(), account.maxOrderQuantity());
            w.putLong(HEADER + AccountRiskUpdateEncoder.maxOrderNotionalEncodingOffset(), account.maxOrderNotional());
            w.putInt(HEADER + AccountRiskUpdateEncoder.openOrdersEncodingOffset(), account.openOrders());
            w.putInt(HEADER + AccountRiskUpdateEncoder.maxOpenOrdersEncodingOffset(), account.maxOpenOrders());
            w.putByte(HEADER + AccountRiskUpdateEncoder.killSwitchEncodingOffset(),
                account.killed() ? BooleanType.TRUE.value() : BooleanType.FALSE.value());
            w.putShort(HEADER + AccountRiskUpdateEncoder.BLOCK_LENGTH, entryLength);
            w.putShort(HEADER + AccountRiskUpdateEncoder.BLOCK_LENGTH + 2, count);
            int entry = fixed;
            for (int written = 0; written < count; written++)
            {
                final int slot = slots[next++];
                final Position position = account.positionAt(slot);
                final long mark = marks[markIndexes[slot]];
                w.putInt(entry + PositionsEncoder.instrumentIdEncodingOffset(), position.instrumentId());
                w.putLong(entry + PositionsEncoder.positionEncodingOffset(), position.position());
                w.putLong(entry + PositionsEncoder.averageCostEncodingOffset(), position.averageCost());
                w.putLong(entry + PositionsEncoder.realisedPnlEncodingOffset(), position.realisedPnl());
                w.putLong(entry + PositionsEncoder.unrealisedPnlEncodingOffset(),
                    Settlement.unrealisedPnl(position, mark));
                w.putLong(entry + PositionsEncoder.openBuyQuantityEncodingOffset(), position.openBuyQuantity());
                w.putLong(entry + PositionsEncoder.openSellQuantityEncodingOffset(), position.openSellQuantity());
                w.putLong(entry + PositionsEncoder.positionLimitEncodingOffset(), account.positionLimitFor(position));
                w.putLong(entry + PositionsEncoder.markPriceEncodingOffset(), mark);
                entry += entryLength;
            }
            sink.commit(length);
            remaining -= count;
        }
        while (remaining > 0);
        account.clearChangedPositions();
        account.changed(false);
    }

    private int allReportable(final Account account)
    {
        final int positionCount = account.positionCount();
        ensureSlots(positionCount);
        int count = 0;
        for (int i = 0; i < positionCount; i++)
        {
            final Position position = account.positionAt(i);
            if (position.changed() || position.position() != 0 || position.openBuyQuantity() != 0 ||
                position.openSellQuantity() != 0)
            {
                slots[count++] = i;
            }
        }
        return count;
    }

    /** The changed slots, sorted: positions are reported in creation order whatever order they changed in. */
    private int changedInCreationOrder(final Account account)
    {
        final int count = account.changedPositionCount();
        ensureSlots(count);
        for (int i = 0; i < count; i++)
        {
            final int slot = account.changedSlotAt(i);
            int j = i - 1;
            while (j >= 0 && slots[j] > slot)
            {
                slots[j + 1] = slots[j];
                j--;
            }
            slots[j + 1] = slot;
        }
        return count;
    }

    private void ensureSlots(final int count)
    {
        if (slots.length < count)
        {
            slots = new int[Math.max(count, slots.length * 2)];
        }
    }
}
