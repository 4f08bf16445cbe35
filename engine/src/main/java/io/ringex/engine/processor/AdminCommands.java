package io.ringex.engine.processor;

import io.ringex.engine.book.Instrument;
import io.ringex.engine.book.Order;
import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.protocol.CommandText;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.AddAccountDecoder;
import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdjustBalanceDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.EndOfDayDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.NewEpochDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import io.ringex.protocol.codecs.UnlockLogonsDecoder;

/**
 * Admin commands: each is answered with an AdminResponse (ACCEPTED, or REJECTED with a reason) written after its
 * effects; AddInstrument and SetTradingStatus are followed by the instrument's definition, an accepted AddAccount or
 * SetLimits by the account's ({@link RiskUpdates#definition}). The rules are docs/matching.md's ("Admin commands") and
 * docs/risk-api.md's.
 * <p>
 * Threading: single business-logic thread.
 */
public final class AdminCommands
{
    /** Longest user name an UnlockLogons may name. */
    public static final int MAX_UNLOCK_USERNAME = 32;
    /** Longest address an UnlockLogons may name (an IPv6 address in text). */
    public static final int MAX_UNLOCK_ADDRESS = 45;
    /** Longest operator name. */
    public static final int MAX_OPERATOR = 32;
    /** Longest reason text. */
    public static final int MAX_UNLOCK_REASON = 64;

    private final EngineState state;
    private final EventEncoder events;
    private final RiskUpdates riskUpdates;
    private final MassCancels massCancels;
    private final byte[] symbol = new byte[Instrument.SYMBOL_LENGTH];
    private final byte[] text = new byte[Text.MAX_REASON];
    private final AuditFields audit = new AuditFields();
    private int[] overrideInstruments = new int[16];
    private long[] overrideLimits = new long[16];

