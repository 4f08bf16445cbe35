package io.ringex.gateway.testing;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.CancelOrderDecoder;
import io.ringex.protocol.codecs.CancelReason;
import io.ringex.protocol.codecs.CancelRejectEncoder;
import io.ringex.protocol.codecs.CancelRejectResponseTo;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportEncoder;
import io.ringex.protocol.codecs.InstrumentDefinitionEncoder;
import io.ringex.protocol.codecs.MassCancelDecoder;
import io.ringex.protocol.codecs.MassCancelScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.NewOrderDecoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.ReplaceOrderDecoder;
import io.ringex.protocol.codecs.SessionStatusDecoder;
import io.ringex.protocol.codecs.SetUserCredentialDecoder;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradingStatus;
import io.ringex.protocol.codecs.UpsertUserDecoder;
import io.ringex.protocol.codecs.UserDirectoryEndEncoder;
import io.ringex.protocol.codecs.UserDirectoryRequestDecoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * TEST-SCOPE STAND-IN for the engine node, until the lead wires the real one into {@link TestEngines}. It speaks
 * the engine's Aeron contract (ingress in, egress and market data out) with just enough matching to exercise the
 * gateway: NEW on every order; fills when opposite orders cross (at the resting price); CANCELED/REPLACED for
 * known orders of the same account; CancelReject UNKNOWN_ORDER otherwise; mass cancel by session, account or
 * instrument; InstrumentDefinition for its instruments every 100 ms. No risk checks, no journal, no determinism
 * guarantees. Runs on its own thread.
 */
public final class EchoMatchingEngine implements EngineUnderTest, Agent
{
    private static final long EPOCH = 1;
    private static final long DEFINITION_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final EngineStreams streams;
    private final Aeron aeron;
    private final Subscription ingress;
    private final Publication egress;
    private final Publication marketData;
    private final AgentRunner runner;
    private final List<String> commandLog = new CopyOnWriteArrayList<>();
    private final List<RestingOrder> open = new ArrayList<>();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final NewOrderDecoder newOrder = new NewOrderDecoder();
    private final CancelOrderDecoder cancelOrder = new CancelOrderDecoder();
    private final ReplaceOrderDecoder replaceOrder = new ReplaceOrderDecoder();
    private final MassCancelDecoder massCancel = new MassCancelDecoder();
    private final SessionStatusDecoder sessionStatus = new SessionStatusDecoder();
    private final ExecutionReportEncoder report = new ExecutionReportEncoder();
    private final CancelRejectEncoder cancelReject = new CancelRejectEncoder();
    private final InstrumentDefinitionEncoder definition = new InstrumentDefinitionEncoder();
    private final UserDirectoryRequestDecoder directoryRequest = new UserDirectoryRequestDecoder();
    private final UserDirectoryEndEncoder directoryEnd = new UserDirectoryEndEncoder();
    private final FragmentHandler handler = this::onCommand;
    private long nextOrderId = 1;
    private long nextTradeId = 1;
    private long sequence;
    private long nextDefinitionNs;

