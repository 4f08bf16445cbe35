package io.ringex.client.dropcopy;

import io.ringex.client.PolledConnect;
import io.aeron.Aeron;
import io.aeron.exceptions.ConfigurationException;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
import io.ringex.client.LogonRefusedException;
import io.ringex.protocol.codecs.BusinessRejectDecoder;
import io.ringex.protocol.codecs.CancelRejectDecoder;
import io.ringex.protocol.codecs.DropCopyStatusDecoder;
import io.ringex.protocol.codecs.DropCopySubscribeEncoder;
import io.ringex.protocol.codecs.ExecutionReportDecoder;
import io.ringex.protocol.codecs.LogonResponseDecoder;
import io.ringex.protocol.codecs.LogoutDecoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.TradeBustedDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A drop-copy session over SBE: a DROP_COPY or CLEARING user {@link #subscribe}s from a command sequence and receives a
 * copy of every execution report and trade bust of its scope, replayed from the journal, then {@link
 * DropCopyListener#onReplayComplete}, then live, each exactly once, in command order (docs/client.md, "SBE:
 * DropCopyClient").
 * <p>
 * Every copy carries its {@code commandSequence}; {@link #resume()} after a new logon, or {@link #subscribe(long, long,
 * int)} from {@link #lastSequence()} and {@link #copiesOfLastSequence()} after a restart, misses nothing and repeats
 * nothing. {@link #connect(Context)} returns a logged-on session or throws why not, as {@link ExchangeClient} does.
 * <p>
 * Threading: single-threaded by contract: the sends, {@link #poll()} and the getters from one thread. Nothing is
 * allocated per message.
 */
public final class DropCopyClient implements AutoCloseable
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;

    private final DropCopyListener listener;
    /** Set once, by the connection that logged it on, before the client is handed out. */
    private ExchangeClient client;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final DropCopySubscribeEncoder subscribe = new DropCopySubscribeEncoder();
    private long requestId;
    private long lastSequence = -1;
    private int copiesOfLastSequence;
    private long skipSequence = -1;
    private int skipCount;
    private boolean live;
    private long copies;

    private DropCopyClient(final DropCopyListener listener)
    {
        this.listener = listener;
    }

    /**
     * Connect to the gateway and log on as a drop-copy session: returns once the session is open, ready to
     * {@link #subscribe}.
     *
     * @param ctx the session's configuration; concluded here, so it serves this one client.
     * @return the logged-on client.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     * @throws LogonRefusedException  if the gateway refused the logon (with its reason and text).
     * @throws io.aeron.exceptions.TimeoutException if the gateway did not connect, or answer the logon, within
     *                                              {@link Context#connectTimeoutNs()}.
     */
    public static DropCopyClient connect(final Context ctx)
    {
        final AsyncConnect asyncConnect = asyncConnect(ctx);
        return PolledConnect.complete(asyncConnect, ctx.idleStrategy());
    }

    /**
     * Begin connecting and logging on, for a caller that polls: {@link AsyncConnect#poll()} until it returns the
     * client.
     *
     * @param ctx the session's configuration; concluded here, so it serves this one client.
     * @return the connection in progress.
     * @throws ConfigurationException if the context is incomplete or malformed (the message names the setting).
     */
    public static AsyncConnect asyncConnect(final Context ctx)
    {
        ctx.conclude();
        return new AsyncConnect(ctx);
    }

    /** @return whether the gateway has connected to this client's publication. */
    public boolean isConnected()
    {
        return client.isConnected();
    }

    /**
     * Send Logon again on this client's channels, after a Logout ({@link #connect(Context)} sent the first): then
     * {@link #resume()}.
     *
     * @param username            a DROP_COPY or CLEARING user.
     * @param password            its password.
     * @param heartbeatIntervalMs 0 for the gateway's default.
     * @return offer result.
     */
    public long logon(final String username, final CharSequence password, final int heartbeatIntervalMs)
    {
        return client.logon(username, password, false, heartbeatIntervalMs);
    }

    /** @return whether the session is logged on. */
    public boolean isLoggedOn()
    {
        return client.isLoggedOn();
    }

    /**
     * Copies of the reports of the commands after a sequence, then live ones.
     *
     * @param fromSequence the {@code commandSequence} of the last copy processed (all of that command's copies); 0
     *                     for every report the engine keeps.
     * @return offer result.
     */
    public long subscribe(final long fromSequence)
    {
        return subscribe(fromSequence, -1, 0);
    }

    /**
     * Copies of the reports of the commands after a sequence, skipping the first copies of the command after it:
     * what {@link #resume()} does, for a program that kept {@link #lastSequence()} and
     * {@link #copiesOfLastSequence()} across a restart.
     *
     * @param fromSequence    reports of the commands after this one.
     * @param skipSequence    a command some of whose copies were processed already (-1: none).
     * @param skipCopies      how many of its copies to skip.
     * @return offer result.
     */
    public long subscribe(final long fromSequence, final long skipSequence, final int skipCopies)
    {
        final int length = HEADER_LENGTH + subscribe.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sessionId(client.sessionId())
            .requestId(++requestId)
            .fromSequence(fromSequence)
            .encodedLength();
        final long result = client.offerRaw(buffer, 0, length);
        if (result > 0)
        {
            this.skipSequence = skipSequence;
            this.skipCount = skipCopies;
            this.live = false;
        }
        return result;
    }

    /**
     * Subscribe again from where the copies delivered so far end (after a new logon): nothing missed, nothing twice.
     *
     * @param fromIfNone where to start if no copy was delivered yet.
     * @return offer result.
     */
    public long resume(final long fromIfNone)
    {
        return lastSequence < 0 ? subscribe(fromIfNone) :
            subscribe(lastSequence - 1, lastSequence, copiesOfLastSequence);
    }

    /**
     * As {@link #resume(long)} from the first report the engine keeps.
     *
     * @return offer result.
     */
    public long resume()
    {
        return resume(0);
    }

    /** @return the command sequence of the last copy delivered, -1 if none. */
    public long lastSequence()
    {
        return lastSequence;
    }

    /** @return how many copies of that command were delivered. */
    public int copiesOfLastSequence()
    {
        return copiesOfLastSequence;
    }

    /** @return whether the replay is complete and the copies are live. */
    public boolean isLive()
    {
        return live;
    }

    /** @return copies delivered (reports and busts) since this client was made. */
    public long copies()
    {
        return copies;
    }

    /**
     * Send bytes as they are (tools, tests).
     *
     * @param buffer holding the message.
     * @param offset where it starts.
     * @param length its length.
     * @return offer result.
     */
    public long offerRaw(final DirectBuffer buffer, final int offset, final int length)
    {
        return client.offerRaw(buffer, offset, length);
    }

    /**
     * Deliver what arrived and send a heartbeat when due.
     *
     * @return work done.
     */
    public int poll()
    {
        return client.poll();
    }

    /**
     * Send Logout.
     *
     * @return offer result.
     */
    public long logout()
    {
        return client.logout();
    }

    /** Close the publication and subscription (not the Aeron client). */
    public void close()
    {
        client.close();
    }

    /**
     * A connection and logon in progress: {@link #poll()} until it returns the logged-on client, or throws why not.
     * Polled from one thread; {@link #close()} abandons it.
     */
    public static final class AsyncConnect implements PolledConnect<DropCopyClient>
    {
        /** Where the connection is. */
        public enum State
        {
            /** Waiting for the gateway to take this client's publication. */
            AWAIT_PUBLICATION_CONNECTED,
            /** Offering the Logon. */
            SEND_LOGON,
            /** Waiting for the gateway's LogonResponse. */
            AWAIT_LOGON_RESPONSE,
            /** Logged on: the client was returned. */
            DONE,
            /** Failed or abandoned: the client's channels are closed. */
            CLOSED
        }

        private final DropCopyClient copies;
        private final ExchangeClient.AsyncConnect session;

        AsyncConnect(final Context ctx)
        {
            copies = new DropCopyClient(ctx.listener());
            session = ExchangeClient.asyncConnect(ctx.sessionContext(copies.new Events()));
        }

        /**
         * @return where the connection is.
         */
        public State state()
        {
            return State.valueOf(session.state().name());
        }

        /**
         * Take the next step.
         *
         * @return the logged-on client once the gateway accepted the logon, null before.
         * @throws LogonRefusedException if the gateway refused the logon.
         * @throws io.aeron.exceptions.TimeoutException if the connect timeout passed first.
         * @throws IllegalStateException if done or closed already.
         */
        public DropCopyClient poll()
        {
            final ExchangeClient client = session.poll();
            if (null == client)
            {
                return null;
            }
            copies.client = client;
            return copies;
        }

        /**
         * Abandon the connection, closing the client's channels; nothing once the client was returned.
         */
        public void close()
        {
            session.close();
        }
    }

    /**
     * What {@link #connect(Context)} and {@link #asyncConnect(Context)} need: the gateway's channel, this session's
     * response channel, the drop-copy user's credentials, the listener and the timeouts. Fluent setters;
     * {@link #conclude()} checks it whole and fails naming the first setting that is missing or malformed. One context
     * serves one client.
     */
    public static final class Context
    {
        /** The gateway's client stream when none is set. */
        public static final int GATEWAY_STREAM_ID_DEFAULT = ExchangeClient.Context.GATEWAY_STREAM_ID_DEFAULT;
        /** The stream the gateway answers on when none is set; unique per client on one response channel. */
        public static final int RESPONSE_STREAM_ID_DEFAULT = ExchangeClient.Context.RESPONSE_STREAM_ID_DEFAULT;
        /** How long connecting and logging on may take when no timeout is set. */
        public static final long CONNECT_TIMEOUT_NS_DEFAULT = ExchangeClient.Context.CONNECT_TIMEOUT_NS_DEFAULT;

        private static final String SESSION_KEY = "ExchangeClient.Context.";
        private static final String KEY = "DropCopyClient.Context.";
        /** Stands in for the copies' listener while {@link #conclude()} checks the session's settings. */
        private static final ExchangeListener CHECK_ONLY = new ExchangeListener()
        {
            public void onLogonResponse(final LogonResponseDecoder response)
            {
            }

            public void onExecutionReport(final ExecutionReportDecoder report)
            {
            }

            public void onCancelReject(final CancelRejectDecoder reject)
            {
            }

            public void onBusinessReject(final BusinessRejectDecoder reject)
            {
            }
        };

        private boolean concluded;
        private Aeron aeron;
        private String gatewayChannel;
        private int gatewayStreamId = GATEWAY_STREAM_ID_DEFAULT;
        private String responseChannel;
        private int responseStreamId = RESPONSE_STREAM_ID_DEFAULT;
        private String username;
        private CharSequence password;
        private long heartbeatIntervalNs;
        private long connectTimeoutNs = CONNECT_TIMEOUT_NS_DEFAULT;
        private IdleStrategy idleStrategy;
        private DropCopyListener listener;
        private NanoClock nanoClock = SystemNanoClock.INSTANCE;

        /**
         * Check the settings and fill in the defaults; {@link #connect(Context)} calls it.
         *
         * @return this.
         * @throws ConfigurationException naming the first setting missing or malformed.
         * @throws IllegalStateException  if concluded already: a context serves one client.
         */
        public Context conclude()
        {
            if (concluded)
            {
                throw new IllegalStateException("DropCopyClient.Context concluded already: one context per client");
            }
            if (null == listener)
            {
                throw new ConfigurationException(KEY + "listener: missing (it receives the copies)");
            }
            if (null == nanoClock)
            {
                throw new ConfigurationException(KEY + "nanoClock: missing");
            }
            // The session's settings are an ExchangeClient's, checked by its rules, under this context's name.
            try
            {
                sessionContext(CHECK_ONLY).conclude();
            }
            catch (final ConfigurationException ex)
            {
                final String message = ex.getMessage();
                final int at = message.indexOf(SESSION_KEY);
                throw new ConfigurationException(at < 0 ? message :
                    message.substring(0, at) + KEY + message.substring(at + SESSION_KEY.length()));
            }
            if (null == idleStrategy)
            {
                idleStrategy = new BackoffIdleStrategy();
            }
            concluded = true;
            return this;
        }

        ExchangeClient.Context sessionContext(final ExchangeListener events)
        {
            return new ExchangeClient.Context()
                .aeron(aeron)
                .gatewayChannel(gatewayChannel)
                .gatewayStreamId(gatewayStreamId)
                .responseChannel(responseChannel)
                .responseStreamId(responseStreamId)
                .username(username)
                .password(password)
                .heartbeatIntervalNs(heartbeatIntervalNs)
                .connectTimeoutNs(connectTimeoutNs)
                .idleStrategy(idleStrategy)
                .nanoClock(nanoClock)
                .listener(events)
                .receiveDropCopies(true);
        }

        /**
         * @param aeron a connected Aeron client; not closed by the client.
         * @return this.
         */
        public Context aeron(final Aeron aeron)
        {
            this.aeron = aeron;
            return this;
        }

        /**
         * @return the Aeron client.
         */
        public Aeron aeron()
        {
            return aeron;
        }

        /**
         * @param gatewayChannel the gateway's client channel, e.g. {@code aeron:udp?endpoint=localhost:40200}.
         * @return this.
         */
        public Context gatewayChannel(final String gatewayChannel)
        {
            this.gatewayChannel = gatewayChannel;
            return this;
        }

        /**
         * @return the gateway's client channel.
         */
        public String gatewayChannel()
        {
            return gatewayChannel;
        }

        /**
         * @param gatewayStreamId the gateway's client stream; {@link #GATEWAY_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context gatewayStreamId(final int gatewayStreamId)
        {
            this.gatewayStreamId = gatewayStreamId;
            return this;
        }

        /**
         * @return the gateway's client stream.
         */
        public int gatewayStreamId()
        {
            return gatewayStreamId;
        }

        /**
         * @param responseChannel where the gateway answers this session: {@code aeron:udp?endpoint=host:port} with
         *                        this host's address (not the wildcard), or {@code aeron:ipc} on the gateway's host.
         * @return this.
         */
        public Context responseChannel(final String responseChannel)
        {
            this.responseChannel = responseChannel;
            return this;
        }

        /**
         * @return where the gateway answers this session.
         */
        public String responseChannel()
        {
            return responseChannel;
        }

        /**
         * @param responseStreamId the stream the gateway answers on; {@link #RESPONSE_STREAM_ID_DEFAULT} when not set.
         * @return this.
         */
        public Context responseStreamId(final int responseStreamId)
        {
            this.responseStreamId = responseStreamId;
            return this;
        }

        /**
         * @return the stream the gateway answers on.
         */
        public int responseStreamId()
        {
            return responseStreamId;
        }

        /**
         * @param username a DROP_COPY user (its accounts) or a CLEARING one (the venue).
         * @return this.
         */
        public Context username(final String username)
        {
            this.username = username;
            return this;
        }

        /**
         * @return the user to log on as.
         */
        public String username()
        {
            return username;
        }

        /**
         * @param password the user's password; kept (not copied) until the Logon is sent.
         * @return this.
         */
        public Context password(final CharSequence password)
        {
            this.password = password;
            return this;
        }

        /**
         * @return the user's password.
         */
        public CharSequence password()
        {
            return password;
        }

        /**
         * @param heartbeatIntervalNs the interval both sides heartbeat at, whole milliseconds on the wire; 0 (when not
         *                            set) for the gateway's.
         * @return this.
         */
        public Context heartbeatIntervalNs(final long heartbeatIntervalNs)
        {
            this.heartbeatIntervalNs = heartbeatIntervalNs;
            return this;
        }

        /**
         * @return the heartbeat interval asked for, 0 for the gateway's.
         */
        public long heartbeatIntervalNs()
        {
            return heartbeatIntervalNs;
        }

        /**
         * @param connectTimeoutNs how long connecting and logging on may take; {@link #CONNECT_TIMEOUT_NS_DEFAULT}
         *                         when not set. Longer than the gateway's logon failure delay, so a refusal is heard.
         * @return this.
         */
        public Context connectTimeoutNs(final long connectTimeoutNs)
        {
            this.connectTimeoutNs = connectTimeoutNs;
            return this;
        }

        /**
         * @return how long connecting and logging on may take.
         */
        public long connectTimeoutNs()
        {
            return connectTimeoutNs;
        }

        /**
         * @param idleStrategy what {@link #connect(Context)} does between steps; a {@link BackoffIdleStrategy} when
         *                     not set.
         * @return this.
         */
        public Context idleStrategy(final IdleStrategy idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /**
         * @return the idle strategy.
         */
        public IdleStrategy idleStrategy()
        {
            return idleStrategy;
        }

        /**
         * @param listener receives the copies and notices during {@link DropCopyClient#poll()}.
         * @return this.
         */
        public Context listener(final DropCopyListener listener)
        {
            this.listener = listener;
            return this;
        }

        /**
         * @return the listener.
         */
        public DropCopyListener listener()
        {
            return listener;
        }

        /**
         * @param nanoClock the clock of the heartbeats and the connect timeout; the system's when not set.
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * @return the clock.
         */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }
    }

    private boolean take(final long sequence)
    {
        if (sequence == skipSequence && skipCount > 0)
        {
            skipCount--;
            return false;
        }
        if (sequence == lastSequence)
        {
            copiesOfLastSequence++;
        }
        else
        {
            lastSequence = sequence;
            copiesOfLastSequence = 1;
        }
        copies++;
        return true;
    }

    private final class Events implements ExchangeListener
    {
        public void onLogonResponse(final LogonResponseDecoder response)
        {
            listener.onLogonResponse(response);
        }

        public void onExecutionReport(final ExecutionReportDecoder report)
        {
            if (take(report.commandSequence()))
            {
                listener.onCopy(report);
            }
        }

        public void onTradeBusted(final TradeBustedDecoder bust)
        {
            if (take(bust.commandSequence()))
            {
                listener.onTradeBusted(bust);
            }
        }

        public void onDropCopyStatus(final DropCopyStatusDecoder status)
        {
            if (status.requestId() != requestId)
            {
                return; // a notice about a subscription this client has since replaced
            }
            switch (status.dropCopyEvent())
            {
                case REPLAY_COMPLETE:
                    live = true;
                    listener.onReplayComplete(status.lastSequence());
                    break;
                case GAP:
                    listener.onGap(status.fromSequence(), status.firstAvailableSequence());
                    break;
                case REFUSED:
                    listener.onRefused(status.rejectReason(), status.lastSequence());
                    break;
                default:
                    break;
            }
        }

        public void onCancelReject(final CancelRejectDecoder reject)
        {
        }

        public void onBusinessReject(final BusinessRejectDecoder reject)
        {
            listener.onBusinessReject(reject);
        }

        public void onLogout(final LogoutDecoder logout)
        {
            live = false;
            listener.onLogout(logout);
        }
    }
}
