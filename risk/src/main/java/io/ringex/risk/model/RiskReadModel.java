package io.ringex.risk.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import io.ringex.protocol.codecs.AccountRiskUpdateDecoder;
import io.ringex.protocol.codecs.BestBidOfferDecoder;
import io.ringex.protocol.codecs.BookLevelUpdateDecoder;
import io.ringex.protocol.codecs.BookSnapshotDecoder;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TradeDecoder;

/**
 * What the risk service knows of the venue: accounts, positions, fills, instruments, books and engine health, built
 * from the engine's SBE events.
 * <p>
 * Threading: the {@code on*} methods are called by one thread, the Aeron agent, with decoders it owns; the view
 * methods are called by any thread (HTTP, SSE, metrics). Both take this object's monitor, held for a few
 * microseconds; views are immutable copies made under it. {@link #changeCount()} is an atomic counter bumped after
 * each applied event, so the SSE push can tell whether anything changed without taking the lock.
 * Steady-state updates of known accounts and instruments allocate nothing but book levels.
 */
public final class RiskReadModel
{
    private final Long2ObjectHashMap<AccountState> accounts = new Long2ObjectHashMap<>();
    private final Int2ObjectHashMap<InstrumentState> instruments = new Int2ObjectHashMap<>();
    private final EngineHealth engine;
    private final LongSupplier nanoClock;
    private final long statusTimeoutNs;
    private final AtomicLong changeCount = new AtomicLong();
    private volatile boolean riskStreamConnected;
    private volatile boolean marketDataConnected;
    private volatile boolean ingressConnected;

    /**
     * @param historySize     EngineStatus samples kept for the charts.
     * @param statusTimeoutNs the engine counts as up while its last status is younger than this.
     * @param nanoClock       monotonic clock, {@code System::nanoTime} outside tests.
     */
    public RiskReadModel(final int historySize, final long statusTimeoutNs, final LongSupplier nanoClock)
    {
        this.engine = new EngineHealth(historySize);
        this.statusTimeoutNs = statusTimeoutNs;
        this.nanoClock = nanoClock;
    }

    /** @return a counter that grows whenever an event changed the model. */
    public long changeCount()
    {
        return changeCount.get();
    }

    // ---------------------------------------------------------------- events (Aeron agent thread)

    /** @param update an account's risk state, applied whole. */
    public synchronized void onAccountRiskUpdate(final AccountRiskUpdateDecoder update)
    {
        accountState(update.accountId()).apply(update);
        changeCount.incrementAndGet();
    }

