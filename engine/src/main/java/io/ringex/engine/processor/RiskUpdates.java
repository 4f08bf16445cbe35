package io.ringex.engine.processor;

import io.ringex.engine.book.MarkPrices;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.OpenPositions;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AccountDefinitionEncoder;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder.PositionsEncoder;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.MutableDirectBuffer;

import static io.ringex.engine.processor.FixedFieldWriter.begin;
import static io.ringex.engine.processor.FixedFieldWriter.putByte;
import static io.ringex.engine.processor.FixedFieldWriter.putInt;
import static io.ringex.engine.processor.FixedFieldWriter.putLong;
import static io.ringex.engine.processor.FixedFieldWriter.putShort;

/**
 * The account side of the risk stream: AccountRiskUpdate and AccountDefinition (docs/protocol.md, "The risk stream").
 * Each account touched in a batch is published once at the batch's end, in the order first touched; the node's periodic
 * full picture ({@link #refresh(Account)}) puts a reader that missed an update right again.
 * <p>
 * Threading: single business-logic thread.
 */
public final class RiskUpdates
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;

    private final EngineState state;
    private final EventEncoder events;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final AccountDefinitionEncoder definition = new AccountDefinitionEncoder();
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
     * The account's full picture for late joiners and readers that missed an update: its AccountDefinition, then
     * AccountRiskUpdates naming every position it holds, flat ones included. Changes no state but the changed-position
     * marks (call between batches, when none is pending).
     *
     * @param account the account.
     */
    public void refresh(final Account account)
    {
        definition(account);
        publish(account, true);
    }

    /**
     * Write the account's AccountDefinition: its standing and limits, whole, and every position it holds (each with
     * its own limit or -1), over several consecutive events when they do not fit one (each with the standing and
     * limits, {@code firstPosition} saying where its entries start).
     *
     * @param account the account.
     */
    public void definition(final Account account)
    {
        final EventSink sink = events.sink();
        final int entryLength = AccountDefinitionEncoder.PositionsEncoder.sbeBlockLength();
        final int fixed = HEADER + AccountDefinitionEncoder.BLOCK_LENGTH +
            AccountDefinitionEncoder.PositionsEncoder.sbeHeaderSize();
        final int perEvent = Math.max(1, Math.min(0xFFFE, (sink.maxEventLength() - fixed) / entryLength));
        final int positionCount = account.positionCount();
        int first = 0;
        do
        {
            final int count = Math.min(perEvent, positionCount - first);
            final int length = fixed + count * entryLength;
            final int offset = sink.claim(length);
            definition.wrapAndApplyHeader(sink.buffer(), offset, header)
                .accountId(account.accountId())
                .timestampNs(events.timestampNs())
                .status(standing(account.status()))
                .selfTradePrevention(SelfTradePrevention.get(account.defaultSelfTradePrevention()))
                .maxOrderQuantity(account.maxOrderQuantity())
                .maxOrderNotional(account.maxOrderNotional())
                .creditLimit(account.creditLimit())
                .defaultPositionLimit(account.defaultPositionLimit())
                .maxOpenOrders(account.maxOpenOrders())
                .allowShort(account.allowShort() ? BooleanType.TRUE : BooleanType.FALSE)
                .positionCount(positionCount)
                .firstPosition(first);
            final AccountDefinitionEncoder.PositionsEncoder group = definition.positionsCount(count);
            for (int i = first, end = first + count; i < end; i++)
            {
                final Position position = account.positionAt(i);
                group.next().instrumentId(position.instrumentId()).positionLimit(position.positionLimit());
            }
            sink.commit(length);
            first += count;
        }
        while (first < positionCount);
    }

    private static AccountStatus standing(final byte status)
    {
        switch (status)
        {
            case Account.STATUS_SUSPENDED:
                return AccountStatus.SUSPENDED;
            case Account.STATUS_CLOSED:
                return AccountStatus.CLOSED;
            default:
                return AccountStatus.ACTIVE;
        }
    }

    /**
     * Publish one account now.
     * <p>
     * The totals value every position that is not flat at its book's current mark: one pass over the account's packed
     * net quantities ({@link OpenPositions}) and the venue's marks, primitive arrays, without touching the position
     * objects (cost and realised P&amp;L are running totals on the account). Only the positions reported are read
     * in full.
     *
     * @param account the account.
     * @param full    every position the account holds, flat ones too (a full picture), not only those that changed.
     */
    public void publish(final Account account, final boolean full)
    {
        final long[] marks = state.marks.marks();
        final long[] markMoney = state.marks.markMoney();
        long value = 0;
        long exposure = 0;
        long unvaluedCost = 0;
        if (account.positionCount() == 1)
        {
            // from the position object, warm from the batch's commands, not the cold packed arrays
            final Position position = account.positionAt(0);
            final long positionValue = MarkPrices.value(markMoney[account.markIndexAt(0)], position.position());
            if (positionValue == FixedPoint.INVALID)
            {
                // as Settlement.unrealisedPnl and exposure: a position whose value does not fit counts as 0
                unvaluedCost = position.cost();
            }
            else
            {
                value = positionValue;
                exposure = Math.abs(positionValue);
            }
        }
        else
        {
            final OpenPositions open = account.openPositions();
            final long[] nets = open.nets();
            final int[] markIndexes = open.markIndexes();
            for (int i = 0, n = open.count(); i < n; i++)
            {
                final long positionValue = MarkPrices.value(markMoney[markIndexes[i]], nets[i]);
                if (positionValue == FixedPoint.INVALID)
                {
                    unvaluedCost += account.positionAt(open.slotAt(i)).cost();
                }
                else
                {
                    value += positionValue;
                    exposure += Math.abs(positionValue);
                }
            }
        }
        final long unrealised = value - account.costTotal() + unvaluedCost;
        final long realised = account.realisedTotal();
        final int reportable = full ? allReportable(account) : changedInCreationOrder(account);

        final EventSink sink = events.sink();
        final int fixed = HEADER + AccountRiskUpdateEncoder.BLOCK_LENGTH + PositionsEncoder.HEADER_SIZE;
        final int entryLength = PositionsEncoder.sbeBlockLength();
        final int perEvent = Math.max(1, Math.min(0xFFFE, (sink.maxEventLength() - fixed) / entryLength));
        // read before the stores: after an Unsafe store the JIT reloads any field it already read
        final long accountId = account.accountId();
        final long timestampNs = events.timestampNs();
        final long balance = account.balance();
        final long reserved = account.reserved();
        final long creditLimit = account.creditLimit();
        final long maxOrderQuantity = account.maxOrderQuantity();
        final long maxOrderNotional = account.maxOrderNotional();
        final int openOrders = account.openOrders();
        final int maxOpenOrders = account.maxOpenOrders();
        final int killSwitch = account.killed() ? BooleanType.TRUE.value() : BooleanType.FALSE.value();
        int next = 0;
        int remaining = reportable;
        do
        {
            final int count = Math.min(perEvent, remaining);
            final int length = fixed + count * entryLength;
            final int offset = sink.claim(length);
            final MutableDirectBuffer buffer = sink.buffer(); // after the claim: a buffer may grow in it
            final byte[] array = buffer.byteArray();
            final long start = begin(buffer, offset, length, AccountRiskUpdateEncoder.BLOCK_LENGTH,
                AccountRiskUpdateEncoder.TEMPLATE_ID, AccountRiskUpdateEncoder.SCHEMA_ID,
                AccountRiskUpdateEncoder.SCHEMA_VERSION);
            final long at = start + HEADER;
            putLong(array, at + AccountRiskUpdateEncoder.accountIdEncodingOffset(), accountId);
            putLong(array, at + AccountRiskUpdateEncoder.timestampNsEncodingOffset(), timestampNs);
            putLong(array, at + AccountRiskUpdateEncoder.balanceEncodingOffset(), balance);
            putLong(array, at + AccountRiskUpdateEncoder.reservedEncodingOffset(), reserved);
            putLong(array, at + AccountRiskUpdateEncoder.realisedPnlEncodingOffset(), realised);
            putLong(array, at + AccountRiskUpdateEncoder.unrealisedPnlEncodingOffset(), unrealised);
            putLong(array, at + AccountRiskUpdateEncoder.exposureEncodingOffset(), exposure);
            putLong(array, at + AccountRiskUpdateEncoder.creditLimitEncodingOffset(), creditLimit);
            putLong(array, at + AccountRiskUpdateEncoder.maxOrderQuantityEncodingOffset(), maxOrderQuantity);
            putLong(array, at + AccountRiskUpdateEncoder.maxOrderNotionalEncodingOffset(), maxOrderNotional);
            putInt(array, at + AccountRiskUpdateEncoder.openOrdersEncodingOffset(), openOrders);
            putInt(array, at + AccountRiskUpdateEncoder.maxOpenOrdersEncodingOffset(), maxOpenOrders);
            putByte(array, at + AccountRiskUpdateEncoder.killSwitchEncodingOffset(), killSwitch);
            putShort(array, at + AccountRiskUpdateEncoder.BLOCK_LENGTH, entryLength);
            putShort(array, at + AccountRiskUpdateEncoder.BLOCK_LENGTH + 2, count);
            long entry = start + fixed;
            for (int written = 0; written < count; written++)
            {
                final int slot = slots[next++];
                final Position position = account.positionAt(slot);
                final long mark = marks[account.markIndexAt(slot)];
                final int instrumentId = position.instrumentId();
                final long net = position.position();
                final long averageCost = position.averageCost();
                final long realisedPnl = position.realisedPnl();
                final long unrealisedPnl = Settlement.unrealisedPnl(position, mark);
                final long openBuys = position.openBuyQuantity();
                final long openSells = position.openSellQuantity();
                final long positionLimit = account.positionLimitFor(position);
                putInt(array, entry + PositionsEncoder.instrumentIdEncodingOffset(), instrumentId);
                putLong(array, entry + PositionsEncoder.positionEncodingOffset(), net);
                putLong(array, entry + PositionsEncoder.averageCostEncodingOffset(), averageCost);
                putLong(array, entry + PositionsEncoder.realisedPnlEncodingOffset(), realisedPnl);
                putLong(array, entry + PositionsEncoder.unrealisedPnlEncodingOffset(), unrealisedPnl);
                putLong(array, entry + PositionsEncoder.openBuyQuantityEncodingOffset(), openBuys);
                putLong(array, entry + PositionsEncoder.openSellQuantityEncodingOffset(), openSells);
                putLong(array, entry + PositionsEncoder.positionLimitEncodingOffset(), positionLimit);
                putLong(array, entry + PositionsEncoder.markPriceEncodingOffset(), mark);
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
        for (int i = 0; i < positionCount; i++)
        {
            slots[i] = i;
        }
        return positionCount;
    }

    /** The changed slots, sorted: positions are reported in creation order whatever order they changed in. */
    private int changedInCreationOrder(final Account account)
    {
        final int count = account.changedPositionCount();
        if (account.positionCount() == 1)
        {
            slots[0] = 0; // the only slot there is; spares reading the account's (cold) list
            return count;
        }
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
