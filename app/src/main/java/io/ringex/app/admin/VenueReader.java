package io.ringex.app.admin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.AdminClient;
import io.ringex.client.EventBatches;
import io.ringex.client.risk.AccountRisk;
import io.ringex.client.risk.AccountRiskBook;
import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.MarketMakerProtectionEventDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MmpEventType;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.ReferenceDataRequestDecoder;
import io.ringex.protocol.codecs.TradingScheduleDefinitionDecoder;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;
import io.ringex.protocol.codecs.UserRole;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

/**
 * Learns what a running venue holds from its engine's streams, as a late-joining dashboard does: instruments, accounts
 * and the trading schedule from the risk stream (asked for at once with an admin key, else from the engine's periodic
 * refresh), and the users by a UserDirectoryRequest from a gateway id this tool claims for itself (65000 to 65499).
 * <p>
 * It keeps listening while open, so what the commands it watches change is seen too.
 * <p>
 * Not thread-safe: one thread (a command-line tool).
 */
final class VenueReader implements AutoCloseable
{
    /** EngineStatus messages to wait for: the refresh runs every 5 status intervals; one interval more to arrive. */
    static final int STATUSES_PER_REFRESH = 7;
    /** The first gateway id this tool claims (gateways are numbered from 1; no venue runs 65000 of them). */
    static final int FIRST_TOOL_GATEWAY_ID = 65_000;

    private static final IdleStrategy IDLE = new SleepingMillisIdleStrategy(1);

    private final Subscription risk;
    private final Subscription egress;
    private final AdminClient admin;
    private final long timeoutNs;
    private final int gatewayId = FIRST_TOOL_GATEWAY_ID + ThreadLocalRandom.current().nextInt(500);
    private final VenueState state = new VenueState();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final InstrumentDefinitionDecoder definition = new InstrumentDefinitionDecoder();
    private final AccountRiskBook accounts = new AccountRiskBook();
    private final EngineStatusDecoder status = new EngineStatusDecoder();
    private final AdminResponseDecoder response = new AdminResponseDecoder();
    private final MarketMakerProtectionEventDecoder protectionEvent = new MarketMakerProtectionEventDecoder();
    private final TradingScheduleDefinitionDecoder schedule = new TradingScheduleDefinitionDecoder();
    private final UserDefinitionDecoder userDefinition = new UserDefinitionDecoder();
    private final UserDirectoryEndDecoder directoryEnd = new UserDirectoryEndDecoder();
    private final FragmentHandler onRisk = EventBatches.unpacking(this::onRisk);
    private final FragmentHandler onEgress = EventBatches.unpacking(this::onEgress);
    private int statuses;
    private NodeRole role;
    private int nodeId;
    private long directoryRequestId;
    private boolean directoryDone;
    private long referenceRequestId;
    private boolean referenceDone;

    /**
     * @param aeron          a connected client.
     * @param admin          sends the directory request (to the engine's ingress).
     * @param outbound       the engine's outbound channel, subscriber side.
     * @param egressStream   its egress stream.
     * @param riskStream     its risk stream.
     * @param timeoutNs      how long {@link #read} waits for the engine.
     */
    VenueReader(
        final Aeron aeron,
        final AdminClient admin,
        final String outbound,
        final int egressStream,
        final int riskStream,
        final long timeoutNs)
    {
        this.admin = admin;
        this.timeoutNs = timeoutNs;
        risk = aeron.addSubscription(outbound, riskStream);
        egress = aeron.addSubscription(outbound, egressStream);
    }

