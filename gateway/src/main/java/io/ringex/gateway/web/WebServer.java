package io.ringex.gateway.web;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonGuard;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The REST and WebSocket front end's sockets: Netty on ONE event-loop thread (the venue's machine has few cores;
 * the work per request is parsing and an HMAC), which accepts, reads, authenticates ({@link WebRequestHandler}) and
 * hands each signed request to the gateway's agent thread ({@link WebGatewayAgent}). At most
 * {@link GatewayContext#webMaxConnections()} connections are open; a connection idle for
 * {@link #IDLE_TIMEOUT_S} seconds before it becomes a user stream is closed. Each connection's outbound buffer is
 * bounded ({@link #WRITE_HIGH_WATER}): beyond it, the connection is not read until it drains, a request already read
 * closes it, and a user stream is closed at once.
 * <p>
 * The API keys file is read again whenever it changes (checked every {@link #KEYS_CHECK_INTERVAL_MS} ms on the event
 * loop): a revoked key is refused, and its user streams closed, from then on; a file that no longer reads is logged
 * and the keys before it kept.
 */
public final class WebServer implements AutoCloseable
{
    /** Seconds a plain HTTP connection may stay silent. */
    public static final int IDLE_TIMEOUT_S = 60;
    /** Bytes queued for a connection before it counts as not reading. */
    public static final int WRITE_HIGH_WATER = 256 * 1024;

    /** How often the keys file is checked for a change. */
    public static final long KEYS_CHECK_INTERVAL_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

    private final EventLoopGroup group;
    private final Channel serverChannel;

    private WebServer(final EventLoopGroup group, final Channel serverChannel)
    {
        this.group = group;
        this.serverChannel = serverChannel;
    }

    /**
     * Bind and start serving.
     *
     * @param ctx   concluded configuration with the web front end enabled.
     * @param agent the agent-thread part.
     * @return the running server.
     */
    public static WebServer launch(final GatewayContext ctx, final WebGatewayAgent agent)
    {
        // The web front end's own guard: behind a TLS proxy every web caller has the proxy's address, so web failures
        // must not lock out FIX or SBE clients, and a web success must not clear their counts.
        final RequestAuthenticator authenticator =
            new RequestAuthenticator(ctx.webApiKeys(), new LogonGuard(ctx.logonPolicy()), ctx.webReceiveWindowMs());
        final AtomicInteger open = new AtomicInteger();
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try
        {
            final Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                    new WriteBufferWaterMark(WRITE_HIGH_WATER / 2, WRITE_HIGH_WATER))
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    protected void initChannel(final SocketChannel ch)
                    {
                        if (open.incrementAndGet() > ctx.webMaxConnections())
                        {
                            open.decrementAndGet();
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> open.decrementAndGet());
                        ch.pipeline()
                            .addLast("idle", new IdleStateHandler(0, 0, IDLE_TIMEOUT_S, TimeUnit.SECONDS))
                            .addLast("http", new HttpServerCodec(4096, 8192, 8192))
                            .addLast("aggregate", new WebRequestHandler.BoundedAggregator(ctx.webMaxBody()))
                            .addLast("request", new WebRequestHandler(authenticator, agent));
                    }
                })
                .bind(new InetSocketAddress(ctx.webHost(), ctx.webPort()))
                .syncUninterruptibly()
                .channel();
            if (null != ctx.webApiKeysFile())
            {
                final KeysFileWatch watch = new KeysFileWatch(Path.of(ctx.webApiKeysFile()), authenticator, agent);
                group.next().scheduleWithFixedDelay(watch, KEYS_CHECK_INTERVAL_MS, KEYS_CHECK_INTERVAL_MS,
                    TimeUnit.MILLISECONDS);
            }
            return new WebServer(group, channel);
        }
        catch (final RuntimeException ex)
        {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw ex;
        }
    }

    /** Reads the keys file again when its identity, size or modification time changed. */
    private static final class KeysFileWatch implements Runnable
    {
        private final Path file;
        private final RequestAuthenticator authenticator;
        private final WebGatewayAgent agent;
        private String seen;

        KeysFileWatch(final Path file, final RequestAuthenticator authenticator, final WebGatewayAgent agent)
        {
            this.file = file;
            this.authenticator = authenticator;
            this.agent = agent;
            this.seen = stamp();
        }

        private String stamp()
        {
            try
            {
                final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                return attributes.fileKey() + " " + attributes.size() + " " + attributes.lastModifiedTime();
            }
            catch (final IOException ex)
            {
                return "unreadable";
            }
        }

        public void run()
        {
            final String now = stamp();
            if (Objects.equals(now, seen))
            {
                return;
            }
            seen = now;
            try
            {
                final ApiKeys keys = ApiKeys.load(file);
                authenticator.keys(keys);
                agent.keys(keys);
                LOG.info("API keys read again from {}: {} key(s)", file, keys.keys().size());
            }
            catch (final IllegalArgumentException ex)
            {
                LOG.error("API keys file changed but cannot be read; the keys before it stay: {}", ex.getMessage());
            }
        }
    }

    /**
     * @return the port bound (useful when configured as 0).
     */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    /**
     * Stop accepting, close every connection and the event loop.
     */
    public void close()
    {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
