package io.ringex.bench.gateway;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.ringex.gateway.InstrumentDirectory;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.fix.FixCommandTranslator;
import io.ringex.gateway.fix.FixFields;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.SessionIds;
import io.ringex.protocol.codecs.BooleanType;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.ExecType;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderStatus;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SessionStatusEncoder;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.RejectLogon;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketAcceptor;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.Username;

/**
 * Bench only: a QuickFIX/J ACCEPTOR doing what our Artio acceptor does, so the two can be loaded side by side.
 * NewOrderSingle (and F/G/q) is scanned with the gateway's {@link FixFields} and translated by its
 * {@link FixCommandTranslator} into the same SBE command, stamped with a session id of its own gateway id, and
 * offered to the engine ingress over Aeron; the engine's ExecutionReports (and BusinessRejects) for that gateway id
 * are turned back into FIX 4.4 messages (the minimal equivalent of {@code FixEventTranslator}, whose output is Artio
 * encoders) and sent on the session.
 * <pre>
 *   QuickFixAcceptorBench --aeron-dir DIR [--port 9881] [--gateway-id 7] [--ingress aeron:ipc] [--ingress-stream 1001]
 *       [--egress aeron:ipc] [--egress-stream 1002] [--comp-id RINGEX]
 *       [--users user:password:account,...] [--instruments id:SYMBOL:scale,...]
 * </pre>
 * Defaults are the all-in-one's streams and demo data. Not the product: no throttle, no resend store (memory
 * store), no cancel-on-disconnect. Threads: QuickFIX/J's (one per session) translate and offer to a concurrent
 * publication; one egress thread polls the engine and sends on the sessions.
 */
public final class QuickFixAcceptorBench implements Application
{
    private static final int FIX_FLAG = 0x4000_0000;

    private final Publication ingress;
    private final int gatewayId;
    private final InstrumentDirectory instruments = new InstrumentDirectory();
    private final Map<String, User> usersByCompId = new HashMap<>();
    private final Map<String, String> passwords = new HashMap<>();
    private final Map<SessionID, Long> sessionIds = new ConcurrentHashMap<>();
    private final Map<Integer, SessionID> sessionsByNumber = new ConcurrentHashMap<>();
    private final java.util.List<String[]> instrumentSpecs = new java.util.ArrayList<>();
    private final ThreadLocal<Translator> translators = ThreadLocal.withInitial(() -> new Translator(instrumentSpecs));
    private int nextSessionNumber = 1;
    private long businessRejects;
    private final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong forwarded = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong translateFailures =
        new java.util.concurrent.atomic.AtomicLong();
    private volatile long reports;
    private volatile long unsent;

    /**
     * Per QuickFIX/J thread: the translator, its buffers and its own instrument directory (single-threaded: its
     * symbol lookup reuses a key, so sharing one across session threads loses lookups).
     */
    private static final class Translator
    {
        final InstrumentDirectory instruments = new InstrumentDirectory();
        final FixFields fields = new FixFields();
        final FixCommandTranslator commands = new FixCommandTranslator();
        final UnsafeBuffer in = new UnsafeBuffer(new byte[4096]);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final SessionStatusEncoder status = new SessionStatusEncoder();

        Translator(final java.util.List<String[]> specs)
        {
            for (final String[] parts : specs)
            {
                instruments.put(Integer.parseInt(parts[0]), parts[1], Integer.parseInt(parts[2]));
            }
        }
    }

    private QuickFixAcceptorBench(final Publication ingress, final int gatewayId)
    {
        this.ingress = ingress;
        this.gatewayId = gatewayId;
    }

