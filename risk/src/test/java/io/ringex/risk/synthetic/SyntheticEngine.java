package io.ringex.risk.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.codecs.AdminStatus;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.EngineCounter;
import io.ringex.protocol.codecs.KillSwitchDecoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.NodeRole;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SetLimitsDecoder;
import io.ringex.protocol.codecs.SetTradingStatusDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TakeSnapshotDecoder;
import io.ringex.protocol.codecs.TradingStatus;

/**
 * A STAND-IN for the Ringex engine node, test scope only: it speaks the engine's Aeron contract (docs/architecture.md)
 * with made-up business behaviour from {@link SyntheticVenue}. It publishes InstrumentDefinition, BookSnapshot,
 * BestBidOffer and Trade on the market-data stream; AccountRiskUpdate, Trade with accounts, EngineStatus and
 * AdminResponse on the risk stream; and reads the ingress stream for admin commands (KillSwitch, SetLimits,
 * SetTradingStatus, TakeSnapshot; others are simply ACCEPTED) and NewOrders (a killed account's order is rejected
 * ACCOUNT_KILLED and counted in EngineStatus; others fill at once against account 1006).
 * <p>
 * The browser IT and {@link DemoMain} start it through {@link EngineUnderTest}; swap in the real engine node there.
 */
public final class SyntheticEngine implements Agent, EngineUnderTest
{
    private static final long STATUS_INTERVAL_NS = 250_000_000L;
    private static final long BOOK_INTERVAL_NS = 300_000_000L;
    private static final long REFRESH_INTERVAL_NS = 2_000_000_000L;

    private final SyntheticVenue venue;
    private final EventEncoders encoders = new EventEncoders();
    private final ExclusivePublication risk;
    private final ExclusivePublication marketData;
    private final Subscription ingress;
    private final Publication orderEntry;
    private final FragmentAssembler ingressHandler = new FragmentAssembler(this::onIngress);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final KillSwitchDecoder killSwitch = new KillSwitchDecoder();
    private final SetLimitsDecoder setLimits = new SetLimitsDecoder();
    private final SetTradingStatusDecoder tradingStatus = new SetTradingStatusDecoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final long tradeIntervalNs;
    private final OrderEntryClient orders;
    private final AutoCloseable owned;
    private AgentRunner runner;
    private long nextTradeNs;
    private long nextStatusNs;
    private long nextBookNs;
    private long nextRefreshNs;
    private long commandSequence;
    private long snapshotSequence;
    private long lastLatencyP50Ns = 9_000;
    private long lastStatusNanos;

    /**
     * @param aeron           a connected client.
     * @param streams         the engine's channels and stream ids.
     * @param seed            random seed.
     * @param tradeIntervalMs mean time between background trades; 0 for none.
     * @param owned           closed with the engine (its own Aeron client), or null.
     */
    public SyntheticEngine(
        final Aeron aeron,
        final EngineStreams streams,
        final long seed,
        final long tradeIntervalMs,
        final AutoCloseable owned)
    {
        this.owned = owned;
        this.venue = new SyntheticVenue(seed);
        this.risk = aeron.addExclusivePublication(streams.riskChannel(), streams.riskStreamId());
        this.marketData = aeron.addExclusivePublication(streams.marketDataChannel(), streams.marketDataStreamId());
        this.ingress = aeron.addSubscription(streams.ingressChannel(), streams.ingressStreamId());
        this.orderEntry = aeron.addPublication(streams.ingressChannel(), streams.ingressStreamId());
        this.orders = new OrderEntryClient(orderEntry, 1, 1);
        this.tradeIntervalNs = tradeIntervalMs * 1_000_000L;
    }

