package io.ringex.engine.cluster;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.Header;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.ReplicatedCommandEncoder;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's own client of the cluster, through which its ingress appends commands to the cluster's log while the
 * member leads. Each command goes as a {@code ReplicatedCommand} stamped with the term the member leads: the clustered
 * service of every member refuses one whose term is not the log's current term, so a command taken by a leader that
 * has since been deposed is never applied, whenever it reaches the log.
 * <p>
 * The client connects in the background, through the members' client ingress endpoints, proving the members' shared
 * secret ({@link ClusterSecret}), follows the leader as Aeron's client does, keeps its session alive, and connects
 * again whenever its session is lost. It is connected on followers too, so a member elected leader can append at once.
 * <p>
 * Thread safety: one thread, the ingress's.
 */
public final class ClusterClient implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterClient.class);
    private static final long KEEP_ALIVE_INTERVAL_NS = 1_000_000_000L;
    private static final long RETRY_LOG_INTERVAL_NS = 10_000_000_000L;
    private static final int MAX_COMMAND_LENGTH = 4096;

    private final AeronCluster.Context template;
    private final NanoClock clock;
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH +
        ReplicatedCommandEncoder.BLOCK_LENGTH + ReplicatedCommandEncoder.commandHeaderLength() + MAX_COMMAND_LENGTH]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ReplicatedCommandEncoder encoder = new ReplicatedCommandEncoder();
    private AeronCluster.AsyncConnect connecting;
    private AeronCluster client;
    private long nextKeepAliveNs;
    private long nextRetryLogNs;
    private long failedConnects;
    private boolean closed;

    /**
     * @param aeron    the node's Aeron client (not closed here).
     * @param members  the cluster's members.
     * @param self     this member, whose host the egress binds on.
     * @param secret   the members' shared secret.
     * @param timeoutNs how long a connect attempt may take.
     * @param clock    times keep-alives.
     */
    public ClusterClient(
        final Aeron aeron,
        final ClusterMembers members,
        final ClusterMembers.Member self,
        final ClusterSecret secret,
        final long timeoutNs,
        final NanoClock clock)
    {
        this.clock = clock;
        this.template = new AeronCluster.Context()
            .aeron(aeron)
            .ownsAeronClient(false)
            .ingressChannel("aeron:udp")
            .ingressEndpoints(members.ingressEndpoints())
            .egressChannel(self.ephemeralChannel())
            .credentialsSupplier(secret.credentials())
            .messageTimeoutNs(timeoutNs)
            .egressListener(new IgnoredEgress())
            .clientName("ringex-engine-" + self.id());
    }

    /**
     * Connect if not connected, keep the session alive and take what the cluster says (a new leader).
     *
     * @return the work done.
     */
    public int doWork()
    {
        if (closed)
        {
            return 0;
        }
        if (null != client)
        {
            if (client.isClosed())
            {
                LOG.warn("cluster session lost: connecting again");
                client = null;
                return 1;
            }
            int work = client.pollEgress();
            final long nowNs = clock.nanoTime();
            if (nowNs >= nextKeepAliveNs && client.sendKeepAlive())
            {
                nextKeepAliveNs = nowNs + KEEP_ALIVE_INTERVAL_NS;
                work++;
            }
            return work;
        }
        return connect();
    }

    private int connect()
    {
        try
        {
            if (null == connecting)
            {
                connecting = AeronCluster.asyncConnect(template.clone());
            }
            final AeronCluster connected = connecting.poll();
            if (null != connected)
            {
                connecting = null;
                client = connected;
                nextKeepAliveNs = clock.nanoTime() + KEEP_ALIVE_INTERVAL_NS;
                LOG.info("cluster session {} open (leader member {}, term {})", connected.clusterSessionId(),
                    connected.leaderMemberId(), connected.leadershipTermId());
                failedConnects = 0;
            }
            return 1;
        }
        catch (final AeronException ex)
        {
            // No leader yet (an election), or unreachable: try again. Logged now and then, not per attempt.
            CloseHelper.quietClose(connecting);
            connecting = null;
            failedConnects++;
            final long nowNs = clock.nanoTime();
            if (nowNs >= nextRetryLogNs)
            {
                nextRetryLogNs = nowNs + RETRY_LOG_INTERVAL_NS;
                LOG.info("cluster not reached yet ({} attempts): {}", failedConnects, ex.getMessage());
            }
            return 0;
        }
    }

    /**
     * @return whether a session is open, so {@link #offer} may append.
     */
    public boolean isConnected()
    {
        return null != client && !client.isClosed();
    }

    /**
     * @return the member the client sends to, or -1 when not connected.
     */
    public int leaderMemberId()
    {
        return isConnected() ? client.leaderMemberId() : -1;
    }

    /**
     * @return the term of the leader the client sends to, or -1 when not connected.
     */
    public long leadershipTermId()
    {
        return isConnected() ? client.leadershipTermId() : -1;
    }

    /**
     * Offer one command to the cluster's log, stamped with the term this member leads.
     *
     * @param term        the term the member leads, checked by every member's service against the log's.
     * @param timestampNs the time the ingress stamped.
     * @param sourceId    who sent it (session or admin source).
     * @param templateId  its SBE template.
     * @param buffer      the command, SBE header included.
     * @param offset      where it starts.
     * @param length      its length.
     * @return true if appended to the leader's ingress; false if it cannot be now (not connected, back-pressured):
     * try again later.
     */
    public boolean offer(
        final long term,
        final long timestampNs,
        final long sourceId,
        final int templateId,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        if (!isConnected())
        {
            return false;
        }
        if (length > MAX_COMMAND_LENGTH)
        {
            throw new IllegalArgumentException("command of " + length + " bytes, longer than " + MAX_COMMAND_LENGTH);
        }
        encoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder)
            .epoch(term)
            .sequence(0)
            .timestampNs(timestampNs)
            .sourceId(sourceId)
            .templateId(templateId)
            .putCommand(buffer, offset, length);
        final int messageLength = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
        long result = client.offer(sendBuffer, 0, messageLength);
        if (result == Publication.ADMIN_ACTION)
        {
            result = client.offer(sendBuffer, 0, messageLength);
        }
        return result > 0;
    }

    public void close()
    {
        closed = true;
        CloseHelper.quietCloseAll(connecting, client);
        connecting = null;
        client = null;
    }

    /** The engine's client expects nothing on its egress: the service answers clients through the engine's streams. */
    private static final class IgnoredEgress implements EgressListener
    {
        public void onMessage(
            final long clusterSessionId,
            final long timestamp,
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final Header header)
        {
        }
    }
}