    /**
     * Wait for the streams, ask for the users and, with an admin key, for the instruments and accounts; without one,
     * if they are needed, wait for a refresh of them.
     *
     * @param refresh whether the instruments and accounts are needed (without a key: a wait of 6 status intervals).
     * @return what the venue holds.
     * @throws IllegalStateException if the engine does not answer within the timeout, or is not a primary.
     */
    VenueState read(final boolean refresh)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!risk.isConnected() || !egress.isConnected())
        {
            awaitOrFail(deadline, "the engine's outbound streams did not connect (is the engine up, and are " +
                "--outbound and the stream ids its own?)");
        }
        directoryRequestId = System.nanoTime();
        admin.send(admin.commands().userDirectoryRequest(gatewayId, directoryRequestId));
        if (admin.signs())
        {
            // Answered by the primary only (a standby or follower takes no commands): it also says who is primary.
            referenceRequestId = directoryRequestId + 1;
            admin.send(admin.commands().referenceDataRequest(referenceRequestId));
        }
        while (!directoryDone || (refresh && !referenceDone && statuses < STATUSES_PER_REFRESH) ||
            (null == role && !referenceDone))
        {
            awaitOrFail(deadline, directoryDone ? "no answer to the reference-data request and no refresh of the " +
                "instruments and accounts within the timeout (EngineStatus messages seen: " + statuses + " of " +
                STATUSES_PER_REFRESH + (admin.signs() ? "; a key the engine does not hold is refused unanswered" :
                "; without an admin key the tool waits for the refresh") + ")" :
                "no answer to the user directory request within the timeout");
            if (null != role && role != NodeRole.PRIMARY)
            {
                throw new IllegalStateException("node " + nodeId + " is " + role + ", not PRIMARY: point " +
                    "--ingress and --outbound at the primary");
            }
        }
        return state;
    }

    /**
     * Take in what has arrived since.
     *
     * @return the venue as now known.
     */
    VenueState poll()
    {
        while (risk.poll(onRisk, 64) + egress.poll(onEgress, 64) > 0)
        {
            Thread.onSpinWait();
        }
        return state;
    }

    private void awaitOrFail(final long deadline, final String message)
    {
        if (System.nanoTime() > deadline)
        {
            throw new IllegalStateException(message + " (" + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms)");
        }
        if (risk.poll(onRisk, 64) + egress.poll(onEgress, 64) == 0)
        {
            IDLE.idle();
        }
    }

    private void onRisk(
        final org.agrona.DirectBuffer buffer, final int offset, final int length, final io.aeron.logbuffer.Header h)
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case InstrumentDefinitionDecoder.TEMPLATE_ID ->
            {
                definition.wrapAndApplyHeader(buffer, offset, header);
                state.instruments.put(definition.instrumentId(), new VenueState.Instrument(definition.instrumentId(),
                    definition.symbol(), definition.priceScale(), definition.tickSize(), definition.lotSize(),
                    definition.referencePrice(), definition.priceBandType(), definition.priceBand(),
                    definition.status()));
            }
            case AccountRiskUpdateDecoder.TEMPLATE_ID, AccountDefinitionDecoder.TEMPLATE_ID ->
                onAccount(buffer, offset);
            case MarketMakerProtectionEventDecoder.TEMPLATE_ID ->
            {
                protectionEvent.wrapAndApplyHeader(buffer, offset, header);
                onProtection(protectionEvent);
            }
            case TradingScheduleDefinitionDecoder.TEMPLATE_ID ->
            {
                schedule.wrapAndApplyHeader(buffer, offset, header);
                final List<Integer> holidays = new ArrayList<>();
                for (final TradingScheduleDefinitionDecoder.HolidaysDecoder day : schedule.holidays())
                {
                    holidays.add(day.epochDay());
                }
                state.schedule = new VenueState.Schedule(schedule.tradingDays(), schedule.preOpenMinute(),
                    schedule.openMinute(), schedule.closeMinute(), schedule.endOfDayMinute(), List.copyOf(holidays),
                    schedule.timeZone());
            }
            case AdminResponseDecoder.TEMPLATE_ID ->
            {
                response.wrapAndApplyHeader(buffer, offset, header);
                if (response.templateId() == ReferenceDataRequestDecoder.TEMPLATE_ID &&
                    response.requestId() == referenceRequestId && referenceRequestId != 0)
                {
                    referenceDone = true;
                }
            }
            case EngineStatusDecoder.TEMPLATE_ID ->
            {
                status.wrapAndApplyHeader(buffer, offset, header);
                nodeId = status.nodeId();
                role = status.role();
                statuses++;
            }
            default ->
            {
            }
        }
    }

    private void onAccount(final org.agrona.DirectBuffer buffer, final int offset)
    {
        // The risk stream's contract (docs/protocol.md, "The risk stream"): an update names only the positions that
        // changed, a position named flat is gone, an AccountDefinition gives the standing and every limit.
        final AccountRisk account = accounts.onMessage(buffer, offset);
        final SortedMap<Integer, Long> positions = new TreeMap<>();
        final SortedMap<Integer, Long> limits = new TreeMap<>();
        for (final AccountRisk.Position position : account.positions())
        {
            if (!position.isFlat())
            {
                positions.put(position.instrumentId(), position.position());
                limits.put(position.instrumentId(), position.positionLimit());
            }
        }
        final SortedMap<Integer, Long> own = new TreeMap<>();
        final Long2LongHashMap.KeyIterator ids = account.ownPositionLimits().keySet().iterator();
        while (ids.hasNext())
        {
            final int instrumentId = (int)ids.nextValue();
            own.put(instrumentId, account.ownPositionLimit(instrumentId));
        }
        state.accounts.put(account.accountId(), new VenueState.Account(account.accountId(), account.balance(),
            account.reserved(), account.creditLimit(), account.maxOrderQuantity(), account.maxOrderNotional(),
            account.openOrders(), account.maxOpenOrders(), account.killSwitch(), positions, limits,
            account.defined() ? new VenueState.Definition(account.status(), account.selfTradePrevention(),
            account.defaultPositionLimit(), account.allowShort(), own) : null, account.complete()));
    }

    private void onProtection(final MarketMakerProtectionEventDecoder event)
    {
        // Every event but REMOVED carries the group's whole settings; STATE comes with each refresh.
        final long accountId = event.accountId();
        final int group = event.mmpGroupId();
        if (event.eventType() == MmpEventType.REMOVED)
        {
            final SortedMap<Integer, VenueState.Protection> groups = state.protection.get(accountId);
            if (null != groups)
            {
                groups.remove(group);
                if (groups.isEmpty())
                {
                    state.protection.remove(accountId);
                }
            }
            return;
        }
        final long intervalNs = event.intervalNs();
        final long quantityLimit = event.quantityLimit();
        final long notionalLimit = event.notionalLimit();
        final int fillLimit = event.fillLimit();
        final long freezeNs = event.freezeNs();
        final boolean cancelOrders = event.cancelOrders() == BooleanType.TRUE;
        final SortedSet<Integer> instruments = new TreeSet<>();
        for (final MarketMakerProtectionEventDecoder.InstrumentsDecoder instrument : event.instruments())
        {
            instruments.add(instrument.instrumentId());
        }
        state.protection.computeIfAbsent(accountId, (id) -> new TreeMap<>()).put(group, new VenueState.Protection(
            group, Collections.unmodifiableSortedSet(instruments), intervalNs, fillLimit, quantityLimit,
            notionalLimit, freezeNs, cancelOrders));
    }

    private void onEgress(
        final org.agrona.DirectBuffer buffer, final int offset, final int length, final io.aeron.logbuffer.Header h)
    {
        header.wrap(buffer, offset);
        if (header.templateId() == UserDefinitionDecoder.TEMPLATE_ID)
        {
            userDefinition.wrapAndApplyHeader(buffer, offset, header);
            final int to = userDefinition.gatewayId();
            final long requestId = userDefinition.requestId();
            // Ours, or a change told to every gateway (made while we listen: newer than the directory's answer).
            if (!(to == gatewayId && requestId == directoryRequestId) && to != 0)
            {
                return;
            }
            final boolean enabled = userDefinition.enabled() == BooleanType.TRUE;
            final boolean cancelOnDisconnect = userDefinition.fixCancelOnDisconnect() == BooleanType.TRUE;
            final int throttle = userDefinition.throttleMessagesPerSecond();
            final UserRole role = userDefinition.role();
            // Absent before schema version 3 (the null value): no grace.
            final int graceRaw = userDefinition.cancelOnDisconnectGraceMs();
            final int codGraceMs =
                graceRaw == UserDefinitionDecoder.cancelOnDisconnectGraceMsNullValue() ? 0 : graceRaw;
            final List<Long> accounts = new ArrayList<>();
            for (final UserDefinitionDecoder.AccountsDecoder account : userDefinition.accounts())
            {
                accounts.add(account.accountId());
            }
            final String username = userDefinition.username();
            final String compId = userDefinition.fixSenderCompId();
            final String credential = userDefinition.credentialHash();
            state.users.put(username, new VenueState.User(username, enabled, List.copyOf(accounts), compId,
                cancelOnDisconnect, codGraceMs, throttle, credential, role));
        }
        else if (header.templateId() == UserDirectoryEndDecoder.TEMPLATE_ID)
        {
            directoryEnd.wrapAndApplyHeader(buffer, offset, header);
            if (directoryEnd.gatewayId() == gatewayId && directoryEnd.requestId() == directoryRequestId)
            {
                directoryDone = true;
            }
        }
    }

    /**
     * @return the gateway id this reader claimed for its directory request.
     */
    int gatewayId()
    {
        return gatewayId;
    }

    public void close()
    {
        risk.close();
        egress.close();
    }
}
