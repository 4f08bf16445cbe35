package io.ringex.risk.model;

import io.ringex.protocol.PrimarySelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import io.ringex.protocol.codecs.AccountDefinitionDecoder;
import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeDecoder;

/**
 * What the risk service knows of the venue: accounts, positions, fills, instruments, books and engine health, built
 * from the engine's SBE events. With a cluster's members it follows the one {@link PrimarySelector} picks ({@link
 * #follows(int)}), and a new leader's full refresh replaces what the old one said (docs/risk-api.md, "An engine
 * cluster").
 * <p>
 * Threading: the {@code on*} methods on the Aeron agent thread, the views on any thread, both under this object's
 * monitor; {@link #changeCount()} is atomic, so the SSE push can tell whether anything changed without the lock.
 */
public final class RiskReadModel
{
    private final Long2ObjectHashMap<AccountState> accounts = new Long2ObjectHashMap<>();
    private final Int2ObjectHashMap<InstrumentState> instruments = new Int2ObjectHashMap<>();
    private final EngineNodes nodes;
    private final LongSupplier nanoClock;
    private final AtomicLong changeCount = new AtomicLong();
    private final AtomicLong ignoredEvents = new AtomicLong();
    private final MarketMakerProtections protections = new MarketMakerProtections();
    /** The node whose account events the accounts hold, {@link PrimarySelector#NONE} before any. */
    private int accountsFrom = PrimarySelector.NONE;

    /**
     * A model of one engine.
     *
     * @param historySize     EngineStatus samples kept for the charts.
     * @param statusTimeoutNs the engine counts as up while its last status is younger than this.
     * @param nanoClock       monotonic clock, {@code System::nanoTime} outside tests.
     */
    public RiskReadModel(final int historySize, final long statusTimeoutNs, final LongSupplier nanoClock)
    {
        this(List.of("streams"), historySize, statusTimeoutNs, nanoClock);
    }

    /**
     * @param engineNames     the configured nodes' names, in configuration order: one engine, or a cluster's
     *                        members.
     * @param historySize     EngineStatus samples kept per node for the charts.
     * @param statusTimeoutNs a node counts as up, and may be followed, while its last status is younger than this.
     * @param nanoClock       monotonic clock, {@code System::nanoTime} outside tests.
     */
    public RiskReadModel(
        final List<String> engineNames,
        final int historySize,
        final long statusTimeoutNs,
        final LongSupplier nanoClock)
    {
        this.nodes = new EngineNodes(engineNames, historySize, statusTimeoutNs);
        this.nanoClock = nanoClock;
    }

    /** @return a counter that grows whenever an event changed the model. */
    public long changeCount()
    {
        return changeCount.get();
    }

    // ---------------------------------------------------------------- events (Aeron agent thread)

    /** @param update an account's totals and the positions that changed (the others are kept). */
    public synchronized void onAccountRiskUpdate(final AccountRiskUpdateDecoder update)
    {
        fromFollowedNode();
        accountState(update.accountId()).apply(update);
        changeCount.incrementAndGet();
    }

    /** @param definition an account's standing, limits and the positions the engine holds for it. */
    public synchronized void onAccountDefinition(final AccountDefinitionDecoder definition)
    {
        fromFollowedNode();
        accountState(definition.accountId()).apply(definition);
        changeCount.incrementAndGet();
    }

    /** Account events from a node other than the one the accounts came from: none is complete until its listing. */
    private void fromFollowedNode()
    {
        final int followed = nodes.followed();
        if (followed != accountsFrom)
        {
            if (accountsFrom != PrimarySelector.NONE)
            {
                for (final AccountState a : accounts.values())
                {
                    a.risk.forgetDefinition();
                }
            }
            accountsFrom = followed;
        }
    }

    /** @param status the (single) engine's periodic health report. */
    public void onEngineStatus(final EngineStatusDecoder status)
    {
        onEngineStatus(0, status);
    }

    /**
     * @param engine index of the node that sent it, in configuration order.
     * @param status a node's periodic health report, or its announcement of a new role or epoch.
     */
    public synchronized void onEngineStatus(final int engine, final EngineStatusDecoder status)
    {
        long totalExposure = 0;
        for (final AccountState a : accounts.values())
        {
            totalExposure += a.risk.exposure();
        }
        nodes.onStatus(engine, status, nanoClock.getAsLong(), totalExposure);
        changeCount.incrementAndGet();
    }

    /** @return the accounts' market-maker protection (its own lock). */
    public MarketMakerProtections protections()
    {
        return protections;
    }

    /**
     * Choose the followed node again (a silent node stops being followed after the status timeout). Called by the
     * agent between polls.
     */
    public synchronized void tick()
    {
        if (nodes.select(nanoClock.getAsLong()))
        {
            changeCount.incrementAndGet();
        }
    }

