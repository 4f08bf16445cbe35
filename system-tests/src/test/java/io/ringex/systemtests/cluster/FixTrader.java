package io.ringex.systemtests.cluster;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.ringex.testing.Await;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.BusinessRejectRefID;
import quickfix.field.ClOrdID;
import quickfix.field.CxlRejReason;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Password;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.field.Username;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

/**
 * A trader on the gateway's FIX side through QuickFIX/J, an independent FIX engine: rests buys below the market and
 * keeps an {@link OrderLedger}. QuickFIX/J answers on its own threads; what it receives is handed to the test's thread
 * through a queue and applied in {@link #poll()}.
 */
final class FixTrader implements Application, AutoCloseable
{
    private static final String SYMBOL = "RGX-USD";

    private final String user;
    private final OrderLedger ledger;
    private final Queue<Runnable> received = new ConcurrentLinkedQueue<>();
    private final SessionID sessionId;
    private final SocketInitiator initiator;
    private final String prefix;
    private long next = 1;

    FixTrader(final String user, final int port) throws Exception
    {
        this.user = user;
        this.ledger = new OrderLedger(user + " (FIX)");
        this.prefix = "F" + Long.toString(System.nanoTime() % 100_000, 36);
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("SocketConnectHost", "localhost");
        settings.setLong("SocketConnectPort", port);
        settings.setLong("HeartBtInt", 5);
        settings.setString("ResetOnLogon", "Y");
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("StartTime", "00:00:00");
        settings.setString("EndTime", "00:00:00");
        settings.setLong("ReconnectInterval", 1);
        sessionId = new SessionID("FIX.4.4", user.toUpperCase(), "RINGEX");
        settings.setString(sessionId, "BeginString", "FIX.4.4");
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings,
            new ScreenLogFactory(false, false, false, false), new DefaultMessageFactory());
    }

    void logOn() throws Exception
    {
        initiator.start();
        Await.until(user + " logged on over FIX", Duration.ofSeconds(60), this::isLoggedOn, null);
    }

    boolean isLoggedOn()
    {
        final Session session = Session.lookupSession(sessionId);
        return null != session && session.isLoggedOn();
    }

    void trade(final long priceTicks, final int maxOpen) throws SessionNotFound
    {
        final String id = prefix + "-" + next++;
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(id), new Side(Side.BUY),
            new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        order.set(new Symbol(SYMBOL));
        order.set(new OrderQty(1));
        order.set(new Price(priceTicks / 100.0));
        order.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        ledger.sent(id);
        Session.sendToTarget(order, sessionId);
        if (ledger.openCount() > maxOpen)
        {
            cancelOldest();
        }
    }

    void cancelAll() throws SessionNotFound
    {
        while (ledger.openCount() > 0)
        {
            cancelOldest();
        }
    }

    private void cancelOldest() throws SessionNotFound
    {
        final String orig = ledger.oldestOpen();
        if (null != orig)
        {
            final String id = prefix + "-" + next++;
            ledger.cancelSent(id, orig);
            final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(orig), new ClOrdID(id),
                new Side(Side.BUY), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
            cancel.set(new Symbol(SYMBOL));
            Session.sendToTarget(cancel, sessionId);
        }
    }

    int poll()
    {
        int work = 0;
        Runnable event;
        while (null != (event = received.poll()))
        {
            event.run();
            work++;
        }
        return work;
    }

    OrderLedger ledger()
    {
        return ledger;
    }

    public void fromApp(final Message message, final SessionID session) throws FieldNotFound
    {
        final String type = message.getHeader().getString(MsgType.FIELD);
        if (MsgType.EXECUTION_REPORT.equals(type))
        {
            final char execType = message.getChar(ExecType.FIELD);
            final String id = message.getString(ClOrdID.FIELD);
            final String text = message.isSetField(Text.FIELD) ? message.getString(Text.FIELD) : "";
            received.add(() ->
            {
                if (execType == ExecType.NEW)
                {
                    ledger.acknowledged(id);
                }
                else if (execType == ExecType.REJECTED)
                {
                    ledger.rejected(id, text);
                }
                else if (execType == ExecType.CANCELED)
                {
                    ledger.cancelAnswered(id, "CANCELED");
                }
            });
        }
        else if (MsgType.ORDER_CANCEL_REJECT.equals(type))
        {
            final String id = message.getString(ClOrdID.FIELD);
            final String text = message.isSetField(Text.FIELD) ? message.getString(Text.FIELD) : "";
            final boolean unknown = message.isSetField(CxlRejReason.FIELD) &&
                message.getInt(CxlRejReason.FIELD) == CxlRejReason.UNKNOWN_ORDER;
            received.add(() -> ledger.cancelAnswered(id, (unknown ? "UNKNOWN_ORDER " : "") + text));
        }
        else if (MsgType.BUSINESS_MESSAGE_REJECT.equals(type) && message.isSetField(BusinessRejectRefID.FIELD))
        {
            final String id = message.getString(BusinessRejectRefID.FIELD);
            final String text = message.isSetField(Text.FIELD) ? message.getString(Text.FIELD) : "";
            received.add(() ->
            {
                ledger.rejected(id, text);
                ledger.cancelAnswered(id, text);
            });
        }
    }

    public void toAdmin(final Message message, final SessionID session)
    {
        try
        {
            if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD)))
            {
                message.setField(new Username(user));
                message.setField(new Password(user));
            }
        }
        catch (final FieldNotFound ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    public void onCreate(final SessionID session)
    {
    }

    public void onLogon(final SessionID session)
    {
    }

    public void onLogout(final SessionID session)
    {
    }

    public void fromAdmin(final Message message, final SessionID session)
    {
    }

    public void toApp(final Message message, final SessionID session)
    {
    }

    public void close()
    {
        initiator.stop(true);
    }
}
