package io.ringex.app.admin;

import java.nio.file.Path;

import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringex.engine.node.EngineContext;

/**
 * The empty venue the admin tool's ITs start: an embedded media driver, and an engine node on IPC that takes admin
 * commands signed with the test's key file; each test sets how often the engine refreshes its reference data.
 */
final class AdminTestVenue
{
    static final String IPC = "aeron:ipc";

    private AdminTestVenue()
    {
    }

    static MediaDriver driver()
    {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.generateRandomDirName())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .ipcTermBufferLength(1024 * 1024));
    }

    static EngineContext engine(final MediaDriver driver, final Path data, final Path keyFile)
    {
        return new EngineContext()
            .aeronDirectoryName(driver.aeronDirectoryName())
            .ingressChannel(IPC)
            .outboundChannel(IPC)
            .marketDataRequestChannel(IPC)
            .adminKeysFile(keyFile.toString())
            .journalDirectory(data.resolve("journal"))
            .snapshotDirectory(data.resolve("snapshots"))
            .replicationMode(EngineContext.ReplicationMode.OFF)
            .inputRingCapacity(4096)
            .outputRingCapacity(4096);
    }
}