    @Override
    public void start()
    {
        runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null, this);
        AgentRunner.startOnThread(runner);
    }

    @Override
    public boolean submitOrder(final long accountId, final int instrumentId, final Side side, final long quantity)
    {
        return orders.newOrder(accountId, instrumentId, side, quantity, 0);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(runner, risk, marketData, ingress, orderEntry, owned);
    }

    @Override
    public void onStart()
    {
        publishDefinitions();
        for (final SyntheticVenue.Account a : venue.accounts.values())
        {
            publishAccount(a);
        }
    }

    @Override
    public int doWork()
    {
        int work = ingress.poll(ingressHandler, 64);
        final long now = System.nanoTime();
        if (tradeIntervalNs > 0 && now - nextTradeNs >= 0)
        {
            nextTradeNs = now + tradeIntervalNs / 2 + (long)(venue.random.nextDouble() * tradeIntervalNs);
            final SyntheticVenue.Fill fill = venue.randomTrade();
            if (fill != null)
            {
                publishFill(fill);
            }
            work++;
        }
        if (now - nextBookNs >= 0)
        {
            nextBookNs = now + BOOK_INTERVAL_NS;
            for (final SyntheticVenue.Instrument i : venue.instruments.values())
            {
                if (tradeIntervalNs > 0)
                {
                    venue.moveMarket(i);
                }
                publishBook(i);
            }
            work++;
        }
        if (now - nextStatusNs >= 0)
        {
            nextStatusNs = now + STATUS_INTERVAL_NS;
            publishStatus();
            work++;
        }
        if (now - nextRefreshNs >= 0)
        {
            nextRefreshNs = now + REFRESH_INTERVAL_NS;
            publishDefinitions();
            for (final SyntheticVenue.Account a : venue.accounts.values())
            {
                publishAccount(a);
            }
            work++;
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "synthetic-engine";
    }

    private void onIngress(final DirectBuffer buffer, final int offset, final int length, final Header h)
    {
        header.wrap(buffer, offset);
        final int templateId = header.templateId();
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        commandSequence++;
        venue.counters[EngineCounter.COMMANDS.value()]++;
        switch (templateId)
        {
            case KillSwitchDecoder.TEMPLATE_ID:
            {
                killSwitch.wrap(buffer, body, blockLength, version);
                final boolean on = killSwitch.active() == BooleanType.TRUE;
                if (killSwitch.scope() == KillSwitchScope.VENUE)
                {
                    venue.venueKilled = on;
                    respond(killSwitch.requestId(), templateId, RejectReason.NONE);
                    break;
                }
                final SyntheticVenue.Account a = venue.accounts.get(killSwitch.accountId());
                if (a == null)
                {
                    respond(killSwitch.requestId(), templateId, RejectReason.UNKNOWN_ACCOUNT);
                    break;
                }
                a.killSwitch = on;
                if (on)
                {
                    a.openOrders = 0;
                }
                respond(killSwitch.requestId(), templateId, RejectReason.NONE);
                publishAccount(a);
                break;
            }
            case SetLimitsDecoder.TEMPLATE_ID:
            {
                setLimits.wrap(buffer, body, blockLength, version);
                final SyntheticVenue.Account a = venue.accounts.get(setLimits.accountId());
                if (a == null)
                {
                    respond(setLimits.requestId(), templateId, RejectReason.UNKNOWN_ACCOUNT);
                    break;
                }
                a.maxOrderQuantity = setLimits.maxOrderQuantity();
                a.maxOrderNotional = setLimits.maxOrderNotional();
                a.creditLimit = setLimits.creditLimit();
                a.maxOpenOrders = setLimits.maxOpenOrders();
                a.positionLimits.clear();
                for (final SyntheticVenue.Instrument i : venue.instruments.values())
                {
                    a.positionLimits.put(i.id, setLimits.defaultPositionLimit());
                }
                for (final SetLimitsDecoder.PositionLimitsDecoder p : setLimits.positionLimits())
                {
                    a.positionLimits.put(p.instrumentId(), p.positionLimit());
                }
                respond(setLimits.requestId(), templateId, RejectReason.NONE);
                publishAccount(a);
                break;
            }
            case SetTradingStatusDecoder.TEMPLATE_ID:
            {
                tradingStatus.wrap(buffer, body, blockLength, version);
                final SyntheticVenue.Instrument i = venue.instruments.get(tradingStatus.instrumentId());
                if (i == null)
                {
                    respond(tradingStatus.requestId(), templateId, RejectReason.UNKNOWN_INSTRUMENT);
                    break;
                }
                i.status = tradingStatus.status();
                respond(tradingStatus.requestId(), templateId, RejectReason.NONE);
                publishDefinitions();
                break;
            }
            case TakeSnapshotDecoder.TEMPLATE_ID:
            {
                final long requestId = buffer.getLong(body + TakeSnapshotDecoder.requestIdEncodingOffset(),
                    TakeSnapshotDecoder.BYTE_ORDER);
                venue.counters[EngineCounter.SNAPSHOTS.value()]++;
                snapshotSequence = commandSequence;
                respond(requestId, templateId, RejectReason.NONE);
                break;
            }
            case NewOrderDecoder.TEMPLATE_ID:
            {
                newOrder.wrap(buffer, body, blockLength, version);
                onNewOrder();
                break;
            }
            default:
                if (templateId >= 30 && templateId < 40)
                {
                    // any other admin command: requestId is its first field
                    respond(buffer.getLong(body, MessageHeaderDecoder.BYTE_ORDER), templateId, RejectReason.NONE);
                }
                break;
        }
    }

    private void onNewOrder()
    {
        final SyntheticVenue.Account a = venue.accounts.get(newOrder.accountId());
        final SyntheticVenue.Instrument i = venue.instruments.get(newOrder.instrumentId());
        venue.counters[EngineCounter.COMMANDS.value()]--; // refusal() counts it
        final RejectReason refused = venue.refusal(a, i);
        if (refused != RejectReason.NONE)
        {
            venue.counters[EngineCounter.REJECTS.value()]++;
            venue.rejects[refused.value()]++;
            publishStatus();
            return;
        }
        final SyntheticVenue.Account counterparty = venue.accounts.get(a.id == 1006 ? 1001L : 1006L);
        final boolean buy = newOrder.side() == Side.BUY;
        final long price = i.mid + (buy ? i.tick : -i.tick);
        publishFill(venue.fill(i, buy ? a : counterparty, buy ? counterparty : a, price, newOrder.quantity(),
            newOrder.side()));
    }

    private void respond(final long requestId, final int templateId, final RejectReason reason)
    {
        final int length = encoders.adminResponse(requestId, templateId,
            reason == RejectReason.NONE ? AdminStatus.ACCEPTED : AdminStatus.REJECTED, reason, commandSequence,
            System.currentTimeMillis() * 1_000_000L);
        offer(risk, length);
    }

    private void publishFill(final SyntheticVenue.Fill f)
    {
        final long now = System.currentTimeMillis() * 1_000_000L;
        final SyntheticVenue.Instrument i = f.instrument();
        offer(risk, encoders.trade(i.id, ++venue.mdSequence, f.tradeId(), f.price(), f.quantity(), f.aggressor(),
            f.buyAccountId(), f.sellAccountId(), now));
        offer(marketData, encoders.trade(i.id, venue.mdSequence, f.tradeId(), f.price(), f.quantity(), f.aggressor(),
            0, 0, now));
        publishAccount(venue.accounts.get(f.buyAccountId()));
        publishAccount(venue.accounts.get(f.sellAccountId()));
    }

    private void publishAccount(final SyntheticVenue.Account a)
    {
        final List<EventEncoders.Position> positions = new ArrayList<>();
        for (final var e : a.positions.entrySet())
        {
            final SyntheticVenue.Instrument i = venue.instruments.get(e.getKey());
            final SyntheticVenue.Position p = e.getValue();
            positions.add(new EventEncoders.Position(i.id, p.position, p.averageCost, p.realised,
                p.unrealised(i.last, i.scale), p.openBuy, p.openSell, a.limit(i), i.last));
        }
        final EventEncoders.Account account = new EventEncoders.Account(a.id, System.currentTimeMillis() * 1_000_000L,
            a.balance, a.reserved(), a.realised(), a.unrealised(), a.exposure(), a.creditLimit, a.maxOrderQuantity,
            a.maxOrderNotional, a.openOrders, a.maxOpenOrders, a.killSwitch, positions);
        offer(risk, encoders.accountRiskUpdate(account));
    }

    private void publishDefinitions()
    {
        final long now = System.currentTimeMillis() * 1_000_000L;
        for (final SyntheticVenue.Instrument i : venue.instruments.values())
        {
            final int length = encoders.instrumentDefinition(i.id, i.symbol, i.scale, i.tick, i.lot, i.reference,
                i.status, now);
            offer(marketData, length);
            offer(risk, length);
        }
    }

    private void publishBook(final SyntheticVenue.Instrument i)
    {
        final long now = System.currentTimeMillis() * 1_000_000L;
        final List<EventEncoders.Level> levels = new ArrayList<>();
        final long[] bidQty = new long[10];
        final long[] askQty = new long[10];
        for (int k = 0; k < 10; k++)
        {
            bidQty[k] = (1 + venue.random.nextInt(k + 3)) * i.lot * (i.id == 3 ? 25 : 1);
            askQty[k] = (1 + venue.random.nextInt(k + 3)) * i.lot * (i.id == 3 ? 25 : 1);
        }
        for (int k = 0; k < 10; k++)
        {
            levels.add(new EventEncoders.Level(Side.BUY, i.mid - (k + 1) * i.tick, bidQty[k],
                1 + venue.random.nextInt(6)));
        }
        for (int k = 0; k < 10; k++)
        {
            levels.add(new EventEncoders.Level(Side.SELL, i.mid + (k + 1) * i.tick, askQty[k],
                1 + venue.random.nextInt(6)));
        }
        final TradingStatus status = i.status;
        offer(marketData, encoders.bookSnapshot(i.id, ++venue.mdSequence, status, i.last, levels, now));
        offer(marketData, encoders.bestBidOffer(i.id, venue.mdSequence, i.mid - i.tick, bidQty[0], i.mid + i.tick,
            askQty[0], now));
    }

    private void publishStatus()
    {
        final long now = System.currentTimeMillis() * 1_000_000L;
        // background flow of about 3,500 commands a second, whenever the status is sent
        final long nowNanos = System.nanoTime();
        if (lastStatusNanos != 0)
        {
            final long dtNs = nowNanos - lastStatusNanos;
            final long perSecond = 3000 + venue.random.nextInt(1000);
            venue.counters[EngineCounter.COMMANDS.value()] += dtNs * perSecond / 1_000_000_000L;
        }
        lastStatusNanos = nowNanos;
        venue.counters[EngineCounter.OPEN_ORDERS.value()] = 0;
        for (final SyntheticVenue.Account a : venue.accounts.values())
        {
            venue.counters[EngineCounter.OPEN_ORDERS.value()] += a.openOrders;
        }
        final long ingressSequence = venue.counters[EngineCounter.COMMANDS.value()];
        final long journal = ingressSequence - venue.random.nextInt(40);
        final long processor = journal - venue.random.nextInt(20);
        final long output = processor - venue.random.nextInt(10);
        final long replication = journal - venue.random.nextInt(120);
        lastLatencyP50Ns = Math.max(6_000, Math.min(20_000, lastLatencyP50Ns + venue.random.nextInt(2001) - 1000));
        final long[] latency = {
            lastLatencyP50Ns,
            lastLatencyP50Ns * 3 + venue.random.nextInt(15_000),
            lastLatencyP50Ns * 8 + venue.random.nextInt(60_000),
            lastLatencyP50Ns * 20 + venue.random.nextInt(400_000)};
        final int length = encoders.engineStatus(1, 1, NodeRole.PRIMARY, now, 65_536,
            new long[] {ingressSequence, journal, replication, processor, output, snapshotSequence}, latency,
            venue.counters, venue.rejects);
        offer(risk, length);
    }

    private void offer(final Publication publication, final int length)
    {
        // A stand-in: retry briefly, then drop (the real engine has its own rules for a slow subscriber).
        for (int i = 0; i < 100; i++)
        {
            final long result = publication.offer(encoders.buffer(), 0, length);
            if (result > 0 || result == Publication.CLOSED || result == Publication.NOT_CONNECTED)
            {
                return;
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
