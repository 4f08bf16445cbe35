package io.ringex.engine.processor;

import io.ringex.engine.book.OrderBook;
import io.ringex.engine.risk.Account;
import io.ringex.protocol.codecs.AddAccountDecoder;
import io.ringex.protocol.codecs.AddInstrumentDecoder;
import io.ringex.protocol.codecs.AdjustBalanceDecoder;
import io.ringex.protocol.codecs.AmendInstrumentDecoder;
import io.ringex.protocol.codecs.BustTradeDecoder;
import io.ringex.protocol.codecs.CancelAllAfterDecoder;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.DelistInstrumentDecoder;
import io.ringex.protocol.codecs.EndOfDayDecoder;
import io.ringex.protocol.codecs.GatewayBarrierDecoder;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassQuoteDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewEpochDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderMassStatusRequestDecoder;
import io.ringex.protocol.codecs.OrderStatusRequestDecoder;
import io.ringex.protocol.codecs.QuoteCancelDecoder;
import io.ringex.protocol.codecs.ReferenceDataRequestDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.ResetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.SetAccountStatusDecoder;
import io.ringex.protocol.codecs.SetDynamicBandDecoder;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.SetMarketMakerProtectionDecoder;
import io.ringex.protocol.codecs.SetTradingScheduleDecoder;
import io.ringex.protocol.codecs.SetTradingStatusDecoder;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import io.ringex.protocol.codecs.TickDecoder;
import io.ringex.protocol.codecs.UnlockLogonsDecoder;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;

/**
 * The business-logic processor (BLP): order books, matching and risk for the whole venue in one thread.
 * <p>
 * Contract: {@link #onCommand} takes one SBE command (header included) that {@code MessageValidator} has already
 * accepted, with the input ring's sequence and timestamp; the template id selects the handler. Everything the BLP
 * does depends only on those arguments and its state: no clock, no randomness, no hash-map iteration that reaches
 * output or state. Events go to the {@link EventSink} in the order they happen; {@link #onEndOfBatch} publishes the
 * coalesced AccountRiskUpdates of the batch. Nothing propagates out of {@link #onCommand}: an unexpected exception is
 * counted, handed to the error handler and answered with a BusinessReject (MALFORMED, text "internal error").
 * <p>
 * Snapshots: call {@link #writeSnapshot} between batches (after {@link #onEndOfBatch}); {@link #restore} into a new
 * processor before its first command. {@link #stateHash} must agree between the cluster's members and any replay.
 * <p>
 * Threading: every method is for the single business-logic thread, except construction.
 */
public final class BusinessLogicProcessor
{
    private static final byte[] NO_ID = EventEncoder.NO_CLIENT_ORDER_ID;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    /** The order commands (most of the traffic) are read at fixed offsets; the others through SBE decoders. */
    private final CommandReader command = new CommandReader();
    private final MassCancelDecoder massCancel = new MassCancelDecoder();
    private final AddInstrumentDecoder addInstrument = new AddInstrumentDecoder();
    private final AddAccountDecoder addAccount = new AddAccountDecoder();
    private final SetLimitsDecoder setLimits = new SetLimitsDecoder();
    private final AdjustBalanceDecoder adjustBalance = new AdjustBalanceDecoder();
    private final SetTradingStatusDecoder setTradingStatus = new SetTradingStatusDecoder();
    private final KillSwitchDecoder killSwitch = new KillSwitchDecoder();
    private final TakeSnapshotDecoder takeSnapshot = new TakeSnapshotDecoder();
    private final EndOfDayDecoder endOfDay = new EndOfDayDecoder();
    private final NewEpochDecoder newEpoch = new NewEpochDecoder();
    private final UnlockLogonsDecoder unlockLogons = new UnlockLogonsDecoder();
    private final SetDynamicBandDecoder setDynamicBand = new SetDynamicBandDecoder();
    private final BustTradeDecoder bustTrade = new BustTradeDecoder();
    private final AmendInstrumentDecoder amendInstrument = new AmendInstrumentDecoder();
    private final DelistInstrumentDecoder delistInstrument = new DelistInstrumentDecoder();
    private final SetAccountStatusDecoder setAccountStatus = new SetAccountStatusDecoder();
    private final UpsertUserDecoder upsertUser = new UpsertUserDecoder();
    private final SetTradingScheduleDecoder setTradingSchedule = new SetTradingScheduleDecoder();
    private final SetUserCredentialDecoder setUserCredential = new SetUserCredentialDecoder();
    private final UserDirectoryRequestDecoder userDirectoryRequest = new UserDirectoryRequestDecoder();
    private final ReferenceDataRequestDecoder referenceDataRequest = new ReferenceDataRequestDecoder();
    private final GatewayBarrierDecoder gatewayBarrier = new GatewayBarrierDecoder();
    private final OrderStatusRequestDecoder orderStatusRequest = new OrderStatusRequestDecoder();
    private final OrderMassStatusRequestDecoder orderMassStatusRequest = new OrderMassStatusRequestDecoder();
    private final MassQuoteDecoder massQuote = new MassQuoteDecoder();
    private final QuoteCancelDecoder quoteCancel = new QuoteCancelDecoder();
    private final SetMarketMakerProtectionDecoder setProtection = new SetMarketMakerProtectionDecoder();
    private final ResetMarketMakerProtectionDecoder resetProtection = new ResetMarketMakerProtectionDecoder();
    private final CancelAllAfterDecoder cancelAllAfter = new CancelAllAfterDecoder();
    private final SessionStatusDecoder sessionStatus = new SessionStatusDecoder();

