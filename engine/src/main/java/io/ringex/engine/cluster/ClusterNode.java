package io.ringex.engine.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.RecordingLog;
import io.aeron.cluster.service.ClusterMarkFile;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.cluster.service.ClusteredServiceContainer;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aeron Cluster's parts of one member, beside its engine on the engine's media driver: an archive (the log's
 * recording and the snapshots), the consensus module (elections, the log's replication and commit) and the container
 * of the engine's clustered service. Launched in that order and closed in reverse.
 * <pre>
 *   cluster directory/
 *     archive/    the archive's recordings: the log and the snapshots
 *     cluster/    the consensus module's and the container's state (recording log, mark files)
 * </pre>
 * Thread safety: launch and close on one thread.
 */
public final class ClusterNode implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
    private static final String LOCAL_CONTROL_CHANNEL = "aeron:ipc?term-length=64k";

    /** The lock file, in the cluster directory, that the running member holds. */
    static final String LOCK_FILE = "member.lock";

    private FileChannel lockChannel;
    private FileLock lock;
    private Archive archive;
    private ConsensusModule consensusModule;
    private ClusteredServiceContainer container;

    private ClusterNode()
    {
    }

    /**
     * The settings of one member.
     *
     * @param memberId                   this member's id (the engine's node id).
     * @param members                    every member.
     * @param directory                  the cluster directory (archive and consensus module below it).
     * @param aeronDirectoryName         the media driver's directory.
     * @param secret                     the members' shared secret.
     * @param leaderHeartbeatTimeoutNs   a leader silent this long is replaced.
     * @param leaderHeartbeatIntervalNs  how often a quiet leader heartbeats.
     * @param electionTimeoutNs          how long an election waits for votes.
     * @param startupCanvassTimeoutNs    how long a cold start waits for every member.
     * @param logTermLength              the log publication's term length.
     * @param errorHandler               told of every error of the cluster's agents.
     * @param idleStrategy               how the archive's, the consensus module's and the container's agents wait
     *                                   (each call a new strategy): the node's own.
     */
    public record Settings(
        int memberId,
        ClusterMembers members,
        Path directory,
        String aeronDirectoryName,
        ClusterSecret secret,
        long leaderHeartbeatTimeoutNs,
        long leaderHeartbeatIntervalNs,
        long electionTimeoutNs,
        long startupCanvassTimeoutNs,
        int logTermLength,
        ErrorHandler errorHandler,
        Supplier<IdleStrategy> idleStrategy)
    {
        File archiveDirectory()
        {
            return directory.resolve("archive").toFile();
        }

        File consensusDirectory()
        {
            return directory.resolve("cluster").toFile();
        }
    }

    /**
     * Launch the archive, the consensus module and the service's container. The service starts on its own thread
     * ({@code ClusteredService.onStart}); the member takes part in elections from now on.
     *
     * @param settings the member's settings.
     * @param service  the engine's clustered service.
     * @return the running parts.
     */
    public static ClusterNode launch(final Settings settings, final ClusteredService service)
    {
        final ClusterNode node = new ClusterNode();
        try
        {
            node.start(settings, service);
            return node;
        }
        catch (final RuntimeException ex)
        {
            node.close();
            throw ex;
        }
    }

    private void start(final Settings settings, final ClusteredService service)
    {
        lockDirectory(settings);
        final ClusterMembers.Member self = settings.members().member(settings.memberId());
        final String aeronDir = settings.aeronDirectoryName();
        final String responses = self.ephemeralChannel();
        archive = Archive.launch(new Archive.Context()
            .aeronDirectoryName(aeronDir)
            .archiveDir(settings.archiveDirectory())
            .archiveId(settings.memberId())
            .controlChannel("aeron:udp?endpoint=" + self.endpoint(ClusterMembers.ARCHIVE_PORT_OFFSET))
            .localControlChannel(LOCAL_CONTROL_CHANNEL)
            .replicationChannel(responses)
            .archiveClientContext(new AeronArchive.Context().controlResponseChannel(responses))
            .recordingEventsEnabled(false)
            .segmentFileLength(Math.max(4 * settings.logTermLength(), 64 * 1024 * 1024))
            .threadingMode(ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(settings.idleStrategy())
            .errorHandler(settings.errorHandler()));

        consensusModule = ConsensusModule.launch(new ConsensusModule.Context()
            .aeronDirectoryName(aeronDir)
            .clusterMemberId(settings.memberId())
            .clusterMembers(settings.members().consensusModuleMembers())
            .clusterDir(settings.consensusDirectory())
            .archiveContext(localArchive(aeronDir))
            .ingressChannel("aeron:udp")
            .logChannel("aeron:udp?term-length=" + settings.logTermLength())
            .replicationChannel(responses)
            .leaderHeartbeatTimeoutNs(settings.leaderHeartbeatTimeoutNs())
            .leaderHeartbeatIntervalNs(settings.leaderHeartbeatIntervalNs())
            .electionTimeoutNs(settings.electionTimeoutNs())
            .startupCanvassTimeoutNs(settings.startupCanvassTimeoutNs())
            .authenticatorSupplier(settings.secret()::authenticator)
            .idleStrategySupplier(settings.idleStrategy())
            .errorHandler(settings.errorHandler()));

        container = ClusteredServiceContainer.launch(new ClusteredServiceContainer.Context()
            .aeronDirectoryName(aeronDir)
            .clusterDir(settings.consensusDirectory())
            .archiveContext(localArchive(aeronDir))
            .clusteredService(service)
            .idleStrategySupplier(settings.idleStrategy())
            .errorHandler(settings.errorHandler()));
        LOG.info("cluster member {} of {} launched ({})", settings.memberId(), settings.members().size(),
            settings.directory());
    }

    /**
     * Hold the member's directory for this process, and clear the mark files a crashed run left: Aeron refuses to
     * start beside a mark file written within its liveness timeout (10 s), which a member restarted at once after a
     * SIGKILL meets. The OS releases the lock when its holder dies, however it dies, so holding it proves no other
     * process uses the directory and the mark files found are stale.
     */
    private void lockDirectory(final Settings settings)
    {
        try
        {
            Files.createDirectories(settings.directory());
            lockChannel = FileChannel.open(settings.directory().resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            lock = lockChannel.tryLock();
            if (null == lock)
            {
                throw new IllegalStateException("cluster directory " + settings.directory() + " is in use by " +
                    "another process");
            }
            Files.deleteIfExists(settings.archiveDirectory().toPath().resolve(ArchiveMarkFile.FILENAME));
            Files.deleteIfExists(settings.consensusDirectory().toPath().resolve(ClusterMarkFile.FILENAME));
            Files.deleteIfExists(settings.consensusDirectory().toPath().resolve(
                ClusterMarkFile.markFilenameForService(0)));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot lock cluster directory " + settings.directory(), ex);
        }
    }

    private static AeronArchive.Context localArchive(final String aeronDir)
    {
        return new AeronArchive.Context()
            .aeronDirectoryName(aeronDir)
            .lock(NoOpLock.INSTANCE)
            .controlRequestChannel(LOCAL_CONTROL_CHANNEL)
            .controlResponseChannel(LOCAL_CONTROL_CHANNEL);
    }

    /**
     * Forget every snapshot of a stopped member, so its next start replays the whole log: how a member rebuilds its
     * journal and state from the log alone.
     *
     * @param directory the member's cluster directory.
     * @return how many snapshots were invalidated.
     */
    public static int invalidateSnapshots(final Path directory)
    {
        final File consensusDirectory = directory.resolve("cluster").toFile();
        if (!new File(consensusDirectory, RecordingLog.RECORDING_LOG_FILE_NAME).exists())
        {
            return 0;
        }
        int invalidated = 0;
        try (RecordingLog log = new RecordingLog(consensusDirectory, false))
        {
            while (log.invalidateLatestSnapshot())
            {
                invalidated++;
            }
        }
        return invalidated;
    }

    /**
     * Close the container, the consensus module and the archive, in that order.
     */
    public void close()
    {
        CloseHelper.closeAll(container, consensusModule, archive, lock, lockChannel);
        container = null;
        consensusModule = null;
        archive = null;
        lock = null;
        lockChannel = null;
    }
}
