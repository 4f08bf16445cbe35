package io.ringex.risk.browser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import io.ringex.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.ringex.engine.node.EngineContext;
import io.ringex.engine.node.NodeTestSupport;
import io.ringex.engine.node.TestNode;
import io.ringex.engine.node.TestOperator;
import io.ringex.engine.node.EngineNode;
import io.ringex.engine.replay.Replayer;
import io.ringex.engine.risk.Account;
import io.ringex.engine.risk.Position;
import io.ringex.client.CommandEncoder;
import io.ringex.client.EventBatches;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.UserDefinitionDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndDecoder;

/**
 * The real engine node ({@link EngineNode}) for the browser IT, on the risk service's media driver with every stream
 * on {@code aeron:ipc} and its journal and snapshots in a temporary directory, deleted on close.
 * <p>
 * {@link #start()} installs a small venue through the engine's ingress as an admin source would (AddInstrument,
 * AddAccount, SetLimits, AdjustBalance, each answered ACCEPTED by an AdminResponse on the risk stream), then, as a
 * gateway, rests a ladder of market-maker liquidity on every instrument and trades a little so the dashboard has
 * positions to show. Account 1003 ends with a position and a resting bid that put it in the amber band of its
 * position limit; a market BUY of 1 unit of instrument 1 trades against maker 1001's offer at 100.01.
 * <p>
 * After that a light background flow keeps the engine busy the way a quoting market maker would (about 40 commands
 * a second: maker 1001 places an offer eight ticks off the reference, then cancels its previous one), so the engine
 * health page shows real throughput and latency. It never trades and never touches the traders' accounts.
 * <p>
 * Orders go to the ingress as NewOrders stamped with gateway 1, session 1 ({@link #GATEWAY_SESSION}); the engine's
 * ExecutionReports for that session are read back from the egress stream. Admin commands go signed with the tests'
 * admin key, which the node holds ({@link NodeTestSupport#ADMIN_KEYS}; the dashboard is given the same key file).
 * <p>
 * Threading: start, submitOrder and close from one test thread at a time; a poller thread ({@code real-engine-test-
 * client}) owns the egress and risk subscriptions and hands answers over in concurrent maps.
 */
final class RealEngine implements EngineUnderTest
{
    static final String IPC = "aeron:ipc";
    static final int INGRESS_STREAM = 1001;
    static final int EGRESS_STREAM = 1002;
    static final int MARKET_DATA_STREAM = 1003;
    static final int RISK_STREAM = 1004;
    static final long GATEWAY_SESSION = SessionIds.sessionId(1, 1);
    /** The gateway id the test names when it asks for the user directory, as a gateway would. */
    static final int DIRECTORY_GATEWAY_ID = 7;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long MONEY_UNIT = FixedPoint.powerOfTen(FixedPoint.MONEY_SCALE);

    /** The venue's instruments: prices in ticks of their price scale. */
    private record Instrument(int id, String symbol, int priceScale, long tick, long lot, long reference, long bandBps)
    {
    }

    private static final Instrument[] INSTRUMENTS = {
        new Instrument(1, "RGX-USD", 2, 1, 1, 10_000, 1_000),
        new Instrument(2, "LMX-USD", 2, 5, 10, 5_000, 1_000),
        new Instrument(3, "EUR-USD", 4, 1, 1_000, 11_650, 200)};

    private static final long MAKER_BID = 1002;
    private static final long MAKER_ASK = 1001;
    private static final long FLOW_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long CHURN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long FLOW_FIRST_ORDER_ID = 1_000_000_000L;
    private static final int FLOW_ID_DIGITS = 10;

    /** One ExecutionReport, as much of it as the test needs. */
    private record Report(ExecType execType, String rejectReason, long cumulative, long leaves)
    {
        boolean isFinal()
        {
            return execType == ExecType.FILL || execType == ExecType.CANCELED || execType == ExecType.REJECTED ||
                execType == ExecType.EXPIRED || leaves == 0;
        }
    }