    /**
     * @param state       engine state.
     * @param events      event encoder.
     * @param riskUpdates risk update queue.
     * @param massCancels bulk cancels.
     */
    public AdminCommands(
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

    /**
     * @param decoder wrapped on the command.
     */
    public void onAddInstrument(final AddInstrumentDecoder decoder)
    {
        final int instrumentId = decoder.instrumentId();
        final int scale = decoder.priceScale();
        final long tick = decoder.tickSize();
        final long lot = decoder.lotSize();
        final long reference = decoder.referencePrice();
        final byte bandType = (byte)decoder.priceBandTypeRaw();
        final long band = decoder.priceBand();
        RejectReason reason = RejectReason.NONE;
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else if (state.book(instrumentId) != null)
        {
            reason = RejectReason.DUPLICATE_ID;
        }
        else if (scale > FixedPoint.MAX_PRICE_SCALE || tick <= 0 || lot <= 0 || reference <= 0 ||
            reference % tick != 0 || Instrument.bandTicks(reference, tick, bandType, band) < 0)
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        if (reason != RejectReason.NONE)
        {
            events.adminResponse(decoder.requestId(), AddInstrumentDecoder.TEMPLATE_ID, reason);
            return;
        }
        decoder.getSymbol(symbol, 0);
        final Instrument instrument = new Instrument(instrumentId, symbol, scale, tick, lot, reference, bandType, band);
        state.addBook(new OrderBook(instrument));
        events.adminResponse(decoder.requestId(), AddInstrumentDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.instrumentDefinition(instrument);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onAddAccount(final AddAccountDecoder decoder)
    {
        final long accountId = decoder.accountId();
        final short stp = decoder.selfTradePreventionRaw();
        RejectReason reason = RejectReason.NONE;
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else if (state.account(accountId) != null)
        {
            reason = RejectReason.DUPLICATE_ID;
        }
        else if (accountId == 0 || stp > Order.STP_DECREMENT_AND_CANCEL)
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        if (reason == RejectReason.NONE)
        {
            final Account account = new Account(accountId, stp == 0 ? Order.STP_CANCEL_NEWEST : (byte)stp);
            state.addAccount(account);
            riskUpdates.touch(account);
        }
        events.adminResponse(decoder.requestId(), AddAccountDecoder.TEMPLATE_ID, reason);
        if (reason == RejectReason.NONE)
        {
            riskUpdates.definition(state.account(accountId));
        }
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onSetLimits(final SetLimitsDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final Account account = state.account(decoder.accountId());
        final long maxQuantity = decoder.maxOrderQuantity();
        final long maxNotional = decoder.maxOrderNotional();
        final long credit = decoder.creditLimit();
        final long positionLimit = decoder.defaultPositionLimit();
        final int maxOpen = decoder.maxOpenOrders();
        final short allowShort = decoder.allowShortRaw();
        RejectReason reason = RejectReason.NONE;
        if (account == null)
        {
            reason = RejectReason.UNKNOWN_ACCOUNT;
        }
        else if (maxQuantity < 0 || maxNotional < 0 || credit < 0 || positionLimit < 0 || maxOpen < 0 ||
            allowShort > 1)
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        int overrides = 0;
        for (final SetLimitsDecoder.PositionLimitsDecoder entry : decoder.positionLimits())
        {
            final int instrumentId = entry.instrumentId();
            final long limit = entry.positionLimit();
            if (reason == RejectReason.NONE)
            {
                if (state.book(instrumentId) == null)
                {
                    reason = RejectReason.UNKNOWN_INSTRUMENT;
                }
                else if (limit < 0)
                {
                    reason = RejectReason.INVALID_ARGUMENT;
                }
                else
                {
                    if (overrides == overrideInstruments.length)
                    {
                        overrideInstruments = java.util.Arrays.copyOf(overrideInstruments, overrides * 2);
                        overrideLimits = java.util.Arrays.copyOf(overrideLimits, overrides * 2);
                    }
                    overrideInstruments[overrides] = instrumentId;
                    overrideLimits[overrides] = limit;
                    overrides++;
                }
            }
        }
        // After the group: the audit fields follow it.
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)) && reason == RejectReason.NONE)
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        if (reason == RejectReason.NONE)
        {
            account.limits(maxQuantity, maxNotional, credit, positionLimit, maxOpen, allowShort == 1);
            for (int i = 0; i < overrides; i++)
            {
                final OrderBook book = state.book(overrideInstruments[i]);
                final Position position = account.positionFor(overrideInstruments[i],
                    book.instrument().priceScale(), book.markIndex());
                position.positionLimit(overrideLimits[i]);
                account.positionChanged(position);
            }
            riskUpdates.touch(account);
        }
        events.adminResponse(requestId, SetLimitsDecoder.TEMPLATE_ID, reason);
        if (reason == RejectReason.NONE)
        {
            riskUpdates.definition(account);
        }
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onAdjustBalance(final AdjustBalanceDecoder decoder)
    {
        final Account account = state.account(decoder.accountId());
        final long amount = decoder.amount();
        RejectReason reason = RejectReason.NONE;
        if (account == null)
        {
            reason = RejectReason.UNKNOWN_ACCOUNT;
        }
        else
        {
            final long result = account.balance() + amount;
            // Version 1 of the command carried no audit fields; from version 2 the operator is required.
            if (((account.balance() ^ result) & (amount ^ result)) < 0 ||
                (decoder.actingVersion() >= 2 && !isAuditedTransfer(decoder)))
            {
                reason = RejectReason.INVALID_ARGUMENT;
            }
            else if (amount < 0 && result < account.reserved())
            {
                // A withdrawal may take only the free balance: what open buys reserve stays.
                reason = RejectReason.INSUFFICIENT_CREDIT;
            }
            else
            {
                account.adjustBalance(amount);
                riskUpdates.touch(account);
            }
        }
        events.adminResponse(decoder.requestId(), AdjustBalanceDecoder.TEMPLATE_ID, reason);
    }

    /**
     * A deposit's or withdrawal's reference, operator and reason, read without allocating (a funding command may come
     * in the steady state).
     */
    private boolean isAuditedTransfer(final AdjustBalanceDecoder decoder)
    {
        final int referenceLength = decoder.referenceLength();
        if (referenceLength > text.length)
        {
            return false;
        }
        decoder.getReference(text, 0, referenceLength);
        if (!Text.isAscii(text, referenceLength, 0, Text.MAX_REASON, true))
        {
            return false;
        }
        final int operatorLength = decoder.operatorNameLength();
        if (operatorLength > text.length)
        {
            return false;
        }
        decoder.getOperatorName(text, 0, operatorLength);
        if (!Text.isAscii(text, operatorLength, 1, Text.MAX_OPERATOR, false))
        {
            return false;
        }
        final int reasonLength = decoder.reasonLength();
        if (reasonLength > text.length)
        {
            return false;
        }
        decoder.getReason(text, 0, reasonLength);
        return Text.isAscii(text, reasonLength, 0, Text.MAX_REASON, true);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onKillSwitch(final KillSwitchDecoder decoder)
    {
        final short scope = decoder.scopeRaw();
        final long accountId = decoder.accountId();
        final short activeRaw = decoder.activeRaw();
        final boolean active = activeRaw == 1;
        RejectReason reason = RejectReason.NONE;
        if (activeRaw > 1 || (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(
            decoder.operatorNameLength(), decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR),
            decoder.reasonLength(), decoder.getReason(audit.reason, 0, Text.MAX_REASON))))
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        else if (scope == KillSwitchScope.VENUE.value())
        {
            state.venueKilled = active;
            if (active)
            {
                massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, MassCancels.ANY_SESSION, false,
                    ExecType.CANCELED, CancelReason.KILL_SWITCH, null);
            }
        }
        else if (scope == KillSwitchScope.ACCOUNT.value())
        {
            final Account account = state.account(accountId);
            if (account == null)
            {
                reason = RejectReason.UNKNOWN_ACCOUNT;
            }
            else
            {
                account.killed(active);
                riskUpdates.touch(account);
                if (active)
                {
                    massCancels.cancelAccount(account, MassCancels.ANY_INSTRUMENT, CancelReason.KILL_SWITCH, null);
                }
            }
        }
        else
        {
            reason = RejectReason.INVALID_ARGUMENT;
        }
        events.adminResponse(decoder.requestId(), KillSwitchDecoder.TEMPLATE_ID, reason);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onEndOfDay(final EndOfDayDecoder decoder)
    {
        if (decoder.actingVersion() >= AuditFields.SINCE_VERSION && !audit.valid(decoder.operatorNameLength(),
            decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR), decoder.reasonLength(),
            decoder.getReason(audit.reason, 0, Text.MAX_REASON)))
        {
            events.adminResponse(decoder.requestId(), EndOfDayDecoder.TEMPLATE_ID, RejectReason.INVALID_ARGUMENT);
            return;
        }
        massCancels.cancelVenue(MassCancels.ANY_INSTRUMENT, MassCancels.ANY_SESSION, true, ExecType.EXPIRED,
            CancelReason.END_OF_DAY, null);
        events.adminResponse(decoder.requestId(), EndOfDayDecoder.TEMPLATE_ID, RejectReason.NONE);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onTakeSnapshot(final TakeSnapshotDecoder decoder)
    {
        final boolean valid = decoder.actingVersion() < AuditFields.SINCE_VERSION || audit.valid(
            decoder.operatorNameLength(), decoder.getOperatorName(audit.operator, 0, Text.MAX_OPERATOR),
            decoder.reasonLength(), decoder.getReason(audit.reason, 0, Text.MAX_REASON));
        events.adminResponse(decoder.requestId(), TakeSnapshotDecoder.TEMPLATE_ID,
            valid ? RejectReason.NONE : RejectReason.INVALID_ARGUMENT);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onNewEpoch(final NewEpochDecoder decoder)
    {
        final long epoch = decoder.epoch();
        RejectReason reason = RejectReason.NONE;
        if (epoch < state.epoch)
        {
            reason = RejectReason.STALE_EPOCH;
        }
        else
        {
            state.epoch = epoch;
            events.epoch(epoch);
        }
        events.adminResponse(decoder.requestId(), NewEpochDecoder.TEMPLATE_ID, reason);
    }

    /**
     * @param decoder wrapped on the command.
     */
    public void onUnlockLogons(final UnlockLogonsDecoder decoder)
    {
        final long requestId = decoder.requestId();
        final String username = decoder.username();
        final String address = decoder.address();
        final String operator = decoder.operatorName();
        final String reason = decoder.reason();
        if ((username.isEmpty() && address.isEmpty()) ||
            !(username.isEmpty() || CommandText.isToken(username, MAX_UNLOCK_USERNAME)) ||
            !(address.isEmpty() || CommandText.isToken(address, MAX_UNLOCK_ADDRESS)) ||
            !CommandText.isToken(operator, MAX_OPERATOR) || !CommandText.isPrintable(reason, MAX_UNLOCK_REASON))
        {
            events.adminResponse(requestId, UnlockLogonsDecoder.TEMPLATE_ID, RejectReason.INVALID_ARGUMENT);
            return;
        }
        events.adminResponse(requestId, UnlockLogonsDecoder.TEMPLATE_ID, RejectReason.NONE);
        events.logonsUnlocked(username, address);
    }
}