    private final EngineState state;
    private final EventEncoder events;
    private final RiskUpdates riskUpdates;
    private final OrderEntry orderEntry;
    private final OrderAmendments amendments;
    private final AdminCommands admin;
    private final TradingPhases phases;
    private final TradeCorrections corrections;
    private final Onboarding onboarding;
    private final UserCommands users;
    private final TradingSchedule schedule;
    private final OrderStatusQueries statusQueries;
    private final MassQuotes massQuotes;
    private final MarketMakerProtection protection;
    private final SessionTimers timers;
    private final StateHash stateHash = new StateHash();
    private final SnapshotWriter snapshotWriter = new SnapshotWriter();
    private final ErrorHandler errorHandler;
    private long commands;
    private long errors;
    private long commandTimeNs;

    /**
     * A processor sized for 64k open orders whose errors are only counted.
     *
     * @param sink where events go.
     */
    public BusinessLogicProcessor(final EventSink sink)
    {
        this(sink, 1 << 16, null);
    }

    /**
     * @param sink           where events go.
     * @param expectedOrders open orders to preallocate pool and maps for (more only costs allocation at warm-up).
     * @param errorHandler   told about unexpected exceptions, or null to only count them.
     */
    public BusinessLogicProcessor(final EventSink sink, final int expectedOrders, final ErrorHandler errorHandler)
    {
        this.state = new EngineState(expectedOrders);
        this.events = new EventEncoder(sink, state.statistics());
        this.riskUpdates = new RiskUpdates(state, events);
        final OrderLifecycle lifecycle = new OrderLifecycle(state, events, riskUpdates);
        final MassCancels massCancels = new MassCancels(state, lifecycle);
        this.phases = new TradingPhases(state, events, lifecycle, massCancels);
        this.orderEntry = new OrderEntry(state, events, lifecycle, phases);
        this.amendments = new OrderAmendments(state, events, lifecycle, orderEntry, massCancels);
        this.admin = new AdminCommands(state, events, riskUpdates, massCancels);
        this.corrections = new TradeCorrections(state, events, riskUpdates);
        this.onboarding = new Onboarding(state, events, riskUpdates, massCancels);
        this.users = new UserCommands(state, events);
        state.addClocked(new Deadlines(state, lifecycle, phases, orderEntry));
        this.schedule = new TradingSchedule(state, events, massCancels, phases);
        state.schedule = schedule;
        state.addClocked(schedule);
        this.statusQueries = new OrderStatusQueries(state, events);
        this.protection = new MarketMakerProtection(state, events, lifecycle);
        lifecycle.protection(protection);
        state.protection = protection;
        state.addClocked(protection);
        this.timers = new SessionTimers(events, massCancels);
        state.timers = timers;
        state.addClocked(timers);
        this.massQuotes = new MassQuotes(state, events, lifecycle, orderEntry, protection);
        this.errorHandler = errorHandler;
    }

