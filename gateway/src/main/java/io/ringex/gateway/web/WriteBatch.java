package io.ringex.gateway.web;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stream frames one duty cycle of the gateway's agent writes, handed to each connection's event loop as one task
 * that writes them all in order and flushes each connection once. A {@code writeAndFlush} from the agent's thread is
 * a task (and a selector wake-up) per frame: with a thousand subscribers and a trade, a thousand tasks.
 * <p>
 * Threading: {@link #add} and {@link #flush} on the gateway's agent thread; the writes on the event loops.
 */
final class WriteBatch
{
    private final Map<EventLoop, List<Object>> byLoop = new IdentityHashMap<>();

    /**
     * @param channel the connection.
     * @param frame   the frame it is to be sent, after those added before it this cycle.
     */
    void add(final Channel channel, final WebSocketFrame frame)
    {
        final List<Object> writes = byLoop.computeIfAbsent(channel.eventLoop(), loop -> new ArrayList<>());
        writes.add(channel);
        writes.add(frame);
    }

    /**
     * Hand this cycle's frames to their event loops.
     *
     * @return how many frames.
     */
    int flush()
    {
        int frames = 0;
        for (final Map.Entry<EventLoop, List<Object>> loop : byLoop.entrySet())
        {
            final List<Object> writes = loop.getValue();
            if (writes.isEmpty())
            {
                continue;
            }
            frames += writes.size() / 2;
            final Object[] batch = writes.toArray();
            writes.clear();
            loop.getKey().execute(() -> write(batch));
        }
        return frames;
    }

    private static void write(final Object[] batch)
    {
        final Map<Channel, Boolean> written = new IdentityHashMap<>();
        for (int i = 0; i < batch.length; i += 2)
        {
            final Channel channel = (Channel)batch[i];
            if (!channel.isActive())
            {
                // closed since (on this loop, so it stays closed): nothing to write to
                ReferenceCountUtil.release(batch[i + 1]);
                continue;
            }
            channel.write(batch[i + 1], channel.voidPromise());
            written.put(channel, Boolean.TRUE);
        }
        for (final Channel channel : written.keySet())
        {
            channel.flush();
        }
    }
}
