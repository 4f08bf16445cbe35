package io.ringex.client.dropcopy;

import io.aeron.Aeron;
import io.ringex.client.ExchangeClient;
import io.ringex.client.ExchangeListener;
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
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A drop-copy session over SBE: a user with the DROP_COPY role (its accounts) or CLEARING (the venue) logs on to a
 * gateway and {@link #subscribe}s from a command sequence; it then receives a copy of every execution report and trade
 * bust of its scope, whichever session the order belongs to: first those of the commands after that sequence, replayed
 * from the engine's journal, then {@link DropCopyListener#onReplayComplete}, then live ones, each exactly once, in
 * command order. Every copy carries its {@code commandSequence}: the point to resume from after a disconnect.
 * <p>
 * Several reports may come from one command; a disconnect may fall between two of them. {@link #resume()} (after a
 * new logon on the same client) subscribes again from the command before the last one seen and skips the copies of
 * that command already delivered, so nothing is missed or delivered twice. A program that restarts can do the same
 * with {@link #subscribe(long, long, int)} from {@link #lastSequence()} and {@link #copiesOfLastSequence()} it kept.
 * <p>
 * It is an {@link ExchangeClient} underneath (the same logon, heartbeats and channels); a drop-copy session may not
 * send orders. Threading: single-threaded by contract, like {@code ExchangeClient}: the sends, {@link #poll()} and the
 * getters from one thread. Nothing is allocated per message.
 */
public final class DropCopyClient implements AutoCloseable
{
    private static final int HEADER_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH;

    private final ExchangeClient client;
    private final DropCopyListener listener;
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

    private DropCopyClient(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final DropCopyListener listener)
    {
        this.listener = listener;
        this.client = ExchangeClient.openChannels(aeron, gatewayChannel, gatewayStreamId, responseChannel,
            responseStreamId, new Events()).receiveDropCopies();
    }

    /**
     * Create the session's publication to the gateway and subscription to its response channel.
     *
     * @param aeron            connected Aeron client; not closed by this client.
     * @param gatewayChannel   the gateway's client channel.
     * @param gatewayStreamId  the gateway's client stream.
     * @param responseChannel  where the gateway answers this client.
     * @param responseStreamId the stream it answers on.
     * @param listener         receives the copies and notices during {@link #poll()}.
     * @return the client; check {@link #isConnected()} before {@link #logon}.
     */
    public static DropCopyClient connect(
        final Aeron aeron,
        final String gatewayChannel,
        final int gatewayStreamId,
        final String responseChannel,
        final int responseStreamId,
        final DropCopyListener listener)
    {
        return new DropCopyClient(aeron, gatewayChannel, gatewayStreamId, responseChannel, responseStreamId,
            listener);
    }

    /** @return whether the gateway has connected to this client's publication. */
    public boolean isConnected()
    {
        return client.isConnected();
    }

    /**
     * Send Logon.
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
