package io.ringex.engine.processor;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderEncoder;

/**
 * Coalesces AccountRiskUpdate events: every account touched during a batch is queued once (in the order it was first
 * touched, which is deterministic) and published once at the end of the batch with its totals and the positions that
 * changed in the batch (readers keep the others). A full picture, every position that is not flat, is published on
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
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final AccountRiskUpdateEncoder encoder = new AccountRiskUpdateEncoder();
    private Account[] queue = new Account[64];
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
     *
     * @param account the account.
     * @param full    every position that is not flat (a full picture for late joiners), not only those that changed.
     */
    public void publish(final Account account, final boolean full)
    {
        long unrealised = 0;
        long exposure = 0;
        int reportable = 0;
        for (int i = 0, n = account.positionCount(); i < n; i++)
        {
            final Position position = account.positionAt(i);
            final long mark = mark(position);
            unrealised += Settlement.unrealisedPnl(position, mark);
            exposure += Settlement.exposure(position, mark);
            if (isReportable(position, full))
            {
                reportable++;
            }
        }
        long realised = 0;
        for (int i = 0, n = account.positionCount(); i < n; i++)
        {
            realised += account.positionAt(i).realisedPnl();
        }

        final EventSink sink = events.sink();
        final int fixed = HEADER + AccountRiskUpdateEncoder.BLOCK_LENGTH +
            AccountRiskUpdateEncoder.PositionsEncoder.HEADER_SIZE;
        final int perEvent = Math.max(1, Math.min(0xFFFE,
            (sink.maxEventLength() - fixed) / AccountRiskUpdateEncoder.PositionsEncoder.sbeBlockLength()));
        int next = 0;
        int remaining = reportable;
        do
        {
            final int count = Math.min(perEvent, remaining);
            final int offset = sink.claim(fixed + count * AccountRiskUpdateEncoder.PositionsEncoder.sbeBlockLength());
            encoder.wrapAndApplyHeader(sink.buffer(), offset, header)
                .accountId(account.accountId())
                .timestampNs(events.timestampNs())
                .balance(account.balance())
                .reserved(account.reserved())
                .realisedPnl(realised)
                .unrealisedPnl(unrealised)
                .exposure(exposure)
                .creditLimit(account.creditLimit())
                .maxOrderQuantity(account.maxOrderQuantity())
                .maxOrderNotional(account.maxOrderNotional())
                .openOrders(account.openOrders())
                .maxOpenOrders(account.maxOpenOrders())
                .killSwitch(account.killed() ? BooleanType.TRUE : BooleanType.FALSE);
            final AccountRiskUpdateEncoder.PositionsEncoder entries = encoder.positionsCount(count);
            int written = 0;
            while (written < count)
            {
                final Position position = account.positionAt(next++);
                if (!isReportable(position, full))
                {
                    continue;
                }
                final long mark = mark(position);
                entries.next()
                    .instrumentId(position.instrumentId())
                    .position(position.position())
                    .averageCost(position.averageCost())
                    .realisedPnl(position.realisedPnl())
                    .unrealisedPnl(Settlement.unrealisedPnl(position, mark))
                    .openBuyQuantity(position.openBuyQuantity())
                    .openSellQuantity(position.openSellQuantity())
                    .positionLimit(account.positionLimitFor(position))
                    .markPrice(mark);
                position.changed(false);
                written++;
            }
            sink.commit(HEADER + encoder.encodedLength());
            remaining -= count;
        }
        while (remaining > 0);
        account.changed(false);
    }

    private static boolean isReportable(final Position position, final boolean full)
    {
        return position.changed() || full && (position.position() != 0 || position.openBuyQuantity() != 0 ||
            position.openSellQuantity() != 0);
    }

    private long mark(final Position position)
    {
        final OrderBook book = state.book(position.instrumentId());
        return book == null ? 0 : book.markPrice();
    }
}
