package io.ringex.engine.node;

import java.security.MessageDigest;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.ShortBufferException;

import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingress's check of an operator's admin command: it must come inside an {@code AuthenticatedCommand} whose key
 * the node holds, whose HMAC-SHA256 is right, whose time is within the window of the ingress's clock and whose nonce
 * was not seen in twice that window (docs/protocol.md, "Admin authentication"). Only then is the command claimed into
 * the input ring, alone, its source the key's number; anything else is refused before the ring, counted
 * ({@code ingress-admin-refused}) and logged at most once a second per reason, never answered. Replay never comes
 * here: it replays what was journaled.
 * <p>
 * A command is checked ({@link #check}) before the ring is claimed and its nonce remembered ({@link #accept}) after,
 * so a fragment redelivered because the ring was full is not taken for its own replay.
 * <p>
 * Thread safety: the ingress agent's thread only.
 */
final class AdminAuthenticator
{
    /** Why a command was refused; the log names it, the sender is told nothing. */
    enum Refusal
    {
        /** Taken. */
        NONE,
        /** An operator command that came without a key. */
        UNSIGNED,
        /** The envelope or the command in it cannot be read, or the command is no operator's. */
        MALFORMED,
        /** No key of that number. */
        UNKNOWN_KEY,
        /** The MAC is wrong: another key, or the bytes were changed. */
        BAD_MAC,
        /** Signed too long before (or after) the ingress's clock. */
        STALE,
        /** Its nonce was seen within the window: a command sent again. */
        REPLAYED,
        /** The nonces of the window fill the memory kept for them: the sender tries again later. */
        BUSY
    }

    /** Nonces remembered: at most this many signed commands per two windows. */
    static final int MAX_NONCES = 1 << 16;

    private static final Logger LOG = LoggerFactory.getLogger(AdminAuthenticator.class);
    private static final int HEADER = MessageHeaderDecoder.ENCODED_LENGTH;
    private static final long LOG_INTERVAL_NS = 1_000_000_000L;

    private final Int2ObjectHashMap<Mac> macs = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<String> names = new Int2ObjectHashMap<>();
    private final long windowNs;
    private final AtomicCounter refused;
    private final MessageValidator commandValidator;
    private final AuthenticatedCommandDecoder envelope = new AuthenticatedCommandDecoder();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final byte[] covered;
    private final byte[] expected = new byte[AdminKey.MAC_LENGTH];
    private final byte[] received = new byte[AdminKey.MAC_LENGTH];
    private final long[] lastLogNs = new long[Refusal.values().length];
    private final LongHashSet nonces = new LongHashSet(MAX_NONCES);
    private final long[] nonceRing = new long[MAX_NONCES];
    private final long[] nonceExpiryNs = new long[MAX_NONCES];
    private int nonceHead;
    private long signedNotBeforeNs = Long.MIN_VALUE;
    private int nonceCount;

    private int keyId;
    private long nonce;
    private int commandOffset;
    private int commandLength;

    /**
     * @param keys              the keys it takes, or null for none (every operator command refused).
     * @param windowNs          how far a command's time may be from the clock, either way.
     * @param maxCommandLength  the longest command the input ring takes, header included.
     * @param refused           counts the commands refused.
     */
    AdminAuthenticator(final AdminKeys keys, final long windowNs, final int maxCommandLength,
        final AtomicCounter refused)
    {
        this.windowNs = windowNs;
        this.refused = refused;
        this.commandValidator = new MessageValidator(maxCommandLength);
        this.covered = new byte[maxEnvelopeLength(maxCommandLength)];
        final List<AdminKey> list = null == keys ? List.of() : keys.keys();
        for (final AdminKey key : list)
        {
            macs.put(key.id(), key.newMac());
            names.put(key.id(), key.name());
        }
        if (list.isEmpty())
        {
            LOG.warn("no admin keys ({} unset): the ingress refuses every admin command but the gateways' own",
                EngineContext.Configuration.ADMIN_KEYS_FILE_PROP_NAME);
        }
        else
        {
            LOG.info("admin commands taken signed with the keys {}", keys.names());
        }
    }

    /**
     * @param maxCommandLength the longest command, header included.
     * @return the longest AuthenticatedCommand that carries one.
     */
    static int maxEnvelopeLength(final int maxCommandLength)
    {
        return HEADER + AuthenticatedCommandDecoder.BLOCK_LENGTH + AuthenticatedCommandDecoder.commandHeaderLength() +
            maxCommandLength + AuthenticatedCommandDecoder.macHeaderLength() + AdminKey.MAC_LENGTH;
    }

    /**
     * Check an AuthenticatedCommand the ingress's validator has passed. On {@link Refusal#NONE} the command's place
     * and its key are readable until the next call; nothing is remembered until {@link #accept}.
     *
     * @param buffer holding it.
     * @param offset where its header starts.
     * @param length its length.
     * @param nowNs  the ingress's clock (ns since the epoch).
     * @return why it is refused, or {@link Refusal#NONE}.
     */
    Refusal check(final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        envelope.wrapAndApplyHeader(buffer, offset, header);
        keyId = envelope.keyId();
        final long timestampNs = envelope.timestampNs();
        nonce = envelope.nonce();
        commandLength = envelope.commandLength();
        commandOffset = envelope.limit() + AuthenticatedCommandDecoder.commandHeaderLength();
        envelope.skipCommand();
        final int macField = envelope.limit();
        final int macLength = envelope.macLength();
        if (macLength != AdminKey.MAC_LENGTH ||
            commandValidator.validate(buffer, commandOffset, commandLength) != RejectReason.NONE ||
            !MessageCatalog.isOperatorCommand(templateId(buffer, commandOffset)))
        {
            return Refusal.MALFORMED;
        }
        final Mac mac = macs.get(keyId);
        if (null == mac)
        {
            return Refusal.UNKNOWN_KEY;
        }
        final int coveredLength = macField - offset;
        buffer.getBytes(offset, covered, 0, coveredLength);
        buffer.getBytes(macField + AuthenticatedCommandDecoder.macHeaderLength(), received, 0, AdminKey.MAC_LENGTH);
        mac.update(covered, 0, coveredLength);
        try
        {
            mac.doFinal(expected, 0);
        }
        catch (final ShortBufferException ex)
        {
            throw new IllegalStateException(ex);
        }
        if (!MessageDigest.isEqual(expected, received))
        {
            return Refusal.BAD_MAC;
        }
        if (timestampNs < nowNs - windowNs || timestampNs > nowNs + windowNs || timestampNs < signedNotBeforeNs)
        {
            return Refusal.STALE;
        }
        forgetExpired(nowNs);
        if (nonces.contains(nonce))
        {
            return Refusal.REPLAYED;
        }
        return nonceCount == MAX_NONCES ? Refusal.BUSY : Refusal.NONE;
    }

    /**
     * The ingress opens: it knows no nonce from before (a node just started, a cluster member that now leads, whose
     * predecessor's nonces died with it), so a command signed before now could be one already taken: refused
     * {@link Refusal#STALE}, and its sender signs it again. Only the operator whose clock lags the node's is refused
     * for that long after a failover or a restart.
     *
     * @param nowNs the ingress's wall clock.
     */
    void signedNotBefore(final long nowNs)
    {
        signedNotBeforeNs = nowNs;
    }

    /**
     * The command last checked is in the ring: remember its nonce for two windows (a command signed at the window's
     * far edge stays acceptable for another window).
     *
     * @param nowNs the ingress's clock.
     */
    void accept(final long nowNs)
    {
        nonces.add(nonce);
        final int slot = (nonceHead + nonceCount) & (MAX_NONCES - 1);
        nonceRing[slot] = nonce;
        nonceExpiryNs[slot] = nowNs + 2 * windowNs;
        nonceCount++;
    }

    private void forgetExpired(final long nowNs)
    {
        while (nonceCount > 0 && nonceExpiryNs[nonceHead] < nowNs)
        {
            nonces.remove(nonceRing[nonceHead]);
            nonceHead = (nonceHead + 1) & (MAX_NONCES - 1);
            nonceCount--;
        }
    }

    /** @return the key number of the command last checked. */
    int keyId()
    {
        return keyId;
    }

    /** @return where the command last checked starts, its header included. */
    int commandOffset()
    {
        return commandOffset;
    }

    /** @return the length of the command last checked. */
    int commandLength()
    {
        return commandLength;
    }

    /**
     * Count and log (at most once a second per reason) a refusal; nothing is answered.
     *
     * @param refusal    why.
     * @param templateId the template refused (the envelope's, or an unsigned command's).
     * @param nowNs      a monotonic clock, for the log's rate.
     */
    void refused(final Refusal refusal, final int templateId, final long nowNs)
    {
        refused.incrementRelease();
        if (nowNs - lastLogNs[refusal.ordinal()] >= LOG_INTERVAL_NS || 0 == lastLogNs[refusal.ordinal()])
        {
            lastLogNs[refusal.ordinal()] = nowNs;
            final boolean signed = refusal != Refusal.UNSIGNED;
            final String key = !signed ? "none" : keyId + (names.containsKey(keyId) ? " " + names.get(keyId) : "");
            LOG.warn("ingress refused an admin command: reason={} message={} key={} (not journaled, not answered; " +
                "counted in ingress-admin-refused; further ones for this reason within 1s are counted, not logged)",
                refusal, MessageCatalog.name(templateId), key);
        }
    }

    private static int templateId(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
    }
}
