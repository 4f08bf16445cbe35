package io.ringex.engine.replay;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The 64-bit mixing that the replay tools' digests of events share (the same step as the state hash): stable across
 * builds and platforms, so a digest written by one build can be checked by another.
 */
final class Digests
{
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private Digests()
    {
    }

    static long mix(final long hash, final long value)
    {
        long h = (hash ^ value) * MULTIPLIER;
        h ^= h >>> 29;
        return h;
    }

    static long mixBytes(final long seed, final DirectBuffer buffer, final int offset, final int length)
    {
        long hash = seed;
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            hash = mix(hash, buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN));
        }
        for (; i < length; i++)
        {
            hash = mix(hash, buffer.getByte(offset + i));
        }
        return hash;
    }
}
