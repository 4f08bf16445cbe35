package io.ringex.gateway.web;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * Closes an HTTP connection that has not delivered a complete request within a few seconds of opening or of its
 * previous answer, so a client sending a byte now and then cannot hold a connection (the idle timer alone would let
 * it). Sits after the aggregator: a complete request stops the clock, its answer starts it again.
 */
final class RequestDeadline extends ChannelDuplexHandler
{
    private final long deadlineMs;
    private ScheduledFuture<?> timer;

    RequestDeadline(final long deadlineMs)
    {
        this.deadlineMs = deadlineMs;
    }

    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        if (ctx.channel().isActive())
        {
            arm(ctx);
        }
    }

    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        arm(ctx);
        super.channelActive(ctx);
    }

    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        disarm();
    }

    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        disarm();
        super.channelInactive(ctx);
    }

    public void channelRead(final ChannelHandlerContext ctx, final Object msg) throws Exception
    {
        if (msg instanceof FullHttpRequest)
        {
            disarm();
        }
        super.channelRead(ctx, msg);
    }

    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
        throws Exception
    {
        if (msg instanceof HttpResponse)
        {
            arm(ctx);
        }
        super.write(ctx, msg, promise);
    }

    private void arm(final ChannelHandlerContext ctx)
    {
        disarm();
        timer = ctx.executor().schedule(() -> ctx.channel().close(), deadlineMs, TimeUnit.MILLISECONDS);
    }

    private void disarm()
    {
        if (null != timer)
        {
            timer.cancel(false);
            timer = null;
        }
    }
}
