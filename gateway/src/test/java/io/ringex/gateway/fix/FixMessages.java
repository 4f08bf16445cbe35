package io.ringex.gateway.fix;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Builds raw FIX text for translator tests: fields written {@code tag=value|...} with '|' for SOH.
 */
final class FixMessages
{
    private FixMessages()
    {
    }

    static UnsafeBuffer raw(final String pipeSeparated)
    {
        return new UnsafeBuffer(pipeSeparated.replace('|', '\u0001').getBytes(StandardCharsets.ISO_8859_1));
    }

    static FixFields scan(final String pipeSeparated)
    {
        final UnsafeBuffer buffer = raw(pipeSeparated);
        return new FixFields().scan(buffer, 0, buffer.capacity());
    }
}