    /**
     * Process one command.
     *
     * @param sequence    input-ring sequence (reported as commandSequence).
     * @param timestampNs the slot's timestamp: the only time the BLP knows.
     * @param sourceId    the slot's source (session) id; gateway 0 means an admin source.
     * @param buffer      holding the command.
     * @param offset      where its message header starts.
     * @param length      its length, header included.
     */
    public void onCommand(
        final long sequence,
        final long timestampNs,
        final long sourceId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        commands++;
        state.lastSequence = sequence;
        events.beginCommand(sequence, timestampNs);
        events.command(buffer, offset, length);
        int templateId = 0;
        try
        {
            header.wrap(buffer, offset);
            templateId = header.templateId();
            advanceClock(timestampNs);
            commandTimeNs = timestampNs;
            dispatch(templateId, sourceId, buffer, offset + MessageHeaderDecoder.ENCODED_LENGTH,
                header.blockLength(), header.version());
            if (!state.triggered.isEmpty())
            {
                orderEntry.enterTriggeredStops();
            }
            if (state.callPhaseBooks != 0)
            {
                phases.publishIndicatives();
            }
            events.publishBestBidOffers();
        }
        catch (final Exception ex)
        {
            errors++;
            if (errorHandler != null)
            {
                errorHandler.onError(ex);
            }
            try
            {
                events.businessReject(sourceId, templateId, NO_ID, RejectReason.MALFORMED, true);
            }
            catch (final Exception ignore)
            {
                errors++;
            }
        }
    }

    private void dispatch(
        final int templateId,
        final long sourceId,
        final DirectBuffer buffer,
        final int offset,
        final int blockLength,
        final int version)
    {
        switch (templateId)
        {
            case NewOrderDecoder.TEMPLATE_ID:
                orderEntry.onNewOrder(command.wrap(buffer, offset, blockLength));
                break;

            case CancelOrderDecoder.TEMPLATE_ID:
                amendments.onCancel(command.wrap(buffer, offset, CancelOrderDecoder.BLOCK_LENGTH));
                break;

            case ReplaceOrderDecoder.TEMPLATE_ID:
                amendments.onReplace(command.wrap(buffer, offset, blockLength));
                break;

            case MassCancelDecoder.TEMPLATE_ID:
                massCancel.wrap(buffer, offset, blockLength, version);
                amendments.onMassCancel(massCancel, sourceId);
                break;

            case OrderStatusRequestDecoder.TEMPLATE_ID:
                statusQueries.onOrderStatusRequest(orderStatusRequest.wrap(buffer, offset, blockLength, version));
                break;

            case OrderMassStatusRequestDecoder.TEMPLATE_ID:
                statusQueries.onOrderMassStatusRequest(
                    orderMassStatusRequest.wrap(buffer, offset, blockLength, version));
                break;

            case AddInstrumentDecoder.TEMPLATE_ID:
                addInstrument.wrap(buffer, offset, blockLength, version);
                admin.onAddInstrument(addInstrument);
                break;

            case AddAccountDecoder.TEMPLATE_ID:
                addAccount.wrap(buffer, offset, blockLength, version);
                admin.onAddAccount(addAccount);
                break;

            case SetLimitsDecoder.TEMPLATE_ID:
                setLimits.wrap(buffer, offset, blockLength, version);
                admin.onSetLimits(setLimits);
                break;

            case AdjustBalanceDecoder.TEMPLATE_ID:
                adjustBalance.wrap(buffer, offset, blockLength, version);
                admin.onAdjustBalance(adjustBalance);
                break;

            case SetTradingStatusDecoder.TEMPLATE_ID:
                setTradingStatus.wrap(buffer, offset, blockLength, version);
                if (phases.onSetTradingStatus(setTradingStatus))
                {
                    schedule.onOperatorStatus(setTradingStatus.instrumentId());
                }
                break;

            case SetDynamicBandDecoder.TEMPLATE_ID:
                setDynamicBand.wrap(buffer, offset, blockLength, version);
                phases.onSetDynamicBand(setDynamicBand);
                break;

            case KillSwitchDecoder.TEMPLATE_ID:
                killSwitch.wrap(buffer, offset, blockLength, version);
                admin.onKillSwitch(killSwitch);
                break;

            case TakeSnapshotDecoder.TEMPLATE_ID:
                takeSnapshot.wrap(buffer, offset, blockLength, version);
                admin.onTakeSnapshot(takeSnapshot);
                break;

            case EndOfDayDecoder.TEMPLATE_ID:
                endOfDay.wrap(buffer, offset, blockLength, version);
                admin.onEndOfDay(endOfDay);
                break;

            case NewEpochDecoder.TEMPLATE_ID:
                newEpoch.wrap(buffer, offset, blockLength, version);
                admin.onNewEpoch(newEpoch);
                break;

            case SessionStatusDecoder.TEMPLATE_ID:
                // the gateways' bookkeeping, and since version 3 a disconnected session's grace
                timers.onSessionStatus(sessionStatus.wrap(buffer, offset, blockLength, version));
                break;

            case TickDecoder.TEMPLATE_ID:
                // a Tick only moved the clock (advanceClock)
                break;

            case MassQuoteDecoder.TEMPLATE_ID:
                massQuotes.onMassQuote(massQuote.wrap(buffer, offset, blockLength, version));
                break;

            case QuoteCancelDecoder.TEMPLATE_ID:
                massQuotes.onQuoteCancel(quoteCancel.wrap(buffer, offset, blockLength, version));
                break;

            case SetMarketMakerProtectionDecoder.TEMPLATE_ID:
                protection.onSet(setProtection.wrap(buffer, offset, blockLength, version));
                break;

            case ResetMarketMakerProtectionDecoder.TEMPLATE_ID:
                protection.onReset(resetProtection.wrap(buffer, offset, blockLength, version));
                break;

            case CancelAllAfterDecoder.TEMPLATE_ID:
                timers.onCancelAllAfter(cancelAllAfter.wrap(buffer, offset, blockLength, version));
                break;

            case UnlockLogonsDecoder.TEMPLATE_ID:
                unlockLogons.wrap(buffer, offset, blockLength, version);
                admin.onUnlockLogons(unlockLogons);
                break;

            case BustTradeDecoder.TEMPLATE_ID:
                bustTrade.wrap(buffer, offset, blockLength, version);
                corrections.onBustTrade(bustTrade);
                break;

            case AmendInstrumentDecoder.TEMPLATE_ID:
                onboarding.onAmendInstrument(amendInstrument.wrap(buffer, offset, blockLength, version));
                break;

            case DelistInstrumentDecoder.TEMPLATE_ID:
                onboarding.onDelistInstrument(delistInstrument.wrap(buffer, offset, blockLength, version));
                break;

            case SetAccountStatusDecoder.TEMPLATE_ID:
                onboarding.onSetAccountStatus(setAccountStatus.wrap(buffer, offset, blockLength, version));
                break;

            case UpsertUserDecoder.TEMPLATE_ID:
                users.onUpsertUser(upsertUser.wrap(buffer, offset, blockLength, version));
                break;

            case SetUserCredentialDecoder.TEMPLATE_ID:
                users.onSetUserCredential(setUserCredential.wrap(buffer, offset, blockLength, version));
                break;

            case UserDirectoryRequestDecoder.TEMPLATE_ID:
                users.onUserDirectoryRequest(userDirectoryRequest.wrap(buffer, offset, blockLength, version));
                break;

            case ReferenceDataRequestDecoder.TEMPLATE_ID:
                onReferenceDataRequest(referenceDataRequest.wrap(buffer, offset, blockLength, version).requestId());
                break;

            case SetTradingScheduleDecoder.TEMPLATE_ID:
                schedule.onSetTradingSchedule(setTradingSchedule.wrap(buffer, offset, blockLength, version),
                    commandTimeNs);
                break;

            case GatewayBarrierDecoder.TEMPLATE_ID:
                // Changes nothing: its answer, after every event of the commands before it, is all a gateway needs.
                gatewayBarrier.wrap(buffer, offset, blockLength, version);
                events.gatewayBarrierReached(gatewayBarrier.sessionId(), gatewayBarrier.token());
                break;

            default:
                events.businessReject(sourceId, templateId, NO_ID, RejectReason.UNKNOWN_MESSAGE, false);
                break;
        }
    }

