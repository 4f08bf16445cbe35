package io.ringex.gateway.web;

import io.ringex.common.apikey.ApiKeys;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
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
import io.ringex.common.net.LockoutAddress;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.auth.LogonGuard;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The REST and WebSocket front end's sockets: Netty on ONE event-loop thread, which accepts, reads, authenticates
 * ({@link WebRequestHandler}) and hands each signed request to the gateway's agent thread ({@link WebGatewayAgent});
 * docs/architecture.md, "The gateway's front ends", says why.
 * <p>
 * Connections, and what waits for each, are bounded ({@link GatewayContext#webMaxConnections()}, {@link
 * GatewayContext#webSlowClientBytes()}; docs/security.md, "Gateway, REST and WebSocket"). The API keys file is read
 * again when it changes; a file that no longer reads fails closed.
 */
public final class WebServer implements AutoCloseable
{
    /** Seconds a plain HTTP connection may stay silent. */
    public static final int IDLE_TIMEOUT_S = 60;
    /** Seconds a connection has to deliver a complete request, from opening or from its previous answer. */
    public static final int REQUEST_DEADLINE_S = 10;

    /** How often the keys file is checked for a change. */
    public static final long KEYS_CHECK_INTERVAL_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);
    private static final byte[] TOO_MANY_CONNECTIONS = tooManyConnections();

    private final EventLoopGroup group;
    private final Channel serverChannel;

    private WebServer(final EventLoopGroup group, final Channel serverChannel)
    {
        this.group = group;
        this.serverChannel = serverChannel;
    }

    private static byte[] tooManyConnections()
    {
        final String body = "{\"status\":503,\"error\":\"too many connections from this address, or in all; retry " +
            "later\"}";
        return ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
            body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
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
            new RequestAuthenticator(ctx.webApiKeys(), new LogonGuard(ctx.logonPolicy()),
                TimeUnit.NANOSECONDS.toMillis(ctx.webReceiveWindowNs()));
        final ConnectionLimits limits =
            new ConnectionLimits(ctx.webMaxConnections(), ctx.webMaxConnectionsPerAddress());
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try
        {
            final Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.SO_SNDBUF, ctx.webSlowClientBytes())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                    new WriteBufferWaterMark(ctx.webSlowClientBytes() / 2, ctx.webSlowClientBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    protected void initChannel(final SocketChannel ch)
                    {
                        final String address = LockoutAddress.key(ch.remoteAddress().getAddress().getHostAddress());
                        if (!limits.tryOpen(address))
                        {
                            // Answered, not just dropped: the client learns why before the connection closes.
                            ch.writeAndFlush(Unpooled.wrappedBuffer(TOO_MANY_CONNECTIONS))
                                .addListener(ChannelFutureListener.CLOSE);
                            return;
                        }
                        ch.closeFuture().addListener(f -> limits.closed(address));
                        ch.pipeline()
                            .addLast("idle", new IdleStateHandler(0, 0, IDLE_TIMEOUT_S, TimeUnit.SECONDS))
                            .addLast("http", new HttpServerCodec(4096, 8192, 8192))
                            .addLast("aggregate", new WebRequestHandler.BoundedAggregator(ctx.webMaxBody()))
                            .addLast("deadline", new RequestDeadline(TimeUnit.SECONDS.toMillis(REQUEST_DEADLINE_S)))
                            .addLast("request", new WebRequestHandler(authenticator, agent));
                    }
                })
                .bind(new InetSocketAddress(ctx.webHost(), ctx.webPort()))
                .syncUninterruptibly()
                .channel();
            if (null != ctx.webApiKeysFile())
            {
                final KeysFileWatch watch = new KeysFileWatch(Path.of(ctx.webApiKeysFile()), keys ->
                {
                    authenticator.keys(keys);
                    agent.keys(keys);
                });
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

    /**
     * Reads the keys file again when its identity, size, modification time, owner or permissions changed. A file
     * that no longer reads (deleted, unreadable, malformed) fails closed: no key is accepted and every user stream
     * is closed until it reads again, so a botched revocation never leaves the revoked key working.
     */
    static final class KeysFileWatch implements Runnable
    {
        private final Path file;
        private final Consumer<ApiKeys> apply;
        private String seen;

        KeysFileWatch(final Path file, final Consumer<ApiKeys> apply)
        {
            this.file = file;
            this.apply = apply;
            this.seen = stamp();
        }

        private String stamp()
        {
            try
            {
                final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                final String stamp = attributes.fileKey() + " " + attributes.size() + " " +
                    attributes.lastModifiedTime();
                if (!Files.getFileStore(file).supportsFileAttributeView("posix"))
                {
                    return stamp;
                }
                // A change of owner or permissions alone may make the file unreadable, or refused: look again.
                final PosixFileAttributes posix = Files.readAttributes(file, PosixFileAttributes.class);
                return stamp + " " + posix.owner() + ":" + posix.group() + " " +
                    PosixFilePermissions.toString(posix.permissions());
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
            ApiKeys keys;
            try
            {
                keys = ApiKeys.load(file);
                LOG.info("API keys read again from {}: {} key(s)", file, keys.keys().size());
            }
            catch (final IllegalArgumentException ex)
            {
                keys = ApiKeys.of(List.of());
                LOG.error("API keys file changed but cannot be read: NO key is accepted, and every user stream is " +
                    "closed, until it reads again: {}", ex.getMessage());
            }
            apply.accept(keys);
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
