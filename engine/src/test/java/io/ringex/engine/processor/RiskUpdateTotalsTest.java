package io.ringex.engine.processor;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.PnlMath;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateEncoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every AccountRiskUpdate's totals against a recomputation from the account's positions at the books' marks, the
 * slow way (each position's own unrealised P&amp;L and exposure at {@link OrderBook#markPrice()}, realised P&amp;L
 * summed): the processor keeps cost and realised P&amp;L as running totals and reads marks from an array, and this
 * is what would catch either drifting. Reported positions must come in the account's creation order, and each
 * event must be byte for byte what the generated SBE encoder writes for those values.
 */
final class RiskUpdateTotalsTest
{
    @Test
    void totalsOfEveryRiskUpdateEqualThePositionsValuedAtTheMarks()
    {
        final Harness h = new Harness();
        final RandomCommands commands = new RandomCommands(11, h.encoder, h.processor, h.time - h.sequence, 1);
        for (int i = 0; i < RandomCommands.setupCount(); i++)
        {
            h.send(commands.setupCommand(i));
        }
        final SplittableRandom batches = new SplittableRandom(3);
        int updates = 0;
        int positionsReported = 0;
        for (int i = 0; i < 20_000; i++)
        {
            h.send(commands.next());
            if (batches.nextInt(4) == 0)
            {
                final int before = h.sink.size();
                for (final Harness.Risk risk : Harness.only(h.endBatch(), Harness.Risk.class))
                {
                    check(h.processor.state(), risk);
                    updates++;
                    positionsReported += risk.positions().size();
                }
                for (int e = before; e < h.sink.size(); e++)
                {
                    if (h.sink.templateId(e) == AccountRiskUpdateEncoder.TEMPLATE_ID)
                    {
                        assertArrayEquals(sbeEncoded(h.processor.state(), h.sink.events(), h.sink.offset(e)),
                            h.sink.eventBytes(e), "bytes of risk update " + e);
                    }
                }
            }
            if (i % 1000 == 999)
            {
                for (long account = 1; account <= RandomCommands.ACCOUNTS; account++)
                {
                    final int before = h.sink.size();
                    h.processor.publishAccountRisk(account);
                    for (final Harness.Risk risk : Harness.only(h.decode(before, h.sink.size()), Harness.Risk.class))
                    {
                        check(h.processor.state(), risk);
                    }
                }
            }
        }
        assertTrue(updates > 1000, "risk updates checked: " + updates);
        assertTrue(positionsReported > 1000, "positions reported: " + positionsReported);
        assertTrue(h.processor.state().lastTradeId() > 1000, "trades: " + h.processor.state().lastTradeId());
    }

    /**
     * The update as the generated SBE encoder writes it, from the state and the totals recomputed the slow way, for
     * the positions the event lists (its account, timestamp and position ids are taken from the event).
     */
    private static byte[] sbeEncoded(final EngineState state, final DirectBuffer events, final int offset)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(events, offset);
        final AccountRiskUpdateDecoder decoder = new AccountRiskUpdateDecoder().wrap(events,
            offset + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        final Account account = state.account(decoder.accountId());
        long realised = 0;
        long unrealised = 0;
        long exposure = 0;
        for (int i = 0; i < account.positionCount(); i++)
        {
            final Position position = account.positionAt(i);
            final long mark = state.book(position.instrumentId()).markPrice();
            realised += position.realisedPnl();
            unrealised += Settlement.unrealisedPnl(position, mark);
            exposure += Settlement.exposure(position, mark);
        }
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
        final AccountRiskUpdateEncoder encoder = new AccountRiskUpdateEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder())
            .accountId(account.accountId())
            .timestampNs(decoder.timestampNs())
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
        final AccountRiskUpdateDecoder.PositionsDecoder listed = decoder.positions();
        final AccountRiskUpdateEncoder.PositionsEncoder entries = encoder.positionsCount(listed.count());
        for (final AccountRiskUpdateDecoder.PositionsDecoder p : listed)
        {
            final Position position = account.position(p.instrumentId());
            final long mark = state.book(position.instrumentId()).markPrice();
            entries.next()
                .instrumentId(position.instrumentId())
                .position(position.position())
                .averageCost(position.position() == 0 ? 0 : PnlMath.averagePrice(Math.abs(position.cost()),
                    Math.abs(position.position()), position.priceScale()))
                .realisedPnl(position.realisedPnl())
                .unrealisedPnl(Settlement.unrealisedPnl(position, mark))
                .openBuyQuantity(position.openBuyQuantity())
                .openSellQuantity(position.openSellQuantity())
                .positionLimit(account.positionLimitFor(position))
                .markPrice(mark);
        }
        final byte[] bytes = new byte[MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength()];
        out.getBytes(0, bytes);
        return bytes;
    }

    private static void check(final EngineState state, final Harness.Risk risk)
    {
        final Account account = state.account(risk.accountId());
        long realised = 0;
        long unrealised = 0;
        long exposure = 0;
        final List<Integer> creationOrder = new ArrayList<>();
        for (int i = 0; i < account.positionCount(); i++)
        {
            final Position position = account.positionAt(i);
            final long mark = state.book(position.instrumentId()).markPrice();
            realised += position.realisedPnl();
            unrealised += Settlement.unrealisedPnl(position, mark);
            exposure += Settlement.exposure(position, mark);
            creationOrder.add(position.instrumentId());
        }
        assertEquals(realised, risk.realisedPnl(), "realised, account " + risk.accountId());
        assertEquals(unrealised, risk.unrealisedPnl(), "unrealised, account " + risk.accountId());
        assertEquals(exposure, risk.exposure(), "exposure, account " + risk.accountId());
        int last = -1;
        for (final Harness.Pos pos : risk.positions())
        {
            final int index = creationOrder.indexOf(pos.instrumentId());
            assertTrue(index > last, "positions in creation order, account " + risk.accountId());
            last = index;
            final Position position = account.position(pos.instrumentId());
            assertEquals(position.position(), pos.position());
            assertEquals(position.realisedPnl(), pos.realisedPnl());
        }
    }
}