    /**
     * An operator's tool asks for the venue's reference data: what the late-joiner refresh publishes of it (every
     * instrument's definition, every account's definition, risk and market-maker protection, the trading schedule),
     * now, then the AdminResponse, so the answer's last message tells the tool it has everything. Changes no state;
     * the account updates this batch has pending go out first, as at a batch's end, so the refresh follows them.
     */
    private void onReferenceDataRequest(final long requestId)
    {
        riskUpdates.flush();
        for (int i = 0, n = state.bookCount(); i < n; i++)
        {
            events.instrumentDefinition(state.bookAt(i).instrument());
        }
        for (int i = 0, n = state.accountCount(); i < n; i++)
        {
            final long accountId = state.accountAt(i).accountId();
            publishAccountRisk(accountId);
            protection.publish(accountId);
        }
        schedule.publish();
        events.adminResponse(requestId, ReferenceDataRequestDecoder.TEMPLATE_ID, RejectReason.NONE);
    }

    /**
     * Let every part of the state with a deadline act on what is due by the command's time, before the command.
     */
    private void advanceClock(final long nowNs)
    {
        final Clocked[] clocked = state.clocked;
        for (int i = 0, n = state.clockedCount; i < n; i++)
        {
            final Clocked c = clocked[i];
            if (c.nextDeadlineNs() <= nowNs)
            {
                c.onTime(nowNs);
            }
        }
    }