    /**
     * @param args as in the class comment.
     * @throws Exception on set-up failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final Map<String, String> options = new HashMap<>();
        options.put("--port", "9881");
        options.put("--gateway-id", "7");
        options.put("--ingress", "aeron:ipc");
        options.put("--ingress-stream", "1001");
        options.put("--egress", "aeron:ipc");
        options.put("--egress-stream", "1002");
        options.put("--comp-id", "RINGEX");
        options.put("--users", "trader1:trader1:1003,trader2:trader2:1004,fixtrader:fixtrader:1005," +
            "maker1:maker1:1001,maker2:maker2:1002");
        options.put("--instruments", "1:RGX-USD:2,2:LMX-USD:2,3:EUR-USD:4");
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            options.put(args[i], args[i + 1]);
        }
        final String compId = options.get("--comp-id");
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(options.get("--aeron-dir")));
        final Publication ingress = aeron.addPublication(options.get("--ingress"),
            Integer.parseInt(options.get("--ingress-stream")));
        final Subscription egress = aeron.addSubscription(options.get("--egress"),
            Integer.parseInt(options.get("--egress-stream")));
        final QuickFixAcceptorBench bench = new QuickFixAcceptorBench(ingress,
            Integer.parseInt(options.get("--gateway-id")));
        for (final String instrument : options.get("--instruments").split(","))
        {
            final String[] parts = instrument.split(":");
            bench.instrumentSpecs.add(parts);
            bench.instruments.put(Integer.parseInt(parts[0]), parts[1], Integer.parseInt(parts[2]));
        }

        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "acceptor");
        settings.setLong("SocketAcceptPort", Long.parseLong(options.get("--port")));
        settings.setString("UseDataDictionary", "N");
        settings.setString("StartTime", "00:00:00");
        settings.setString("EndTime", "00:00:00");
        settings.setString("ResetOnLogon", "Y");
        settings.setString("SocketTcpNoDelay", "Y");
        for (final String user : options.get("--users").split(","))
        {
            final String[] parts = user.split(":");
            final String senderCompId = parts[0].toUpperCase();
            bench.usersByCompId.put(senderCompId, new User(parts[0], "bench-only", new long[]{ Long.parseLong(
                parts[2]) }, senderCompId, compId));
            bench.passwords.put(senderCompId, parts[1]);
            final SessionID id = new SessionID("FIX.4.4", compId, senderCompId);
            settings.setString(id, "BeginString", "FIX.4.4");
        }
        final ThreadedSocketAcceptor acceptor = new ThreadedSocketAcceptor(bench, new MemoryStoreFactory(),
            settings, new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());

        final CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            stop.countDown();
            acceptor.stop(true);
            System.out.printf("qfj-acceptor: received %d, forwarded %d, reports %d, unsent %d%n",
                bench.received.get(), bench.forwarded.get(), bench.reports, bench.unsent);
        }));
        final Thread egressThread = new Thread(() -> bench.pollEgress(egress, stop), "qfj-bench-egress");
        egressThread.start();
        acceptor.start();
        System.out.printf("qfj-acceptor: listening on %s, gateway id %s, engine %s:%s / %s:%s%n",
            options.get("--port"), options.get("--gateway-id"), options.get("--ingress"),
            options.get("--ingress-stream"), options.get("--egress"), options.get("--egress-stream"));
        stop.await();
        egressThread.join(TimeUnit.SECONDS.toMillis(5));
        aeron.close();
    }

    private void pollEgress(final Subscription egress, final CountDownLatch stop)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final ExecutionReportDecoder report = new ExecutionReportDecoder();
        final BusinessRejectDecoder reject = new BusinessRejectDecoder();
        final StringBuilder text = new StringBuilder(32);
        final FragmentHandler handler = (buffer, offset, length, h) ->
        {
            header.wrap(buffer, offset);
            final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
            if (header.templateId() == ExecutionReportDecoder.TEMPLATE_ID)
            {
                report.wrap(buffer, body, header.blockLength(), header.version());
                final SessionID session = session(report.sessionId());
                if (session != null)
                {
                    reports++;
                    if (!send(session, executionReport(report, text)))
                    {
                        unsent++;
                    }
                }
            }
            else if (header.templateId() == BusinessRejectDecoder.TEMPLATE_ID)
            {
                reject.wrap(buffer, body, header.blockLength(), header.version());
                final SessionID session = session(reject.sessionId());
                if (session != null)
                {
                    final quickfix.fix44.BusinessMessageReject message = new quickfix.fix44.BusinessMessageReject();
                    message.setString(quickfix.field.RefMsgType.FIELD, "D");
                    message.setInt(quickfix.field.BusinessRejectReason.FIELD, 0);
                    text.setLength(0);
                    reject.getRefClientOrderId(text);
                    message.setString(quickfix.field.BusinessRejectRefID.FIELD, text.toString());
                    if (businessRejects++ < 5)
                    {
                        System.err.println("qfj-acceptor: engine business reject " + reject.rejectReason());
                    }
                    message.setString(quickfix.field.Text.FIELD, reject.rejectReason().name());
                    send(session, message);
                }
            }
        };
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (stop.getCount() > 0)
        {
            idle.idle(egress.poll(handler, 64));
        }
    }

    private SessionID session(final long sessionId)
    {
        if (SessionIds.gatewayId(sessionId) != gatewayId)
        {
            return null;
        }
        return sessionsByNumber.get(SessionIds.sessionNumber(sessionId));
    }

    private static boolean send(final SessionID session, final Message message)
    {
        final Session target = Session.lookupSession(session);
        return target != null && target.send(message);
    }

    private Message executionReport(final ExecutionReportDecoder d, final StringBuilder text)
    {
        final int instrumentId = d.instrumentId();
        final int scale = Math.max(0, instruments.priceScale(instrumentId));
        final quickfix.fix44.ExecutionReport e = new quickfix.fix44.ExecutionReport();
        final long orderId = d.orderId();
        e.setString(quickfix.field.OrderID.FIELD, orderId == 0 ? "NONE" : Long.toString(orderId));
        e.setString(quickfix.field.ExecID.FIELD, "E" + d.epoch() + "-" + d.commandSequence() + "-" + orderId + "-" +
            d.tradeId() + "-" + d.execType().ordinal());
        text.setLength(0);
        d.getClientOrderId(text);
        e.setString(quickfix.field.ClOrdID.FIELD, text.toString());
        e.setString(quickfix.field.Account.FIELD, Long.toString(d.accountId()));
        e.setChar(quickfix.field.ExecType.FIELD, execType(d.execType()));
        e.setChar(quickfix.field.OrdStatus.FIELD, ordStatus(d.orderStatus()));
        e.setString(quickfix.field.Symbol.FIELD, String.valueOf(instruments.symbol(instrumentId)));
        e.setChar(quickfix.field.Side.FIELD, d.side() == io.ringex.protocol.codecs.Side.BUY ? '1' : '2');
        e.setString(quickfix.field.Price.FIELD, FixedPoint.format(d.price(), scale));
        e.setString(quickfix.field.OrderQty.FIELD, Long.toString(d.quantity()));
        e.setString(quickfix.field.LeavesQty.FIELD, Long.toString(d.leavesQuantity()));
        e.setString(quickfix.field.CumQty.FIELD, Long.toString(d.cumulativeQuantity()));
        e.setString(quickfix.field.AvgPx.FIELD, FixedPoint.format(d.averagePrice(), scale));
        if (d.lastQuantity() > 0)
        {
            e.setString(quickfix.field.LastPx.FIELD, FixedPoint.format(d.lastPrice(), scale));
            e.setString(quickfix.field.LastQty.FIELD, Long.toString(d.lastQuantity()));
        }
        if (d.execType() == ExecType.REJECTED)
        {
            e.setString(quickfix.field.Text.FIELD, d.rejectReason().name());
        }
        return e;
    }

    private static char execType(final ExecType execType)
    {
        return switch (execType)
        {
            case NEW -> '0';
            case PARTIAL_FILL, FILL -> 'F';
            case CANCELED -> '4';
            case REPLACED -> '5';
            case REJECTED -> '8';
            case EXPIRED -> 'C';
            default -> 'I';
        };
    }

    private static char ordStatus(final OrderStatus status)
    {
        return switch (status)
        {
            case NEW -> '0';
            case PARTIALLY_FILLED -> '1';
            case FILLED -> '2';
            case CANCELED -> '4';
            case REJECTED -> '8';
            case EXPIRED -> 'C';
            default -> '0';
        };
    }

    public void fromApp(final Message message, final SessionID sessionId) throws FieldNotFound
    {
        received.incrementAndGet();
        final Long id = sessionIds.get(sessionId);
        final User user = usersByCompId.get(sessionId.getTargetCompID());
        if (id == null || user == null)
        {
            return;
        }
        final Translator t = translators.get();
        final byte[] bytes = message.toString().getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > t.in.capacity())
        {
            return;
        }
        t.in.putBytes(0, bytes);
        t.fields.scan(t.in, 0, bytes.length);
        final String type = message.getHeader().getString(MsgType.FIELD);
        final char msgType = type.length() == 1 ? type.charAt(0) : '?';
        final RejectReason reason = t.commands.translate(t.fields, msgType, user, id, t.instruments, t.out);
        if (reason != RejectReason.NONE)
        {
            final quickfix.fix44.BusinessMessageReject reject = new quickfix.fix44.BusinessMessageReject();
            reject.setString(quickfix.field.RefMsgType.FIELD, type);
            if (message.isSetField(quickfix.field.ClOrdID.FIELD))
            {
                reject.setString(quickfix.field.BusinessRejectRefID.FIELD,
                    message.getString(quickfix.field.ClOrdID.FIELD));
            }
            reject.setInt(quickfix.field.BusinessRejectReason.FIELD, 0);
            reject.setString(quickfix.field.Text.FIELD, reason.name() + ": " + t.commands.text());
            if (translateFailures.getAndIncrement() < 5)
            {
                System.err.println("qfj-acceptor: not translated: " + reason + " " + t.commands.text() + " in " +
                    message.toString().replace('\u0001', '|'));
            }
            send(sessionId, reject);
            return;
        }
        offer(t.out, t.commands.encodedLength());
        forwarded.incrementAndGet();
    }

    private void offer(final UnsafeBuffer buffer, final int length)
    {
        long result;
        while ((result = ingress.offer(buffer, 0, length)) < 0)
        {
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("engine ingress: " + Publication.errorString(result));
            }
            Thread.onSpinWait();
        }
    }

    private void sessionStatus(final long sessionId, final long accountId, final boolean loggedOn)
    {
        final Translator t = translators.get();
        t.status.wrapAndApplyHeader(t.out, 0, t.header)
            .sessionId(sessionId)
            .accountId(accountId)
            .loggedOn(loggedOn ? BooleanType.TRUE : BooleanType.FALSE);
        offer(t.out, MessageHeaderEncoder.ENCODED_LENGTH + t.status.encodedLength());
    }

    public void fromAdmin(final Message message, final SessionID sessionId) throws FieldNotFound, RejectLogon
    {
        if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD)))
        {
            final String expected = passwords.get(sessionId.getTargetCompID());
            final String username = message.isSetField(Username.FIELD) ? message.getString(Username.FIELD) : "";
            final String password = message.isSetField(Password.FIELD) ? message.getString(Password.FIELD) : "";
            if (expected == null || !expected.equals(password) ||
                !username.equalsIgnoreCase(sessionId.getTargetCompID()))
            {
                throw new RejectLogon("bad credentials");
            }
        }
    }

    public synchronized void onLogon(final SessionID sessionId)
    {
        final int number = FIX_FLAG | nextSessionNumber++;
        final long id = SessionIds.sessionId(gatewayId, number);
        sessionsByNumber.put(number, sessionId);
        sessionIds.put(sessionId, id);
        sessionStatus(id, usersByCompId.get(sessionId.getTargetCompID()).defaultAccount(), true);
    }

    public synchronized void onLogout(final SessionID sessionId)
    {
        final Long id = sessionIds.remove(sessionId);
        if (id != null)
        {
            sessionsByNumber.remove(SessionIds.sessionNumber(id));
            sessionStatus(id, usersByCompId.get(sessionId.getTargetCompID()).defaultAccount(), false);
        }
    }

    public void onCreate(final SessionID sessionId)
    {
    }

    public void toAdmin(final Message message, final SessionID sessionId)
    {
    }

    public void toApp(final Message message, final SessionID sessionId)
    {
    }
}
