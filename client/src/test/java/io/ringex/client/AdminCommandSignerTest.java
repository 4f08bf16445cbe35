package io.ringex.client;

import java.security.MessageDigest;

import javax.crypto.Mac;

import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.AuthenticatedCommandDecoder;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.RejectReason;
import io.ringex.protocol.codecs.SelfTradePrevention;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The signer writes what docs/protocol.md, "Admin authentication", says: an AuthenticatedCommand holding the key's
 * number, the time, the nonce and the command as encoded, and an HMAC-SHA256 with the key over every byte before the
 * MAC's length field.
 */
class AdminCommandSignerTest
{
    @Test
    void theEnvelopeCarriesTheCommandAndAMacOverEverythingBeforeIt() throws Exception
    {
        final AdminKey key = AdminKeys.generate("alice").keys().get(0);
        final long[] nonces = { 41, 42 };
        final int[] next = { 0 };
        final AdminCommandSigner signer = new AdminCommandSigner(key, () -> 1_700_000_000_000_000_000L,
            () -> nonces[next[0]++]);
        final CommandEncoder commands = new CommandEncoder();
        final int commandLength = commands.addAccount(5, 1001, SelfTradePrevention.CANCEL_NEWEST);
        final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(commandLength)]);

        final int length = signer.sign(commands.buffer(), 0, commandLength, signed, 0);
        assertEquals(AdminCommandSigner.signedLength(commandLength), length);
        assertEquals(RejectReason.NONE, new MessageValidator(1024).validate(signed, 0, length));

        final AuthenticatedCommandDecoder envelope = new AuthenticatedCommandDecoder()
            .wrapAndApplyHeader(signed, 0, new MessageHeaderDecoder());
        assertEquals(key.id(), envelope.keyId());
        assertEquals(1_700_000_000_000_000_000L, envelope.timestampNs());
        assertEquals(41, envelope.nonce());
        assertEquals(commandLength, envelope.commandLength());
        final int commandOffset = envelope.limit() + AuthenticatedCommandDecoder.commandHeaderLength();
        for (int i = 0; i < commandLength; i++)
        {
            assertEquals(commands.buffer().getByte(i), signed.getByte(commandOffset + i));
        }
        envelope.skipCommand();
        final int macField = envelope.limit();
        assertEquals(AdminKey.MAC_LENGTH, envelope.macLength());

        final Mac mac = key.newMac();
        final byte[] covered = new byte[macField];
        signed.getBytes(0, covered);
        final byte[] expected = mac.doFinal(covered);
        final byte[] actual = new byte[AdminKey.MAC_LENGTH];
        signed.getBytes(macField + AuthenticatedCommandDecoder.macHeaderLength(), actual);
        assertTrue(MessageDigest.isEqual(expected, actual));

        // the same command again: another nonce, so another MAC
        signer.sign(commands.buffer(), 0, commandLength, signed, 0);
        final byte[] again = new byte[AdminKey.MAC_LENGTH];
        signed.getBytes(macField + AuthenticatedCommandDecoder.macHeaderLength(), again);
        assertNotEquals(java.util.HexFormat.of().formatHex(actual), java.util.HexFormat.of().formatHex(again));
    }
}