    /**
     * @return the earliest time something in the state must act at ({@link Clocked}), or {@link Long#MAX_VALUE}:
     * the node journals a Tick then if no command comes first.
     */
    public long nextDeadlineNs()
    {
        long earliest = Long.MAX_VALUE;
        final Clocked[] clocked = state.clocked;
        for (int i = 0, n = state.clockedCount; i < n; i++)
        {
            earliest = Math.min(earliest, clocked[i].nextDeadlineNs());
        }
        return earliest;
    }

    /** End of a batch: publish one AccountRiskUpdate per account that changed in it. */
    public void onEndOfBatch()
    {
        try
        {
            riskUpdates.flush();
        }
        catch (final Exception ex)
        {
            errors++;
            if (errorHandler != null)
            {
                errorHandler.onError(ex);
            }
        }
    }

    /**
     * Publish a full book snapshot (market data for late joiners); the node calls this periodically.
     *
     * @param instrumentId instrument.
     * @return false if the instrument is unknown.
     */
    public boolean publishBookSnapshot(final int instrumentId)
    {
        final OrderBook book = state.book(instrumentId);
        if (book == null)
        {
            return false;
        }
        events.bookSnapshot(book);
        return true;
    }

    /**
     * Publish the order-by-order state of a book (BookOrders events, for the market-data publisher's copy of the
     * book); changes no state.
     *
     * @param instrumentId instrument.
     * @return false if the instrument is unknown.
     */
    public boolean publishBookOrders(final int instrumentId)
    {
        final OrderBook book = state.book(instrumentId);
        if (book == null)
        {
            return false;
        }
        events.bookOrders(book);
        return true;
    }

    /**
     * Publish an instrument's definition and status again (for late joiners); changes no state.
     *
     * @param instrumentId instrument.
     * @return false if the instrument is unknown.
     */
    public boolean publishInstrumentDefinition(final int instrumentId)
    {
        final OrderBook book = state.book(instrumentId);
        if (book == null)
        {
            return false;
        }
        events.instrumentDefinition(book.instrument());
        return true;
    }

    /**
     * Publish the trading schedule now (e.g. for a new dashboard or admin tool).
     */
    public void publishTradingSchedule()
    {
        schedule.publish();
    }

    /**
     * Publish an account's full picture now, whether or not it changed (for late joiners and readers that missed an
     * update): its AccountDefinition, then AccountRiskUpdates naming every position it holds ({@link
     * RiskUpdates#refresh}). Output only; call between batches.
     *
     * @param accountId account.
     * @return false if the account is unknown.
     */
    public boolean publishAccountRisk(final long accountId)
    {
        final Account account = state.account(accountId);
        if (account == null)
        {
            return false;
        }
        riskUpdates.refresh(account);
        return true;
    }

    /**
     * Publish the market-maker protection of an account, each group's whole state (MarketMakerProtectionEvent
     * STATE), for late joiners; changes no state.
     *
     * @param accountId account.
     * @return groups published (0 if it has none).
     */
    public int publishMarketMakerProtection(final long accountId)
    {
        return protection.publish(accountId);
    }

    /** @return 64-bit hash of the whole state (see {@link StateHash}). */
    public long stateHash()
    {
        return stateHash.compute(state);
    }

    /**
     * Write the whole state as a snapshot ({@link SnapshotDescriptor}); call between batches.
     *
     * @param out    where to write (an expandable buffer grows as needed).
     * @param offset where to start.
     * @return bytes written.
     */
    public int writeSnapshot(final MutableDirectBuffer out, final int offset)
    {
        riskUpdates.flush();
        return snapshotWriter.write(state, out, offset);
    }

    /**
     * Load a snapshot into this processor, which must not have processed anything yet.
     *
     * @param in     holding the snapshot.
     * @param offset where it starts.
     * @param length its length.
     * @throws IllegalStateException if the snapshot is not valid for this version, or the processor is not empty.
     */
    public void restore(final DirectBuffer in, final int offset, final int length)
    {
        new SnapshotReader().read(state, in, offset, length);
        events.epoch(state.epoch);
    }

    /** @return the state, read-only by convention (tests, tools). */
    public EngineState state()
    {
        return state;
    }

    /** @return sequence of the last command processed (or restored). */
    public long lastSequence()
    {
        return state.lastSequence;
    }

    /** @return commands processed. */
    public long commandCount()
    {
        return commands;
    }

    /** @return unexpected exceptions caught. */
    public long errorCount()
    {
        return errors;
    }
}
