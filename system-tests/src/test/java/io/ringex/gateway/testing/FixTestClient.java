package io.ringex.gateway.testing;

import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.Username;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A QuickFIX/J FIX 4.4 initiator for tests, with the FIX44 data dictionary validating everything it receives: the
 * independent client the gateway's FIX side is checked against. One initiator may hold several sessions.
 */
public final class FixTestClient implements Application, AutoCloseable
{
    private final SessionSettings settings = new SessionSettings();
    private final Map<SessionID, String> passwords = new ConcurrentHashMap<>();
    private final Map<SessionID, String> usernames = new ConcurrentHashMap<>();
    private final Map<SessionID, List<Message>> received = new ConcurrentHashMap<>();
    private final Map<SessionID, List<Message>> receivedAdmin = new ConcurrentHashMap<>();
    private final int port;
    private SocketInitiator initiator;

    /**
     * @param port the acceptor's port.
     */
    public FixTestClient(final int port)
    {
        this.port = port;
    }

    /**
     * Add a session; call before {@link #start()}.
     *
     * @param senderCompId our CompID.
     * @param targetCompId the gateway's.
     * @param username     Username(553).
     * @param password     Password(554).
     * @return its id.
     */
    public SessionID addSession(
        final String senderCompId, final String targetCompId, final String username, final String password)
    {
        final SessionID id = new SessionID("FIX.4.4", senderCompId, targetCompId);
        settings.setString(id, "ConnectionType", "initiator");
        settings.setString(id, "SocketConnectHost", "localhost");
        settings.setLong(id, "SocketConnectPort", port);
        settings.setString(id, "StartTime", "00:00:00");
        settings.setString(id, "EndTime", "00:00:00");
        settings.setLong(id, "HeartBtInt", 30);
        settings.setLong(id, "ReconnectInterval", 1);
        settings.setString(id, "UseDataDictionary", "Y");
        settings.setString(id, "DataDictionary", "FIX44.xml");
        settings.setString(id, "ResetOnLogon", "N");
        settings.setString(id, "ResetOnLogout", "N");
        settings.setString(id, "ResetOnDisconnect", "N");
        settings.setString(id, "ValidateIncomingMessage", "Y");
        usernames.put(id, username);
        passwords.put(id, password);
        received.put(id, new CopyOnWriteArrayList<>());
        receivedAdmin.put(id, new CopyOnWriteArrayList<>());
        return id;
    }

    /**
     * Start connecting every session.
     *
     * @return this.
     * @throws Exception on QuickFIX/J configuration errors.
     */
    public FixTestClient start() throws Exception
    {
        // -Dfix.test.log=true prints QuickFIX/J's view of every message
        final boolean log = Boolean.getBoolean("fix.test.log");
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings,
            new ScreenLogFactory(log, log, log, false), new DefaultMessageFactory());
        initiator.start();
        return this;
    }

    /**
     * @param id session.
     * @return QuickFIX/J's session.
     */
    public Session session(final SessionID id)
    {
        return Session.lookupSession(id);
    }

    /**
     * @param id session.
     * @return true if logged on.
     */
    public boolean isLoggedOn(final SessionID id)
    {
        final Session session = Session.lookupSession(id);
        return session != null && session.isLoggedOn();
    }

    /**
     * @param id      session.
     * @param message to send.
     * @return true if queued.
     */
    public boolean send(final SessionID id, final Message message)
    {
        return Session.lookupSession(id).send(message);
    }

    /**
     * @param id session.
     * @return application messages received, oldest first.
     */
    public List<Message> received(final SessionID id)
    {
        return received.get(id);
    }

    /**
     * @param id session.
     * @return admin messages received, oldest first.
     */
    public List<Message> receivedAdmin(final SessionID id)
    {
        return receivedAdmin.get(id);
    }

    /**
     * @param id        session.
     * @param predicate test.
     * @return received application messages that match.
     */
    public List<Message> find(final SessionID id, final Predicate<Message> predicate)
    {
        return received.get(id).stream().filter(predicate).toList();
    }

    /**
     * A predicate on MsgType and one body field.
     *
     * @param msgType MsgType.
     * @param tag     body tag.
     * @param value   its value.
     * @return the predicate.
     */
    public static Predicate<Message> is(final String msgType, final int tag, final String value)
    {
        return m -> msgType.equals(header(m, MsgType.FIELD)) && value.equals(field(m, tag));
    }

    /**
     * @param m   message.
     * @param tag body tag.
     * @return the value or null.
     */
    public static String field(final Message m, final int tag)
    {
        try
        {
            return m.isSetField(tag) ? m.getString(tag) : null;
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    /**
     * @param m   message.
     * @param tag header tag.
     * @return the value or null.
     */
    public static String header(final Message m, final int tag)
    {
        try
        {
            return m.getHeader().isSetField(tag) ? m.getHeader().getString(tag) : null;
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        if (initiator != null)
        {
            initiator.stop(true);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onCreate(final SessionID sessionId)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void onLogon(final SessionID sessionId)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void onLogout(final SessionID sessionId)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        if (MsgType.LOGON.equals(header(message, MsgType.FIELD)))
        {
            message.setString(Username.FIELD, usernames.get(sessionId));
            message.setString(Password.FIELD, passwords.get(sessionId));
        }
    }

    /**
     * {@inheritDoc}
     */
    public void fromAdmin(final Message message, final SessionID sessionId)
    {
        receivedAdmin.get(sessionId).add(message);
    }

    /**
     * {@inheritDoc}
     */
    public void toApp(final Message message, final SessionID sessionId)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void fromApp(final Message message, final SessionID sessionId)
    {
        received.get(sessionId).add(message);
    }
}
