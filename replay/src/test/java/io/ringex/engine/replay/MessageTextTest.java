package io.ringex.engine.replay;

import io.ringex.client.CommandEncoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay tools print messages as their decoders do, except a user's credential hash.
 */
class MessageTextTest
{
    private static final String HASH = "pbkdf2-sha256:1000:c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=";

    @Test
    void aCredentialHashIsNeverPrinted()
    {
        final CommandEncoder commands = new CommandEncoder().operator("ops-anna");
        final int length = commands.setUserCredential(7, "dave", HASH, "reset");
        final MessageText text = new MessageText();
        text.wrap(commands.buffer(), 0);
        final String line = text.text();
        assertTrue(line.startsWith("SetUserCredential "), line);
        assertTrue(line.contains("username='dave'") && line.contains("operatorName='ops-anna'"), line);
        assertTrue(line.contains("credentialHash='" + MessageText.HIDDEN + "'"), line);
        assertFalse(line.contains("aGFzaG"), line);
        assertTrue(length > 0);
    }
}
