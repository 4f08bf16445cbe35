package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.engine.risk.Settlement;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.BustTradeDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.TradeBustedEncoder;

import java.nio.charset.StandardCharsets;

/**
 * Post-trade corrections: a trade bust reverses a trade's effects on the two accounts, as the opposite trade at the
 * same price would; open orders, the book, the last trade price and the mark are left alone (docs/operations.md,
 * "Busting a trade"). The engine keeps no history of trades, so it checks only what it can; the operator's tool checks
 * the trade against the journal.
 * <p>
 * Threading: single business-logic thread.
 */
final class TradeCorrections
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int MAX_OPERATOR_LENGTH = 32;
    private static final int MAX_REASON_LENGTH = 64;

    private final EngineState state;
    private final EventEncoder events;
    private final RiskUpdates riskUpdates;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final TradeBustedEncoder tradeBusted = new TradeBustedEncoder();

    TradeCorrections(final EngineState state, final EventEncoder events, final RiskUpdates riskUpdates)
    {
        this.state = state;
        this.events = events;
        this.riskUpdates = riskUpdates;
    }

    void onBustTrade(final BustTradeDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final long tradeId = decoder.tradeId();
        final int instrumentId = decoder.instrumentId();
        final long price = decoder.price();
        final long quantity = decoder.quantity();
        final long buyOrderId = decoder.buyOrderId();
        final long sellOrderId = decoder.sellOrderId();
        final Account buyer = state.account(decoder.buyAccountId());
        final Account seller = state.account(decoder.sellAccountId());
        final String operator = decoder.operatorName();
        final String reasonText = decoder.reason();
        final OrderBook book = state.book(instrumentId);

        RejectReason reason = RejectReason.NONE;
        long notional = 0;
        if (book == null)
        {
            reason = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (buyer == null || seller == null)
        {
            reason = RejectReason.UNKNOWN_ACCOUNT;
        }
        else
        {
            final Instrument instrument = book.instrument();
            notional = FixedPoint.notional(price, quantity, instrument.priceScale());
            if (tradeId <= 0 || tradeId > state.lastTradeId || buyer == seller || quantity <= 0 || price <= 0 ||
                quantity % instrument.lotSize() != 0 || price % instrument.tickSize() != 0 ||
                notional == FixedPoint.INVALID || !fits(operator, 1, MAX_OPERATOR_LENGTH) ||
                !fits(reasonText, 1, MAX_REASON_LENGTH))
            {
                reason = RejectReason.INVALID_ARGUMENT;
            }
        }

        if (reason == RejectReason.NONE)
        {
            final Instrument instrument = book.instrument();
            final Position sellerPosition = seller.positionFor(instrumentId, instrument.priceScale(),
                book.markIndex());
            final Position buyerPosition = buyer.positionFor(instrumentId, instrument.priceScale(),
                book.markIndex());
            // the reversal: the seller buys back from the buyer
            Settlement.settle(seller, sellerPosition, buyer, buyerPosition, quantity, notional);
            riskUpdates.touch(buyer);
            riskUpdates.touch(seller);
            publish(instrumentId, tradeId, price, quantity, buyOrderId, sellOrderId, buyer.accountId(),
                seller.accountId(), operator, reasonText);
        }
        events.adminResponse(requestId, BustTradeDecoder.TEMPLATE_ID, reason);
    }

    private static boolean fits(final String text, final int min, final int max)
    {
        final int length = text.getBytes(StandardCharsets.UTF_8).length;
        return length >= min && length <= max;
    }

    private void publish(
        final int instrumentId,
        final long tradeId,
        final long price,
        final long quantity,
        final long buyOrderId,
        final long sellOrderId,
        final long buyAccountId,
        final long sellAccountId,
        final String operator,
        final String reason)
    {
        final EventSink sink = events.sink();
        final int length = HEADER + TradeBustedEncoder.BLOCK_LENGTH + TradeBustedEncoder.operatorNameHeaderLength() +
            operator.getBytes(StandardCharsets.UTF_8).length + TradeBustedEncoder.reasonHeaderLength() +
            reason.getBytes(StandardCharsets.UTF_8).length;
        final int offset = sink.claim(length);
        tradeBusted.wrapAndApplyHeader(sink.buffer(), offset, header)
            .instrumentId(instrumentId)
            .tradeId(tradeId)
            .price(price)
            .quantity(quantity)
            .buyOrderId(buyOrderId)
            .sellOrderId(sellOrderId)
            .buyAccountId(buyAccountId)
            .sellAccountId(sellAccountId)
            .timestampNs(events.timestampNs())
            .commandSequence(events.sequence())
            .operatorName(operator)
            .reason(reason);
        sink.commit(HEADER + tradeBusted.encodedLength());
    }
}
