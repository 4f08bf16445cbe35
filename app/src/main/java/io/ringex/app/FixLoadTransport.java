package io.ringex.app;

import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.ringex.protocol.FixedPoint;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.BusinessRejectRefID;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Password;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.field.Username;
import quickfix.fix44.NewOrderSingle;

/**
 * The load generator over FIX 4.4, as an independent QuickFIX/J initiator (one session per user). Reports arrive on
 * QuickFIX/J's thread and are handed to the generator's thread through a small lock: this transport measures the
 * venue, not itself, and is not zero-allocation.
 */
final class FixLoadTransport implements LoadGenerator.Transport, Application
{
    private final String host;
    private final int port;
    private final LoadGenerator.Reports reports;
    private final Map<String, SessionID> sessions = new HashMap<>();
    private final Map<String, String> passwords = new HashMap<>();
    /** An answer's flag: the order was refused before the engine. */
    private static final long REJECTED_FLAG = 1L << 62;
    /** An answer's flags: refused THROTTLED. */
    private static final long THROTTLED_FLAG = REJECTED_FLAG | 1L << 61;
    private static final long ID_MASK = (1L << 61) - 1;

    /** Order ids answered since the last poll, with the flags above. */
    private final long[] answered = new long[1 << 16];
    private int answeredCount;
    private SocketInitiator initiator;

    FixLoadTransport(final String host, final int port, final LoadGenerator.Reports reports)
    {
        this.host = host;
        this.port = port;
        this.reports = reports;
    }

    public void connect(final List<DemoData.Account> accounts)
    {
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("SocketConnectHost", host);
        settings.setLong("SocketConnectPort", port);
        settings.setLong("HeartBtInt", 30);
        settings.setString("ResetOnLogon", "Y");
        settings.setString("UseDataDictionary", "N");
        settings.setString("StartTime", "00:00:00");
        settings.setString("EndTime", "00:00:00");
        settings.setLong("ReconnectInterval", 1);
        for (final DemoData.Account account : accounts)
        {
            final SessionID id = new SessionID("FIX.4.4", account.user().toUpperCase(), Venue.FIX_COMP_ID);
            settings.setString(id, "BeginString", "FIX.4.4");
            sessions.put(account.user(), id);
            passwords.put(id.getSenderCompID(), account.password());
        }
        try
        {
            initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings,
                new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());
            initiator.start();
        }
        catch (final ConfigError ex)
        {
            throw new IllegalStateException(ex);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (final SessionID id : sessions.values())
        {
            while (!Session.lookupSession(id).isLoggedOn())
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException("FIX logon failed for " + id + " at " + host + ":" + port);
                }
                Thread.yield();
            }
        }
    }

    public boolean send(final long orderId, final DemoData.Account account, final DemoData.Instrument instrument,
        final boolean buy, final long price, final long quantity, final boolean ioc)
    {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(Long.toString(orderId)),
            new Side(buy ? Side.BUY : Side.SELL), new TransactTime(LocalDateTime.now()), new OrdType(OrdType.LIMIT));
        order.set(new Symbol(instrument.symbol()));
        order.set(new OrderQty(quantity));
        order.setField(new quickfix.StringField(Price.FIELD, FixedPoint.format(price, instrument.priceScale())));
        order.set(new TimeInForce(ioc ? TimeInForce.IMMEDIATE_OR_CANCEL : TimeInForce.GOOD_TILL_CANCEL));
        order.setString(quickfix.field.Account.FIELD, Long.toString(account.id()));
        return Session.lookupSession(sessions.get(account.user())).send(order);
    }

    public int poll()
    {
        final long now = System.nanoTime();
        synchronized (answered)
        {
            for (int i = 0; i < answeredCount; i++)
            {
                final long answer = answered[i];
                if ((answer & REJECTED_FLAG) != 0)
                {
                    reports.onReject(answer & ID_MASK, (answer & THROTTLED_FLAG) == THROTTLED_FLAG);
                }
                else
                {
                    reports.onFirstReport(answer, now);
                }
            }
            final int count = answeredCount;
            answeredCount = 0;
            return count;
        }
    }

    public void fromApp(final Message message, final SessionID sessionId) throws FieldNotFound
    {
        final String type = message.getHeader().getString(MsgType.FIELD);
        if (MsgType.EXECUTION_REPORT.equals(type) || MsgType.BUSINESS_MESSAGE_REJECT.equals(type))
        {
            final int idTag = message.isSetField(ClOrdID.FIELD) ? ClOrdID.FIELD : BusinessRejectRefID.FIELD;
            final String clOrdId = message.isSetField(idTag) ? message.getString(idTag) : "";
            if (!clOrdId.isEmpty() && Character.isDigit(clOrdId.charAt(0)))
            {
                final long orderId = Long.parseLong(clOrdId);
                // The gateway refuses before the engine with a BusinessMessageReject whose Text starts with the
                // reason: kept out of the latency, counted (THROTTLED apart).
                final long answer = MsgType.BUSINESS_MESSAGE_REJECT.equals(type) ?
                    (message.isSetField(Text.FIELD) && message.getString(Text.FIELD).startsWith("THROTTLED") ?
                    THROTTLED_FLAG : REJECTED_FLAG) | orderId : orderId;
                synchronized (answered)
                {
                    if (answeredCount < answered.length)
                    {
                        answered[answeredCount++] = answer;
                    }
                }
            }
        }
    }

    public void toAdmin(final Message message, final SessionID sessionId)
    {
        try
        {
            if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD)))
            {
                message.setField(new Username(sessionId.getSenderCompID().toLowerCase()));
                message.setField(new Password(passwords.get(sessionId.getSenderCompID())));
            }
        }
        catch (final FieldNotFound ignore)
        {
            // every message has a type
        }
    }

    public void onCreate(final SessionID sessionId)
    {
    }

    public void onLogon(final SessionID sessionId)
    {
    }

    public void onLogout(final SessionID sessionId)
    {
    }

    public void fromAdmin(final Message message, final SessionID sessionId)
    {
    }

    public void toApp(final Message message, final SessionID sessionId)
    {
    }

    public void close()
    {
        if (initiator != null)
        {
            initiator.stop(true);
        }
    }
}