    /** @param status the engine's periodic health report. */
    public synchronized void onEngineStatus(final EngineStatusDecoder status)
    {
        long totalExposure = 0;
        for (final AccountState a : accounts.values())
        {
            totalExposure += a.exposure;
        }
        engine.apply(status, nanoClock.getAsLong(), totalExposure);
        changeCount.incrementAndGet();
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
                tradeId, instrumentId, true, price, quantity, aggressor == Side.BUY, timeNs);
        }
        final long sellAccountId = trade.sellAccountId();
        if (sellAccountId != 0)
        {
            accountState(sellAccountId).addFill(
                tradeId, instrumentId, false, price, quantity, aggressor == Side.SELL, timeNs);
        }
        changeCount.incrementAndGet();
    }

    /** @param definition an instrument's static data and status. */
    public synchronized void onInstrumentDefinition(final InstrumentDefinitionDecoder definition)
    {
        final InstrumentState instrument = instrumentState(definition.instrumentId());
        instrument.symbol = definition.symbol();
        instrument.priceScale = definition.priceScale();
        instrument.tickSize = definition.tickSize();
        instrument.lotSize = definition.lotSize();
        instrument.referencePrice = definition.referencePrice();
        instrument.status = definition.status();
        changeCount.incrementAndGet();
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
     * Called by the agent when a stream's connection state changes.
     *
     * @param risk       the risk subscription has an image.
     * @param marketData the market-data subscription has an image.
     * @param ingress    the ingress publication has a subscriber (the engine).
     */
    public void streamsConnected(final boolean risk, final boolean marketData, final boolean ingress)
    {
        if (risk != riskStreamConnected || marketData != marketDataConnected || ingress != ingressConnected)
        {
            riskStreamConnected = risk;
            marketDataConnected = marketData;
            ingressConnected = ingress;
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
            out.add(summary(a));
        }
        out.sort(comparator(sort));
        return out;
    }

    /**
     * @param accountId the account.
     * @return its detail, or null if unknown.
     */
    public synchronized Views.AccountDetail account(final long accountId)
    {
        final AccountState a = accounts.get(accountId);
        if (a == null)
        {
            return null;
        }
        final List<Views.PositionView> positions = new ArrayList<>();
        for (final AccountState.PositionState p : a.positions.values())
        {
            final InstrumentState i = instruments.get(p.instrumentId);
            final int scale = i == null ? 0 : i.priceScale;
            positions.add(new Views.PositionView(p.instrumentId, i == null ? "#" + p.instrumentId : i.symbol,
                p.position, Money.price(p.averageCost, scale), Money.price(p.markPrice, scale),
                Money.money(p.realisedPnl), Money.money(p.unrealisedPnl), p.openBuyQuantity, p.openSellQuantity,
                p.positionLimit, p.usage()));
        }
        positions.sort(Comparator.comparingInt(Views.PositionView::instrumentId));
        final List<Views.FillView> fills = new ArrayList<>();
        for (final AccountState.FillState f : a.recentFills())
        {
            final InstrumentState i = instruments.get(f.instrumentId);
            final int scale = i == null ? 0 : i.priceScale;
            fills.add(new Views.FillView(f.tradeId, f.instrumentId, i == null ? "#" + f.instrumentId : i.symbol,
                f.buy ? "BUY" : "SELL", Money.price(f.price, scale), f.quantity, f.aggressor, f.timestampNs));
        }
        return new Views.AccountDetail(summary(a), a.maxOrderQuantity, Money.money(a.maxOrderNotional), positions,
            fills);
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
     * @return its ladder (top ten a side) and tape, or null if unknown.
     */
    public synchronized Views.InstrumentDetail instrument(final long instrumentId)
    {
        final InstrumentState i = instrumentId > Integer.MAX_VALUE || instrumentId < Integer.MIN_VALUE ?
            null : instruments.get((int)instrumentId);
        if (i == null)
        {
            return null;
        }
        return new Views.InstrumentDetail(i.summary(), i.ladder(i.bids), i.ladder(i.asks), i.tape());
    }

    /**
     * @param withHistory include the chart series (the SSE push leaves them out; GET /api/engine has them).
     * @return the engine's health.
     */
    public synchronized Views.EngineView engine(final boolean withHistory)
    {
        final Map<String, Long> sequences = new LinkedHashMap<>();
        sequences.put("ingress", engine.ingressSequence);
        sequences.put("journal", engine.journalSequence);
        sequences.put("replication", engine.replicationSequence);
        sequences.put("processor", engine.processorSequence);
        sequences.put("output", engine.outputSequence);
        sequences.put("snapshot", engine.snapshotSequence);
        final Map<String, Long> latency = new LinkedHashMap<>();
        latency.put("p50", engine.p50Ns);
        latency.put("p99", engine.p99Ns);
        latency.put("p999", engine.p999Ns);
        latency.put("max", engine.maxNs);
        final Map<String, Boolean> streams = new LinkedHashMap<>();
        streams.put("risk", riskStreamConnected);
        streams.put("marketData", marketDataConnected);
        streams.put("ingress", ingressConnected);
        final long ageNs = engine.seen ? nanoClock.getAsLong() - engine.lastStatusNanos : -1;
        return new Views.EngineView(engine.seen, isEngineUp(), ageNs < 0 ? -1 : ageNs / 1_000_000L, engine.nodeId,
            engine.seen ? engine.role.name() : "UNKNOWN", engine.epoch, engine.ringCapacity, sequences,
            engine.ringOccupancy(), engine.journalLag(), engine.replicationLag(), latency, engine.counterMap(),
            engine.rejectMap(), streams, withHistory ? engine.history() : null);
    }

    /** @return an EngineStatus arrived within the status timeout. */
    public synchronized boolean isEngineUp()
    {
        return engine.seen && nanoClock.getAsLong() - engine.lastStatusNanos <= statusTimeoutNs;
    }

    /** @return the epoch of the last EngineStatus, 0 before any. */
    public synchronized long engineEpoch()
    {
        return engine.epoch;
    }

    /** @return a short description of the engine's state for health checks. */
    public synchronized Map<String, Object> engineHealthDetails()
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("statusSeen", engine.seen);
        if (engine.seen)
        {
            out.put("lastStatusAgeMs", (nanoClock.getAsLong() - engine.lastStatusNanos) / 1_000_000L);
            out.put("role", engine.role.name());
            out.put("epoch", engine.epoch);
            out.put("nodeId", engine.nodeId);
        }
        out.put("statusTimeoutMs", statusTimeoutNs / 1_000_000L);
        out.put("riskStreamConnected", riskStreamConnected);
        out.put("ingressConnected", ingressConnected);
        return out;
    }

    /**
     * @param metric which reading.
     * @return its value now.
     */
    public synchronized double engineMetric(final EngineMetric metric)
    {
        switch (metric)
        {
            case EPOCH:
                return engine.epoch;
            case ROLE:
                return engine.seen && engine.role != NodeRole.NULL_VAL ? engine.role.value() : 0;
            case RING_OCCUPANCY:
                return engine.ringOccupancy();
            case JOURNAL_LAG:
                return engine.journalLag();
            case REPLICATION_LAG:
                return engine.replicationLag();
            case LATENCY_P50:
                return engine.p50Ns / 1e9;
            case LATENCY_P99:
                return engine.p99Ns / 1e9;
            case LATENCY_P999:
                return engine.p999Ns / 1e9;
            case LATENCY_MAX:
                return engine.maxNs / 1e9;
            case STATUS_AGE:
                return engine.seen ? (nanoClock.getAsLong() - engine.lastStatusNanos) / 1e9 : Double.NaN;
            default:
                return Double.NaN;
        }
    }

    /**
     * @param counter an engine counter.
     * @return its last reported value.
     */
    public synchronized long engineCounter(final EngineCounter counter)
    {
        return engine.counter(counter);
    }

    /**
     * @param reason a reject reason.
     * @return the engine's last reported count of it.
     */
    public synchronized long engineRejects(final RejectReason reason)
    {
        return engine.rejectCount(reason);
    }

    private static Views.AccountSummary summary(final AccountState a)
    {
        final double credit = a.creditUsage();
        final double orders = a.openOrdersUsage();
        final double position = a.positionUsage();
        double worst = credit;
        String worstOf = "CREDIT";
        if (orders > worst)
        {
            worst = orders;
            worstOf = "OPEN_ORDERS";
        }
        if (position > worst)
        {
            worst = position;
            worstOf = "POSITION";
        }
        return new Views.AccountSummary(a.accountId, Money.money(a.balance), Money.money(a.reserved),
            Money.money(a.realisedPnl), Money.money(a.unrealisedPnl), Money.money(a.realisedPnl + a.unrealisedPnl),
            Money.money(a.exposure), Money.money(a.creditLimit), a.openOrders, a.maxOpenOrders, a.killSwitch, credit,
            orders, position, worst, worstOf, a.timestampNs);
    }

    private static Comparator<Views.AccountSummary> comparator(final AccountSort sort)
    {
        final Comparator<Views.AccountSummary> byId = Comparator.comparingLong(Views.AccountSummary::accountId);
        switch (sort)
        {
            case EXPOSURE:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.exposure()))
                    .reversed().thenComparing(byId);
            case PNL:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.totalPnl()))
                    .thenComparing(byId);
            case BALANCE:
                return Comparator.comparing((Views.AccountSummary s) -> new BigDecimal(s.balance()))
                    .thenComparing(byId);
            case ACCOUNT:
                return byId;
            case UTILISATION:
            default:
                return Comparator.comparingDouble(Views.AccountSummary::utilisation).reversed().thenComparing(byId);
        }
    }
}
