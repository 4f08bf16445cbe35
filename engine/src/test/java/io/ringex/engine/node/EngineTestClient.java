package io.ringex.engine.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKeys;
import io.ringex.client.CommandEncoder;
import io.ringex.client.EventBatches;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.AdminResponseDecoder;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.EngineStatusDecoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.InstrumentDefinitionDecoder;
import io.ringex.protocol.codecs.KillSwitchScope;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import io.ringex.protocol.codecs.TradeDecoder;
import io.ringex.testing.Await;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A test's view of an engine node over real Aeron: sends commands to its ingress (an operator's admin command signed
 * with the node's first admin key, as an operator's tool would) and collects what comes back on the egress,
 * market-data and risk streams, decoded into small records.
 */
final class EngineTestClient implements AutoCloseable
{
    record Report(long sessionId, long accountId, long orderId, String clientOrderId, String execType,
        String rejectReason, long leaves, long cumulative, long commandSequence, long epoch)
    {
    }

    static final long SESSION = io.ringex.protocol.SessionIds.sessionId(1, 7);
    static final int INSTRUMENT = 1;

    final CommandEncoder commands = new CommandEncoder();
    final List<Report> reports = new ArrayList<>();
    final List<String> adminResponses = new ArrayList<>();
    final List<String> businessRejects = new ArrayList<>();
    final List<String> cancelRejects = new ArrayList<>();
    final List<Long> tradeIds = new ArrayList<>();
    volatile long lastStatusHash;
    volatile long lastStatusProcessed;
    volatile int statusCount;
    int instrumentDefinitions;
    volatile long lastStatusEpochStart;
    volatile io.ringex.protocol.codecs.NodeRole lastStatusRole;
    volatile long lastStatusEpoch;
    /** The latest EngineStatus's replicationSequence (its null value while the node replicates nothing). */
    volatile long lastStatusReplication;
    /** The counters of the latest EngineStatus, "COUNTER=value" and "REJECT:REASON=count", in the order sent. */
    volatile String lastStatusCounters = "";
    final List<byte[]> sent = new ArrayList<>();

