package io.ringex.client;

import java.security.SecureRandom;
import java.util.function.LongSupplier;

import javax.crypto.Mac;
import javax.crypto.ShortBufferException;

import io.ringex.protocol.codecs.AuthenticatedCommandEncoder;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;

/**
 * Wraps an admin command in an {@code AuthenticatedCommand}: the key's number, the time, a random nonce, the command,
 * and an HMAC-SHA256 with the key over every byte of the message before the MAC's length field, the message header
 * included (docs/protocol.md, "Admin authentication"). The engine's ingress checks exactly that before it takes the
 * command; a command captured on the wire cannot be sent again (the nonce), nor later (the time).
 * <p>
 * Thread safety: one thread (one {@link Mac}); make one signer per thread.
 */
public final class AdminCommandSigner
{
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    private static final int VAR_DATA_HEADER = AuthenticatedCommandEncoder.commandHeaderLength();

    private final AdminKey key;
    private final Mac mac;
    private final EpochNanoClock clock;
    private final LongSupplier nonces;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final AuthenticatedCommandEncoder envelope = new AuthenticatedCommandEncoder();
    private byte[] signed = new byte[512];
    private final byte[] macBytes = new byte[AdminKey.MAC_LENGTH];

    /**
     * A signer on the system clock, with nonces from a {@link SecureRandom}.
     *
     * @param key the key to sign with.
     */
    public AdminCommandSigner(final AdminKey key)
    {
        this(key, SystemEpochNanoClock.INSTANCE, new SecureRandom()::nextLong);
    }

    /**
     * @param key    the key to sign with.
     * @param clock  the time each command is signed at (the engine refuses one far from its own clock).
     * @param nonces never the same value twice.
     */
    public AdminCommandSigner(final AdminKey key, final EpochNanoClock clock, final LongSupplier nonces)
    {
        this.key = key;
        this.mac = key.newMac();
        this.clock = clock;
        this.nonces = nonces;
    }

    /**
     * @param commandLength an admin command's length, header included.
     * @return the length of the AuthenticatedCommand that carries it.
     */
    public static int signedLength(final int commandLength)
    {
        return HEADER + AuthenticatedCommandEncoder.BLOCK_LENGTH + VAR_DATA_HEADER + commandLength +
            AuthenticatedCommandEncoder.macHeaderLength() + AdminKey.MAC_LENGTH;
    }

    /** @return the key this signer signs with. */
    public AdminKey key()
    {
        return key;
    }

    /**
     * Sign a command.
     *
     * @param command       holding the admin command, header included.
     * @param commandOffset where it starts.
     * @param commandLength its length.
     * @param dst           where the AuthenticatedCommand goes; room for {@link #signedLength} bytes.
     * @param dstOffset     where it starts.
     * @return its length.
     */
    public int sign(
        final DirectBuffer command,
        final int commandOffset,
        final int commandLength,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        envelope.wrapAndApplyHeader(dst, dstOffset, header)
            .keyId(key.id())
            .timestampNs(clock.nanoTime())
            .nonce(nonces.getAsLong())
            .putCommand(command, commandOffset, commandLength);
        final int macFieldOffset = dstOffset + HEADER + envelope.encodedLength();
        final int covered = macFieldOffset - dstOffset;
        if (signed.length < covered)
        {
            signed = new byte[covered];
        }
        dst.getBytes(dstOffset, signed, 0, covered);
        mac.update(signed, 0, covered);
        try
        {
            mac.doFinal(macBytes, 0);
        }
        catch (final ShortBufferException ex)
        {
            throw new IllegalStateException(ex);
        }
        envelope.putMac(macBytes, 0, macBytes.length);
        return HEADER + envelope.encodedLength();
    }
}
