package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.AmendInstrumentDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.DelistInstrumentDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetAccountStatusDecoder;

/**
 * The reference-data commands beyond adding instruments and accounts: amend and delist an instrument; suspend,
 * reactivate and close an account. Each is answered with an AdminResponse written after its effects, and followed by
 * the instrument's InstrumentDefinition or the account's AccountDefinition; the rules are docs/risk-api.md's. Tick,
 * lot, reference price and band change only while the instrument has no open order: orders priced on the old tick or
 * outside the new band could be neither valid nor cancelled by the rules they were accepted under.
 * <p>
 * Threading: single business-logic thread.
 */
final class Onboarding
{

    private final EngineState state;
    private final EventEncoder events;
    private final RiskUpdates riskUpdates;
    private final MassCancels massCancels;
    private final byte[] symbol = new byte[Instrument.SYMBOL_LENGTH];

    Onboarding(
        final EngineState state,
        final EventEncoder events,
        final RiskUpdates riskUpdates,
        final MassCancels massCancels)
    {
        this.state = state;
        this.events = events;
        this.riskUpdates = riskUpdates;
        this.massCancels = massCancels;
    }

    void onAmendInstrument(final AmendInstrumentDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final int instrumentId = decoder.instrumentId();
        final long tick = decoder.tickSize();
        final long lot = decoder.lotSize();
        final long reference = decoder.referencePrice();
        final byte bandType = (byte)decoder.priceBandTypeRaw();
        final long band = decoder.priceBand();
        decoder.getSymbol(symbol, 0);
        final boolean audited = Text.isAudited(decoder.operatorName(), decoder.reason());
        final OrderBook book = state.book(instrumentId);

        RejectReason refusal = RejectReason.NONE;
        if (null == book)
        {
            refusal = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (book.instrument().status() == Instrument.STATUS_DELISTED)
        {
            refusal = RejectReason.INSTRUMENT_DELISTED;
        }
        else if (!audited || symbol[0] == 0 || tick <= 0 || lot <= 0 || reference <= 0 || reference % tick != 0 ||
            Instrument.bandTicks(reference, tick, bandType, band) < 0)
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        if (refusal != RejectReason.NONE)
        {
            events.adminResponse(requestId, AmendInstrumentDecoder.TEMPLATE_ID, refusal);
            return;
        }
        final Instrument old = book.instrument();
        final boolean pricing = tick != old.tickSize() || lot != old.lotSize() || reference != old.referencePrice() ||
            bandType != old.bandType() || band != old.band();
        if (pricing && hasOpenOrders(instrumentId))
        {
            events.adminResponse(requestId, AmendInstrumentDecoder.TEMPLATE_ID, RejectReason.INSTRUMENT_HAS_ORDERS);
            return;
        }
        if (!pricing)
        {
            // A rename only: the book, its resting orders and pending stops stay as they are (a new, empty book
            // would have lost them from matching while they stayed open).
            old.rename(symbol);
            events.adminResponse(requestId, AmendInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE);
            events.instrumentDefinition(old);
            return;
        }
        final Instrument amended = new Instrument(instrumentId, symbol, old.priceScale(), tick, lot, reference,
            bandType, band);
        amended.status(old.status());
        state.replaceBook(book, new OrderBook(amended));
        events.adminResponse(requestId, AmendInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.instrumentDefinition(amended);
    }

    void onDelistInstrument(final DelistInstrumentDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final OrderBook book = state.book(decoder.instrumentId());
        RejectReason refusal = RejectReason.NONE;
        if (!Text.isAudited(decoder.operatorName(), decoder.reason()))
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else if (null == book)
        {
            refusal = RejectReason.UNKNOWN_INSTRUMENT;
        }
        else if (book.instrument().status() == Instrument.STATUS_DELISTED)
        {
            refusal = RejectReason.INSTRUMENT_DELISTED;
        }
        if (refusal != RejectReason.NONE)
        {
            events.adminResponse(requestId, DelistInstrumentDecoder.TEMPLATE_ID, refusal);
            return;
        }
        book.instrument().status(Instrument.STATUS_DELISTED);
        // A delisted instrument has no phase left to end: its timed call phase must not reopen it on the ring's clock.
        book.phaseEndNs(Long.MAX_VALUE);
        book.publishedIndicative().clear();
        state.recomputePhases();
        massCancels.cancelVenue(book.instrument().instrumentId(), MassCancels.ANY_SESSION, false,
            ExecType.CANCELED, CancelReason.INSTRUMENT_DELISTED, null);
        events.adminResponse(requestId, DelistInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.instrumentDefinition(book.instrument());
    }

    void onSetAccountStatus(final SetAccountStatusDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final Account account = state.account(decoder.accountId());
        final short status = decoder.statusRaw();
        RejectReason refusal = RejectReason.NONE;
        if (!Text.isAudited(decoder.operatorName(), decoder.reason()) || status < AccountStatus.ACTIVE.value() ||
            status > AccountStatus.CLOSED.value())
        {
            refusal = RejectReason.INVALID_ARGUMENT;
        }
        else if (null == account)
        {
            refusal = RejectReason.UNKNOWN_ACCOUNT;
        }
        else if (account.status() == Account.STATUS_CLOSED)
        {
            refusal = RejectReason.ACCOUNT_SUSPENDED;
        }
        else if (status == AccountStatus.CLOSED.value() && !isFlat(account))
        {
            refusal = RejectReason.ACCOUNT_NOT_FLAT;
        }
        if (refusal == RejectReason.NONE)
        {
            account.status((byte)status);
            riskUpdates.touch(account);
        }
        events.adminResponse(requestId, SetAccountStatusDecoder.TEMPLATE_ID, refusal);
        if (refusal == RejectReason.NONE)
        {
            riskUpdates.definition(account);
        }
    }

    private boolean hasOpenOrders(final int instrumentId)
    {
        for (Order order = state.orders.first(); null != order; order = order.venueNext)
        {
            if (order.instrumentId() == instrumentId)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isFlat(final Account account)
    {
        if (account.openOrders() != 0)
        {
            return false;
        }
        for (int i = 0, n = account.positionCount(); i < n; i++)
        {
            if (account.positionAt(i).position() != 0)
            {
                return false;
            }
        }
        return true;
    }

}
