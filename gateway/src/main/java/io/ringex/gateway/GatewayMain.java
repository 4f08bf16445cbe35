package io.ringex.gateway;

import org.agrona.concurrent.ShutdownSignalBarrier;

import java.nio.file.Path;

/**
 * Runs a gateway from a properties file: {@code java ${ringex.jvm.flags} -cp ... io.ringex.gateway.GatewayMain
 * gateway.properties}. Keys are those of {@link GatewayContext} ({@code ringex.gateway.*}); system properties give
 * defaults for keys the file omits. Connects to the media driver in {@code ringex.gateway.aeron.dir}, or embeds one
 * (with an Aeron Archive for Artio) when {@code ringex.gateway.embedded.driver=true}. Stops on SIGINT/SIGTERM.
 */
public final class GatewayMain
{
    private GatewayMain()
    {
    }

    /**
     * @param args the configuration file path.
     * @throws Exception if configuration cannot be read or the gateway cannot start.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length != 1)
        {
            System.err.println("usage: GatewayMain <gateway.properties>");
            System.exit(2);
            return;
        }
        final GatewayContext ctx = GatewayContext.load(Path.of(args[0])).conclude();
        // The barrier's shutdown hook waits until it is closed, so the gateway closes cleanly before the JVM exits.
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            Gateway ignore = Gateway.launch(ctx, Throwable::printStackTrace))
        {
            System.out.println("ringex gateway " + ctx.gatewayId() + " up: SBE on " + ctx.clientChannel() +
                " stream " + ctx.clientStreamId() + (ctx.fixEnabled() ? ", FIX on " + ctx.fixHost() + ':' +
                ctx.fixPort() : "") + ", " + ctx.users().users().size() + " users");
            barrier.await();
        }
    }
}
