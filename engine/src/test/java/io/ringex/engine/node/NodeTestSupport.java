package io.ringex.engine.node;

import java.nio.file.Path;

import io.ringex.client.AdminKeys;
import io.ringex.testing.FreePorts;

/**
 * Small helpers the node tests share, and the gateway's tests and the system tests through the engine's test jar.
 */
public final class NodeTestSupport
{
    private static final String IPC = "aeron:ipc";

    /** The admin keys the tests' nodes take; {@link EngineTestClient} signs with the first. */
    public static final AdminKeys ADMIN_KEYS = AdminKeys.generate("test-operator");

    private NodeTestSupport()
    {
    }

    /**
     * What a test's node needs besides its streams: the tests' admin keys, and its market-data requests on IPC (the
     * default UDP port would meet the nodes of other tests and builds on the machine).
     *
     * @param ctx a node's context.
     * @return it.
     */
    public static EngineContext forTest(final EngineContext ctx)
    {
        return ctx.adminKeys(ADMIN_KEYS).marketDataRequestChannel(IPC);
    }

    /**
     * Write the tests' admin keys to a file, for a node in a child process
     * ({@code ringex.engine.admin.keys.file}) or a tool that reads one.
     *
     * @param directory where.
     * @return the file.
     */
    public static Path writeAdminKeys(final Path directory)
    {
        final Path file = directory.resolve("admin.keys");
        try
        {
            java.nio.file.Files.createDirectories(directory);
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        if (!java.nio.file.Files.exists(file))
        {
            ADMIN_KEYS.writeTo(file);
        }
        return file;
    }

    /**
     * @return a UDP port free at the time of asking.
     */
    public static int freeUdpPort()
    {
        return FreePorts.udp();
    }
}