    private final Aeron aeron;
    private final AdminCommandSigner signer;
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(4096)]);
    private final Publication ingress;
    private final Subscription egress;
    private final Subscription marketData;
    private final Subscription risk;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ExecutionReportDecoder report = new ExecutionReportDecoder();
    private final AdminResponseDecoder admin = new AdminResponseDecoder();
    private final BusinessRejectDecoder reject = new BusinessRejectDecoder();
    private final CancelRejectDecoder cancelReject = new CancelRejectDecoder();
    private final EngineStatusDecoder status = new EngineStatusDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final FragmentHandler handler = EventBatches.unpacking(this::onEvent);
    private long requestId;

    EngineTestClient(final String aeronDir, final EngineContext ctx, final String subscriberOutboundChannel)
    {
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
        final AdminKeys keys = null != ctx.adminKeys() ? ctx.adminKeys() : NodeTestSupport.ADMIN_KEYS;
        signer = new AdminCommandSigner(keys.keys().get(0));
        ingress = aeron.addPublication(ctx.ingressChannel(), ctx.ingressStreamId());
        egress = aeron.addSubscription(subscriberOutboundChannel, ctx.egressStreamId());
        marketData = aeron.addSubscription(subscriberOutboundChannel, ctx.marketDataStreamId());
        risk = aeron.addSubscription(subscriberOutboundChannel, ctx.riskStreamId());
    }

    void awaitConnected()
    {
        await(() -> ingress.isConnected() && egress.isConnected() && risk.isConnected(), "connected");
    }

    /**
     * Send what {@link #commands} last encoded, signed if it is an operator's command; the command itself is
     * remembered for comparison with the journal.
     */
    void send(final int length)
    {
        send(commands.buffer(), 0, length, true);
    }

    /** Send bytes as they are: never signed, never remembered. */
    void sendRaw(final DirectBuffer buffer, final int offset, final int length)
    {
        offer(buffer, offset, length);
    }

    private void send(final DirectBuffer buffer, final int offset, final int length, final boolean remember)
    {
        final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        if (MessageCatalog.isOperatorCommand(templateId))
        {
            offer(signed, 0, signer.sign(buffer, offset, length, signed, 0));
        }
        else
        {
            offer(buffer, offset, length);
        }
        if (remember)
        {
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            sent.add(copy);
        }
    }

    private void offer(final DirectBuffer buffer, final int offset, final int length)
    {
        final long[] result = new long[1];
        Await.until(() -> "the ingress to take the command (last offer: " + Publication.errorString(result[0]) + ")",
            Duration.ofSeconds(10), () -> (result[0] = ingress.offer(buffer, offset, length)) > 0, this::poll);
    }

    /** An instrument at price scale 2, tick 0.01, lot 1, reference 100.00, band 10%; and funded accounts. */
    void setUpMarket(final long... accounts)
    {
        send(commands.addInstrument(++requestId, INSTRUMENT, "RGX", 2, 1, 1, 10_000, PriceBandType.BASIS_POINTS,
            1_000));
        for (final long account : accounts)
        {
            send(commands.addAccount(++requestId, account, SelfTradePrevention.CANCEL_NEWEST));
            send(commands.setLimits(++requestId, account, 1_000_000, 1_000_000_000_000_000L, 0, 10_000_000, 100_000,
                true, new int[0], new long[0]));
            send(commands.adjustBalance(++requestId, account, 1_000_000_000_000_000L));
        }
    }

    void limit(final long account, final long clientOrderId, final Side side, final long price, final long quantity)
    {
        send(commands.newOrder(SESSION, account, clientOrderId, INSTRUMENT, side, OrderType.LIMIT, TimeInForce.GTC,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity));
    }

    void iceberg(final long account, final long clientOrderId, final Side side, final long price, final long quantity,
        final long displayQuantity)
    {
        send(commands.newOrder(SESSION, account, clientOrderId, INSTRUMENT, side, OrderType.LIMIT, TimeInForce.GTC,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity, 0, displayQuantity, 0, 0));
    }

    void cancel(final long account, final long clientOrderId, final long origClientOrderId)
    {
        send(commands.cancel(SESSION, account, clientOrderId, origClientOrderId, 0, INSTRUMENT));
    }

    void replace(final long account, final long clientOrderId, final long origClientOrderId, final long price,
        final long quantity)
    {
        send(commands.replace(SESSION, account, clientOrderId, origClientOrderId, 0, INSTRUMENT, price, quantity));
    }

    void delist()
    {
        send(commands.delistInstrument(++requestId, INSTRUMENT, "test"));
    }

    void takeSnapshot()
    {
        send(commands.takeSnapshot(++requestId));
    }

    void killAccount(final long account)
    {
        send(commands.killSwitch(++requestId, KillSwitchScope.ACCOUNT, account, true));
    }

    int poll()
    {
        return egress.poll(handler, 256) + marketData.poll(handler, 256) + risk.poll(handler, 256);
    }

    void await(final BooleanSupplier condition, final String what)
    {
        Await.until(what, Duration.ofSeconds(30), condition, this::poll, () -> "reports=" + reports.size() +
            " admin=" + adminResponses.size() + " rejects=" + businessRejects);
    }

    long count(final String execType)
    {
        return reports.stream().filter((r) -> r.execType().equals(execType)).count();
    }

    /** @return orders answered with NEW or REJECTED: each order gets exactly one of the two. */
    long answered()
    {
        return answeredAfter(0);
    }

    /**
     * @param commandSequence the last command not to count.
     * @return orders after that command answered with NEW or REJECTED: a promoted node's re-sent reports of the old
     * primary's commands are not counted.
     */
    long answeredAfter(final long commandSequence)
    {
        return reports.stream().filter((r) -> r.commandSequence() > commandSequence &&
            (r.execType().equals("NEW") || r.execType().equals("REJECTED"))).count();
    }

    private void onEvent(
        final DirectBuffer buffer, final int offset, final int length, final io.aeron.logbuffer.Header h)
    {
        header.wrap(buffer, offset);
        switch (header.templateId())
        {
            case ExecutionReportDecoder.TEMPLATE_ID:
                report.wrapAndApplyHeader(buffer, offset, header);
                reports.add(new Report(report.sessionId(), report.accountId(), report.orderId(),
                    report.clientOrderId(), report.execType().name(), report.rejectReason().name(),
                    report.leavesQuantity(), report.cumulativeQuantity(), report.commandSequence(), report.epoch()));
                break;
            case AdminResponseDecoder.TEMPLATE_ID:
                admin.wrapAndApplyHeader(buffer, offset, header);
                adminResponses.add(admin.status() + ":" + admin.rejectReason());
                break;
            case BusinessRejectDecoder.TEMPLATE_ID:
                reject.wrapAndApplyHeader(buffer, offset, header);
                businessRejects.add(reject.rejectReason().name());
                break;
            case CancelRejectDecoder.TEMPLATE_ID:
                cancelReject.wrapAndApplyHeader(buffer, offset, header);
                cancelRejects.add(cancelReject.origClientOrderId() + ":" + cancelReject.rejectReason());
                break;
            case EngineStatusDecoder.TEMPLATE_ID:
                status.wrapAndApplyHeader(buffer, offset, header);
                lastStatusHash = status.stateHash();
                lastStatusProcessed = status.processorSequence();
                lastStatusEpochStart = status.epochStartSequence();
                lastStatusRole = status.role();
                lastStatusEpoch = status.epoch();
                lastStatusReplication = status.replicationSequence();
                final StringBuilder counters = new StringBuilder();
                for (final EngineStatusDecoder.CountersDecoder c : status.counters())
                {
                    counters.append(c.counter()).append('=').append(c.value()).append(' ');
                }
                for (final EngineStatusDecoder.RejectsDecoder r : status.rejects())
                {
                    counters.append("REJECT:").append(r.reason()).append('=').append(r.rejectCount()).append(' ');
                }
                lastStatusCounters = counters.toString();
                statusCount++;
                break;
            case InstrumentDefinitionDecoder.TEMPLATE_ID:
                instrumentDefinitions++;
                break;
            case TradeDecoder.TEMPLATE_ID:
                trade.wrapAndApplyHeader(buffer, offset, header);
                if (trade.buyAccountId() != 0)
                {
                    tradeIds.add(trade.tradeId());
                }
                break;
            default:
                break;
        }
    }

    public void close()
    {
        aeron.close();
    }

    static UnsafeBuffer bytes(final byte[] bytes)
    {
        return new UnsafeBuffer(bytes);
    }
}