    /**
     * @param engine index of a node.
     * @return true if its events (other than EngineStatus) are to be applied: it is the node followed.
     */
    public synchronized boolean follows(final int engine)
    {
        return nodes.followed() == engine;
    }

    /** @return index of the node followed now, or {@link PrimarySelector#NONE}. */
    public synchronized int followedEngine()
    {
        return nodes.followed();
    }

    /** Counts an event dropped because its node is not followed. */
    public void ignored()
    {
        ignoredEvents.incrementAndGet();
    }

    /** @return events dropped because their node was not followed. */
    public long ignoredCount()
    {
        return ignoredEvents.get();
    }

    /** @param trade a trade from either stream; accounts are non-zero on the risk stream only. */
    public synchronized void onTrade(final TradeDecoder trade)
    {
        final int instrumentId = trade.instrumentId();
        final long tradeId = trade.tradeId();
        final long price = trade.price();
        final long quantity = trade.quantity();
        final Side aggressor = trade.aggressorSide();
        final long timeNs = trade.timestampNs();
        instrumentState(instrumentId).trade(tradeId, price, quantity, aggressor, timeNs);

        final long buyAccountId = trade.buyAccountId();
        if (buyAccountId != 0)
        {
            accountState(buyAccountId).addFill(
                tradeId, trade.buyOrderId(), instrumentId, true, price, quantity, aggressor == Side.BUY, timeNs);
        }
        final long sellAccountId = trade.sellAccountId();
        if (sellAccountId != 0)
        {
            accountState(sellAccountId).addFill(
                tradeId, trade.sellOrderId(), instrumentId, false, price, quantity, aggressor == Side.SELL, timeNs);
        }
        changeCount.incrementAndGet();
    }

    /** @param definition an instrument's static data and status. */
    public synchronized void onInstrumentDefinition(final InstrumentDefinitionDecoder definition)
    {
        final InstrumentState instrument = instrumentState(definition.instrumentId());
        instrument.defined = true;
        instrument.symbol = definition.symbol();
        instrument.priceScale = definition.priceScale();
        instrument.tickSize = definition.tickSize();
        instrument.lotSize = definition.lotSize();
        instrument.referencePrice = definition.referencePrice();
        instrument.priceBandType = definition.priceBandType();
        instrument.priceBand = definition.priceBand();
        instrument.status = definition.status();
        changeCount.incrementAndGet();
    }

    /**
     * @param instrumentId an instrument.
     * @return its price scale, or -1 before its definition arrived.
     */
    public synchronized int priceScale(final int instrumentId)
    {
        final InstrumentState i = instruments.get(instrumentId);
        return i == null || !i.defined ? -1 : i.priceScale;
    }

    /** @param update a price level's new total. */
    public synchronized void onBookLevelUpdate(final BookLevelUpdateDecoder update)
    {
        instrumentState(update.instrumentId())
            .level(update.side(), update.price(), update.quantity(), update.orderCount());
        changeCount.incrementAndGet();
    }

    /** @param bbo the best bid and offer. */
    public synchronized void onBestBidOffer(final BestBidOfferDecoder bbo)
    {
        final InstrumentState instrument = instrumentState(bbo.instrumentId());
        instrument.bidPrice = bbo.bidPrice();
        instrument.bidQuantity = bbo.bidQuantity();
        instrument.askPrice = bbo.askPrice();
        instrument.askQuantity = bbo.askQuantity();
        changeCount.incrementAndGet();
    }

    /** @param snapshot a full book: replaces the ladder, status and last price. */
    public synchronized void onBookSnapshot(final BookSnapshotDecoder snapshot)
    {
        final InstrumentState instrument = instrumentState(snapshot.instrumentId());
        instrument.status = snapshot.status();
        if (snapshot.lastTradePrice() != Money.NULL_PRICE)
        {
            instrument.lastPrice = snapshot.lastTradePrice();
        }
        instrument.clearBook();
        for (final BookSnapshotDecoder.LevelsDecoder level : snapshot.levels())
        {
            instrument.level(level.side(), level.price(), level.quantity(), level.orderCount());
        }
        changeCount.incrementAndGet();
    }

    /**
     * Called by the agent with the (single) engine's stream connection state.
     *
     * @param risk       the risk subscription has an image.
     * @param marketData the market-data subscription has an image.
     * @param ingress    the ingress publication has a subscriber (the engine).
     */
    public void streamsConnected(final boolean risk, final boolean marketData, final boolean ingress)
    {
        streamsConnected(0, risk, marketData, ingress);
    }

