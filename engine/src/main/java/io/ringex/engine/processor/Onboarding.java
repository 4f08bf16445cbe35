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
 * The reference-data commands an operator runs a venue with, beyond adding instruments and accounts: amend and delist
 * an instrument, suspend, reactivate and close an account. Each is answered with an AdminResponse written after its
 * effects; an instrument's change is followed by its InstrumentDefinition.
 * <p>
 * Rules:
 * <ul>
 * <li>AmendInstrument: the symbol may change at any time. Tick, lot, reference price and band change only while the
 * instrument has no open order (INSTRUMENT_HAS_ORDERS otherwise: halt it and cancel its orders first), because resting
 * orders priced on the old tick or outside the new band would be neither valid nor cancellable by the rules they were
 * accepted under; the values follow AddInstrument's rules (INVALID_ARGUMENT); the book is rebuilt for the new band,
 * keeping its market-data sequence, last trade price and status.</li>
 * <li>DelistInstrument: every open order of the instrument is cancelled (CancelReason INSTRUMENT_DELISTED), its status
 * becomes DELISTED (new orders refused INSTRUMENT_DELISTED), and it stays in the state with its history: positions in
 * it are kept and marked at its last trade. A delisted instrument cannot be amended or relisted.</li>
 * <li>SetAccountStatus: SUSPENDED refuses the account's new orders and replaces (ACCOUNT_SUSPENDED) while its resting
 * orders, cancels and settlement go on; ACTIVE lifts it; CLOSED only when the account is flat, with no position and
 * no open order (ACCOUNT_NOT_FLAT otherwise), and is final. Accepted, it is followed by the account's
 * AccountDefinition, which carries the standing.</li>
 * <li>Each names its operator (1 to 32 printable characters) and may give a reason (up to 64): the journal is the
 * audit trail.</li>
 * </ul>
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