    private final String aeronDirectoryName;
    private final long statusIntervalNs;
    private final CommandEncoder commands = new CommandEncoder();
    private final Map<String, Report> lastReports = new ConcurrentHashMap<>();
    private final Map<String, String> directoryCredentials = new ConcurrentHashMap<>();
    private final Set<Long> directoryEnds = ConcurrentHashMap.newKeySet();
    private final Path dataDirectory;
    private TestNode node;
    private Aeron aeron;
    private Publication orders;
    private Subscription egress;
    private Subscription risk;
    private AgentRunner poller;
    private volatile boolean flowing;
    private volatile boolean churning;
    private final Map<Long, List<String>> restingTraderOrders =
        Map.of(1003L, new ArrayList<>(), 1004L, new ArrayList<>());
    private Replayer reference;
    private long requestId;
    private long clientOrderId;

    /**
     * @param aeronDirectoryName the media driver to run on (the risk service's).
     */
    RealEngine(final String aeronDirectoryName)
    {
        this(aeronDirectoryName, null);
    }

    /**
     * @param aeronDirectoryName the media driver to run on (the risk service's).
     * @param dataDirectory      where the node's journal and snapshots go (deleted on close), or null for a new
     *                           temporary directory.
     */
    RealEngine(final String aeronDirectoryName, final Path dataDirectory)
    {
        this(aeronDirectoryName, dataDirectory, TimeUnit.MILLISECONDS.toNanos(250));
    }

    /**
     * @param aeronDirectoryName the media driver to run on (the risk service's).
     * @param dataDirectory      where the node's journal and snapshots go (deleted on close), or null for a new
     *                           temporary directory.
     * @param statusIntervalNs   EngineStatus interval; the late-joiner refresh runs every 5 of them.
     */
    RealEngine(final String aeronDirectoryName, final Path dataDirectory, final long statusIntervalNs)
    {
        this.aeronDirectoryName = aeronDirectoryName;
        this.dataDirectory = dataDirectory;
        this.statusIntervalNs = statusIntervalNs;
    }

