package io.ringex.gateway;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.MappedByteBuffer;

import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.codecs.mark.MarkFileHeaderDecoder;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import uk.co.real_logic.artio.storage.messages.EngineInformationDecoder;

/**
 * A gateway killed while it ran (SIGKILL, a crash, a power cut) leaves two liveness files with fresh timestamps: the
 * embedded Aeron Archive's mark file and Artio's {@code engine-info}. A new archive or Artio engine refuses the
 * directory until a timeout has passed (10 s for both), taking them for a live duplicate. Each file names the process
 * that owned it: when that process no longer runs on this host, the file is stale, and removing it lets the gateway
 * (or the all-in-one venue) restart at once, as a crash drill expects. A live owner is never touched. A file bearing
 * this process's own pid (a restarted container reuses pids) is stale if it was written before this JVM started.
 * <p>
 * Threading: call before launching the archive or the Artio engine, from the launching thread.
 */
public final class StaleOwnerFiles
{
    /** Artio's liveness file in its log directory. */
    public static final String ARTIO_ENGINE_INFO = "engine-info";

    private static final Logger LOG = LoggerFactory.getLogger(StaleOwnerFiles.class);
    private static final int SBE_HEADER_LENGTH = 8;
    /** The activity timestamp an Aeron Archive writes when it closes cleanly. */
    private static final long ARCHIVE_TERMINATED = -1;

    private StaleOwnerFiles()
    {
    }

    /**
     * Remove the archive mark file in {@code archiveDir} if the process it names is gone.
     *
     * @param archiveDir the archive's directory (where its mark file lives by default).
     * @return true if a stale mark file was removed.
     */
    public static boolean removeArchiveMarkFileIfOwnerGone(final File archiveDir)
    {
        final File markFile = new File(archiveDir, ArchiveMarkFile.FILENAME);
        if (!markFile.isFile() || markFile.length() < SBE_HEADER_LENGTH + MarkFileHeaderDecoder.BLOCK_LENGTH)
        {
            return false;
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(markFile, "archive mark file");
        final long pid;
        final long startMs;
        final long activityMs;
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            final io.aeron.archive.codecs.mark.MessageHeaderDecoder header =
                new io.aeron.archive.codecs.mark.MessageHeaderDecoder().wrap(buffer, 0);
            final boolean hasHeader = header.templateId() == MarkFileHeaderDecoder.TEMPLATE_ID &&
                header.schemaId() == MarkFileHeaderDecoder.SCHEMA_ID;
            final MarkFileHeaderDecoder decoder = new MarkFileHeaderDecoder().wrap(buffer,
                hasHeader ? SBE_HEADER_LENGTH : 0, MarkFileHeaderDecoder.BLOCK_LENGTH,
                MarkFileHeaderDecoder.SCHEMA_VERSION);
            pid = decoder.pid();
            startMs = decoder.startTimestamp();
            activityMs = decoder.activityTimestamp();
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
        // An archive that closed cleanly signalled it (activity -1): Aeron reuses the file at once, nothing to remove.
        return activityMs != ARCHIVE_TERMINATED && removeIfGone(markFile, pid, startMs);
    }

    /**
     * Remove Artio's {@code engine-info} in {@code logFileDir} if the process it names ("pid@host") is gone.
     *
     * @param logFileDir Artio's log directory.
     * @return true if a stale file was removed.
     */
    public static boolean removeArtioEngineInfoIfOwnerGone(final String logFileDir)
    {
        final File info = new File(logFileDir, ARTIO_ENGINE_INFO);
        if (!info.isFile() || info.length() < SBE_HEADER_LENGTH + EngineInformationDecoder.BLOCK_LENGTH)
        {
            return false;
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(info, ARTIO_ENGINE_INFO);
        final String runtimeName;
        final long heartbeatMs;
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            final uk.co.real_logic.artio.storage.messages.MessageHeaderDecoder header =
                new uk.co.real_logic.artio.storage.messages.MessageHeaderDecoder().wrap(buffer, 0);
            final EngineInformationDecoder decoder = new EngineInformationDecoder().wrap(buffer, SBE_HEADER_LENGTH,
                header.blockLength(), header.version());
            heartbeatMs = decoder.heartbeatTimeInMs();
            runtimeName = decoder.runtimeName();
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
        final String ours = ManagementFactory.getRuntimeMXBean().getName();
        final int at = runtimeName.indexOf('@');
        if (at <= 0 || !runtimeName.substring(at).equals(ours.substring(ours.indexOf('@'))))
        {
            return false; // another host's engine, or a name we cannot read: leave it to Artio's own check
        }
        try
        {
            return removeIfGone(info, Long.parseLong(runtimeName.substring(0, at)), heartbeatMs);
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    /**
     * @param writtenMs when the owner wrote the file (start or heartbeat): a file bearing this process's own pid was
     *                  left by an earlier process that had the same pid (a restarted container) if written before
     *                  this JVM started; otherwise it is this process's own and stays.
     */
    private static boolean removeIfGone(final File file, final long pid, final long writtenMs)
    {
        final boolean gone = pid == ProcessHandle.current().pid() ?
            writtenMs < ManagementFactory.getRuntimeMXBean().getStartTime() :
            !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        if (pid <= 0 || !gone || !file.delete())
        {
            return false;
        }
        LOG.warn("removed {}, left by process {}, which is no longer running (it was " +
            "killed or crashed)", file, pid);
        return true;
    }
}
