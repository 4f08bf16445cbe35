package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.ringex.engine.ring.Ring;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalPretoucher;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Configuration of an engine node, in the style of Aeron's {@code MediaDriver.Context}: fluent setters, defaults
 * from {@code ringex.engine.*} system properties, and one {@link #conclude()} that validates and fails naming the
 * key. Spring Boot (or a properties file) binds onto it; the hot path never sees Spring.
 * <p>
 * Thread safety: configure on one thread, conclude, then hand to {@link EngineNode}; not modified afterwards.
 */
public final class EngineContext
{
    /**
     * Slots in each ring unless configured: 16,384, i.e. 4 MiB of 256-byte commands and 16 MiB of 1 KiB events. Rings
     * the stages keep in the last-level cache run the in-process pipeline about 1.5x faster than 65,536 slots (80 MiB
     * between the two rings), while the buffering left, several milliseconds at the node's rates, is more than the
     * Aeron streams on either side need (docs/benchmarks-engine.md, "Ring size").
     */
    public static final int DEFAULT_RING_CAPACITY = 1 << 14;
    /** Bytes per input slot unless configured (slot header included). */
    public static final int DEFAULT_INPUT_SLOT_LENGTH = 256;
    /** Bytes per output slot unless configured (slot header included). */
    public static final int DEFAULT_OUTPUT_SLOT_LENGTH = 1024;

    /** How the node's agents are put on threads. */
    public enum Threading
    {
        /** Every agent on its own thread: for machines with cores to spare, with busy-spin idle if wanted. */
        DEDICATED,
        /** Ingress, journal, replication and the publishers on one thread; processor and status on another. */
        SHARED
    }

    /** Whether and how commands are replicated before the processor acts on them. */
    public enum ReplicationMode
    {
        /** Single node. */
        OFF,
        /** The replication stage advances when a command is sent to the standby. */
        ASYNC,
        /** The processor waits until the standby has acknowledged that it journaled the command. */
        SYNC
    }

    /** The role a node starts in. */
    public enum Role
    {
        /** Takes client commands. */
        PRIMARY,
        /** Receives replicated commands, journals and applies them, produces no client output. */
        STANDBY
    }

    private int nodeId = Integer.getInteger("ringex.engine.node.id", 1);
    private Role role = Role.valueOf(System.getProperty("ringex.engine.role", "PRIMARY"));
    private String aeronDirectoryName = System.getProperty("ringex.engine.aeron.dir");
    private boolean embeddedMediaDriver = Boolean.parseBoolean(
        System.getProperty("ringex.engine.aeron.embedded", "false"));
    private String ingressChannel = System.getProperty("ringex.engine.ingress.channel",
        "aeron:udp?endpoint=localhost:40100");
    private int ingressStreamId = Integer.getInteger("ringex.engine.ingress.stream", 1001);
    private String outboundChannel = System.getProperty("ringex.engine.outbound.channel",
        "aeron:udp?control=localhost:40101|control-mode=dynamic");
    private int egressStreamId = Integer.getInteger("ringex.engine.egress.stream", 1002);
    private int marketDataStreamId = Integer.getInteger("ringex.engine.marketdata.stream", 1003);
    private int riskStreamId = Integer.getInteger("ringex.engine.risk.stream", 1004);
    private ReplicationMode replicationMode = ReplicationMode.valueOf(
        System.getProperty("ringex.engine.replication.mode", "OFF"));
    private String replicationChannel = System.getProperty("ringex.engine.replication.channel",
        "aeron:udp?endpoint=localhost:40110");
    private int replicationStreamId = Integer.getInteger("ringex.engine.replication.stream", 1010);
    private String replicationAckChannel = System.getProperty("ringex.engine.replication.ack.channel",
        "aeron:udp?endpoint=localhost:40111");
    private int replicationAckStreamId = Integer.getInteger("ringex.engine.replication.ack.stream", 1011);
    private String peerReplicationChannel = System.getProperty("ringex.engine.replication.peer.channel");
    private String peerReplicationAckChannel = System.getProperty("ringex.engine.replication.peer.ack.channel");
    private int catchUpStreamId = Integer.getInteger("ringex.engine.replication.catchup.stream", 1012);
    private int reportWindowBytes = Integer.getInteger("ringex.engine.standby.report.window.bytes", 4 << 20);
    private long replicationHeartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(
        Long.getLong("ringex.engine.replication.heartbeat.interval.ms", 100L));
    private long autoPromoteTimeoutNs = TimeUnit.MILLISECONDS.toNanos(
        Long.getLong("ringex.engine.standby.auto.promote.ms", 0L));
    private String controlChannel = System.getProperty("ringex.engine.control.channel",
        "aeron:udp?endpoint=localhost:40120");
    private int controlStreamId = Integer.getInteger("ringex.engine.control.stream", 1020);
    private Path journalDirectory = Path.of(System.getProperty("ringex.engine.journal.dir", "data/journal"));
    private Path snapshotDirectory = Path.of(System.getProperty("ringex.engine.snapshot.dir", "data/snapshots"));
    private Journal.Durability durability = Journal.Durability.valueOf(
        System.getProperty("ringex.engine.journal.durability", "PROCESS"));
    private boolean allowJournalGaps = Boolean.getBoolean("ringex.engine.journal.allow.gaps");
    private long journalPretouchBytes = Long.getLong("ringex.engine.journal.pretouch.bytes", 16L << 20);
    private int inputRingCapacity = Integer.getInteger("ringex.engine.input.ring.capacity", DEFAULT_RING_CAPACITY);
    private int inputSlotLength = Integer.getInteger("ringex.engine.input.slot.length", DEFAULT_INPUT_SLOT_LENGTH);
    private int outputRingCapacity = Integer.getInteger("ringex.engine.output.ring.capacity", DEFAULT_RING_CAPACITY);
    private int outputSlotLength = Integer.getInteger(
        "ringex.engine.output.slot.length", DEFAULT_OUTPUT_SLOT_LENGTH);
    private long snapshotEveryCommands = Long.getLong("ringex.engine.snapshot.every.commands", 1_000_000L);
    private int snapshotsKept = Integer.getInteger("ringex.engine.snapshot.kept", 3);
    private long statusIntervalNs = TimeUnit.MILLISECONDS.toNanos(
        Long.getLong("ringex.engine.status.interval.ms", 1000L));
    private long bookSnapshotIntervalNs = TimeUnit.MILLISECONDS.toNanos(
        Long.getLong("ringex.engine.marketdata.snapshot.interval.ms", 5000L));
    private Threading threading = Threading.valueOf(System.getProperty("ringex.engine.threading", "SHARED"));
    private String idleStrategy = System.getProperty("ringex.engine.idle.strategy", "backoff");
    private long replicationAckTimeoutNs = TimeUnit.MILLISECONDS.toNanos(
        Long.getLong("ringex.engine.replication.ack.timeout.ms", 2000L));
    private boolean concluded;

    /**
     * Validate and fill in derived values.
     *
     * @return this.
     * @throws IllegalStateException naming the offending key.
     */
    public EngineContext conclude()
    {
        require(nodeId > 0, "ringex.engine.node.id", "must be positive");
        require(Integer.bitCount(inputRingCapacity) == 1, "ringex.engine.input.ring.capacity",
            "must be a power of two");
        require(Integer.bitCount(outputRingCapacity) == 1, "ringex.engine.output.ring.capacity",
            "must be a power of two");
        require(inputSlotLength >= 128 && Integer.bitCount(inputSlotLength) == 1, "ringex.engine.input.slot.length",
            "must be a power of two >= 128");
        require(outputSlotLength >= 256 && Integer.bitCount(outputSlotLength) == 1,
            "ringex.engine.output.slot.length", "must be a power of two >= 256");
        require(snapshotEveryCommands > 0, "ringex.engine.snapshot.every.commands", "must be positive");
        require(journalPretouchBytes >= 0 && journalPretouchBytes % JournalPretoucher.PAGE_SIZE == 0,
            "ringex.engine.journal.pretouch.bytes", "must be 0 (off) or a multiple of " + JournalPretoucher.PAGE_SIZE);
        require(snapshotsKept > 0, "ringex.engine.snapshot.kept", "must be positive");
        require(statusIntervalNs > 0, "ringex.engine.status.interval.ms", "must be positive");
        require(!ingressChannel.isEmpty(), "ringex.engine.ingress.channel", "must be set");
        require((null == peerReplicationChannel) == (null == peerReplicationAckChannel),
            null == peerReplicationChannel ? "ringex.engine.replication.peer.channel" :
            "ringex.engine.replication.peer.ack.channel",
            "must be set together with its pair (ringex.engine.replication.peer.channel and .peer.ack.channel name " +
            "the peer's receive endpoints, so a promoted standby can replicate onward)");
        require(null == peerReplicationChannel || !peerReplicationChannel.equals(replicationChannel),
            "ringex.engine.replication.peer.channel", "must name the peer's endpoint, not this node's own " +
            "ringex.engine.replication.channel (" + replicationChannel + ")");
        require(null == peerReplicationAckChannel || !peerReplicationAckChannel.equals(replicationAckChannel),
            "ringex.engine.replication.peer.ack.channel", "must name the peer's endpoint, not this node's own " +
            "ringex.engine.replication.ack.channel (" + replicationAckChannel + ")");
        require(catchUpStreamId != replicationStreamId, "ringex.engine.replication.catchup.stream",
            "must differ from ringex.engine.replication.stream (" + replicationStreamId + ")");
        require(replicationAckTimeoutNs > 0, "ringex.engine.replication.ack.timeout.ms", "must be positive");
        require(reportWindowBytes >= 4 * outputSlotLength, "ringex.engine.standby.report.window.bytes",
            "must hold at least 4 output slots (" + 4 * outputSlotLength + " bytes)");
        newIdleStrategy();
        concluded = true;
        return this;
    }

    private static void require(final boolean condition, final String key, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException(key + " " + message);
        }
    }

    /**
     * A new idle strategy of the configured kind (each agent runner needs its own).
     *
     * @return the idle strategy.
     */
    public IdleStrategy newIdleStrategy()
    {
        return newIdleStrategy(idleStrategy);
    }

    /**
     * A new idle strategy by name, as {@code ringex.engine.idle.strategy} takes it.
     *
     * @param name backoff (the rings' default, {@link Ring#defaultIdleStrategy()}), yielding, busy-spin or sleeping.
     * @return the idle strategy.
     * @throws IllegalStateException naming the key for any other name.
     */
    public static IdleStrategy newIdleStrategy(final String name)
    {
        switch (name)
        {
            case "backoff":
                return Ring.defaultIdleStrategy();
            case "yielding":
                return new YieldingIdleStrategy();
            case "busy-spin":
                return new BusySpinIdleStrategy();
            case "sleeping":
                return new SleepingMillisIdleStrategy(1);
            default:
                throw new IllegalStateException("ringex.engine.idle.strategy must be backoff, yielding, busy-spin or " +
                    "sleeping, not " + name);
        }
    }

    boolean isConcluded()
    {
        return concluded;
    }

    // ---------------------------------------------------------------- fluent accessors

    /** @return this node's id, unique in a primary/standby pair. */
    public int nodeId()
    {
        return nodeId;
    }

    /** @param nodeId this node's id. @return this. */
    public EngineContext nodeId(final int nodeId)
    {
        this.nodeId = nodeId;
        return this;
    }

    /** @return the role the node starts in. */
    public Role role()
    {
        return role;
    }

    /** @param role the role the node starts in. @return this. */
    public EngineContext role(final Role role)
    {
        this.role = role;
        return this;
    }

    /** @return the Aeron directory, or null for Aeron's default. */
    public String aeronDirectoryName()
    {
        return aeronDirectoryName;
    }

    /** @param name the Aeron directory. @return this. */
    public EngineContext aeronDirectoryName(final String name)
    {
        this.aeronDirectoryName = name;
        return this;
    }

    /** @return whether the node launches its own media driver. */
    public boolean embeddedMediaDriver()
    {
        return embeddedMediaDriver;
    }

    /** @param embedded whether the node launches its own media driver. @return this. */
    public EngineContext embeddedMediaDriver(final boolean embedded)
    {
        this.embeddedMediaDriver = embedded;
        return this;
    }

    /** @return the channel commands arrive on. */
    public String ingressChannel()
    {
        return ingressChannel;
    }

    /** @param channel the channel commands arrive on. @return this. */
    public EngineContext ingressChannel(final String channel)
    {
        this.ingressChannel = channel;
        return this;
    }

    /** @return the stream commands arrive on. */
    public int ingressStreamId()
    {
        return ingressStreamId;
    }

    /** @param streamId the stream commands arrive on. @return this. */
    public EngineContext ingressStreamId(final int streamId)
    {
        this.ingressStreamId = streamId;
        return this;
    }

    /** @return the channel of the egress, market-data and risk streams. */
    public String outboundChannel()
    {
        return outboundChannel;
    }

    /** @param channel the channel of the egress, market-data and risk streams. @return this. */
    public EngineContext outboundChannel(final String channel)
    {
        this.outboundChannel = channel;
        return this;
    }

    /** @return the egress stream (execution reports to gateways). */
    public int egressStreamId()
    {
        return egressStreamId;
    }

    /** @param streamId the egress stream. @return this. */
    public EngineContext egressStreamId(final int streamId)
    {
        this.egressStreamId = streamId;
        return this;
    }

    /** @return the market-data stream. */
    public int marketDataStreamId()
    {
        return marketDataStreamId;
    }

    /** @param streamId the market-data stream. @return this. */
    public EngineContext marketDataStreamId(final int streamId)
    {
        this.marketDataStreamId = streamId;
        return this;
    }

    /** @return the risk stream. */
    public int riskStreamId()
    {
        return riskStreamId;
    }

    /** @param streamId the risk stream. @return this. */
    public EngineContext riskStreamId(final int streamId)
    {
        this.riskStreamId = streamId;
        return this;
    }

    /** @return the replication mode. */
    public ReplicationMode replicationMode()
    {
        return replicationMode;
    }

    /** @param mode the replication mode. @return this. */
    public EngineContext replicationMode(final ReplicationMode mode)
    {
        this.replicationMode = mode;
        return this;
    }

    /** @return the channel replicated commands go to the standby on. */
    public String replicationChannel()
    {
        return replicationChannel;
    }

    /** @param channel the replication channel. @return this. */
    public EngineContext replicationChannel(final String channel)
    {
        this.replicationChannel = channel;
        return this;
    }

    /** @return the replication stream. */
    public int replicationStreamId()
    {
        return replicationStreamId;
    }

    /** @param streamId the replication stream. @return this. */
    public EngineContext replicationStreamId(final int streamId)
    {
        this.replicationStreamId = streamId;
        return this;
    }

    /** @return the channel the standby acknowledges on. */
    public String replicationAckChannel()
    {
        return replicationAckChannel;
    }

    /** @param channel the acknowledgement channel. @return this. */
    public EngineContext replicationAckChannel(final String channel)
    {
        this.replicationAckChannel = channel;
        return this;
    }

    /** @return the acknowledgement stream. */
    public int replicationAckStreamId()
    {
        return replicationAckStreamId;
    }

    /** @param streamId the acknowledgement stream. @return this. */
    public EngineContext replicationAckStreamId(final int streamId)
    {
        this.replicationAckStreamId = streamId;
        return this;
    }

    /**
     * @return where this node sends replicated commands when it is primary: the peer's
     * {@link #replicationChannel()}; this node's own when no peer channels are set (a fixed pair sharing one
     * configuration, whose standby does not replicate onward after promotion).
     */
    public String peerReplicationChannel()
    {
        return null == peerReplicationChannel ? replicationChannel : peerReplicationChannel;
    }

    /** @param channel the peer's replication receive channel. @return this. */
    public EngineContext peerReplicationChannel(final String channel)
    {
        this.peerReplicationChannel = channel;
        return this;
    }

    /**
     * @return where this node sends acknowledgements and catch-up requests when it is standby: the peer's
     * {@link #replicationAckChannel()}; this node's own when no peer channels are set.
     */
    public String peerReplicationAckChannel()
    {
        return null == peerReplicationAckChannel ? replicationAckChannel : peerReplicationAckChannel;
    }

    /** @param channel the peer's acknowledgement receive channel. @return this. */
    public EngineContext peerReplicationAckChannel(final String channel)
    {
        this.peerReplicationAckChannel = channel;
        return this;
    }

    /**
     * @return whether the peer's endpoints are configured apart from this node's own, so that either node can be
     * primary and replicate to the other (a promoted standby replicates onward to the restarted old primary).
     */
    public boolean hasPeerChannels()
    {
        return null != peerReplicationChannel;
    }

    /** @return the stream, on the replication channel, that a primary sends catch-up (journal) commands on. */
    public int catchUpStreamId()
    {
        return catchUpStreamId;
    }

    /** @param streamId the catch-up stream. @return this. */
    public EngineContext catchUpStreamId(final int streamId)
    {
        this.catchUpStreamId = streamId;
        return this;
    }

    /**
     * @return bytes of a standby's recent client-bound events (reports and rejects) kept to be re-sent on promotion
     * (docs/operations.md says how to size it).
     */
    public int reportWindowBytes()
    {
        return reportWindowBytes;
    }

    /** @param bytes the standby's report window. @return this. */
    public EngineContext reportWindowBytes(final int bytes)
    {
        this.reportWindowBytes = bytes;
        return this;
    }

    /** @return how often a replicating primary tells its standby it is alive. */
    public long replicationHeartbeatIntervalNs()
    {
        return replicationHeartbeatIntervalNs;
    }

    /** @param intervalNs how often a replicating primary tells its standby it is alive. @return this. */
    public EngineContext replicationHeartbeatIntervalNs(final long intervalNs)
    {
        this.replicationHeartbeatIntervalNs = intervalNs;
        return this;
    }

    /**
     * @return silence from the primary after which a standby promotes itself; 0 (the default) never. Without a third
     * party to break ties, a network partition can then give two primaries (docs/operations.md).
     */
    public long autoPromoteTimeoutNs()
    {
        return autoPromoteTimeoutNs;
    }

    /** @param timeoutNs silence after which a standby promotes itself, 0 for never. @return this. */
    public EngineContext autoPromoteTimeoutNs(final long timeoutNs)
    {
        this.autoPromoteTimeoutNs = timeoutNs;
        return this;
    }

    /** @return the channel a standby takes promotion requests (NewEpoch) on. */
    public String controlChannel()
    {
        return controlChannel;
    }

    /** @param channel the promotion control channel. @return this. */
    public EngineContext controlChannel(final String channel)
    {
        this.controlChannel = channel;
        return this;
    }

    /** @return the promotion control stream. */
    public int controlStreamId()
    {
        return controlStreamId;
    }

    /** @param streamId the promotion control stream. @return this. */
    public EngineContext controlStreamId(final int streamId)
    {
        this.controlStreamId = streamId;
        return this;
    }

    /** @return the journal directory. */
    public Path journalDirectory()
    {
        return journalDirectory;
    }

    /** @param directory the journal directory. @return this. */
    public EngineContext journalDirectory(final Path directory)
    {
        this.journalDirectory = directory;
        return this;
    }

    /** @return the snapshot directory. */
    public Path snapshotDirectory()
    {
        return snapshotDirectory;
    }

    /** @param directory the snapshot directory. @return this. */
    public EngineContext snapshotDirectory(final Path directory)
    {
        this.snapshotDirectory = directory;
        return this;
    }

    /** @return what a journaled batch survives. */
    public Journal.Durability durability()
    {
        return durability;
    }

    /** @param durability what a journaled batch survives. @return this. */
    public EngineContext durability(final Journal.Durability durability)
    {
        this.durability = durability;
        return this;
    }

    /** @return whether recovery may go on over a gap in the middle of the journal. */
    public boolean allowJournalGaps()
    {
        return allowJournalGaps;
    }

    /** @param allow whether recovery may go on over a gap. @return this. */
    public EngineContext allowJournalGaps(final boolean allow)
    {
        this.allowJournalGaps = allow;
        return this;
    }

    /**
     * @return how far ahead of the journal writer a thread of its own takes the file's page faults
     *         ({@link JournalPretoucher}); 0 turns it off.
     */
    public long journalPretouchBytes()
    {
        return journalPretouchBytes;
    }

    /** @param bytes how far ahead of the journal writer pages are touched, 0 for off. @return this. */
    public EngineContext journalPretouchBytes(final long bytes)
    {
        this.journalPretouchBytes = bytes;
        return this;
    }

    /** @return input ring slots. */
    public int inputRingCapacity()
    {
        return inputRingCapacity;
    }

    /** @param capacity input ring slots, a power of two. @return this. */
    public EngineContext inputRingCapacity(final int capacity)
    {
        this.inputRingCapacity = capacity;
        return this;
    }

    /** @return input slot length. */
    public int inputSlotLength()
    {
        return inputSlotLength;
    }

    /** @param length input slot length, a power of two. @return this. */
    public EngineContext inputSlotLength(final int length)
    {
        this.inputSlotLength = length;
        return this;
    }

    /** @return output ring slots. */
    public int outputRingCapacity()
    {
        return outputRingCapacity;
    }

    /** @param capacity output ring slots, a power of two. @return this. */
    public EngineContext outputRingCapacity(final int capacity)
    {
        this.outputRingCapacity = capacity;
        return this;
    }

    /** @return output slot length. */
    public int outputSlotLength()
    {
        return outputSlotLength;
    }

    /** @param length output slot length, a power of two. @return this. */
    public EngineContext outputSlotLength(final int length)
    {
        this.outputSlotLength = length;
        return this;
    }

    /** @return commands between automatic snapshots. */
    public long snapshotEveryCommands()
    {
        return snapshotEveryCommands;
    }

    /** @param commands commands between automatic snapshots. @return this. */
    public EngineContext snapshotEveryCommands(final long commands)
    {
        this.snapshotEveryCommands = commands;
        return this;
    }

    /** @return snapshot files kept. */
    public int snapshotsKept()
    {
        return snapshotsKept;
    }

    /** @param kept snapshot files kept. @return this. */
    public EngineContext snapshotsKept(final int kept)
    {
        this.snapshotsKept = kept;
        return this;
    }

    /** @return interval between EngineStatus messages. */
    public long statusIntervalNs()
    {
        return statusIntervalNs;
    }

    /** @param intervalNs interval between EngineStatus messages. @return this. */
    public EngineContext statusIntervalNs(final long intervalNs)
    {
        this.statusIntervalNs = intervalNs;
        return this;
    }

    /** @return interval, in command time, between full book snapshots on market data. */
    public long bookSnapshotIntervalNs()
    {
        return bookSnapshotIntervalNs;
    }

    /** @param intervalNs interval between book snapshots. @return this. */
    public EngineContext bookSnapshotIntervalNs(final long intervalNs)
    {
        this.bookSnapshotIntervalNs = intervalNs;
        return this;
    }

    /** @return how agents are put on threads. */
    public Threading threading()
    {
        return threading;
    }

    /** @param threading how agents are put on threads. @return this. */
    public EngineContext threading(final Threading threading)
    {
        this.threading = threading;
        return this;
    }

    /** @return how long SYNC replication waits for an acknowledgement before degrading to ASYNC. */
    public long replicationAckTimeoutNs()
    {
        return replicationAckTimeoutNs;
    }

    /** @param timeoutNs how long SYNC replication waits for an acknowledgement. @return this. */
    public EngineContext replicationAckTimeoutNs(final long timeoutNs)
    {
        this.replicationAckTimeoutNs = timeoutNs;
        return this;
    }

    /** @return the idle strategy name. */
    public String idleStrategy()
    {
        return idleStrategy;
    }

    /** @param name backoff, yielding, busy-spin or sleeping. @return this. */
    public EngineContext idleStrategy(final String name)
    {
        this.idleStrategy = name;
        return this;
    }
}