    @Override
    public void start()
    {
        // by default a status every 250 ms (the dashboard's charts), so the late-joiner refresh runs every 1.25 s
        final UnaryOperator<EngineContext> settings = (ctx) -> ctx
            .aeronDirectoryName(aeronDirectoryName)
            .ingressChannel(IPC)
            .ingressStreamId(INGRESS_STREAM)
            .outboundChannel(IPC)
            .egressStreamId(EGRESS_STREAM)
            .marketDataStreamId(MARKET_DATA_STREAM)
            .riskStreamId(RISK_STREAM)
            .replicationMode(EngineContext.ReplicationMode.OFF)
            .inputRingCapacity(4096)
            .outputRingCapacity(4096)
            .statusIntervalNs(statusIntervalNs)
            .bookSnapshotIntervalNs(TimeUnit.SECONDS.toNanos(1));
        node = null == dataDirectory ? TestNode.launch(settings) : TestNode.launch(dataDirectory, settings);

        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectoryName));
        orders = aeron.addPublication(IPC, INGRESS_STREAM);
        egress = aeron.addSubscription(IPC, EGRESS_STREAM);
        risk = aeron.addSubscription(IPC, RISK_STREAM);
        poller = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null,
            new Poller());
        AgentRunner.startOnThread(poller);
        // Answers go only to connected subscribers: be one before asking.
        await(() -> orders.isConnected() && egress.isConnected() && risk.isConnected(), "the engine's streams");

        installVenue();
        seedLiquidity();
        flowing = true;
    }

    private void installVenue()
    {
        try (TestOperator operator = new TestOperator(aeronDirectoryName, IPC, INGRESS_STREAM, IPC, RISK_STREAM))
        {
            for (final Instrument i : INSTRUMENTS)
            {
                operator.accepted(operator.commands().addInstrument(operator.nextRequestId(), i.id(), i.symbol(),
                    i.priceScale(), i.tick(), i.lot(), i.reference(), PriceBandType.BASIS_POINTS, i.bandBps()));
            }
            for (final long maker : new long[] {MAKER_ASK, MAKER_BID})
            {
                operator.openAccount(maker, (encoder, id, account) -> encoder.setLimits(id, account, 1_000_000,
                    2_500_000 * MONEY_UNIT, 500_000 * MONEY_UNIT, 5_000_000, 500, true, new int[0], new long[0]),
                    5_000_000 * MONEY_UNIT);
            }
            // traders: long only, 40 units of RGX-USD or LMX-USD (open orders count), 200,000 EUR-USD
            for (final long trader : new long[] {1003, 1004})
            {
                operator.openAccount(trader, (encoder, id, account) -> encoder.setLimits(id, account, 100_000,
                    250_000 * MONEY_UNIT, 50_000 * MONEY_UNIT, 40, 20, false, new int[] {2, 3},
                    new long[] {400, 200_000}), 1_000_000 * MONEY_UNIT);
            }
            // the ask maker's market-maker protection, for the dashboard's read-only panel: its orders are not quotes,
            // so it never breaches here
            operator.accepted(operator.commands().setMarketMakerProtection(operator.nextRequestId(), MAKER_ASK, 1,
                TimeUnit.SECONDS.toNanos(60), 0, 0, 10_000, 0, false, new int[] {1, 2}, "dashboard test"));
        }
    }

    /** Five levels a side on every instrument from the makers, then a few trades and a resting bid from traders. */
    private void seedLiquidity()
    {
        for (final Instrument i : INSTRUMENTS)
        {
            final long unit = i.id() == 3 ? 50 * i.lot() : 5 * i.lot();
            for (int k = 0; k < 5; k++)
            {
                expect(limit(MAKER_ASK, i.id(), Side.SELL, i.reference() + (k + 1) * i.tick(), unit * (k + 2)),
                    ExecType.NEW);
                expect(limit(MAKER_BID, i.id(), Side.BUY, i.reference() - (k + 1) * i.tick(), unit * (k + 2)),
                    ExecType.NEW);
            }
        }
        expect(awaitFinal(sendOrder(1003, 1, Side.BUY, OrderType.MARKET, 0, 20)), ExecType.FILL);
        expect(limit(1003, 1, Side.BUY, 9_950, 8), ExecType.NEW);
        expect(awaitFinal(sendOrder(1004, 2, Side.BUY, OrderType.MARKET, 0, 150)), ExecType.FILL);
        expect(awaitFinal(sendOrder(1004, 3, Side.BUY, OrderType.MARKET, 0, 90_000)), ExecType.FILL);
    }

    private Report limit(final long accountId, final int instrumentId, final Side side, final long price,
        final long quantity)
    {
        final String id = sendOrder(accountId, instrumentId, side, OrderType.LIMIT, price, quantity);
        await(() -> lastReports.containsKey(id), "an answer to limit order " + id);
        return lastReports.get(id);
    }

    private static void expect(final Report report, final ExecType execType)
    {
        if (report == null || report.execType() != execType)
        {
            throw new IllegalStateException("seeding the venue: expected " + execType + ", engine said " + report);
        }
    }

    /**
     * Seeded random trading by the traders 1003 and 1004 against the makers' liquidity: limit orders that rest or
     * cross, market orders, cancels of their resting orders; each waited for (its final answer, or NEW for one that
     * rests). Rejections (a long-only trader selling what it does not hold, a position limit) are part of it.
     *
     * @param random the seeded stream.
     * @param count  how many orders (cancels included).
     */
    void randomTrades(final SplittableRandom random, final int count)
    {
        for (int k = 0; k < count; k++)
        {
            final long account = random.nextBoolean() ? 1003 : 1004;
            final Instrument i = INSTRUMENTS[random.nextInt(INSTRUMENTS.length)];
            final Side side = random.nextInt(3) == 0 ? Side.SELL : Side.BUY;
            final long quantity = i.lot() * (1 + random.nextInt(i.id() == 3 ? 20 : 4));
            final int roll = random.nextInt(10);
            final List<String> resting = restingTraderOrders.get(account);
            if (roll < 2 && !resting.isEmpty())
            {
                final String[] order = resting.remove(random.nextInt(resting.size())).split(":");
                final long id = ++clientOrderId;
                offer(orders, commands.cancel(GATEWAY_SESSION, account, id, Long.parseLong(order[0]), 0,
                    Integer.parseInt(order[1])), false);
                awaitFinal(Long.toString(id));
            }
            else if (roll < 5)
            {
                awaitFinal(sendOrder(account, i.id(), side, OrderType.MARKET, 0, quantity));
            }
            else
            {
                final long price = i.reference() + (side == Side.BUY ? 1 : -1) * i.tick() * (random.nextInt(9) - 5);
                final String id = sendOrder(account, i.id(), side, OrderType.LIMIT, price, quantity);
                Await.until("an answer to order " + id, () -> lastReports.containsKey(id));
                final Report report = lastReports.get(id);
                if (report.execType() == ExecType.NEW || report.execType() == ExecType.PARTIAL_FILL)
                {
                    resting.add(id + ":" + i.id());
                }
            }
        }
    }

    /**
     * Start or stop a churn of account 1004's orders in LMX-USD (a bid well below the market, then its cancel, every
     * 100 ms): each is an AccountRiskUpdate naming that position alone, its net position unchanged.
     *
     * @param on start or stop.
     */
    void churn(final boolean on)
    {
        churning = on;
    }

    /**
     * An account as the engine holds it, from the engine's own state: its journal replayed up to the last command
     * the node has applied, by the engine's replay tools (deterministic: the same state the node holds).
     *
     * @param accountId the account.
     * @return what the dashboard must show of it.
     */
    synchronized EngineAccount engineAccount(final long accountId)
    {
        if (reference == null)
        {
            reference = Replayer.open(node.journalDirectory(), null);
        }
        reference.replay(node.node().processedSequence(), Long.MAX_VALUE, null);
        final Account account = reference.processor().state().account(accountId);
        final SortedMap<Integer, Long> positions = new TreeMap<>();
        final SortedMap<Integer, Long> own = new TreeMap<>();
        for (int i = 0; i < account.positionCount(); i++)
        {
            final Position p = account.positionAt(i);
            if (p.position() != 0 || p.openBuyQuantity() != 0 || p.openSellQuantity() != 0)
            {
                positions.put(p.instrumentId(), p.position());
            }
            if (p.positionLimit() != Position.NO_LIMIT_OVERRIDE)
            {
                own.put(p.instrumentId(), p.positionLimit());
            }
        }
        return new EngineAccount(accountId, positions, account.creditLimit(), account.defaultPositionLimit(),
            account.allowShort(), own, account.maxOrderQuantity(), account.maxOpenOrders(), account.status());
    }

    /**
     * What the dashboard must show of an account.
     *
     * @param accountId            the account.
     * @param positions            net position by instrument, of every position that is not flat.
     * @param creditLimit          money.
     * @param defaultPositionLimit units.
     * @param allowShort           short selling.
     * @param ownLimits            the instruments with a limit of their own.
     * @param maxOrderQuantity     units.
     * @param maxOpenOrders        orders.
     * @param status               the engine's standing byte.
     */
    record EngineAccount(long accountId, SortedMap<Integer, Long> positions, long creditLimit,
        long defaultPositionLimit, boolean allowShort, SortedMap<Integer, Long> ownLimits, long maxOrderQuantity,
        int maxOpenOrders, byte status)
    {
    }

    /** Stop the engine node (the venue goes down); the test client stays. */
    void stopNode()
    {
        flowing = false;
        churning = false;
        CloseHelper.quietClose(node.node());
    }

    @Override
    public Verdict submitOrder(final long accountId, final int instrumentId, final Side side, final long quantity)
    {
        final Report report = awaitFinal(sendOrder(accountId, instrumentId, side, OrderType.MARKET, 0, quantity));
        return report == null ? Verdict.NO_ANSWER :
            new Verdict(report.execType().name(), report.rejectReason(), report.cumulative());
    }

    @Override
    public Verdict restLimit(final long accountId, final int instrumentId, final Side side, final long price,
        final long quantity)
    {
        final Report report = limit(accountId, instrumentId, side, price, quantity);
        return report == null ? Verdict.NO_ANSWER :
            new Verdict(report.execType().name(), report.rejectReason(), report.cumulative());
    }

    @Override
    public String credentialOf(final String username)
    {
        final long id = ++requestId;
        // a gateway's bookkeeping: unsigned, as a gateway sends it
        offer(orders, commands.userDirectoryRequest(DIRECTORY_GATEWAY_ID, id), false);
        await(() -> directoryEnds.contains(id), "the engine's user directory (request " + id + ")");
        return directoryCredentials.get(id + ":" + username);
    }

    private Report awaitFinal(final String id)
    {
        Await.until(() -> "a final report to order " + id + " (last: " + lastReports.get(id) + ")", TIMEOUT, () ->
        {
            final Report report = lastReports.get(id);
            return report != null && report.isFinal();
        }, null);
        return lastReports.get(id);
    }

    private String sendOrder(final long accountId, final int instrumentId, final Side side, final OrderType type,
        final long price, final long quantity)
    {
        final long id = ++clientOrderId;
        final boolean market = type == OrderType.MARKET;
        final int length = commands.newOrder(GATEWAY_SESSION, accountId, id, instrumentId, side, type,
            market ? TimeInForce.IOC : TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity);
        offer(orders, length, false);
        return Long.toString(id);
    }

    private void offer(final Publication publication, final int length, final boolean asAdmin)
    {
        offer(publication, commands.buffer(), length);
    }

    private void offer(final Publication publication, final org.agrona.DirectBuffer message, final int length)
    {
        final long[] result = new long[1];
        final BooleanSupplier taken = () ->
        {
            result[0] = publication.offer(message, 0, length);
            if (result[0] == Publication.CLOSED || result[0] == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("engine ingress: " + Publication.errorString(result[0]));
            }
            return result[0] > 0;
        };
        Await.until(() -> "the engine's ingress to take the message (last offer: " +
            Publication.errorString(result[0]) + ")", TIMEOUT, taken, null);
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, TIMEOUT, condition, null);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(poller, aeron, reference, node);
    }

    /** Reads the engine's answers: ExecutionReports for our session (egress) and AdminResponses (risk stream). */
    private final class Poller implements Agent
    {
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final ExecutionReportDecoder report = new ExecutionReportDecoder();
        private final CancelRejectDecoder cancelReject = new CancelRejectDecoder();
        private final UserDefinitionDecoder user = new UserDefinitionDecoder();
        private final UserDirectoryEndDecoder directoryEnd = new UserDirectoryEndDecoder();
        private final FragmentAssembler egressHandler = new FragmentAssembler(EventBatches.unpacking(this::onEvent));
        private final FragmentAssembler riskHandler = new FragmentAssembler(EventBatches.unpacking(this::onEvent));
        private final CommandEncoder flowCommands = new CommandEncoder();
        private long nextFlowNs;
        private long nextChurnNs;
        private long churnOrder;
        private long flowOrderId = FLOW_FIRST_ORDER_ID;
        private int flowInstrument;
        private final long[] restingFlowOrder = new long[INSTRUMENTS.length];

        @Override
        public int doWork()
        {
            int work = egress.poll(egressHandler, 64) + risk.poll(riskHandler, 64);
            final long now = System.nanoTime();
            if (flowing && now - nextFlowNs >= 0)
            {
                nextFlowNs = now + FLOW_INTERVAL_NS;
                quote();
                work++;
            }
            if (churning && now - nextChurnNs >= 0)
            {
                nextChurnNs = now + CHURN_INTERVAL_NS;
                churnOnce();
                work++;
            }
            return work;
        }

        /** 1004's bid in LMX-USD, far below the market, or the cancel of the last one. */
        private void churnOnce()
        {
            final Instrument lmx = INSTRUMENTS[1];
            final int length;
            if (churnOrder == 0)
            {
                churnOrder = ++flowOrderId;
                length = flowCommands.limit(GATEWAY_SESSION, 1004, churnOrder, lmx.id(), Side.BUY,
                    lmx.reference() - 40 * lmx.tick(), lmx.lot());
            }
            else
            {
                length = flowCommands.cancel(GATEWAY_SESSION, 1004, ++flowOrderId, churnOrder, 0, lmx.id());
                churnOrder = 0;
            }
            orders.offer(flowCommands.buffer(), 0, length);
        }

        /** A new offer away from the touch on the next instrument, then the cancel of the previous one there. */
        private void quote()
        {
            final int k = flowInstrument;
            flowInstrument = (flowInstrument + 1) % INSTRUMENTS.length;
            final Instrument i = INSTRUMENTS[k];
            final long id = ++flowOrderId;
            int length = flowCommands.limit(GATEWAY_SESSION, MAKER_ASK, id, i.id(), Side.SELL,
                i.reference() + 8 * i.tick(), i.lot() * (1 + id % 3));
            if (orders.offer(flowCommands.buffer(), 0, length) < 0)
            {
                return;
            }
            if (restingFlowOrder[k] != 0)
            {
                length = flowCommands.cancel(GATEWAY_SESSION, MAKER_ASK, ++flowOrderId, restingFlowOrder[k], 0, i.id());
                orders.offer(flowCommands.buffer(), 0, length);
            }
            restingFlowOrder[k] = id;
        }

        private void onEvent(final DirectBuffer buffer, final int offset, final int length, final Header h)
        {
            header.wrap(buffer, offset);
            switch (header.templateId())
            {
                case ExecutionReportDecoder.TEMPLATE_ID:
                    report.wrapAndApplyHeader(buffer, offset, header);
                    final String id = report.clientOrderId();
                    // the background flow's ids have ten digits: nobody waits for their answers
                    if (report.sessionId() == GATEWAY_SESSION && id.length() < FLOW_ID_DIGITS)
                    {
                        lastReports.put(id, new Report(report.execType(), report.rejectReason().name(),
                            report.cumulativeQuantity(), report.leavesQuantity()));
                    }
                    break;
                case CancelRejectDecoder.TEMPLATE_ID:
                    cancelReject.wrapAndApplyHeader(buffer, offset, header);
                    final String cancelId = cancelReject.clientOrderId();
                    if (cancelReject.sessionId() == GATEWAY_SESSION && cancelId.length() < FLOW_ID_DIGITS)
                    {
                        // a cancel of an order already done: its final answer
                        lastReports.put(cancelId, new Report(ExecType.REJECTED, cancelReject.rejectReason().name(),
                            0, 0));
                    }
                    break;
                case UserDefinitionDecoder.TEMPLATE_ID:
                    user.wrapAndApplyHeader(buffer, offset, header);
                    if (user.gatewayId() == DIRECTORY_GATEWAY_ID)
                    {
                        final long answered = user.requestId();
                        for (final UserDefinitionDecoder.AccountsDecoder ignored : user.accounts())
                        {
                            ignored.accountId();
                        }
                        final String name = user.username();
                        user.skipFixSenderCompId();
                        directoryCredentials.put(answered + ":" + name, user.credentialHash());
                    }
                    break;
                case UserDirectoryEndDecoder.TEMPLATE_ID:
                    directoryEnd.wrapAndApplyHeader(buffer, offset, header);
                    if (directoryEnd.gatewayId() == DIRECTORY_GATEWAY_ID)
                    {
                        directoryEnds.add(directoryEnd.requestId());
                    }
                    break;
                default:
                    break;
            }
        }

        @Override
        public String roleName()
        {
            return "real-engine-test-client";
        }
    }
}
