package io.ringex.engine.node;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.client.AdminKeys;
import io.ringex.common.IdleStrategies;
import io.ringex.common.config.Config;
import io.ringex.common.config.ConfigOption;
import io.ringex.engine.cluster.ClusterMembers;
import io.ringex.journal.Journal;
import io.ringex.journal.JournalPretoucher;
import org.agrona.SystemUtil;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Configuration of an engine node, in the style of Aeron's {@code MediaDriver.Context}: fluent setters, defaults
 * from the {@code ringex.engine.*} system properties that {@link Configuration} names and reads strictly, and one
 * {@link #conclude()} that validates and fails naming the key. Spring Boot (or a properties file) binds onto it; the
 * hot path never sees Spring.
 * <p>
 * A malformed value ({@code ringex.engine.input.ring.capacity=16kb}) throws a {@link ConfigurationException} naming
 * the key when the context is created; {@link EngineMain} also refuses a key no {@link Configuration} constant names.
 * <p>
 * Thread safety: configure on one thread, conclude, then hand to {@link EngineNode}; not modified afterwards.
 */
public final class EngineContext
{
    /** How the node's agents are put on threads. */
    public enum Threading
    {
        /** Every agent on its own thread: for machines with cores to spare, with busy-spin idle if wanted. */
        DEDICATED,
        /** Ingress, journal, replication and the publishers on one thread; processor and status on another. */
        SHARED,
        /**
         * Every agent of the pipeline on one thread, one composite duty cycle over the same rings and stages: a
         * command crosses no thread inside the node. For small machines where the engine is one process among
         * several; a stage that waits (a full output ring, a full input ring) runs the agents that free it.
         */
        COMPACT
    }

    /** Whether and how commands are replicated before the processor acts on them. */
    public enum ReplicationMode
    {
        /** A single node. */
        OFF,
        /**
         * A member of an Aeron Cluster ({@code ringex.engine.cluster.*}): commands reach the ring only once a majority
         * of the members hold them in the cluster's log; the cluster's leader takes client commands.
         */
        CLUSTER
    }

    /**
     * The engine node's keys and defaults, as Aeron's {@code ClusteredServiceContainer.Configuration} declares its
     * own: a {@code *_PROP_NAME} constant per key, marked {@link ConfigOption} (so
     * {@link io.ringex.common.config.KnownKeys} knows it and docs/operations.md's table is generated from it), its
     * {@code *_DEFAULT} ({@code _NS} for a duration, {@code _BYTES} for a size), and a getter that reads the system
     * property through {@link Config}: a value that does not parse stops the node naming the key. Durations take
     * {@code ns}, {@code us}, {@code ms} or {@code s} ({@code 100ms}); sizes and slot counts take {@code k}, {@code m}
     * or {@code g} ({@code 16k}).
     */
    public static final class Configuration
    {
        @ConfigOption("unique among a cluster's members, the member id in `ringex.engine.cluster.members`")
        public static final String NODE_ID_PROP_NAME = "ringex.engine.node.id";
        /** Default node id. */
        public static final int NODE_ID_DEFAULT = 1;

        @ConfigOption(value = "media driver directory", defaultText = "Aeron's default")
        public static final String AERON_DIR_PROP_NAME = "ringex.engine.aeron.dir";

        @ConfigOption("launch a media driver inside the node")
        public static final String AERON_EMBEDDED_PROP_NAME = "ringex.engine.aeron.embedded";
        /** A driver runs beside the node unless configured. */
        public static final boolean AERON_EMBEDDED_DEFAULT = false;

        @ConfigOption("where commands arrive")
        public static final String INGRESS_CHANNEL_PROP_NAME = "ringex.engine.ingress.channel";
        /** Default ingress channel. */
        public static final String INGRESS_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:40100";

        @ConfigOption("stream commands arrive on")
        public static final String INGRESS_STREAM_PROP_NAME = "ringex.engine.ingress.stream";
        /** Default ingress stream. */
        public static final int INGRESS_STREAM_DEFAULT = 1001;

        // The default holds a '|', which a Markdown table cell needs escaped: hence the default text.
        @ConfigOption(value = "MDC publication of the egress, market-data and risk streams",
            defaultText = "`aeron:udp?control=localhost:40101|control-mode=dynamic`")
        public static final String OUTBOUND_CHANNEL_PROP_NAME = "ringex.engine.outbound.channel";
        /** Default outbound channel. */
        public static final String OUTBOUND_CHANNEL_DEFAULT = "aeron:udp?control=localhost:40101|control-mode=dynamic";

        @ConfigOption("outbound stream of execution reports and rejects, to gateways")
        public static final String EGRESS_STREAM_PROP_NAME = "ringex.engine.egress.stream";
        /** Default egress stream. */
        public static final int EGRESS_STREAM_DEFAULT = 1002;

        @ConfigOption("outbound stream of market data")
        public static final String MARKETDATA_STREAM_PROP_NAME = "ringex.engine.marketdata.stream";
        /** Default market-data stream. */
        public static final int MARKETDATA_STREAM_DEFAULT = 1003;

        @ConfigOption("where market-data subscribers' snapshot and retransmission requests arrive, served by the " +
            "market-data recovery service: a channel of its own, never the command ingress (each request names the " +
            "requester's own response channel, where it alone is answered)")
        public static final String MARKETDATA_REQUEST_CHANNEL_PROP_NAME = "ringex.engine.marketdata.request.channel";
        /** Default market-data request channel. */
        public static final String MARKETDATA_REQUEST_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:40130";

        @ConfigOption("stream of market-data snapshot and retransmission requests (on the request channel)")
        public static final String MARKETDATA_REQUEST_STREAM_PROP_NAME = "ringex.engine.marketdata.request.stream";
        /** Default market-data request stream. */
        public static final int MARKETDATA_REQUEST_STREAM_DEFAULT = 1031;

        @ConfigOption("requesters' response channels the recovery service keeps open at once (one publication " +
            "each, closed after 30 s without a request); a request that would need one more is not answered")
        public static final String MARKETDATA_RECOVERY_MAX_DESTINATIONS_PROP_NAME =
            "ringex.engine.marketdata.recovery.max.destinations";
        /** Default response channels kept open. */
        public static final int MARKETDATA_RECOVERY_MAX_DESTINATIONS_DEFAULT = 64;

        @ConfigOption("requests a second one requester (one address, or one IPC client) may make of the recovery " +
            "service, and as many at once; beyond, each is answered BUSY with the time to ask again")
        public static final String MARKETDATA_RECOVERY_REQUESTER_RATE_PROP_NAME =
            "ringex.engine.marketdata.recovery.requester.rate";
        /** Default requests per second per requester. */
        public static final int MARKETDATA_RECOVERY_REQUESTER_RATE_DEFAULT = 100;

        @ConfigOption("term length of each response channel's publication (x3 of log buffer per requester), a " +
            "power of two from 64k")
        public static final String MARKETDATA_RECOVERY_TERM_LENGTH_PROP_NAME =
            "ringex.engine.marketdata.recovery.term.length";
        /** Default response term length. */
        public static final int MARKETDATA_RECOVERY_TERM_LENGTH_DEFAULT_BYTES = 256 * 1024;

        @ConfigOption(value = "the admin keys file (`NUMBER NAME SECRET` a line, see \"Admin keys\"): the ingress " +
            "takes an operator's admin command only signed with one of these keys; unset, it takes none",
            defaultText = "unset (every admin command refused)")
        public static final String ADMIN_KEYS_FILE_PROP_NAME = "ringex.engine.admin.keys.file";

        @ConfigOption("how far a signed admin command's time may be from the ingress's clock, either way; its nonce " +
            "is remembered twice as long, so a command sniffed on the wire cannot be sent again")
        public static final String ADMIN_AUTH_WINDOW_PROP_NAME = "ringex.engine.admin.auth.window";
        /** Default window. */
        public static final long ADMIN_AUTH_WINDOW_DEFAULT_NS = TimeUnit.SECONDS.toNanos(30);

        @ConfigOption("outbound stream of the report replay service's answers (replayed execution reports)")
        public static final String REPLAY_STREAM_PROP_NAME = "ringex.engine.replay.stream";
        /** Default report replay stream (on the outbound channel). */
        public static final int REPLAY_STREAM_DEFAULT = 1040;

        @ConfigOption("inbound stream of report replay requests from gateways (on the ingress channel)")
        public static final String REPLAY_REQUEST_STREAM_PROP_NAME = "ringex.engine.replay.request.stream";
        /** Default report replay request stream (on the ingress channel). */
        public static final int REPLAY_REQUEST_STREAM_DEFAULT = 1041;

        @ConfigOption("outbound stream of risk updates, admin responses and `EngineStatus`")
        public static final String RISK_STREAM_PROP_NAME = "ringex.engine.risk.stream";
        /** Default risk stream. */
        public static final int RISK_STREAM_DEFAULT = 1004;

        @ConfigOption("OFF (a single node) or CLUSTER (a member of a cluster: `ringex.engine.cluster.*`)")
        public static final String REPLICATION_MODE_PROP_NAME = "ringex.engine.replication.mode";
        /** Default replication mode. */
        public static final ReplicationMode REPLICATION_MODE_DEFAULT = ReplicationMode.OFF;

        @ConfigOption("CLUSTER mode: a follower's recent client reports kept off-heap, re-sent when it leads (see " +
            "\"How a new leader answers what the old one took\")")
        public static final String CLUSTER_REPORT_WINDOW_BYTES_PROP_NAME = "ringex.engine.cluster.report.window.bytes";
        /** Default report window. */
        public static final int CLUSTER_REPORT_WINDOW_BYTES_DEFAULT_BYTES = 4 * 1024 * 1024;

        @ConfigOption(value = "CLUSTER mode: the members, `id=host:port` separated by commas (`1=10.0.0.1:9000," +
            "2=10.0.0.2:9000,3=10.0.0.3:9000`); each member uses five consecutive ports from its `port` (client " +
            "ingress, consensus, log, catch-up, archive control) on its `host`, and this node's id must be one of them",
            defaultText = "unset")
        public static final String CLUSTER_MEMBERS_PROP_NAME = "ringex.engine.cluster.members";

        @ConfigOption("CLUSTER mode: the consensus module's and the archive's directory (the cluster's log and its " +
            "snapshots)")
        public static final String CLUSTER_DIR_PROP_NAME = "ringex.engine.cluster.dir";
        /** Default cluster directory. */
        public static final String CLUSTER_DIR_DEFAULT = "data/cluster";

        @ConfigOption(value = "CLUSTER mode: the secret every member's engine proves to the consensus module " +
            "before it may append commands (an HMAC-SHA256 challenge; the secret never crosses the network); the " +
            "same on every member, at least 16 characters", defaultText = "unset")
        public static final String CLUSTER_SECRET_PROP_NAME = "ringex.engine.cluster.secret";

        @ConfigOption("CLUSTER mode: a leader silent this long is replaced by an election; the same on every member " +
            "(a pause longer than this, a GC or a disk stall, also costs the leadership)")
        public static final String CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME =
            "ringex.engine.cluster.leader.heartbeat.timeout";
        /** Default leader heartbeat timeout. */
        public static final long CLUSTER_LEADER_HEARTBEAT_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(500);

        @ConfigOption("CLUSTER mode: how often a quiet leader tells the followers it is alive; well below the timeout")
        public static final String CLUSTER_LEADER_HEARTBEAT_INTERVAL_PROP_NAME =
            "ringex.engine.cluster.leader.heartbeat.interval";
        /** Default leader heartbeat interval. */
        public static final long CLUSTER_LEADER_HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(50);

        @ConfigOption("CLUSTER mode: how long an election waits for votes before it tries again")
        public static final String CLUSTER_ELECTION_TIMEOUT_PROP_NAME = "ringex.engine.cluster.election.timeout";
        /** Default election timeout. */
        public static final long CLUSTER_ELECTION_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(250);

        @ConfigOption("CLUSTER mode: at a cold start, how long members wait for every member before a majority " +
            "elects a leader without the rest")
        public static final String CLUSTER_STARTUP_CANVASS_TIMEOUT_PROP_NAME =
            "ringex.engine.cluster.startup.canvass.timeout";
        /** Default startup canvass timeout. */
        public static final long CLUSTER_STARTUP_CANVASS_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);

        @ConfigOption("CLUSTER mode: the term length of the cluster log's publication, a power of two 64k..1g (each " +
            "member maps three terms; the archive's segment files are four terms)")
        public static final String CLUSTER_LOG_TERM_LENGTH_PROP_NAME = "ringex.engine.cluster.log.term.length";
        /** Default log term length. */
        public static final int CLUSTER_LOG_TERM_LENGTH_DEFAULT_BYTES = 16 * 1024 * 1024;

        @ConfigOption("the command journal's directory")
        public static final String JOURNAL_DIR_PROP_NAME = "ringex.engine.journal.dir";
        /** Default journal directory. */
        public static final String JOURNAL_DIR_DEFAULT = "data/journal";

        @ConfigOption("PROCESS survives kill -9; MACHINE also power loss (msync per batch)")
        public static final String JOURNAL_DURABILITY_PROP_NAME = "ringex.engine.journal.durability";
        /** Default durability. */
        public static final Journal.Durability JOURNAL_DURABILITY_DEFAULT = Journal.Durability.PROCESS;

        @ConfigOption("start over a gap in the middle of the journal (operator's decision; see \"Recovery and the " +
            "journal\")")
        public static final String JOURNAL_ALLOW_GAPS_PROP_NAME = "ringex.engine.journal.allow.gaps";
        /** Default: a gap stops the node. */
        public static final boolean JOURNAL_ALLOW_GAPS_DEFAULT = false;

        @ConfigOption("a thread of its own (`ringex-journal-pretouch`, wakes each ms) writes the journal file's " +
            "pages this far ahead of the writer, so the journal stage never takes the file system's page faults " +
            "(on ext4 they stalled it 20-60 ms every 8 MiB); 0 turns it off; a multiple of 4k")
        public static final String JOURNAL_PRETOUCH_BYTES_PROP_NAME = "ringex.engine.journal.pretouch.bytes";
        /** Default pretouch distance. */
        public static final long JOURNAL_PRETOUCH_BYTES_DEFAULT_BYTES = 16L * 1024 * 1024;

        @ConfigOption("the snapshots' directory")
        public static final String SNAPSHOT_DIR_PROP_NAME = "ringex.engine.snapshot.dir";
        /** Default snapshot directory. */
        public static final String SNAPSHOT_DIR_DEFAULT = "data/snapshots";

        @ConfigOption("commands between automatic snapshots, plus one on each `TakeSnapshot` admin command")
        public static final String SNAPSHOT_EVERY_COMMANDS_PROP_NAME = "ringex.engine.snapshot.every.commands";
        /** Default commands between snapshots. */
        public static final long SNAPSHOT_EVERY_COMMANDS_DEFAULT = 1_000_000L;

        @ConfigOption("snapshot files kept")
        public static final String SNAPSHOT_KEPT_PROP_NAME = "ringex.engine.snapshot.kept";
        /** Default snapshots kept. */
        public static final int SNAPSHOT_KEPT_DEFAULT = 3;

        /*
         * Slots in each ring unless configured: 16,384, i.e. 4 MiB of 256-byte commands and 16 MiB of 1 KiB events.
         * Rings the stages keep in the last-level cache run the in-process pipeline about 1.5x faster than 65,536
         * slots (80 MiB between the two rings), while the buffering left, several milliseconds at the node's rates, is
         * more than the Aeron streams on either side need (docs/benchmarks-engine.md, "Ring size").
         */
        @ConfigOption("input ring slots, a power of two (`16k` = 16384); capacity x slot length should fit the " +
            "last-level cache ([benchmarks-engine.md](benchmarks-engine.md#ring-size))")
        public static final String INPUT_RING_CAPACITY_PROP_NAME = "ringex.engine.input.ring.capacity";
        /** Default input ring slots. */
        public static final int INPUT_RING_CAPACITY_DEFAULT = 16 * 1024;

        @ConfigOption("input slot length, slot header included: a power of two >= 512 (a mass quote of 10 entries " +
            "must fit a slot)")
        public static final String INPUT_SLOT_LENGTH_PROP_NAME = "ringex.engine.input.slot.length";
        /** Default input slot length: the smallest that holds the largest command, a 10-entry mass quote. */
        public static final int INPUT_SLOT_LENGTH_DEFAULT_BYTES = 512;

        @ConfigOption("output ring slots, a power of two; the same rule as the input ring")
        public static final String OUTPUT_RING_CAPACITY_PROP_NAME = "ringex.engine.output.ring.capacity";
        /** Default output ring slots. */
        public static final int OUTPUT_RING_CAPACITY_DEFAULT = 16 * 1024;

        @ConfigOption("output slot length, slot header included: a power of two >= 256; an event must fit a slot")
        public static final String OUTPUT_SLOT_LENGTH_PROP_NAME = "ringex.engine.output.slot.length";
        /** Default output slot length. */
        public static final int OUTPUT_SLOT_LENGTH_DEFAULT_BYTES = 1024;

        @ConfigOption("`EngineStatus` on the risk stream; late-joiner refresh every 5 intervals")
        public static final String STATUS_INTERVAL_PROP_NAME = "ringex.engine.status.interval";
        /** Default status interval. */
        public static final long STATUS_INTERVAL_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

        @ConfigOption("full books on market data, in command time")
        public static final String MARKETDATA_SNAPSHOT_INTERVAL_PROP_NAME =
            "ringex.engine.marketdata.snapshot.interval";
        /** Default book snapshot interval. */
        public static final long MARKETDATA_SNAPSHOT_INTERVAL_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);

        @ConfigOption("COMPACT (one thread for the whole pipeline), SHARED (2 threads: input side and publishers, " +
            "processor) or DEDICATED (a thread per agent); docs/benchmarks.md, \"Threading profiles\", says when")
        public static final String THREADING_PROP_NAME = "ringex.engine.threading";
        /** Default threading: COMPACT, the fastest end to end on a 2-core machine (docs/benchmarks.md). */
        public static final Threading THREADING_DEFAULT = Threading.COMPACT;

        @ConfigOption("Agrona's names: " + IdleStrategies.NAMES + "; `spin` only with a core per spinning thread")
        public static final String IDLE_STRATEGY_PROP_NAME = "ringex.engine.idle.strategy";
        /** Default idle strategy: the venue's back-off ({@link IdleStrategies#backoff()}). */
        public static final String IDLE_STRATEGY_DEFAULT = "backoff";

        @ConfigOption("`backoff`'s longest park, 1us..1ms: a command reaching a parked agent waits up to it " +
            "(plus the OS timer slack, ~50 us on Linux); an idle agent wakes about this often. A cluster member's " +
            "archive, consensus module and clustered service wait the same way (a command crosses four of them, on " +
            "two members, before the leader's processor sees it)")
        public static final String IDLE_MAX_PARK_PROP_NAME = "ringex.engine.idle.max.park";
        /** Default longest park of the back-off. */
        public static final long IDLE_MAX_PARK_DEFAULT_NS = IdleStrategies.BACKOFF_MAX_PARK_NS;

        @ConfigOption("with `backoff`: a stage that made work for a parked thread of the node wakes it at once " +
            "(SHARED, DEDICATED), so a command waits for one park at most (the ingress's); `false`: each thread " +
            "crossed wakes when its park ends")
        public static final String IDLE_WAKE_PROP_NAME = "ringex.engine.idle.wake";
        /** Default: parked threads are woken by the stages feeding them. */
        public static final boolean IDLE_WAKE_DEFAULT = true;

        @ConfigOption("the most events of one output-ring batch sent as one Aeron message (an `EventBatch`) on the " +
            "egress and risk streams, 1..64; `1` sends every event alone (docs/protocol.md, \"Event batches\")")
        public static final String OUTBOUND_BATCH_PROP_NAME = "ringex.engine.outbound.batch";
        /** Default: up to 64 events in one message, as many as fit unfragmented. */
        public static final int OUTBOUND_BATCH_DEFAULT = 64;

        private Configuration()
        {
        }

        private static Config config()
        {
            return Config.system();
        }

        /** @return {@link #NODE_ID_PROP_NAME} or its default. */
        public static int nodeId()
        {
            return config().intValue(NODE_ID_PROP_NAME, NODE_ID_DEFAULT);
        }

        /** @return {@link #AERON_DIR_PROP_NAME}, or null for Aeron's default. */
        public static String aeronDirectoryName()
        {
            return config().get(AERON_DIR_PROP_NAME);
        }

        /** @return {@link #AERON_EMBEDDED_PROP_NAME} or its default. */
        public static boolean embeddedMediaDriver()
        {
            return config().bool(AERON_EMBEDDED_PROP_NAME, AERON_EMBEDDED_DEFAULT);
        }

        /** @return {@link #INGRESS_CHANNEL_PROP_NAME} or its default. */
        public static String ingressChannel()
        {
            return config().string(INGRESS_CHANNEL_PROP_NAME, INGRESS_CHANNEL_DEFAULT);
        }

        /** @return {@link #INGRESS_STREAM_PROP_NAME} or its default. */
        public static int ingressStreamId()
        {
            return config().intValue(INGRESS_STREAM_PROP_NAME, INGRESS_STREAM_DEFAULT);
        }

        /** @return {@link #OUTBOUND_CHANNEL_PROP_NAME} or its default. */
        public static String outboundChannel()
        {
            return config().string(OUTBOUND_CHANNEL_PROP_NAME, OUTBOUND_CHANNEL_DEFAULT);
        }

        /** @return {@link #EGRESS_STREAM_PROP_NAME} or its default. */
        public static int egressStreamId()
        {
            return config().intValue(EGRESS_STREAM_PROP_NAME, EGRESS_STREAM_DEFAULT);
        }

        /** @return {@link #MARKETDATA_STREAM_PROP_NAME} or its default. */
        public static int marketDataStreamId()
        {
            return config().intValue(MARKETDATA_STREAM_PROP_NAME, MARKETDATA_STREAM_DEFAULT);
        }

        /** @return {@link #MARKETDATA_REQUEST_CHANNEL_PROP_NAME} or its default. */
        public static String marketDataRequestChannel()
        {
            return config().string(MARKETDATA_REQUEST_CHANNEL_PROP_NAME, MARKETDATA_REQUEST_CHANNEL_DEFAULT);
        }

        /** @return {@link #MARKETDATA_RECOVERY_MAX_DESTINATIONS_PROP_NAME} or its default. */
        public static int marketDataRecoveryMaxDestinations()
        {
            return config().intValue(MARKETDATA_RECOVERY_MAX_DESTINATIONS_PROP_NAME,
                MARKETDATA_RECOVERY_MAX_DESTINATIONS_DEFAULT);
        }

        /** @return {@link #MARKETDATA_RECOVERY_REQUESTER_RATE_PROP_NAME} or its default. */
        public static int marketDataRecoveryRequesterRate()
        {
            return config().intValue(MARKETDATA_RECOVERY_REQUESTER_RATE_PROP_NAME,
                MARKETDATA_RECOVERY_REQUESTER_RATE_DEFAULT);
        }

        /** @return {@link #MARKETDATA_RECOVERY_TERM_LENGTH_PROP_NAME} or its default, in bytes. */
        public static int marketDataRecoveryTermLength()
        {
            return config().sizeAsInt(MARKETDATA_RECOVERY_TERM_LENGTH_PROP_NAME,
                MARKETDATA_RECOVERY_TERM_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #ADMIN_KEYS_FILE_PROP_NAME}, or null. */
        public static String adminKeysFile()
        {
            return config().get(ADMIN_KEYS_FILE_PROP_NAME);
        }

        /** @return {@link #ADMIN_AUTH_WINDOW_PROP_NAME} or its default, in ns. */
        public static long adminAuthWindowNs()
        {
            return config().durationNs(ADMIN_AUTH_WINDOW_PROP_NAME, ADMIN_AUTH_WINDOW_DEFAULT_NS);
        }

        /** @return {@link #MARKETDATA_REQUEST_STREAM_PROP_NAME} or its default. */
        public static int marketDataRequestStreamId()
        {
            return config().intValue(MARKETDATA_REQUEST_STREAM_PROP_NAME, MARKETDATA_REQUEST_STREAM_DEFAULT);
        }

        /** @return {@link #REPLAY_STREAM_PROP_NAME} or its default. */
        public static int replayStreamId()
        {
            return config().intValue(REPLAY_STREAM_PROP_NAME, REPLAY_STREAM_DEFAULT);
        }

        /** @return {@link #REPLAY_REQUEST_STREAM_PROP_NAME} or its default. */
        public static int replayRequestStreamId()
        {
            return config().intValue(REPLAY_REQUEST_STREAM_PROP_NAME, REPLAY_REQUEST_STREAM_DEFAULT);
        }

        /** @return {@link #RISK_STREAM_PROP_NAME} or its default. */
        public static int riskStreamId()
        {
            return config().intValue(RISK_STREAM_PROP_NAME, RISK_STREAM_DEFAULT);
        }

        /** @return {@link #REPLICATION_MODE_PROP_NAME} or its default. */
        public static ReplicationMode replicationMode()
        {
            return config().enumValue(REPLICATION_MODE_PROP_NAME, ReplicationMode.class, REPLICATION_MODE_DEFAULT);
        }

        /** @return {@link #CLUSTER_REPORT_WINDOW_BYTES_PROP_NAME} or its default, in bytes. */
        public static int reportWindowBytes()
        {
            return config().sizeAsInt(CLUSTER_REPORT_WINDOW_BYTES_PROP_NAME, CLUSTER_REPORT_WINDOW_BYTES_DEFAULT_BYTES);
        }

        /** @return {@link #CLUSTER_MEMBERS_PROP_NAME}, or null when unset. */
        public static String clusterMembers()
        {
            return config().get(CLUSTER_MEMBERS_PROP_NAME);
        }

        /** @return {@link #CLUSTER_DIR_PROP_NAME} or its default. */
        public static Path clusterDirectory()
        {
            return Path.of(config().string(CLUSTER_DIR_PROP_NAME, CLUSTER_DIR_DEFAULT));
        }

        /** @return {@link #CLUSTER_SECRET_PROP_NAME}, or null when unset. */
        public static String clusterSecret()
        {
            return config().get(CLUSTER_SECRET_PROP_NAME);
        }

        /** @return {@link #CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME} or its default, in nanoseconds. */
        public static long clusterLeaderHeartbeatTimeoutNs()
        {
            return config().durationNs(CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME,
                CLUSTER_LEADER_HEARTBEAT_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #CLUSTER_LEADER_HEARTBEAT_INTERVAL_PROP_NAME} or its default, in nanoseconds. */
        public static long clusterLeaderHeartbeatIntervalNs()
        {
            return config().durationNs(CLUSTER_LEADER_HEARTBEAT_INTERVAL_PROP_NAME,
                CLUSTER_LEADER_HEARTBEAT_INTERVAL_DEFAULT_NS);
        }

        /** @return {@link #CLUSTER_ELECTION_TIMEOUT_PROP_NAME} or its default, in nanoseconds. */
        public static long clusterElectionTimeoutNs()
        {
            return config().durationNs(CLUSTER_ELECTION_TIMEOUT_PROP_NAME, CLUSTER_ELECTION_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #CLUSTER_STARTUP_CANVASS_TIMEOUT_PROP_NAME} or its default, in nanoseconds. */
        public static long clusterStartupCanvassTimeoutNs()
        {
            return config().durationNs(CLUSTER_STARTUP_CANVASS_TIMEOUT_PROP_NAME,
                CLUSTER_STARTUP_CANVASS_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #CLUSTER_LOG_TERM_LENGTH_PROP_NAME} or its default. */
        public static int clusterLogTermLength()
        {
            return config().sizeAsInt(CLUSTER_LOG_TERM_LENGTH_PROP_NAME, CLUSTER_LOG_TERM_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #JOURNAL_DIR_PROP_NAME} or its default. */
        public static Path journalDirectory()
        {
            return Path.of(config().string(JOURNAL_DIR_PROP_NAME, JOURNAL_DIR_DEFAULT));
        }

        /** @return {@link #JOURNAL_DURABILITY_PROP_NAME} or its default. */
        public static Journal.Durability durability()
        {
            return config().enumValue(
                JOURNAL_DURABILITY_PROP_NAME, Journal.Durability.class, JOURNAL_DURABILITY_DEFAULT);
        }

        /** @return {@link #JOURNAL_ALLOW_GAPS_PROP_NAME} or its default. */
        public static boolean allowJournalGaps()
        {
            return config().bool(JOURNAL_ALLOW_GAPS_PROP_NAME, JOURNAL_ALLOW_GAPS_DEFAULT);
        }

        /** @return {@link #JOURNAL_PRETOUCH_BYTES_PROP_NAME} or its default, in bytes. */
        public static long journalPretouchBytes()
        {
            return config().sizeAsLong(JOURNAL_PRETOUCH_BYTES_PROP_NAME, JOURNAL_PRETOUCH_BYTES_DEFAULT_BYTES);
        }

        /** @return {@link #SNAPSHOT_DIR_PROP_NAME} or its default. */
        public static Path snapshotDirectory()
        {
            return Path.of(config().string(SNAPSHOT_DIR_PROP_NAME, SNAPSHOT_DIR_DEFAULT));
        }

        /** @return {@link #SNAPSHOT_EVERY_COMMANDS_PROP_NAME} or its default. */
        public static long snapshotEveryCommands()
        {
            return config().longValue(SNAPSHOT_EVERY_COMMANDS_PROP_NAME, SNAPSHOT_EVERY_COMMANDS_DEFAULT);
        }

        /** @return {@link #SNAPSHOT_KEPT_PROP_NAME} or its default. */
        public static int snapshotsKept()
        {
            return config().intValue(SNAPSHOT_KEPT_PROP_NAME, SNAPSHOT_KEPT_DEFAULT);
        }

        /** @return {@link #INPUT_RING_CAPACITY_PROP_NAME} or its default. */
        public static int inputRingCapacity()
        {
            return config().sizeAsInt(INPUT_RING_CAPACITY_PROP_NAME, INPUT_RING_CAPACITY_DEFAULT);
        }

        /** @return {@link #INPUT_SLOT_LENGTH_PROP_NAME} or its default, in bytes. */
        public static int inputSlotLength()
        {
            return config().sizeAsInt(INPUT_SLOT_LENGTH_PROP_NAME, INPUT_SLOT_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #OUTPUT_RING_CAPACITY_PROP_NAME} or its default. */
        public static int outputRingCapacity()
        {
            return config().sizeAsInt(OUTPUT_RING_CAPACITY_PROP_NAME, OUTPUT_RING_CAPACITY_DEFAULT);
        }

        /** @return {@link #OUTPUT_SLOT_LENGTH_PROP_NAME} or its default, in bytes. */
        public static int outputSlotLength()
        {
            return config().sizeAsInt(OUTPUT_SLOT_LENGTH_PROP_NAME, OUTPUT_SLOT_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #STATUS_INTERVAL_PROP_NAME} or its default, in nanoseconds. */
        public static long statusIntervalNs()
        {
            return config().durationNs(STATUS_INTERVAL_PROP_NAME, STATUS_INTERVAL_DEFAULT_NS);
        }

        /** @return {@link #MARKETDATA_SNAPSHOT_INTERVAL_PROP_NAME} or its default, in nanoseconds. */
        public static long bookSnapshotIntervalNs()
        {
            return config().durationNs(MARKETDATA_SNAPSHOT_INTERVAL_PROP_NAME, MARKETDATA_SNAPSHOT_INTERVAL_DEFAULT_NS);
        }

        /** @return {@link #THREADING_PROP_NAME} or its default. */
        public static Threading threading()
        {
            return config().enumValue(THREADING_PROP_NAME, Threading.class, THREADING_DEFAULT);
        }

        /** @return {@link #IDLE_MAX_PARK_PROP_NAME} or its default, in nanoseconds. */
        public static long idleMaxParkNs()
        {
            return config().durationNs(IDLE_MAX_PARK_PROP_NAME, IDLE_MAX_PARK_DEFAULT_NS);
        }

        /** @return {@link #IDLE_WAKE_PROP_NAME} or its default. */
        public static boolean idleWake()
        {
            return config().bool(IDLE_WAKE_PROP_NAME, IDLE_WAKE_DEFAULT);
        }

        /** @return {@link #OUTBOUND_BATCH_PROP_NAME} or its default. */
        public static int outboundBatch()
        {
            return config().intValue(OUTBOUND_BATCH_PROP_NAME, OUTBOUND_BATCH_DEFAULT);
        }

        /** @return {@link #IDLE_STRATEGY_PROP_NAME} or its default, one of {@link IdleStrategies#NAMES}. */
        public static String idleStrategy()
        {
            return IdleStrategies.check(IDLE_STRATEGY_PROP_NAME, config().string(IDLE_STRATEGY_PROP_NAME,
                IDLE_STRATEGY_DEFAULT));
        }
    }

    /** The least interval or timeout {@link #conclude()} takes. */
    private static final long MIN_DURATION_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private int nodeId = Configuration.nodeId();
    private String aeronDirectoryName = Configuration.aeronDirectoryName();
    private boolean embeddedMediaDriver = Configuration.embeddedMediaDriver();
    private String ingressChannel = Configuration.ingressChannel();
    private int ingressStreamId = Configuration.ingressStreamId();
    private String outboundChannel = Configuration.outboundChannel();
    private int egressStreamId = Configuration.egressStreamId();
    private int marketDataStreamId = Configuration.marketDataStreamId();
    private String marketDataRequestChannel = Configuration.marketDataRequestChannel();
    private int marketDataRequestStreamId = Configuration.marketDataRequestStreamId();
    private int marketDataRecoveryMaxDestinations = Configuration.marketDataRecoveryMaxDestinations();
    private int marketDataRecoveryRequesterRate = Configuration.marketDataRecoveryRequesterRate();
    private int marketDataRecoveryTermLength = Configuration.marketDataRecoveryTermLength();
    private String adminKeysFile = Configuration.adminKeysFile();
    private AdminKeys adminKeys;
    private long adminAuthWindowNs = Configuration.adminAuthWindowNs();
    private int replayStreamId = Configuration.replayStreamId();
    private int replayRequestStreamId = Configuration.replayRequestStreamId();
    private int riskStreamId = Configuration.riskStreamId();
    private ReplicationMode replicationMode = Configuration.replicationMode();
    private int reportWindowBytes = Configuration.reportWindowBytes();
    private String clusterMembers = Configuration.clusterMembers();
    private Path clusterDirectory = Configuration.clusterDirectory();
    private String clusterSecret = Configuration.clusterSecret();
    private long clusterLeaderHeartbeatTimeoutNs = Configuration.clusterLeaderHeartbeatTimeoutNs();
    private long clusterLeaderHeartbeatIntervalNs = Configuration.clusterLeaderHeartbeatIntervalNs();
    private long clusterElectionTimeoutNs = Configuration.clusterElectionTimeoutNs();
    private long clusterStartupCanvassTimeoutNs = Configuration.clusterStartupCanvassTimeoutNs();
    private int clusterLogTermLength = Configuration.clusterLogTermLength();
    private ClusterMembers members;
    private Path journalDirectory = Configuration.journalDirectory();
    private Path snapshotDirectory = Configuration.snapshotDirectory();
    private Journal.Durability durability = Configuration.durability();
    private boolean allowJournalGaps = Configuration.allowJournalGaps();
    private long journalPretouchBytes = Configuration.journalPretouchBytes();
    private int inputRingCapacity = Configuration.inputRingCapacity();
    private int inputSlotLength = Configuration.inputSlotLength();
    private int outputRingCapacity = Configuration.outputRingCapacity();
    private int outputSlotLength = Configuration.outputSlotLength();
    private long snapshotEveryCommands = Configuration.snapshotEveryCommands();
    private int snapshotsKept = Configuration.snapshotsKept();
    private long statusIntervalNs = Configuration.statusIntervalNs();
    private long bookSnapshotIntervalNs = Configuration.bookSnapshotIntervalNs();
    private Threading threading = Configuration.threading();
    private String idleStrategy = Configuration.idleStrategy();
    private long idleMaxParkNs = Configuration.idleMaxParkNs();
    private boolean idleWake = Configuration.idleWake();
    private int outboundBatch = Configuration.outboundBatch();
    private EpochNanoClock epochNanoClock;
    private NanoClock nanoClock;
    private boolean concluded;

    /**
     * Validate and fill in derived values.
     *
     * @return this.
     * @throws ConfigurationException naming the offending key.
     */
    public EngineContext conclude()
    {
        require(nodeId > 0, Configuration.NODE_ID_PROP_NAME, nodeId, "must be positive");
        require(null != replicationMode, Configuration.REPLICATION_MODE_PROP_NAME, null, "must be set");
        require(null != threading, Configuration.THREADING_PROP_NAME, null, "must be set");
        require(null != durability, Configuration.JOURNAL_DURABILITY_PROP_NAME, null, "must be set");
        require(Integer.bitCount(inputRingCapacity) == 1, Configuration.INPUT_RING_CAPACITY_PROP_NAME,
            inputRingCapacity, "must be a power of two");
        require(Integer.bitCount(outputRingCapacity) == 1, Configuration.OUTPUT_RING_CAPACITY_PROP_NAME,
            outputRingCapacity, "must be a power of two");
        require(inputSlotLength >= 512 && Integer.bitCount(inputSlotLength) == 1,
            Configuration.INPUT_SLOT_LENGTH_PROP_NAME, inputSlotLength,
            "must be a power of two >= 512 (a mass quote of 10 entries must fit a slot)");
        require(outputSlotLength >= 256 && Integer.bitCount(outputSlotLength) == 1,
            Configuration.OUTPUT_SLOT_LENGTH_PROP_NAME, outputSlotLength, "must be a power of two >= 256");
        require(snapshotEveryCommands > 0, Configuration.SNAPSHOT_EVERY_COMMANDS_PROP_NAME, snapshotEveryCommands,
            "must be positive");
        require(journalPretouchBytes >= 0 && journalPretouchBytes % JournalPretoucher.PAGE_SIZE == 0,
            Configuration.JOURNAL_PRETOUCH_BYTES_PROP_NAME, journalPretouchBytes,
            "must be 0 (off) or a multiple of " + JournalPretoucher.PAGE_SIZE);
        require(snapshotsKept > 0, Configuration.SNAPSHOT_KEPT_PROP_NAME, snapshotsKept, "must be positive");
        requireMillisecondsOrMore(statusIntervalNs, Configuration.STATUS_INTERVAL_PROP_NAME);
        requireMillisecondsOrMore(bookSnapshotIntervalNs, Configuration.MARKETDATA_SNAPSHOT_INTERVAL_PROP_NAME);
        require(null != ingressChannel && !ingressChannel.isEmpty(), Configuration.INGRESS_CHANNEL_PROP_NAME,
            ingressChannel, "must be set");
        require(null != marketDataRequestChannel && !marketDataRequestChannel.isEmpty(),
            Configuration.MARKETDATA_REQUEST_CHANNEL_PROP_NAME, marketDataRequestChannel, "must be set");
        // Subscribers reach the request channel; they must not reach the command ingress. Inside one host (IPC)
        // a stream of its own will do; across the network it needs an endpoint of its own, which a firewall can tell.
        final boolean ipc = marketDataRequestChannel.startsWith(io.aeron.CommonContext.IPC_CHANNEL);
        final boolean sameChannel = marketDataRequestChannel.equals(ingressChannel);
        require(ipc ? !(sameChannel && marketDataRequestStreamId == ingressStreamId) : !sameChannel,
            Configuration.MARKETDATA_REQUEST_CHANNEL_PROP_NAME,
            marketDataRequestChannel, "must not be the command ingress (" + Configuration.INGRESS_CHANNEL_PROP_NAME +
            "): market-data subscribers reach it");
        require(marketDataRecoveryMaxDestinations >= 1 && marketDataRecoveryMaxDestinations <= 4096,
            Configuration.MARKETDATA_RECOVERY_MAX_DESTINATIONS_PROP_NAME, marketDataRecoveryMaxDestinations,
            "must be 1..4096");
        require(marketDataRecoveryRequesterRate >= 1, Configuration.MARKETDATA_RECOVERY_REQUESTER_RATE_PROP_NAME,
            marketDataRecoveryRequesterRate, "must be positive");
        require(marketDataRecoveryTermLength >= 64 * 1024 && marketDataRecoveryTermLength <= 1024 * 1024 * 1024 &&
            Integer.bitCount(marketDataRecoveryTermLength) == 1,
            Configuration.MARKETDATA_RECOVERY_TERM_LENGTH_PROP_NAME, marketDataRecoveryTermLength,
            "must be a power of two from 64k to 1g");
        requireMillisecondsOrMore(adminAuthWindowNs, Configuration.ADMIN_AUTH_WINDOW_PROP_NAME);
        if (null == adminKeys && null != adminKeysFile)
        {
            try
            {
                adminKeys = AdminKeys.load(Path.of(adminKeysFile));
            }
            catch (final IllegalArgumentException ex)
            {
                // The message names the file and the line, never a secret.
                throw Config.bad(Configuration.ADMIN_KEYS_FILE_PROP_NAME, adminKeysFile, ex.getMessage());
            }
        }
        require(reportWindowBytes >= 4 * outputSlotLength, Configuration.CLUSTER_REPORT_WINDOW_BYTES_PROP_NAME,
            reportWindowBytes, "must hold at least 4 output slots (" + 4 * outputSlotLength + " bytes)");
        if (replicationMode == ReplicationMode.CLUSTER)
        {
            concludeCluster();
        }
        require(null != idleStrategy, Configuration.IDLE_STRATEGY_PROP_NAME, null, "must be set");
        IdleStrategies.check(Configuration.IDLE_STRATEGY_PROP_NAME, idleStrategy);
        require(idleMaxParkNs >= TimeUnit.MICROSECONDS.toNanos(1) && idleMaxParkNs <= TimeUnit.MILLISECONDS.toNanos(1),
            Configuration.IDLE_MAX_PARK_PROP_NAME, SystemUtil.formatDuration(idleMaxParkNs), "must be 1us..1ms");
        require(outboundBatch >= 1 && outboundBatch <= OutboundStage.MAX_EVENTS_PER_MESSAGE,
            Configuration.OUTBOUND_BATCH_PROP_NAME, outboundBatch,
            "must be 1.." + OutboundStage.MAX_EVENTS_PER_MESSAGE);
        if (null == epochNanoClock)
        {
            epochNanoClock = new SystemEpochNanoClock();
        }
        if (null == nanoClock)
        {
            nanoClock = SystemNanoClock.INSTANCE;
        }
        concluded = true;
        return this;
    }

    private void concludeCluster()
    {
        require(null != clusterMembers && !clusterMembers.isBlank(), Configuration.CLUSTER_MEMBERS_PROP_NAME, null,
            "must name the members in CLUSTER mode");
        members = ClusterMembers.parse(Configuration.CLUSTER_MEMBERS_PROP_NAME, clusterMembers);
        require(members.contains(nodeId), Configuration.CLUSTER_MEMBERS_PROP_NAME, clusterMembers,
            "must include this node (" + Configuration.NODE_ID_PROP_NAME + "=" + nodeId + ")");
        require(null != clusterSecret && clusterSecret.length() >= 16, Configuration.CLUSTER_SECRET_PROP_NAME,
            null == clusterSecret ? null : "(" + clusterSecret.length() + " characters)",
            "must be set in CLUSTER mode, at least 16 characters, the same on every member");
        requireMillisecondsOrMore(clusterLeaderHeartbeatTimeoutNs,
            Configuration.CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME);
        requireMillisecondsOrMore(clusterLeaderHeartbeatIntervalNs,
            Configuration.CLUSTER_LEADER_HEARTBEAT_INTERVAL_PROP_NAME);
        requireMillisecondsOrMore(clusterElectionTimeoutNs, Configuration.CLUSTER_ELECTION_TIMEOUT_PROP_NAME);
        requireMillisecondsOrMore(clusterStartupCanvassTimeoutNs,
            Configuration.CLUSTER_STARTUP_CANVASS_TIMEOUT_PROP_NAME);
        require(clusterLeaderHeartbeatIntervalNs * 2 <= clusterLeaderHeartbeatTimeoutNs,
            Configuration.CLUSTER_LEADER_HEARTBEAT_INTERVAL_PROP_NAME,
            SystemUtil.formatDuration(clusterLeaderHeartbeatIntervalNs), "must be at most half of " +
            Configuration.CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME + " (" +
            SystemUtil.formatDuration(clusterLeaderHeartbeatTimeoutNs) + ")");
        require(clusterStartupCanvassTimeoutNs / clusterLeaderHeartbeatTimeoutNs >= 2,
            Configuration.CLUSTER_STARTUP_CANVASS_TIMEOUT_PROP_NAME,
            SystemUtil.formatDuration(clusterStartupCanvassTimeoutNs), "must be at least twice " +
            Configuration.CLUSTER_LEADER_HEARTBEAT_TIMEOUT_PROP_NAME + " (" +
            SystemUtil.formatDuration(clusterLeaderHeartbeatTimeoutNs) + "), as Aeron Cluster requires");
        require(clusterLogTermLength >= 64 * 1024 && clusterLogTermLength <= 1024 * 1024 * 1024 &&
            Integer.bitCount(clusterLogTermLength) == 1, Configuration.CLUSTER_LOG_TERM_LENGTH_PROP_NAME,
            clusterLogTermLength, "must be a power of two 64k..1g");
    }

    private static void require(final boolean condition, final String key, final Object value, final String rule)
    {
        Config.require(condition, key, value, rule);
    }

    /**
     * Every interval and timeout of the node is of milliseconds or more: a value below a millisecond is a bare number
     * meant as milliseconds (the keys took milliseconds before they took durations), which would otherwise run.
     */
    private static void requireMillisecondsOrMore(final long durationNs, final String key)
    {
        require(durationNs >= MIN_DURATION_NS, key, durationNs < 0 ? durationNs + "ns" :
            SystemUtil.formatDuration(durationNs),
            "must be at least 1ms (a number without a unit is nanoseconds)");
    }

    /**
     * A new idle strategy of the configured kind (each agent runner needs its own).
     *
     * @return the idle strategy ({@link IdleStrategies#of(String)}).
     */
    public IdleStrategy newIdleStrategy()
    {
        return "backoff".equals(idleStrategy) ? IdleStrategies.backoff(idleMaxParkNs) : IdleStrategies.of(idleStrategy);
    }

    boolean isConcluded()
    {
        return concluded;
    }

    // ---------------------------------------------------------------- fluent accessors

    /** @return this node's id, unique among a cluster's members. */
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

    /**
     * @return where market-data requests arrive (the recovery service's own channel).
     */
    public String marketDataRequestChannel()
    {
        return marketDataRequestChannel;
    }

    /**
     * @param channel where market-data requests arrive: never the command ingress.
     * @return this.
     */
    public EngineContext marketDataRequestChannel(final String channel)
    {
        this.marketDataRequestChannel = channel;
        return this;
    }

    /** @return response channels the recovery service keeps open at once. */
    public int marketDataRecoveryMaxDestinations()
    {
        return marketDataRecoveryMaxDestinations;
    }

    /** @param count response channels kept open at once. @return this. */
    public EngineContext marketDataRecoveryMaxDestinations(final int count)
    {
        this.marketDataRecoveryMaxDestinations = count;
        return this;
    }

    /** @return requests per second (and at once) one requester may make of the recovery service. */
    public int marketDataRecoveryRequesterRate()
    {
        return marketDataRecoveryRequesterRate;
    }

    /** @param perSecond requests per second per requester. @return this. */
    public EngineContext marketDataRecoveryRequesterRate(final int perSecond)
    {
        this.marketDataRecoveryRequesterRate = perSecond;
        return this;
    }

    /** @return term length of each response channel's publication. */
    public int marketDataRecoveryTermLength()
    {
        return marketDataRecoveryTermLength;
    }

    /** @param length term length of each response publication, a power of two. @return this. */
    public EngineContext marketDataRecoveryTermLength(final int length)
    {
        this.marketDataRecoveryTermLength = length;
        return this;
    }

    /**
     * @return the admin keys the ingress accepts operator commands signed with (after {@link #conclude()}: those of
     * {@link Configuration#ADMIN_KEYS_FILE_PROP_NAME} unless set here), or null: every operator command is refused.
     */
    public AdminKeys adminKeys()
    {
        return adminKeys;
    }

    /**
     * @param keys the admin keys the ingress accepts (instead of the configured file's), or null for none.
     * @return this.
     */
    public EngineContext adminKeys(final AdminKeys keys)
    {
        this.adminKeys = keys;
        return this;
    }

    /** @return the admin keys file configured, or null. */
    public String adminKeysFile()
    {
        return adminKeysFile;
    }

    /** @param file the admin keys file, read at {@link #conclude()} unless keys are set. @return this. */
    public EngineContext adminKeysFile(final String file)
    {
        this.adminKeysFile = file;
        return this;
    }

    /** @return how far a signed admin command's time may be from the ingress's clock. */
    public long adminAuthWindowNs()
    {
        return adminAuthWindowNs;
    }

    /** @param windowNs how far a signed command's time may be from the ingress's clock. @return this. */
    public EngineContext adminAuthWindowNs(final long windowNs)
    {
        this.adminAuthWindowNs = windowNs;
        return this;
    }

    /** @return the market-data request stream, on the ingress channel. */
    public int marketDataRequestStreamId()
    {
        return marketDataRequestStreamId;
    }

    /** @param streamId the market-data request stream. @return this. */
    public EngineContext marketDataRequestStreamId(final int streamId)
    {
        this.marketDataRequestStreamId = streamId;
        return this;
    }

    /** @return the report replay stream, on the outbound channel. */
    public int replayStreamId()
    {
        return replayStreamId;
    }

    /** @param streamId the report replay stream. @return this. */
    public EngineContext replayStreamId(final int streamId)
    {
        this.replayStreamId = streamId;
        return this;
    }

    /** @return the report replay request stream, on the ingress channel. */
    public int replayRequestStreamId()
    {
        return replayRequestStreamId;
    }

    /** @param streamId the report replay request stream. @return this. */
    public EngineContext replayRequestStreamId(final int streamId)
    {
        this.replayRequestStreamId = streamId;
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

    /**
     * @return bytes of a cluster follower's recent client-bound events (reports and rejects), re-sent when it comes to
     * lead (docs/operations.md says how to size it).
     */
    public int reportWindowBytes()
    {
        return reportWindowBytes;
    }

    /** @param bytes a follower's report window. @return this. */
    public EngineContext reportWindowBytes(final int bytes)
    {
        this.reportWindowBytes = bytes;
        return this;
    }

    /** @return the cluster's members (CLUSTER mode, once concluded), or null. */
    public ClusterMembers clusterMembers()
    {
        return members;
    }

    /** @param members the members, as {@link Configuration#CLUSTER_MEMBERS_PROP_NAME} spells them. @return this. */
    public EngineContext clusterMembers(final String members)
    {
        this.clusterMembers = members;
        return this;
    }

    /** @return the consensus module's and archive's directory. */
    public Path clusterDirectory()
    {
        return clusterDirectory;
    }

    /** @param directory the consensus module's and archive's directory. @return this. */
    public EngineContext clusterDirectory(final Path directory)
    {
        this.clusterDirectory = directory;
        return this;
    }

    /** @return the members' shared secret. */
    public String clusterSecret()
    {
        return clusterSecret;
    }

    /** @param secret the members' shared secret. @return this. */
    public EngineContext clusterSecret(final String secret)
    {
        this.clusterSecret = secret;
        return this;
    }

    /** @return how long a silent leader is followed. */
    public long clusterLeaderHeartbeatTimeoutNs()
    {
        return clusterLeaderHeartbeatTimeoutNs;
    }

    /** @param timeoutNs how long a silent leader is followed. @return this. */
    public EngineContext clusterLeaderHeartbeatTimeoutNs(final long timeoutNs)
    {
        this.clusterLeaderHeartbeatTimeoutNs = timeoutNs;
        return this;
    }

    /** @return how often a quiet leader heartbeats. */
    public long clusterLeaderHeartbeatIntervalNs()
    {
        return clusterLeaderHeartbeatIntervalNs;
    }

    /** @param intervalNs how often a quiet leader heartbeats. @return this. */
    public EngineContext clusterLeaderHeartbeatIntervalNs(final long intervalNs)
    {
        this.clusterLeaderHeartbeatIntervalNs = intervalNs;
        return this;
    }

    /** @return how long an election waits for votes. */
    public long clusterElectionTimeoutNs()
    {
        return clusterElectionTimeoutNs;
    }

    /** @param timeoutNs how long an election waits for votes. @return this. */
    public EngineContext clusterElectionTimeoutNs(final long timeoutNs)
    {
        this.clusterElectionTimeoutNs = timeoutNs;
        return this;
    }

    /** @return how long a cold start waits for every member. */
    public long clusterStartupCanvassTimeoutNs()
    {
        return clusterStartupCanvassTimeoutNs;
    }

    /** @param timeoutNs how long a cold start waits for every member. @return this. */
    public EngineContext clusterStartupCanvassTimeoutNs(final long timeoutNs)
    {
        this.clusterStartupCanvassTimeoutNs = timeoutNs;
        return this;
    }

    /** @return the cluster log's term length. */
    public int clusterLogTermLength()
    {
        return clusterLogTermLength;
    }

    /** @param length the cluster log's term length. @return this. */
    public EngineContext clusterLogTermLength(final int length)
    {
        this.clusterLogTermLength = length;
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

    /**
     * @return the clock that stamps commands (the time the processor knows, replayed as journaled), statuses and
     * heartbeats, in nanoseconds since the epoch; the system's unless set, never read for a timeout.
     */
    public EpochNanoClock epochNanoClock()
    {
        return epochNanoClock;
    }

    /**
     * As in Aeron's contexts, a clock is set in code only (no property): a test sets one it controls.
     *
     * @param clock the clock that stamps commands, statuses and heartbeats.
     * @return this.
     */
    public EngineContext epochNanoClock(final EpochNanoClock clock)
    {
        this.epochNanoClock = clock;
        return this;
    }

    /**
     * @return the clock every interval and timeout of the node is measured by (the status interval, the
     * market-data snapshots, the report window's retries); monotonic, the
     * system's ({@link System#nanoTime()}) unless set.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * As in Aeron's contexts, a clock is set in code only (no property): a test drives the node's timeouts with one
     * it controls.
     *
     * @param clock the clock intervals and timeouts are measured by.
     * @return this.
     */
    public EngineContext nanoClock(final NanoClock clock)
    {
        this.nanoClock = clock;
        return this;
    }

    /** @return the back-off's longest park, in nanoseconds. */
    public long idleMaxParkNs()
    {
        return idleMaxParkNs;
    }

    /** @param maxParkNs the back-off's longest park, 1us..1ms, checked by {@link #conclude()}. @return this. */
    public EngineContext idleMaxParkNs(final long maxParkNs)
    {
        this.idleMaxParkNs = maxParkNs;
        return this;
    }

    /** @return whether the stages wake the parked threads they feed (with {@code backoff}). */
    public boolean idleWake()
    {
        return idleWake;
    }

    /** @param wake whether the stages wake the parked threads they feed (with {@code backoff}). @return this. */
    public EngineContext idleWake(final boolean wake)
    {
        this.idleWake = wake;
        return this;
    }

    /** @return the most events in one egress or risk message; 1 sends each alone. */
    public int outboundBatch()
    {
        return outboundBatch;
    }

    /** @param maxEvents the most events in one egress or risk message, 1..64; 1 sends each alone. @return this. */
    public EngineContext outboundBatch(final int maxEvents)
    {
        this.outboundBatch = maxEvents;
        return this;
    }

    /** @return the idle strategy name. */
    public String idleStrategy()
    {
        return idleStrategy;
    }

    /** @param name one of {@link IdleStrategies#NAMES}, checked by {@link #conclude()}. @return this. */
    public EngineContext idleStrategy(final String name)
    {
        this.idleStrategy = name;
        return this;
    }
}