    private EchoMatchingEngine(final EngineStreams streams)
    {
        this.streams = streams;
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(streams.aeronDirectoryName()));
        ingress = aeron.addSubscription(streams.ingressChannel(), streams.ingressStreamId());
        egress = aeron.addPublication(streams.egressChannel(), streams.egressStreamId());
        marketData = aeron.addPublication(streams.marketDataChannel(), streams.marketDataStreamId());
        runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null, this);
    }

    /**
     * Start on its own thread.
     *
     * @param streams where to listen and publish.
     * @return the engine.
     */
    public static EchoMatchingEngine launch(final EngineStreams streams)
    {
        final EchoMatchingEngine engine = new EchoMatchingEngine(streams);
        AgentRunner.startOnThread(engine.runner);
        return engine;
    }

    /**
     * {@inheritDoc}
     */
    public List<String> commandLog()
    {
        return List.copyOf(commandLog);
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.closeAll(runner, aeron);
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        int work = ingress.poll(handler, 16);
        final long now = System.nanoTime();
        if (now >= nextDefinitionNs)
        {
            nextDefinitionNs = now + DEFINITION_INTERVAL_NS;
            for (final EngineStreams.TestInstrument instrument : streams.instruments())
            {
                definition.wrapAndApplyHeader(out, 0, headerEncoder)
                    .instrumentId(instrument.instrumentId())
                    .symbol(instrument.symbol())
                    .priceScale((short)instrument.priceScale())
                    .tickSize(1)
                    .lotSize(1)
                    .referencePrice(0)
                    .priceBandType(PriceBandType.BASIS_POINTS)
                    .priceBand(0)
                    .status(TradingStatus.OPEN)
                    .timestampNs(System.currentTimeMillis() * 1_000_000L);
                marketData.offer(out, 0, MessageHeaderEncoder.ENCODED_LENGTH + definition.encodedLength());
            }
            work++;
        }
        return work;
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return "echo-matching-engine";
    }

    private void onCommand(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        sequence++;
        headerDecoder.wrap(buffer, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        switch (headerDecoder.templateId())
        {
            case NewOrderDecoder.TEMPLATE_ID:
                onNewOrder(newOrder.wrap(buffer, body, blockLength, version));
                break;
            case CancelOrderDecoder.TEMPLATE_ID:
                onCancel(cancelOrder.wrap(buffer, body, blockLength, version));
                break;
            case ReplaceOrderDecoder.TEMPLATE_ID:
                onReplace(replaceOrder.wrap(buffer, body, blockLength, version));
                break;
            case MassCancelDecoder.TEMPLATE_ID:
                onMassCancel(massCancel.wrap(buffer, body, blockLength, version));
                break;
            case SessionStatusDecoder.TEMPLATE_ID:
                sessionStatus.wrap(buffer, body, blockLength, version);
                commandLog.add("SessionStatus session=" + sessionStatus.sessionId() + " account=" +
                    sessionStatus.accountId() + " loggedOn=" + sessionStatus.loggedOn());
                break;
            case UserDirectoryRequestDecoder.TEMPLATE_ID:
                // Holds no users: the gateway's configured users serve, and the gateway's offers of them are ignored.
                directoryRequest.wrap(buffer, body, blockLength, version);
                directoryEnd.wrapAndApplyHeader(out, 0, headerEncoder)
                    .gatewayId(directoryRequest.gatewayId())
                    .requestId(directoryRequest.requestId())
                    .userCount(0)
                    .commandSequence(sequence);
                offer(MessageHeaderEncoder.ENCODED_LENGTH + directoryEnd.encodedLength());
                break;
            case UpsertUserDecoder.TEMPLATE_ID:
            case SetUserCredentialDecoder.TEMPLATE_ID:
                break;
            default:
                commandLog.add("Unknown template=" + headerDecoder.templateId());
                break;
        }
    }

    private void onNewOrder(final NewOrderDecoder d)
    {
        final RestingOrder order = new RestingOrder();
        order.orderId = nextOrderId++;
        order.sessionId = d.sessionId();
        order.accountId = d.accountId();
        order.clientOrderId = d.clientOrderId();
        order.instrumentId = d.instrumentId();
        order.side = d.side();
        order.orderType = d.orderType();
        order.timeInForce = d.timeInForce();
        order.price = d.price();
        order.quantity = d.quantity();
        commandLog.add("NewOrder session=" + order.sessionId + " account=" + order.accountId + " clOrdId=" +
            order.clientOrderId + " price=" + order.price + " qty=" + order.quantity);
        send(order, ExecType.NEW, OrderStatus.NEW, "", 0, 0, 0, CancelReason.NONE);

        final Iterator<RestingOrder> it = open.iterator();
        while (it.hasNext() && order.leaves() > 0)
        {
            final RestingOrder resting = it.next();
            if (resting.instrumentId != order.instrumentId || resting.side == order.side)
            {
                continue;
            }
            final boolean crosses = order.orderType == OrderType.MARKET ||
                (order.side == Side.BUY ? order.price >= resting.price : order.price <= resting.price);
            if (!crosses)
            {
                continue;
            }
            final long quantity = Math.min(order.leaves(), resting.leaves());
            final long price = resting.price;
            final long tradeId = nextTradeId++;
            for (final RestingOrder o : new RestingOrder[]{ resting, order })
            {
                o.filled += quantity;
                o.notional += quantity * price;
                final boolean done = o.leaves() == 0;
                send(o, done ? ExecType.FILL : ExecType.PARTIAL_FILL,
                    done ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED, "", price, quantity, tradeId,
                    CancelReason.NONE);
            }
            if (resting.leaves() == 0)
            {
                it.remove();
            }
        }
        if (order.leaves() > 0)
        {
            if (order.timeInForce == TimeInForce.IOC || order.orderType == OrderType.MARKET)
            {
                send(order, ExecType.CANCELED, OrderStatus.CANCELED, "", 0, 0, 0, CancelReason.IOC_REMAINDER);
            }
            else
            {
                open.add(order);
            }
        }
    }

    private RestingOrder find(final long accountId, final long orderId, final String origClientOrderId)
    {
        for (final RestingOrder o : open)
        {
            if (o.accountId == accountId &&
                (orderId != 0 ? o.orderId == orderId : o.clientOrderId.equals(origClientOrderId)))
            {
                return o;
            }
        }
        return null;
    }

    private void onCancel(final CancelOrderDecoder d)
    {
        final long sessionId = d.sessionId();
        final long accountId = d.accountId();
        final String clientOrderId = d.clientOrderId();
        final String origClientOrderId = d.origClientOrderId();
        final long orderId = d.orderId();
        commandLog.add("CancelOrder session=" + sessionId + " account=" + accountId + " orderId=" + orderId +
            " orig=" + origClientOrderId);
        final RestingOrder order = find(accountId, orderId, origClientOrderId);
        if (order == null)
        {
            sendCancelReject(sessionId, accountId, d.instrumentId(), orderId, clientOrderId, origClientOrderId,
                CancelRejectResponseTo.CANCEL);
            return;
        }
        open.remove(order);
        final String previous = order.clientOrderId;
        order.clientOrderId = clientOrderId;
        send(order, ExecType.CANCELED, OrderStatus.CANCELED, previous, 0, 0, 0, CancelReason.CLIENT_REQUEST);
    }

    private void onReplace(final ReplaceOrderDecoder d)
    {
        final long sessionId = d.sessionId();
        final long accountId = d.accountId();
        final String clientOrderId = d.clientOrderId();
        final String origClientOrderId = d.origClientOrderId();
        final long orderId = d.orderId();
        commandLog.add("ReplaceOrder session=" + sessionId + " orderId=" + orderId + " orig=" + origClientOrderId +
            " price=" + d.price() + " qty=" + d.quantity());
        final RestingOrder order = find(accountId, orderId, origClientOrderId);
        if (order == null)
        {
            sendCancelReject(sessionId, accountId, d.instrumentId(), orderId, clientOrderId, origClientOrderId,
                CancelRejectResponseTo.REPLACE);
            return;
        }
        final String previous = order.clientOrderId;
        order.clientOrderId = clientOrderId;
        order.price = d.price();
        order.quantity = d.quantity();
        send(order, ExecType.REPLACED, OrderStatus.NEW, previous, 0, 0, 0, CancelReason.NONE);
    }

    private void onMassCancel(final MassCancelDecoder d)
    {
        final long sessionId = d.sessionId();
        final long accountId = d.accountId();
        final MassCancelScope scope = d.scope();
        final int instrumentId = d.instrumentId();
        final boolean cod = d.cancelOnDisconnect() == BooleanType.TRUE;
        commandLog.add("MassCancel session=" + sessionId + " account=" + accountId + " scope=" + scope + " cod=" +
            d.cancelOnDisconnect());
        final Iterator<RestingOrder> it = open.iterator();
        while (it.hasNext())
        {
            final RestingOrder o = it.next();
            final boolean match;
            switch (scope)
            {
                case SESSION:
                    match = o.sessionId == sessionId;
                    break;
                case ACCOUNT:
                    match = o.accountId == accountId;
                    break;
                case INSTRUMENT:
                    match = o.accountId == accountId && o.instrumentId == instrumentId;
                    break;
                default:
                    match = false;
                    break;
            }
            if (match)
            {
                it.remove();
                send(o, ExecType.CANCELED, OrderStatus.CANCELED, o.clientOrderId, 0, 0, 0,
                    cod ? CancelReason.CANCEL_ON_DISCONNECT : CancelReason.MASS_CANCEL);
            }
        }
    }

    private void send(
        final RestingOrder o,
        final ExecType execType,
        final OrderStatus status,
        final String origClientOrderId,
        final long lastPrice,
        final long lastQuantity,
        final long tradeId,
        final CancelReason cancelReason)
    {
        report.wrapAndApplyHeader(out, 0, headerEncoder)
            .epoch(EPOCH)
            .sessionId(o.sessionId)
            .accountId(o.accountId)
            .instrumentId(o.instrumentId)
            .orderId(o.orderId)
            .clientOrderId(o.clientOrderId)
            .origClientOrderId(origClientOrderId)
            .execType(execType)
            .orderStatus(status)
            .side(o.side)
            .orderType(o.orderType)
            .timeInForce(o.timeInForce)
            .price(o.price)
            .quantity(o.quantity)
            .leavesQuantity(status == OrderStatus.CANCELED ? 0 : o.leaves())
            .cumulativeQuantity(o.filled)
            .lastPrice(lastPrice)
            .lastQuantity(lastQuantity)
            .averagePrice(o.filled == 0 ? 0 : o.notional / o.filled)
            .tradeId(tradeId)
            .rejectReason(RejectReason.NONE)
            .cancelReason(cancelReason)
            .transactTimeNs(System.currentTimeMillis() * 1_000_000L)
            .commandSequence(sequence);
        offer(MessageHeaderEncoder.ENCODED_LENGTH + report.encodedLength());
    }

    private void sendCancelReject(
        final long sessionId,
        final long accountId,
        final int instrumentId,
        final long orderId,
        final String clientOrderId,
        final String origClientOrderId,
        final CancelRejectResponseTo responseTo)
    {
        cancelReject.wrapAndApplyHeader(out, 0, headerEncoder)
            .epoch(EPOCH)
            .sessionId(sessionId)
            .accountId(accountId)
            .instrumentId(instrumentId)
            .orderId(orderId)
            .clientOrderId(clientOrderId)
            .origClientOrderId(origClientOrderId)
            .responseTo(responseTo)
            .rejectReason(RejectReason.UNKNOWN_ORDER)
            .transactTimeNs(System.currentTimeMillis() * 1_000_000L)
            .commandSequence(sequence);
        offer(MessageHeaderEncoder.ENCODED_LENGTH + cancelReject.encodedLength());
    }

    private void offer(final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long result;
        while ((result = egress.offer(out, 0, length)) < 0)
        {
            if (result == Publication.NOT_CONNECTED || result == Publication.CLOSED ||
                System.nanoTime() - deadline > 0)
            {
                commandLog.add("EgressDropped result=" + result);
                return;
            }
            Thread.onSpinWait();
        }
    }

    private static final class RestingOrder
    {
        long orderId;
        long sessionId;
        long accountId;
        String clientOrderId;
        int instrumentId;
        Side side;
        OrderType orderType;
        TimeInForce timeInForce;
        long price;
        long quantity;
        long filled;
        long notional;

        long leaves()
        {
            return quantity - filled;
        }
    }
}