    /**
     * Called by the agent with a node's stream connection state.
     *
     * @param engine     index of the node.
     * @param risk       its risk subscription has an image.
     * @param marketData its market-data subscription has an image.
     * @param ingress    its ingress publication has a subscriber (the node).
     */
    public synchronized void streamsConnected(
        final int engine, final boolean risk, final boolean marketData, final boolean ingress)
    {
        if (nodes.connected(engine, risk, marketData, ingress))
        {
            changeCount.incrementAndGet();
        }
    }

    private AccountState accountState(final long accountId)
    {
        AccountState account = accounts.get(accountId);
        if (account == null)
        {
            account = new AccountState(accountId);
            accounts.put(accountId, account);
        }
        return account;
    }

    private InstrumentState instrumentState(final int instrumentId)
    {
        InstrumentState instrument = instruments.get(instrumentId);
        if (instrument == null)
        {
            instrument = new InstrumentState(instrumentId);
            instruments.put(instrumentId, instrument);
        }
        return instrument;
    }

    // ---------------------------------------------------------------- views (any thread)

    /**
     * @param sort the order.
     * @return every account, in that order.
     */
    public synchronized List<Views.AccountSummary> accounts(final AccountSort sort)
    {
        final List<Views.AccountSummary> out = new ArrayList<>(accounts.size());
        for (final AccountState a : accounts.values())
        {
            out.add(AccountViews.summary(a));
        }
        out.sort(AccountViews.order(sort));
        return out;
    }

    /**
     * @param accountId the account.
     * @return its detail, or null if unknown.
     */
    public synchronized Views.AccountDetail account(final long accountId)
    {
        final AccountState a = accounts.get(accountId);
        return a == null ? null : AccountViews.detail(a, instruments);
    }

    /**
     * @param accountId the account.
     * @return its limits and standing as the engine's AccountDefinition last gave them, or null if the account is
     *         unknown.
     */
    public synchronized Views.AccountLimits limits(final long accountId)
    {
        final AccountState a = accounts.get(accountId);
        return a == null ? null : AccountViews.limits(a, instruments);
    }

    /**
     * @param instrumentId an instrument.
     * @return its symbol, or "#id" before its definition arrived.
     */
    public synchronized String symbol(final int instrumentId)
    {
        return AccountViews.symbol(instruments, instrumentId);
    }

    /** @return every instrument by id. */
    public synchronized List<Views.InstrumentSummary> instruments()
    {
        final List<Views.InstrumentSummary> out = new ArrayList<>(instruments.size());
        for (final InstrumentState i : instruments.values())
        {
            out.add(i.summary());
        }
        out.sort(Comparator.comparingInt(Views.InstrumentSummary::instrumentId));
        return out;
    }

    /**
     * @param instrumentId the instrument.
     * @return its ladder (top ten a side), tape and one-minute candles, or null if unknown.
     */
    public synchronized Views.InstrumentDetail instrument(final long instrumentId)
    {
        final InstrumentState i = instrumentId > Integer.MAX_VALUE || instrumentId < Integer.MIN_VALUE ?
            null : instruments.get((int)instrumentId);
        if (i == null)
        {
            return null;
        }
        return new Views.InstrumentDetail(i.summary(), i.ladder(i.bids), i.ladder(i.asks), i.tape(), i.candles());
    }

    /**
     * @param withHistory include the chart series (the SSE push leaves them out; GET /api/engine has them).
     * @return the followed node's health (or, with none followed, the last one's) and every node's summary.
     */
    public synchronized Views.EngineView engine(final boolean withHistory)
    {
        return nodes.view(withHistory, nanoClock.getAsLong());
    }

    /** @return a node is followed and its EngineStatus arrived within the status timeout. */
    public synchronized boolean isEngineUp()
    {
        return nodes.isUp(nanoClock.getAsLong());
    }

    /** @return the highest epoch any node has reported, 0 before any. */
    public synchronized long engineEpoch()
    {
        return nodes.highestEpoch();
    }

    /** @return the highest epoch any node has claimed PRIMARY at, -1 before any. */
    public synchronized long primaryEpoch()
    {
        return nodes.highestPrimaryEpoch();
    }

    /** @return a short description of the engine's state for health checks. */
    public synchronized Map<String, Object> engineHealthDetails()
    {
        return nodes.healthDetails(nanoClock.getAsLong());
    }

    /**
     * @param metric which reading.
     * @return its value now.
     */
    public synchronized double engineMetric(final EngineMetric metric)
    {
        return nodes.metric(metric, nanoClock.getAsLong());
    }

    /**
     * @param counter an engine counter.
     * @return its last reported value.
     */
    public synchronized long engineCounter(final EngineCounter counter)
    {
        return nodes.shownHealth().counter(counter);
    }

    /**
     * @param reason a reject reason.
     * @return the engine's last reported count of it.
     */
    public synchronized long engineRejects(final RejectReason reason)
    {
        return nodes.shownHealth().rejectCount(reason);
    }
}
