package io.ringex.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandTextTest
{
    @Test
    void aTokenIsOneToMaxPrintableCharactersWithoutSpaces()
    {
        assertTrue(CommandText.isToken("a", 1));
        assertTrue(CommandText.isToken("alice", 5));
        assertTrue(CommandText.isToken("!~", 2), "0x21 and 0x7E are the bounds");
        assertTrue(CommandText.isToken("pbkdf2-sha256:1000:c2FsdA==:aGFzaA==", 64));

        assertFalse(CommandText.isToken(null, 5));
        assertFalse(CommandText.isToken("", 5));
        assertFalse(CommandText.isToken("alice", 4), "one too long");
        assertFalse(CommandText.isToken("al ice", 8), "a space");
        assertFalse(CommandText.isToken("alice\t", 8), "a control character");
        assertFalse(CommandText.isToken("alice\n", 8), "a line break, which would forge a log line");
        assertFalse(CommandText.isToken("al\u0001ice", 8), "FIX's SOH");
        assertFalse(CommandText.isToken("al\u007Fice", 8), "DEL");
        assertFalse(CommandText.isToken("\u00E9mile", 8), "not ASCII");
    }

    @Test
    void printableTextMayBeEmptyAndHoldSpaces()
    {
        assertTrue(CommandText.isPrintable("", 0));
        assertTrue(CommandText.isPrintable("price band breached", 19));
        assertTrue(CommandText.isPrintable(" ~", 2), "0x20 and 0x7E are the bounds");

        assertFalse(CommandText.isPrintable(null, 5));
        assertFalse(CommandText.isPrintable("price band breached", 18), "one too long");
        assertFalse(CommandText.isPrintable("two\nlines", 16));
        assertFalse(CommandText.isPrintable("tab\there", 16));
        assertFalse(CommandText.isPrintable("caf\u00E9", 16));
    }
}
