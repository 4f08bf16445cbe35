package io.ringex.gateway;

import io.ringex.common.apikey.ApiKeys;
import io.aeron.CommonContext;
import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.IdleStrategies;
import io.ringex.common.config.Config;
import io.ringex.common.config.ConfigOption;
import io.ringex.gateway.auth.LogonAuthenticator;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.auth.UserDirectory;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.PrimarySelector;
import org.agrona.CloseHelper;
import org.agrona.SystemUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochClock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gateway configuration, in the style of Aeron's {@code MediaDriver.Context}: fluent setters, defaults from the {@code
 * ringex.gateway.*} system properties that {@link Configuration} names and reads strictly, and one {@link #conclude()}
 * that validates everything and names the bad key (docs/operations.md, "Gateway configuration"). The key families
 * (users, static instruments, a cluster's engines, whose primary {@link PrimarySelector} picks) are read by the classes
 * that own them.
 * <p>
 * Durations are kept in nanoseconds ({@code *Ns} getters and setters); the keys take them with a unit ({@code 100ms},
 * {@code 1s}).
 * <p>
 * Not thread safe: configure on one thread, then hand to the gateway.
 */
public final class GatewayContext implements AutoCloseable
{
    /** Most engine nodes a gateway follows. */
    public static final int MAX_ENGINES = EngineList.MAX_ENGINES;

    /**
     * The gateway's keys and defaults, as {@code EngineContext.Configuration} declares the engine's: a
     * {@code *_PROP_NAME} constant per key, marked {@link ConfigOption} (so {@link io.ringex.common.config.KnownKeys}
     * knows it and docs/operations.md's table is generated from it), its {@code *_DEFAULT} ({@code _NS} for a
     * duration, {@code _BYTES} for a size), and a getter that reads the system property through {@link Config}: a value
     * that does not parse stops the gateway naming the key. Durations take {@code ns}, {@code us}, {@code ms} or
     * {@code s} and must be whole milliseconds ({@code 100ms}; a number without a unit is nanoseconds); sizes take
     * {@code k}, {@code m} or {@code g} ({@code 4m}).
     */
    public static final class Configuration
    {
        @ConfigOption("stamped into every session id, so the engine routes reports back to this gateway: 1..65535, " +
            "one per gateway of a venue")
        public static final String ID_PROP_NAME = "ringex.gateway.id";
        /** Default gateway id. */
        public static final int ID_DEFAULT = 1;

        @ConfigOption(value = "media driver directory", defaultText = "Aeron's default")
        public static final String AERON_DIR_PROP_NAME = "ringex.gateway.aeron.dir";

        @ConfigOption("launch a media driver inside the gateway, with the Aeron Archive Artio needs")
        public static final String EMBEDDED_DRIVER_PROP_NAME = "ringex.gateway.embedded.driver";
        /** A driver runs beside the gateway unless configured. */
        public static final boolean EMBEDDED_DRIVER_DEFAULT = false;

        @ConfigOption("where SBE clients send ([client.md](client.md))")
        public static final String CLIENT_CHANNEL_PROP_NAME = "ringex.gateway.client.channel";
        /** Default client channel. */
        public static final String CLIENT_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:40200";

        @ConfigOption("stream SBE clients send on")
        public static final String CLIENT_STREAM_PROP_NAME = "ringex.gateway.client.stream";
        /** Default client stream. */
        public static final int CLIENT_STREAM_DEFAULT = 2001;

        @ConfigOption("engine 1's command ingress")
        public static final String ENGINE_INGRESS_CHANNEL_PROP_NAME = "ringex.gateway.engine.ingress.channel";
        /** Default engine ingress channel. */
        public static final String ENGINE_INGRESS_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:40100";

        @ConfigOption("engine 1's command ingress stream")
        public static final String ENGINE_INGRESS_STREAM_PROP_NAME = "ringex.gateway.engine.ingress.stream";
        /** Default engine ingress stream. */
        public static final int ENGINE_INGRESS_STREAM_DEFAULT = 1001;

        // A multi-destination-cast subscriber: any number of gateways and risk services share the engine's outbound.
        @ConfigOption("engine 1's outbound channel, joined as a multi-destination-cast subscriber (execution reports)")
        public static final String ENGINE_EGRESS_CHANNEL_PROP_NAME = "ringex.gateway.engine.egress.channel";
        /** Default engine egress channel. */
        public static final String ENGINE_EGRESS_CHANNEL_DEFAULT =
            "aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic";

        @ConfigOption("engine 1's egress stream")
        public static final String ENGINE_EGRESS_STREAM_PROP_NAME = "ringex.gateway.engine.egress.stream";
        /** Default engine egress stream. */
        public static final int ENGINE_EGRESS_STREAM_DEFAULT = 1002;

        @ConfigOption(value = "engine 1's market data (instrument definitions)",
            defaultText = "`ringex.gateway.engine.egress.channel`")
        public static final String ENGINE_MARKETDATA_CHANNEL_PROP_NAME = "ringex.gateway.engine.marketdata.channel";

        @ConfigOption("engine 1's market-data stream")
        public static final String ENGINE_MARKETDATA_STREAM_PROP_NAME = "ringex.gateway.engine.marketdata.stream";
        /** Default market-data stream. */
        public static final int ENGINE_MARKETDATA_STREAM_DEFAULT = 1003;

        @ConfigOption("engine 1's market-data request channel: where its recovery service takes snapshot and " +
            "retransmission requests (its `ringex.engine.marketdata.request.channel`, never its command ingress)")
        public static final String ENGINE_MARKETDATA_REQUEST_CHANNEL_PROP_NAME =
            "ringex.gateway.engine.marketdata.request.channel";
        /** Default market-data request channel (the engine's default). */
        public static final String ENGINE_MARKETDATA_REQUEST_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:40130";

        @ConfigOption("the gateway's own channel for the recovery services' answers, named in each request: " +
            "`aeron:udp?endpoint=this-host:port` (port 0: one the system picks) on the address its requests leave " +
            "from, or `aeron:ipc` beside the engine")
        public static final String MARKETDATA_RECOVERY_CHANNEL_PROP_NAME =
            "ringex.gateway.marketdata.recovery.channel";
        /** Default response channel. */
        public static final String MARKETDATA_RECOVERY_CHANNEL_DEFAULT = "aeron:udp?endpoint=localhost:0";

        @ConfigOption("the stream of that channel on which engine 1's recovery service answers; engine n's is this " +
            "+ 100 x (n - 1)")
        public static final String MARKETDATA_RECOVERY_STREAM_PROP_NAME =
            "ringex.gateway.marketdata.recovery.stream";
        /** Default response stream. */
        public static final int MARKETDATA_RECOVERY_STREAM_DEFAULT = 1030;

        @ConfigOption("the engines' market-data request stream (snapshot and retransmission requests), on each " +
            "engine's market-data request channel")
        public static final String MARKETDATA_REQUEST_STREAM_PROP_NAME = "ringex.gateway.marketdata.request.stream";
        /** Default market-data request stream (the engine's default). */
        public static final int MARKETDATA_REQUEST_STREAM_DEFAULT = 1031;

        @ConfigOption(value = "where engine 1 publishes `EngineStatus` (its risk stream)",
            defaultText = "`ringex.gateway.engine.egress.channel`")
        public static final String ENGINE_STATUS_CHANNEL_PROP_NAME = "ringex.gateway.engine.status.channel";

        @ConfigOption("stream of the engines' `EngineStatus` (the engine's risk stream)")
        public static final String ENGINE_STATUS_STREAM_PROP_NAME = "ringex.gateway.engine.status.stream";
        /** Default status stream. */
        public static final int ENGINE_STATUS_STREAM_DEFAULT = 1004;

        @ConfigOption("stream of the engines' report replay answers (on each engine's egress channel), for drop copy")
        public static final String ENGINE_REPLAY_STREAM_PROP_NAME = "ringex.gateway.engine.replay.stream";
        /** Default report replay stream. */
        public static final int ENGINE_REPLAY_STREAM_DEFAULT = 1040;

        @ConfigOption("stream of report replay requests to the engines (on each engine's ingress channel)")
        public static final String ENGINE_REPLAY_REQUEST_STREAM_PROP_NAME =
            "ringex.gateway.engine.replay.request.stream";
        /** Default report replay request stream. */
        public static final int ENGINE_REPLAY_REQUEST_STREAM_DEFAULT = 1041;

        @ConfigOption("with several engines, a node not heard from for this long is no longer taken for the primary")
        public static final String ENGINE_STATUS_TIMEOUT_PROP_NAME = "ringex.gateway.engine.status.timeout";
        /** Default status timeout. */
        public static final long ENGINE_STATUS_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(3);

        @ConfigOption("commands forwarded and not yet answered that the gateway keeps, to settle them on a change of " +
            "primary; when full, further commands wait as if back-pressured")
        public static final String IN_FLIGHT_CAPACITY_PROP_NAME = "ringex.gateway.inflight.capacity";
        /** Default in-flight capacity. */
        public static final int IN_FLIGHT_CAPACITY_DEFAULT = 16384;

        @ConfigOption("heartbeat interval given to a client whose Logon asks for none or one out of 10ms..600s")
        public static final String HEARTBEAT_INTERVAL_PROP_NAME = "ringex.gateway.heartbeat.interval";
        /** Default heartbeat interval. */
        public static final long HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

        @ConfigOption("order-entry messages a session may send per second (token bucket)")
        public static final String THROTTLE_MESSAGES_PER_SECOND_PROP_NAME =
            "ringex.gateway.throttle.messages.per.second";
        /** Default rate. */
        public static final long THROTTLE_MESSAGES_PER_SECOND_DEFAULT = 1000;

        @ConfigOption(value = "the throttle's burst (bucket capacity)",
            defaultText = "`ringex.gateway.throttle.messages.per.second`")
        public static final String THROTTLE_BURST_PROP_NAME = "ringex.gateway.throttle.burst";

        @ConfigOption("a command the engine's ingress back-pressures is retried this long, then refused `ENGINE_BUSY`")
        public static final String BACKPRESSURE_TIMEOUT_PROP_NAME = "ringex.gateway.backpressure.timeout";
        /** Default back-pressure timeout. */
        public static final long BACKPRESSURE_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);

        @ConfigOption("an SBE client whose reports wait (its response publication full) without one going out for " +
            "this long, or a FIX session Artio reports not reading this long, is disconnected")
        public static final String SLOW_CLIENT_TIMEOUT_PROP_NAME = "ringex.gateway.slow.client.timeout";
        /** Default slow-client timeout. */
        public static final long SLOW_CLIENT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

        @ConfigOption("how long an SBE client's response channel may take to connect after its Logon")
        public static final String LOGON_TIMEOUT_PROP_NAME = "ringex.gateway.logon.timeout";
        /** Default logon timeout. */
        public static final long LOGON_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);

        @ConfigOption("the longest message accepted from a client, 64..64k")
        public static final String MAX_MESSAGE_LENGTH_PROP_NAME = "ringex.gateway.max.message.length";
        /** Default longest message. */
        public static final int MAX_MESSAGE_LENGTH_DEFAULT_BYTES = 1024;

        @ConfigOption("Agrona's names: " + IdleStrategies.NAMES + "; `spin` only with a core per spinning thread")
        public static final String IDLE_STRATEGY_PROP_NAME = "ringex.gateway.idle.strategy";
        /** Default idle strategy: the venue's back-off ({@link IdleStrategies#backoff()}). */
        public static final String IDLE_STRATEGY_DEFAULT = "backoff";

        @ConfigOption("run the FIX 4.4 acceptor")
        public static final String FIX_ENABLED_PROP_NAME = "ringex.gateway.fix.enabled";
        /** FIX is on unless configured. */
        public static final boolean FIX_ENABLED_DEFAULT = true;

        @ConfigOption("the FIX acceptor's bind address")
        public static final String FIX_HOST_PROP_NAME = "ringex.gateway.fix.host";
        /** Default bind address. */
        public static final String FIX_HOST_DEFAULT = "0.0.0.0";

        @ConfigOption("the FIX acceptor's TCP port")
        public static final String FIX_PORT_PROP_NAME = "ringex.gateway.fix.port";
        /** Default FIX port. */
        public static final int FIX_PORT_DEFAULT = 9880;

        @ConfigOption("Artio's log directory: FIX sequence numbers and message indexes persist here")
        public static final String FIX_LOG_DIR_PROP_NAME = "ringex.gateway.fix.log.dir";
        /** Default FIX log directory. */
        public static final String FIX_LOG_DIR_DEFAULT = "ringex-fix-logs";

        @ConfigOption("the gateway's own FIX CompID (the TargetCompID of clients unless a user says otherwise)")
        public static final String FIX_COMP_ID_PROP_NAME = "ringex.gateway.fix.comp.id";
        /** Default CompID. */
        public static final String FIX_COMP_ID_DEFAULT = "RINGEX";

        @ConfigOption("engine reports held per FIX session while its offline session is being acquired: a power of " +
            "two, 4k..1g; beyond, counted as dropped")
        public static final String FIX_OFFLINE_HOLD_BYTES_PROP_NAME = "ringex.gateway.fix.offline.hold.bytes";
        /** Default hold per session. */
        public static final int FIX_OFFLINE_HOLD_BYTES_DEFAULT_BYTES = 1024 * 1024;

        @ConfigOption("channel between Artio's engine and library")
        public static final String FIX_LIBRARY_CHANNEL_PROP_NAME = "ringex.gateway.fix.library.channel";
        /** Default library channel. */
        public static final String FIX_LIBRARY_CHANNEL_DEFAULT = "aeron:ipc";

        @ConfigOption("the Aeron Archive control request channel Artio uses")
        public static final String FIX_ARCHIVE_CONTROL_CHANNEL_PROP_NAME = "ringex.gateway.fix.archive.control.channel";
        /** Default archive control channel. */
        public static final String FIX_ARCHIVE_CONTROL_CHANNEL_DEFAULT = "aeron:ipc";

        @ConfigOption("the Aeron Archive control request stream Artio uses")
        public static final String FIX_ARCHIVE_CONTROL_STREAM_PROP_NAME = "ringex.gateway.fix.archive.control.stream";
        /** Default archive control stream. */
        public static final int FIX_ARCHIVE_CONTROL_STREAM_DEFAULT = 10;

        @ConfigOption("the Aeron Archive control response channel Artio uses")
        public static final String FIX_ARCHIVE_RESPONSE_CHANNEL_PROP_NAME =
            "ringex.gateway.fix.archive.response.channel";
        /** Default archive response channel. */
        public static final String FIX_ARCHIVE_RESPONSE_CHANNEL_DEFAULT = "aeron:ipc";

        @ConfigOption("run the REST and WebSocket front end ([client.md](client.md)); needs " +
            "`ringex.gateway.web.api.keys.file`")
        public static final String WEB_ENABLED_PROP_NAME = "ringex.gateway.web.enabled";
        /** The web front end is off unless configured. */
        public static final boolean WEB_ENABLED_DEFAULT = false;

        @ConfigOption("the REST and WebSocket front end's bind address")
        public static final String WEB_HOST_PROP_NAME = "ringex.gateway.web.host";
        /** Default web bind address. */
        public static final String WEB_HOST_DEFAULT = "0.0.0.0";

        @ConfigOption("the REST and WebSocket front end's TCP port")
        public static final String WEB_PORT_PROP_NAME = "ringex.gateway.web.port";
        /** Default web port. */
        public static final int WEB_PORT_DEFAULT = 8480;

        @ConfigOption(value = "the API keys file: one key a line, `NUMBER KEY-ID USER PERMISSIONS SECRET " +
            "[ADDRESSES]`, readable by its owner only ([client.md](client.md))", defaultText = "unset")
        public static final String WEB_API_KEYS_FILE_PROP_NAME = "ringex.gateway.web.api.keys.file";

        @ConfigOption("how far a signed request's timestamp may be from the gateway's clock, either way")
        public static final String WEB_RECEIVE_WINDOW_PROP_NAME = "ringex.gateway.web.receive.window";
        /** Default receive window. */
        public static final long WEB_RECEIVE_WINDOW_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);

        @ConfigOption("the largest REST request body; a larger one is refused with 413")
        public static final String WEB_MAX_BODY_PROP_NAME = "ringex.gateway.web.max.body";
        /** Default largest body. */
        public static final int WEB_MAX_BODY_DEFAULT_BYTES = 4096;

        @ConfigOption("a web connection's kernel send buffer and the gateway's queue for it, each: a client whose " +
            "unread data fills both does not read, and is closed")
        public static final String WEB_SLOW_CLIENT_BYTES_PROP_NAME = "ringex.gateway.web.slow.client.bytes";
        /** Default bound of what waits for a web client. */
        public static final int WEB_SLOW_CLIENT_BYTES_DEFAULT_BYTES = 256 * 1024;

        @ConfigOption("how long an order request waits for the engine's answer before it is answered 202 (pending: " +
            "the answer follows on the user stream)")
        public static final String WEB_ANSWER_TIMEOUT_PROP_NAME = "ringex.gateway.web.answer.timeout";
        /** Default answer timeout. */
        public static final long WEB_ANSWER_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(2);

        @ConfigOption("how often the user stream sends a heartbeat")
        public static final String WEB_HEARTBEAT_INTERVAL_PROP_NAME = "ringex.gateway.web.heartbeat.interval";
        /** Default user-stream heartbeat. */
        public static final long WEB_HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

        @ConfigOption("most open HTTP and WebSocket connections; one more is closed at once")
        public static final String WEB_MAX_CONNECTIONS_PROP_NAME = "ringex.gateway.web.max.connections";
        /** Default most connections. */
        public static final int WEB_MAX_CONNECTIONS_DEFAULT = 1024;

        @ConfigOption("most open HTTP and WebSocket connections from one address (an IPv6 /64, every loopback " +
            "address as one); one more is closed at once. Behind a TLS proxy every client has the proxy's address: " +
            "raise it to the proxy's own connection limit")
        public static final String WEB_MAX_CONNECTIONS_PER_ADDRESS_PROP_NAME =
            "ringex.gateway.web.max.connections.per.address";
        /** Default most connections from one address. */
        public static final int WEB_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT = 256;

        @ConfigOption(value = "an admin keys file (`./ringex admin keygen`) whose first key the gateway signs its " +
            "offers of configured users to the engine with; unset: the configured users are this gateway's only " +
            "([security.md](security.md))", defaultText = "unset")
        public static final String ADMIN_KEY_FILE_PROP_NAME = "ringex.gateway.admin.key.file";

        @ConfigOption("the archive's directory when the gateway embeds its driver")
        public static final String ARCHIVE_DIR_PROP_NAME = "ringex.gateway.archive.dir";
        /** Default archive directory. */
        public static final String ARCHIVE_DIR_DEFAULT = "ringex-gateway-archive";

        @ConfigOption("failed logons in a row that lock a user name out ([security.md](security.md))")
        public static final String LOGON_MAX_FAILURES_PROP_NAME = "ringex.gateway.logon.max.failures";
        /** Default failures per name. */
        public static final int LOGON_MAX_FAILURES_DEFAULT = LogonPolicy.DEFAULT.maxFailures();

        @ConfigOption("failed logons in a row from one remote address that lock it out (many users may share one)")
        public static final String LOGON_MAX_ADDRESS_FAILURES_PROP_NAME = "ringex.gateway.logon.max.address.failures";
        /** Default failures per address. */
        public static final int LOGON_MAX_ADDRESS_FAILURES_DEFAULT = LogonPolicy.DEFAULT.maxAddressFailures();

        @ConfigOption("the first lockout; each further one doubles, up to `ringex.gateway.logon.max.lockout`")
        public static final String LOGON_LOCKOUT_PROP_NAME = "ringex.gateway.logon.lockout";
        /** Default first lockout. */
        public static final long LOGON_LOCKOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(
            LogonPolicy.DEFAULT.lockoutMs());

        @ConfigOption("the longest lockout; failures older than this are forgotten")
        public static final String LOGON_MAX_LOCKOUT_PROP_NAME = "ringex.gateway.logon.max.lockout";
        /** Default longest lockout. */
        public static final long LOGON_MAX_LOCKOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(
            LogonPolicy.DEFAULT.maxLockoutMs());

        @ConfigOption("a refused logon is answered this long after it arrived, whatever the reason: 0..30s")
        public static final String LOGON_FAILURE_DELAY_PROP_NAME = "ringex.gateway.logon.failure.delay";
        /** Default answer delay. */
        public static final long LOGON_FAILURE_DELAY_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(
            LogonPolicy.DEFAULT.failureDelayMs());

        @ConfigOption("logons in hand at once (being checked, or refused and waiting out the failure delay), " +
            "1..4096; beyond, refused at once. A locked name's or address's logon takes none")
        public static final String LOGON_MAX_PENDING_PROP_NAME = "ringex.gateway.logon.max.pending";
        /** Default logons in flight. */
        public static final int LOGON_MAX_PENDING_DEFAULT = LogonPolicy.DEFAULT.maxPending();

        @ConfigOption("of those, logons in hand from one remote address (an IPv6 address counts as its /64, loopback " +
            "as one), 1..4096; beyond, refused at once ([security.md](security.md))")
        public static final String LOGON_MAX_PENDING_PER_ADDRESS_PROP_NAME =
            "ringex.gateway.logon.max.pending.per.address";
        /** Default logons in flight from one address. */
        public static final int LOGON_MAX_PENDING_PER_ADDRESS_DEFAULT = LogonPolicy.DEFAULT.maxPendingPerAddress();

        @ConfigOption("live SBE sessions one user may hold at this gateway (each maps a response publication), " +
            "1..1024; a Logon beyond is refused `THROTTLED`")
        public static final String SBE_MAX_SESSIONS_PER_USER_PROP_NAME = "ringex.gateway.sbe.max.sessions.per.user";
        /** Default sessions per user. */
        public static final int SBE_MAX_SESSIONS_PER_USER_DEFAULT = 8;

        @ConfigOption("the shortest HeartBtInt(108) a FIX Logon may ask for, whole seconds, at least 1s; a Logon " +
            "outside the range is refused with a Logout saying it")
        public static final String FIX_HEARTBEAT_MIN_PROP_NAME = "ringex.gateway.fix.heartbeat.min";
        /** Default shortest FIX heartbeat interval. */
        public static final long FIX_HEARTBEAT_MIN_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

        @ConfigOption("the longest HeartBtInt(108) a FIX Logon may ask for, whole seconds, at most 3600s (the " +
            "default is the SBE side's longest interval)")
        public static final String FIX_HEARTBEAT_MAX_PROP_NAME = "ringex.gateway.fix.heartbeat.max";
        /** Default longest FIX heartbeat interval. */
        public static final long FIX_HEARTBEAT_MAX_DEFAULT_NS = TimeUnit.SECONDS.toNanos(600);

        @ConfigOption("term length of the publication answering an SBE session (the client cannot choose it): a " +
            "power of two, 64k..64m; also the most of its reports that may wait for it once the publication is full")
        public static final String SBE_RESPONSE_TERM_LENGTH_PROP_NAME = "ringex.gateway.sbe.response.term.length";
        /** Default response term length. */
        public static final int SBE_RESPONSE_TERM_LENGTH_DEFAULT_BYTES = 4 * 1024 * 1024;

        @ConfigOption("an SBE Logon's UDP response endpoint must be the address the Logon came from " +
            "([security.md](security.md))")
        public static final String SBE_RESPONSE_SOURCE_CHECK_PROP_NAME = "ringex.gateway.sbe.response.source.check";
        /** The check is on unless configured. */
        public static final boolean SBE_RESPONSE_SOURCE_CHECK_DEFAULT = true;

        @ConfigOption("refused SBE Logons answered at once (0..1024); beyond, a refusal is counted and not answered")
        public static final String SBE_MAX_PENDING_REJECTS_PROP_NAME = "ringex.gateway.sbe.max.pending.rejects";
        /** Default refusals in flight. */
        public static final int SBE_MAX_PENDING_REJECTS_DEFAULT = 16;


        private static final long NS_PER_MS = TimeUnit.MILLISECONDS.toNanos(1);

        private Configuration()
        {
        }

        private static Config config()
        {
            return Config.system();
        }

        /** @return {@link #ID_PROP_NAME} or its default. */
        public static int gatewayId()
        {
            return config().intValue(ID_PROP_NAME, ID_DEFAULT);
        }

        /** @return {@link #AERON_DIR_PROP_NAME}, or Aeron's default directory. */
        public static String aeronDirectoryName()
        {
            return config().string(AERON_DIR_PROP_NAME, CommonContext.getAeronDirectoryName());
        }

        /** @return {@link #EMBEDDED_DRIVER_PROP_NAME} or its default. */
        public static boolean embeddedDriver()
        {
            return config().bool(EMBEDDED_DRIVER_PROP_NAME, EMBEDDED_DRIVER_DEFAULT);
        }

        /** @return {@link #CLIENT_CHANNEL_PROP_NAME} or its default. */
        public static String clientChannel()
        {
            return config().string(CLIENT_CHANNEL_PROP_NAME, CLIENT_CHANNEL_DEFAULT);
        }

        /** @return {@link #CLIENT_STREAM_PROP_NAME} or its default. */
        public static int clientStreamId()
        {
            return config().intValue(CLIENT_STREAM_PROP_NAME, CLIENT_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_INGRESS_CHANNEL_PROP_NAME} or its default. */
        public static String engineIngressChannel()
        {
            return config().string(ENGINE_INGRESS_CHANNEL_PROP_NAME, ENGINE_INGRESS_CHANNEL_DEFAULT);
        }

        /** @return {@link #ENGINE_INGRESS_STREAM_PROP_NAME} or its default. */
        public static int engineIngressStreamId()
        {
            return config().intValue(ENGINE_INGRESS_STREAM_PROP_NAME, ENGINE_INGRESS_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_EGRESS_CHANNEL_PROP_NAME} or its default. */
        public static String engineEgressChannel()
        {
            return config().string(ENGINE_EGRESS_CHANNEL_PROP_NAME, ENGINE_EGRESS_CHANNEL_DEFAULT);
        }

        /** @return {@link #ENGINE_EGRESS_STREAM_PROP_NAME} or its default. */
        public static int engineEgressStreamId()
        {
            return config().intValue(ENGINE_EGRESS_STREAM_PROP_NAME, ENGINE_EGRESS_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_MARKETDATA_CHANNEL_PROP_NAME}, or null for the egress channel. */
        public static String marketDataChannel()
        {
            return config().get(ENGINE_MARKETDATA_CHANNEL_PROP_NAME);
        }

        /** @return {@link #ENGINE_MARKETDATA_STREAM_PROP_NAME} or its default. */
        public static int marketDataStreamId()
        {
            return config().intValue(ENGINE_MARKETDATA_STREAM_PROP_NAME, ENGINE_MARKETDATA_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_MARKETDATA_REQUEST_CHANNEL_PROP_NAME} or its default. */
        public static String marketDataRequestChannel()
        {
            return config().string(ENGINE_MARKETDATA_REQUEST_CHANNEL_PROP_NAME,
                ENGINE_MARKETDATA_REQUEST_CHANNEL_DEFAULT);
        }

        /** @return {@link #MARKETDATA_RECOVERY_CHANNEL_PROP_NAME} or its default. */
        public static String marketDataRecoveryChannel()
        {
            return config().string(MARKETDATA_RECOVERY_CHANNEL_PROP_NAME, MARKETDATA_RECOVERY_CHANNEL_DEFAULT);
        }

        /** @return {@link #MARKETDATA_RECOVERY_STREAM_PROP_NAME} or its default. */
        public static int marketDataRecoveryStreamId()
        {
            return config().intValue(MARKETDATA_RECOVERY_STREAM_PROP_NAME, MARKETDATA_RECOVERY_STREAM_DEFAULT);
        }

        /** @return {@link #MARKETDATA_REQUEST_STREAM_PROP_NAME} or its default. */
        public static int marketDataRequestStreamId()
        {
            return config().intValue(MARKETDATA_REQUEST_STREAM_PROP_NAME, MARKETDATA_REQUEST_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_STATUS_CHANNEL_PROP_NAME}, or null for the egress channel. */
        public static String engineStatusChannel()
        {
            return config().get(ENGINE_STATUS_CHANNEL_PROP_NAME);
        }

        /** @return {@link #ENGINE_STATUS_STREAM_PROP_NAME} or its default. */
        public static int engineStatusStreamId()
        {
            return config().intValue(ENGINE_STATUS_STREAM_PROP_NAME, ENGINE_STATUS_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_REPLAY_STREAM_PROP_NAME} or its default. */
        public static int engineReplayStreamId()
        {
            return config().intValue(ENGINE_REPLAY_STREAM_PROP_NAME, ENGINE_REPLAY_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_REPLAY_REQUEST_STREAM_PROP_NAME} or its default. */
        public static int engineReplayRequestStreamId()
        {
            return config().intValue(ENGINE_REPLAY_REQUEST_STREAM_PROP_NAME, ENGINE_REPLAY_REQUEST_STREAM_DEFAULT);
        }

        /** @return {@link #ENGINE_STATUS_TIMEOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long engineStatusTimeoutNs()
        {
            return durationNs(ENGINE_STATUS_TIMEOUT_PROP_NAME, ENGINE_STATUS_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #IN_FLIGHT_CAPACITY_PROP_NAME} or its default. */
        public static int inFlightCapacity()
        {
            return config().intValue(IN_FLIGHT_CAPACITY_PROP_NAME, IN_FLIGHT_CAPACITY_DEFAULT);
        }

        /** @return {@link #HEARTBEAT_INTERVAL_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long heartbeatIntervalNs()
        {
            return durationNs(HEARTBEAT_INTERVAL_PROP_NAME, HEARTBEAT_INTERVAL_DEFAULT_NS);
        }

        /** @return {@link #THROTTLE_MESSAGES_PER_SECOND_PROP_NAME} or its default. */
        public static long throttleMessagesPerSecond()
        {
            return config().longValue(THROTTLE_MESSAGES_PER_SECOND_PROP_NAME, THROTTLE_MESSAGES_PER_SECOND_DEFAULT);
        }

        /** @return {@link #THROTTLE_BURST_PROP_NAME}, or 0 for the rate. */
        public static long throttleBurst()
        {
            return config().longValue(THROTTLE_BURST_PROP_NAME, 0);
        }

        /** @return {@link #BACKPRESSURE_TIMEOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long backPressureTimeoutNs()
        {
            return durationNs(BACKPRESSURE_TIMEOUT_PROP_NAME, BACKPRESSURE_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #SLOW_CLIENT_TIMEOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long slowClientTimeoutNs()
        {
            return durationNs(SLOW_CLIENT_TIMEOUT_PROP_NAME, SLOW_CLIENT_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #LOGON_TIMEOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long logonTimeoutNs()
        {
            return durationNs(LOGON_TIMEOUT_PROP_NAME, LOGON_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #MAX_MESSAGE_LENGTH_PROP_NAME} or its default, in bytes. */
        public static int maxMessageLength()
        {
            return config().sizeAsInt(MAX_MESSAGE_LENGTH_PROP_NAME, MAX_MESSAGE_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #IDLE_STRATEGY_PROP_NAME} or its default, one of {@link IdleStrategies#NAMES}. */
        public static String idleStrategy()
        {
            return IdleStrategies.check(IDLE_STRATEGY_PROP_NAME, config().string(IDLE_STRATEGY_PROP_NAME,
                IDLE_STRATEGY_DEFAULT));
        }

        /** @return {@link #FIX_ENABLED_PROP_NAME} or its default. */
        public static boolean fixEnabled()
        {
            return config().bool(FIX_ENABLED_PROP_NAME, FIX_ENABLED_DEFAULT);
        }

        /** @return {@link #FIX_HOST_PROP_NAME} or its default. */
        public static String fixHost()
        {
            return config().string(FIX_HOST_PROP_NAME, FIX_HOST_DEFAULT);
        }

        /** @return {@link #FIX_PORT_PROP_NAME} or its default. */
        public static int fixPort()
        {
            return config().intValue(FIX_PORT_PROP_NAME, FIX_PORT_DEFAULT);
        }

        /** @return {@link #FIX_LOG_DIR_PROP_NAME} or its default. */
        public static String fixLogDir()
        {
            return config().string(FIX_LOG_DIR_PROP_NAME, FIX_LOG_DIR_DEFAULT);
        }

        /** @return {@link #FIX_COMP_ID_PROP_NAME} or its default. */
        public static String fixCompId()
        {
            return config().string(FIX_COMP_ID_PROP_NAME, FIX_COMP_ID_DEFAULT);
        }

        /** @return {@link #FIX_OFFLINE_HOLD_BYTES_PROP_NAME} or its default, in bytes. */
        public static int fixOfflineHoldBytes()
        {
            return config().sizeAsInt(FIX_OFFLINE_HOLD_BYTES_PROP_NAME, FIX_OFFLINE_HOLD_BYTES_DEFAULT_BYTES);
        }

        /** @return {@link #FIX_LIBRARY_CHANNEL_PROP_NAME} or its default. */
        public static String fixLibraryChannel()
        {
            return config().string(FIX_LIBRARY_CHANNEL_PROP_NAME, FIX_LIBRARY_CHANNEL_DEFAULT);
        }

        /** @return {@link #FIX_ARCHIVE_CONTROL_CHANNEL_PROP_NAME} or its default. */
        public static String fixArchiveControlChannel()
        {
            return config().string(FIX_ARCHIVE_CONTROL_CHANNEL_PROP_NAME, FIX_ARCHIVE_CONTROL_CHANNEL_DEFAULT);
        }

        /** @return {@link #FIX_ARCHIVE_CONTROL_STREAM_PROP_NAME} or its default. */
        public static int fixArchiveControlStreamId()
        {
            return config().intValue(FIX_ARCHIVE_CONTROL_STREAM_PROP_NAME, FIX_ARCHIVE_CONTROL_STREAM_DEFAULT);
        }

        /** @return {@link #WEB_ENABLED_PROP_NAME} or its default. */
        public static boolean webEnabled()
        {
            return config().bool(WEB_ENABLED_PROP_NAME, WEB_ENABLED_DEFAULT);
        }

        /** @return {@link #WEB_HOST_PROP_NAME} or its default. */
        public static String webHost()
        {
            return config().string(WEB_HOST_PROP_NAME, WEB_HOST_DEFAULT);
        }

        /** @return {@link #WEB_PORT_PROP_NAME} or its default. */
        public static int webPort()
        {
            return config().intValue(WEB_PORT_PROP_NAME, WEB_PORT_DEFAULT);
        }

        /** @return {@link #WEB_API_KEYS_FILE_PROP_NAME}, or null. */
        public static String webApiKeysFile()
        {
            return config().string(WEB_API_KEYS_FILE_PROP_NAME, null);
        }

        /** @return {@link #WEB_RECEIVE_WINDOW_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long webReceiveWindowNs()
        {
            return durationNs(WEB_RECEIVE_WINDOW_PROP_NAME, WEB_RECEIVE_WINDOW_DEFAULT_NS);
        }

        /** @return {@link #WEB_SLOW_CLIENT_BYTES_PROP_NAME} or its default, in bytes. */
        public static int webSlowClientBytes()
        {
            return config().sizeAsInt(WEB_SLOW_CLIENT_BYTES_PROP_NAME, WEB_SLOW_CLIENT_BYTES_DEFAULT_BYTES);
        }

        /** @return {@link #WEB_MAX_BODY_PROP_NAME} or its default, in bytes. */
        public static int webMaxBody()
        {
            return config().sizeAsInt(WEB_MAX_BODY_PROP_NAME, WEB_MAX_BODY_DEFAULT_BYTES);
        }

        /** @return {@link #WEB_ANSWER_TIMEOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long webAnswerTimeoutNs()
        {
            return durationNs(WEB_ANSWER_TIMEOUT_PROP_NAME, WEB_ANSWER_TIMEOUT_DEFAULT_NS);
        }

        /** @return {@link #WEB_HEARTBEAT_INTERVAL_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long webHeartbeatIntervalNs()
        {
            return durationNs(WEB_HEARTBEAT_INTERVAL_PROP_NAME, WEB_HEARTBEAT_INTERVAL_DEFAULT_NS);
        }

        /** @return {@link #WEB_MAX_CONNECTIONS_PROP_NAME} or its default. */
        public static int webMaxConnections()
        {
            return config().intValue(WEB_MAX_CONNECTIONS_PROP_NAME, WEB_MAX_CONNECTIONS_DEFAULT);
        }

        /** @return {@link #WEB_MAX_CONNECTIONS_PER_ADDRESS_PROP_NAME} or its default. */
        public static int webMaxConnectionsPerAddress()
        {
            return config().intValue(WEB_MAX_CONNECTIONS_PER_ADDRESS_PROP_NAME,
                WEB_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT);
        }

        /** @return {@link #ADMIN_KEY_FILE_PROP_NAME}, or null. */
        public static String adminKeyFile()
        {
            return config().string(ADMIN_KEY_FILE_PROP_NAME, null);
        }

        /** @return {@link #FIX_ARCHIVE_RESPONSE_CHANNEL_PROP_NAME} or its default. */
        public static String fixArchiveResponseChannel()
        {
            return config().string(FIX_ARCHIVE_RESPONSE_CHANNEL_PROP_NAME, FIX_ARCHIVE_RESPONSE_CHANNEL_DEFAULT);
        }

        /** @return {@link #ARCHIVE_DIR_PROP_NAME} or its default. */
        public static String archiveDir()
        {
            return config().string(ARCHIVE_DIR_PROP_NAME, ARCHIVE_DIR_DEFAULT);
        }

        /** @return {@link #LOGON_MAX_FAILURES_PROP_NAME} or its default. */
        public static int logonMaxFailures()
        {
            return config().intValue(LOGON_MAX_FAILURES_PROP_NAME, LOGON_MAX_FAILURES_DEFAULT);
        }

        /** @return {@link #LOGON_MAX_ADDRESS_FAILURES_PROP_NAME} or its default. */
        public static int logonMaxAddressFailures()
        {
            return config().intValue(LOGON_MAX_ADDRESS_FAILURES_PROP_NAME, LOGON_MAX_ADDRESS_FAILURES_DEFAULT);
        }

        /** @return {@link #LOGON_LOCKOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long logonLockoutNs()
        {
            return durationNs(LOGON_LOCKOUT_PROP_NAME, LOGON_LOCKOUT_DEFAULT_NS);
        }

        /** @return {@link #LOGON_MAX_LOCKOUT_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long logonMaxLockoutNs()
        {
            return durationNs(LOGON_MAX_LOCKOUT_PROP_NAME, LOGON_MAX_LOCKOUT_DEFAULT_NS);
        }

        /** @return {@link #LOGON_FAILURE_DELAY_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long logonFailureDelayNs()
        {
            return durationNs(LOGON_FAILURE_DELAY_PROP_NAME, LOGON_FAILURE_DELAY_DEFAULT_NS);
        }

        /** @return {@link #LOGON_MAX_PENDING_PROP_NAME} or its default. */
        public static int logonMaxPending()
        {
            return config().intValue(LOGON_MAX_PENDING_PROP_NAME, LOGON_MAX_PENDING_DEFAULT);
        }

        /** @return {@link #LOGON_MAX_PENDING_PER_ADDRESS_PROP_NAME} or its default. */
        public static int logonMaxPendingPerAddress()
        {
            return config().intValue(LOGON_MAX_PENDING_PER_ADDRESS_PROP_NAME, LOGON_MAX_PENDING_PER_ADDRESS_DEFAULT);
        }

        /** @return {@link #SBE_MAX_SESSIONS_PER_USER_PROP_NAME} or its default. */
        public static int sbeMaxSessionsPerUser()
        {
            return config().intValue(SBE_MAX_SESSIONS_PER_USER_PROP_NAME, SBE_MAX_SESSIONS_PER_USER_DEFAULT);
        }

        /** @return {@link #FIX_HEARTBEAT_MIN_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long fixHeartbeatMinNs()
        {
            return durationNs(FIX_HEARTBEAT_MIN_PROP_NAME, FIX_HEARTBEAT_MIN_DEFAULT_NS);
        }

        /** @return {@link #FIX_HEARTBEAT_MAX_PROP_NAME} or its default, in nanoseconds (whole milliseconds). */
        public static long fixHeartbeatMaxNs()
        {
            return durationNs(FIX_HEARTBEAT_MAX_PROP_NAME, FIX_HEARTBEAT_MAX_DEFAULT_NS);
        }

        /** @return {@link #SBE_RESPONSE_TERM_LENGTH_PROP_NAME} or its default, in bytes. */
        public static int sbeResponseTermLength()
        {
            return config().sizeAsInt(SBE_RESPONSE_TERM_LENGTH_PROP_NAME, SBE_RESPONSE_TERM_LENGTH_DEFAULT_BYTES);
        }

        /** @return {@link #SBE_RESPONSE_SOURCE_CHECK_PROP_NAME} or its default. */
        public static boolean sbeResponseSourceCheck()
        {
            return config().bool(SBE_RESPONSE_SOURCE_CHECK_PROP_NAME, SBE_RESPONSE_SOURCE_CHECK_DEFAULT);
        }

        /** @return {@link #SBE_MAX_PENDING_REJECTS_PROP_NAME} or its default. */
        public static int sbeMaxPendingRejects()
        {
            return config().intValue(SBE_MAX_PENDING_REJECTS_PROP_NAME, SBE_MAX_PENDING_REJECTS_DEFAULT);
        }

        /**
         * A duration key in nanoseconds, which must be whole milliseconds. A value finer than a millisecond is refused
         * rather than rounded: it is most likely a bare number meant as milliseconds (the keys took milliseconds, under
         * names ending in {@code .ms}, before they took durations), which is nanoseconds now.
         */
        private static long durationNs(final String key, final long defaultNs)
        {
            final long ns = config().durationNs(key, defaultNs);
            Config.require(ns % NS_PER_MS == 0, key, config().get(key),
                "must be whole milliseconds, e.g. 100ms or 2s (a number without a unit is nanoseconds)");
            return ns;
        }
    }

    private static final long NS_PER_S = TimeUnit.SECONDS.toNanos(1);

    private int gatewayId = Configuration.gatewayId();
    private String aeronDirectoryName = Configuration.aeronDirectoryName();
    private boolean embeddedDriver = Configuration.embeddedDriver();
    private String clientChannel = Configuration.clientChannel();
    private int clientStreamId = Configuration.clientStreamId();
    private String engineIngressChannel = Configuration.engineIngressChannel();
    private int engineIngressStreamId = Configuration.engineIngressStreamId();
    private String engineEgressChannel = Configuration.engineEgressChannel();
    private int engineEgressStreamId = Configuration.engineEgressStreamId();
    private String marketDataChannel = Configuration.marketDataChannel();
    private int marketDataStreamId = Configuration.marketDataStreamId();
    private String marketDataRequestChannel = Configuration.marketDataRequestChannel();
    private String marketDataRecoveryChannel = Configuration.marketDataRecoveryChannel();
    private int marketDataRecoveryStreamId = Configuration.marketDataRecoveryStreamId();
    private int marketDataRequestStreamId = Configuration.marketDataRequestStreamId();
    private String engineStatusChannel = Configuration.engineStatusChannel();
    private int engineStatusStreamId = Configuration.engineStatusStreamId();
    private int engineReplayStreamId = Configuration.engineReplayStreamId();
    private int engineReplayRequestStreamId = Configuration.engineReplayRequestStreamId();
    private long engineStatusTimeoutNs = Configuration.engineStatusTimeoutNs();
    private int inFlightCapacity = Configuration.inFlightCapacity();
    private final EngineList engineList = EngineList.fromConfig(Config.system());
    private List<EngineEndpoint> engines = List.of();
    private long heartbeatIntervalNs = Configuration.heartbeatIntervalNs();
    private long throttleMessagesPerSecond = Configuration.throttleMessagesPerSecond();
    private long throttleBurst = Configuration.throttleBurst();
    private long backPressureTimeoutNs = Configuration.backPressureTimeoutNs();
    private long slowClientTimeoutNs = Configuration.slowClientTimeoutNs();
    private long logonTimeoutNs = Configuration.logonTimeoutNs();
    private int maxMessageLength = Configuration.maxMessageLength();
    private String idleStrategyName = Configuration.idleStrategy();
    private boolean fixEnabled = Configuration.fixEnabled();
    private String fixHost = Configuration.fixHost();
    private int fixPort = Configuration.fixPort();
    private String fixLogDir = Configuration.fixLogDir();
    private int fixOfflineHoldBytes = Configuration.fixOfflineHoldBytes();
    private String fixCompId = Configuration.fixCompId();
    private String fixLibraryChannel = Configuration.fixLibraryChannel();
    private String fixArchiveControlChannel = Configuration.fixArchiveControlChannel();
    private int fixArchiveControlStreamId = Configuration.fixArchiveControlStreamId();
    private String fixArchiveResponseChannel = Configuration.fixArchiveResponseChannel();
    private String archiveDir = Configuration.archiveDir();
    private boolean webEnabled = Configuration.webEnabled();
    private String webHost = Configuration.webHost();
    private int webPort = Configuration.webPort();
    private String webApiKeysFile = Configuration.webApiKeysFile();
    private ApiKeys webApiKeys;
    private long webReceiveWindowNs = Configuration.webReceiveWindowNs();
    private int webMaxBody = Configuration.webMaxBody();
    private int webSlowClientBytes = Configuration.webSlowClientBytes();
    private long webAnswerTimeoutNs = Configuration.webAnswerTimeoutNs();
    private long webHeartbeatIntervalNs = Configuration.webHeartbeatIntervalNs();
    private int webMaxConnections = Configuration.webMaxConnections();
    private int webMaxConnectionsPerAddress = Configuration.webMaxConnectionsPerAddress();
    private String adminKeyFile = Configuration.adminKeyFile();
    private io.ringex.client.AdminKey adminKey;
    private int logonMaxFailures = Configuration.logonMaxFailures();
    private int logonMaxAddressFailures = Configuration.logonMaxAddressFailures();
    private long logonLockoutNs = Configuration.logonLockoutNs();
    private long logonMaxLockoutNs = Configuration.logonMaxLockoutNs();
    private long logonFailureDelayNs = Configuration.logonFailureDelayNs();
    private int logonMaxPending = Configuration.logonMaxPending();
    private int logonMaxPendingPerAddress = Configuration.logonMaxPendingPerAddress();
    private int sbeMaxSessionsPerUser = Configuration.sbeMaxSessionsPerUser();
    private long fixHeartbeatMinNs = Configuration.fixHeartbeatMinNs();
    private long fixHeartbeatMaxNs = Configuration.fixHeartbeatMaxNs();
    private int sbeResponseTermLength = Configuration.sbeResponseTermLength();
    private boolean sbeResponseSourceCheck = Configuration.sbeResponseSourceCheck();
    private int sbeMaxPendingRejects = Configuration.sbeMaxPendingRejects();
    // A configured user's TargetCompID defaults to the configured CompID, as read here.
    private UserDirectory users = UserDirectory.fromConfig(Config.system(), Configuration.fixCompId());
    private final StaticInstruments instruments = StaticInstruments.fromConfig(Config.system());
    private LogonAuthenticator logonAuthenticator;
    private boolean concluded;

    /**
     * A context with defaults from the {@code ringex.gateway.*} system properties.
     *
     * @throws ConfigurationException naming the key whose value does not parse.
     */
    public GatewayContext()
    {
    }

    /**
     * Validate; throws naming the first bad key.
     *
     * @return this.
     * @throws ConfigurationException on an invalid value.
     */
    public GatewayContext conclude()
    {
        require(gatewayId >= 1 && gatewayId <= 65535, Configuration.ID_PROP_NAME, gatewayId, "must be 1..65535");
        require(aeronDirectoryName != null && !aeronDirectoryName.isEmpty(), Configuration.AERON_DIR_PROP_NAME,
            aeronDirectoryName, "must be set");
        Config.requireChannel(Configuration.CLIENT_CHANNEL_PROP_NAME, clientChannel);
        Config.requireChannel(Configuration.ENGINE_INGRESS_CHANNEL_PROP_NAME, engineIngressChannel);
        Config.requireChannel(Configuration.ENGINE_EGRESS_CHANNEL_PROP_NAME, engineEgressChannel);
        if (marketDataChannel == null)
        {
            marketDataChannel = engineEgressChannel;
        }
        Config.requireChannel(Configuration.ENGINE_MARKETDATA_CHANNEL_PROP_NAME, marketDataChannel);
        requireStream(Configuration.CLIENT_STREAM_PROP_NAME, clientStreamId);
        requireStream(Configuration.ENGINE_INGRESS_STREAM_PROP_NAME, engineIngressStreamId);
        requireStream(Configuration.ENGINE_EGRESS_STREAM_PROP_NAME, engineEgressStreamId);
        requireStream(Configuration.ENGINE_MARKETDATA_STREAM_PROP_NAME, marketDataStreamId);
        Config.requireChannel(Configuration.ENGINE_MARKETDATA_REQUEST_CHANNEL_PROP_NAME, marketDataRequestChannel);
        Config.requireChannel(Configuration.MARKETDATA_RECOVERY_CHANNEL_PROP_NAME, marketDataRecoveryChannel);
        requireStream(Configuration.MARKETDATA_RECOVERY_STREAM_PROP_NAME, marketDataRecoveryStreamId);
        requireStream(Configuration.MARKETDATA_REQUEST_STREAM_PROP_NAME, marketDataRequestStreamId);
        requireStream(Configuration.ENGINE_STATUS_STREAM_PROP_NAME, engineStatusStreamId);
        requireStream(Configuration.ENGINE_REPLAY_STREAM_PROP_NAME, engineReplayStreamId);
        requireStream(Configuration.ENGINE_REPLAY_REQUEST_STREAM_PROP_NAME, engineReplayRequestStreamId);
        requireDuration(Configuration.ENGINE_STATUS_TIMEOUT_PROP_NAME, engineStatusTimeoutNs, ms(1), Long.MAX_VALUE);
        if (null == adminKey && null != adminKeyFile && !adminKeyFile.isBlank())
        {
            try
            {
                adminKey = io.ringex.client.AdminKeys.load(java.nio.file.Path.of(adminKeyFile)).select(null);
            }
            catch (final IllegalArgumentException ex)
            {
                // The message names the file and the line, never a secret.
                throw new ConfigurationException(Configuration.ADMIN_KEY_FILE_PROP_NAME + ": " + ex.getMessage());
            }
        }
        require(inFlightCapacity >= 1 && inFlightCapacity <= 1 << 20, Configuration.IN_FLIGHT_CAPACITY_PROP_NAME,
            inFlightCapacity, "must be 1..1048576");
        engines = engineList.conclude(new EngineEndpoint(engineIngressChannel, engineIngressStreamId,
            engineEgressChannel, engineEgressStreamId, marketDataChannel, marketDataStreamId, marketDataRequestChannel,
            engineStatusChannel, engineStatusStreamId));
        requireDuration(Configuration.HEARTBEAT_INTERVAL_PROP_NAME, heartbeatIntervalNs, ms(10), ms(600_000));
        require(throttleMessagesPerSecond > 0, Configuration.THROTTLE_MESSAGES_PER_SECOND_PROP_NAME,
            throttleMessagesPerSecond, "must be > 0");
        if (throttleBurst == 0)
        {
            throttleBurst = throttleMessagesPerSecond;
        }
        require(throttleBurst > 0, Configuration.THROTTLE_BURST_PROP_NAME, throttleBurst, "must be > 0");
        requireDuration(Configuration.BACKPRESSURE_TIMEOUT_PROP_NAME, backPressureTimeoutNs, 0, Long.MAX_VALUE);
        requireDuration(Configuration.SLOW_CLIENT_TIMEOUT_PROP_NAME, slowClientTimeoutNs, 0, Long.MAX_VALUE);
        requireDuration(Configuration.LOGON_TIMEOUT_PROP_NAME, logonTimeoutNs, ms(1), Long.MAX_VALUE);
        require(maxMessageLength >= 64 && maxMessageLength <= 65536, Configuration.MAX_MESSAGE_LENGTH_PROP_NAME,
            maxMessageLength, "must be 64..64k");
        require(null != idleStrategyName, Configuration.IDLE_STRATEGY_PROP_NAME, null, "must be set");
        IdleStrategies.check(Configuration.IDLE_STRATEGY_PROP_NAME, idleStrategyName);
        if (fixEnabled)
        {
            require(fixPort > 0 && fixPort < 65536, Configuration.FIX_PORT_PROP_NAME, fixPort, "must be 1..65535");
            require(fixHost != null && !fixHost.isEmpty(), Configuration.FIX_HOST_PROP_NAME, fixHost, "must be set");
            require(fixLogDir != null && !fixLogDir.isEmpty(), Configuration.FIX_LOG_DIR_PROP_NAME, fixLogDir,
                "must be set");
            require(fixCompId != null && !fixCompId.isEmpty(), Configuration.FIX_COMP_ID_PROP_NAME, fixCompId,
                "must be set");
            require(fixOfflineHoldBytes >= 4096 && fixOfflineHoldBytes <= 1 << 30 &&
                Integer.bitCount(fixOfflineHoldBytes) == 1, Configuration.FIX_OFFLINE_HOLD_BYTES_PROP_NAME,
                fixOfflineHoldBytes, "must be a power of two, 4k..1g");
            Config.requireChannel(Configuration.FIX_LIBRARY_CHANNEL_PROP_NAME, fixLibraryChannel);
            Config.requireChannel(Configuration.FIX_ARCHIVE_CONTROL_CHANNEL_PROP_NAME, fixArchiveControlChannel);
            Config.requireChannel(Configuration.FIX_ARCHIVE_RESPONSE_CHANNEL_PROP_NAME, fixArchiveResponseChannel);
        }
        if (fixEnabled || webEnabled)
        {
            // The gateway's market data recovers gaps from each engine's recovery service: it must know where to ask.
            for (int i = 1; i < engines.size(); i++)
            {
                require(null != engines.get(i).marketDataRequestChannel(),
                    EngineList.PREFIX + (i + 1) + ".marketdata.request.channel", null,
                    "must be set with FIX or the web front end enabled (the engine's " +
                    "ringex.engine.marketdata.request.channel)");
            }
        }
        if (webEnabled)
        {
            require(webPort >= 0 && webPort < 65536, Configuration.WEB_PORT_PROP_NAME, webPort,
                "must be 0..65535 (0: any free port)");
            require(webHost != null && !webHost.isEmpty(), Configuration.WEB_HOST_PROP_NAME, webHost, "must be set");
            requireDuration(Configuration.WEB_RECEIVE_WINDOW_PROP_NAME, webReceiveWindowNs, ms(100), ms(60_000));
            require(webMaxBody >= 256 && webMaxBody <= 1 << 20, Configuration.WEB_MAX_BODY_PROP_NAME, webMaxBody,
                "must be 256..1m");
            require(webSlowClientBytes >= 4096 && webSlowClientBytes <= 64 << 20,
                Configuration.WEB_SLOW_CLIENT_BYTES_PROP_NAME, webSlowClientBytes, "must be 4k..64m");
            requireDuration(Configuration.WEB_ANSWER_TIMEOUT_PROP_NAME, webAnswerTimeoutNs, ms(1), ms(60_000));
            requireDuration(Configuration.WEB_HEARTBEAT_INTERVAL_PROP_NAME, webHeartbeatIntervalNs, ms(100),
                ms(600_000));
            require(webMaxConnections >= 1 && webMaxConnections <= 100_000, Configuration.WEB_MAX_CONNECTIONS_PROP_NAME,
                webMaxConnections, "must be 1..100000");
            require(webMaxConnectionsPerAddress >= 1 && webMaxConnectionsPerAddress <= 100_000,
                Configuration.WEB_MAX_CONNECTIONS_PER_ADDRESS_PROP_NAME, webMaxConnectionsPerAddress,
                "must be 1..100000");
            if (null == webApiKeys)
            {
                require(null != webApiKeysFile && !webApiKeysFile.isBlank(), Configuration.WEB_API_KEYS_FILE_PROP_NAME,
                    webApiKeysFile, "must be set with the web front end enabled");
                try
                {
                    webApiKeys = ApiKeys.load(java.nio.file.Path.of(webApiKeysFile));
                }
                catch (final IllegalArgumentException ex)
                {
                    // The message names the file and the line, never a secret.
                    throw new ConfigurationException(Configuration.WEB_API_KEYS_FILE_PROP_NAME + ": " +
                        ex.getMessage());
                }
            }
        }
        require(logonMaxFailures >= 1, Configuration.LOGON_MAX_FAILURES_PROP_NAME, logonMaxFailures, "must be >= 1");
        require(logonMaxAddressFailures >= 1, Configuration.LOGON_MAX_ADDRESS_FAILURES_PROP_NAME,
            logonMaxAddressFailures, "must be >= 1");
        requireDuration(Configuration.LOGON_LOCKOUT_PROP_NAME, logonLockoutNs, 0, Long.MAX_VALUE);
        require(logonMaxLockoutNs >= logonLockoutNs, Configuration.LOGON_MAX_LOCKOUT_PROP_NAME,
            shown(logonMaxLockoutNs), "must be at least " + Configuration.LOGON_LOCKOUT_PROP_NAME + " (" +
            shown(logonLockoutNs) + ")");
        requireDuration(Configuration.LOGON_FAILURE_DELAY_PROP_NAME, logonFailureDelayNs, 0, ms(30_000));
        require(logonMaxPending >= 1 && logonMaxPending <= 4096, Configuration.LOGON_MAX_PENDING_PROP_NAME,
            logonMaxPending, "must be 1..4096");
        require(logonMaxPendingPerAddress >= 1 && logonMaxPendingPerAddress <= 4096,
            Configuration.LOGON_MAX_PENDING_PER_ADDRESS_PROP_NAME, logonMaxPendingPerAddress, "must be 1..4096");
        require(sbeMaxSessionsPerUser >= 1 && sbeMaxSessionsPerUser <= 1024,
            Configuration.SBE_MAX_SESSIONS_PER_USER_PROP_NAME, sbeMaxSessionsPerUser, "must be 1..1024");
        requireDuration(Configuration.FIX_HEARTBEAT_MIN_PROP_NAME, fixHeartbeatMinNs, ms(1_000), ms(3_600_000));
        require(fixHeartbeatMinNs % NS_PER_S == 0, Configuration.FIX_HEARTBEAT_MIN_PROP_NAME,
            shown(fixHeartbeatMinNs), "must be whole seconds (HeartBtInt is)");
        requireDuration(Configuration.FIX_HEARTBEAT_MAX_PROP_NAME, fixHeartbeatMaxNs, fixHeartbeatMinNs,
            ms(3_600_000));
        require(fixHeartbeatMaxNs % NS_PER_S == 0, Configuration.FIX_HEARTBEAT_MAX_PROP_NAME,
            shown(fixHeartbeatMaxNs), "must be whole seconds (HeartBtInt is)");
        require(sbeResponseTermLength >= 64 * 1024 && sbeResponseTermLength <= 64 << 20 &&
            Integer.bitCount(sbeResponseTermLength) == 1, Configuration.SBE_RESPONSE_TERM_LENGTH_PROP_NAME,
            sbeResponseTermLength, "must be a power of two, 64k..64m");
        require(sbeMaxPendingRejects >= 0 && sbeMaxPendingRejects <= 1024,
            Configuration.SBE_MAX_PENDING_REJECTS_PROP_NAME, sbeMaxPendingRejects, "must be 0..1024");
        for (final User user : users.users())
        {
            // Users added in code too; the value is a secret, never shown.
            require(CredentialHash.isWellFormed(user.credentialHash()), UserDirectory.credentialKey(user.username()),
                "<hidden>", "must be a hash from io.ringex.gateway.auth.HashCredential");
        }
        if (null == logonAuthenticator)
        {
            logonAuthenticator = new LogonAuthenticator(users, new LogonGuard(logonPolicy()),
                SystemEpochClock.INSTANCE);
        }
        concluded = true;
        return this;
    }

    private static void require(final boolean ok, final String key, final Object value, final String rule)
    {
        Config.require(ok, key, value, rule);
    }

    private static void requireStream(final String key, final int streamId)
    {
        require(streamId != 0, key, streamId, "must not be 0");
    }

    private static void requireDuration(final String key, final long ns, final long minNs, final long maxNs)
    {
        require(ns >= minNs && ns <= maxNs, key, shown(ns), maxNs == Long.MAX_VALUE ?
            "must be at least " + shown(minNs) : "must be " + shown(minNs) + ".." + shown(maxNs));
    }

    private static long ms(final long ms)
    {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** A duration in nanoseconds as a key would take it ({@code 100ms}, {@code 3s}). */
    private static String shown(final long ns)
    {
        if (ns <= 0)
        {
            return ns % Configuration.NS_PER_MS == 0 ? ns / Configuration.NS_PER_MS + "ms" : ns + "ns";
        }
        return SystemUtil.formatDuration(ns);
    }

    /**
     * @return the limits on logons.
     */
    public LogonPolicy logonPolicy()
    {
        // The policy keeps the logon clock's unit, epoch milliseconds.
        return new LogonPolicy(logonMaxFailures, logonMaxAddressFailures, TimeUnit.NANOSECONDS.toMillis(logonLockoutNs),
            TimeUnit.NANOSECONDS.toMillis(logonMaxLockoutNs), TimeUnit.NANOSECONDS.toMillis(logonFailureDelayNs),
            logonMaxPending, logonMaxPendingPerAddress, LogonPolicy.DEFAULT.maxTracked());
    }

    /**
     * @param policy the limits on logons.
     * @return this.
     */
    public GatewayContext logonPolicy(final LogonPolicy policy)
    {
        logonMaxFailures = policy.maxFailures();
        logonMaxAddressFailures = policy.maxAddressFailures();
        logonLockoutNs = TimeUnit.MILLISECONDS.toNanos(policy.lockoutMs());
        logonMaxLockoutNs = TimeUnit.MILLISECONDS.toNanos(policy.maxLockoutMs());
        logonFailureDelayNs = TimeUnit.MILLISECONDS.toNanos(policy.failureDelayMs());
        logonMaxPending = policy.maxPending();
        logonMaxPendingPerAddress = policy.maxPendingPerAddress();
        return this;
    }

    /**
     * The logon checker the FIX and SBE sides share (created by {@link #conclude()}; {@link #close()} stops it).
     *
     * @return the checker.
     */
    public LogonAuthenticator logonAuthenticator()
    {
        return logonAuthenticator;
    }

    /**
     * @return term length of the publications answering SBE sessions.
     */
    public int sbeResponseTermLength()
    {
        return sbeResponseTermLength;
    }

    /**
     * @param termLength term length of the publications answering SBE sessions.
     * @return this.
     */
    public GatewayContext sbeResponseTermLength(final int termLength)
    {
        this.sbeResponseTermLength = termLength;
        return this;
    }

    /**
     * @return whether an SBE Logon's UDP response endpoint must be the Logon's source address.
     */
    public boolean sbeResponseSourceCheck()
    {
        return sbeResponseSourceCheck;
    }

    /**
     * @param check whether an SBE Logon's UDP response endpoint must be the Logon's source address.
     * @return this.
     */
    public GatewayContext sbeResponseSourceCheck(final boolean check)
    {
        this.sbeResponseSourceCheck = check;
        return this;
    }

    /**
     * @return refused SBE Logons answered at once.
     */
    public int sbeMaxPendingRejects()
    {
        return sbeMaxPendingRejects;
    }

    /**
     * @param count refused SBE Logons answered at once.
     * @return this.
     */
    public GatewayContext sbeMaxPendingRejects(final int count)
    {
        this.sbeMaxPendingRejects = count;
        return this;
    }

    /**
     * @return live SBE sessions one user may hold at this gateway.
     */
    public int sbeMaxSessionsPerUser()
    {
        return sbeMaxSessionsPerUser;
    }

    /**
     * @param count live SBE sessions one user may hold at this gateway.
     * @return this.
     */
    public GatewayContext sbeMaxSessionsPerUser(final int count)
    {
        this.sbeMaxSessionsPerUser = count;
        return this;
    }

    /**
     * @return the shortest HeartBtInt(108) a FIX Logon may ask for, in nanoseconds (whole seconds).
     */
    public long fixHeartbeatMinNs()
    {
        return fixHeartbeatMinNs;
    }

    /**
     * @return the longest HeartBtInt(108) a FIX Logon may ask for, in nanoseconds (whole seconds).
     */
    public long fixHeartbeatMaxNs()
    {
        return fixHeartbeatMaxNs;
    }

    /**
     * @param minNs the shortest HeartBtInt(108) a FIX Logon may ask for, in nanoseconds (whole seconds).
     * @param maxNs the longest.
     * @return this.
     */
    public GatewayContext fixHeartbeatRangeNs(final long minNs, final long maxNs)
    {
        this.fixHeartbeatMinNs = minNs;
        this.fixHeartbeatMaxNs = maxNs;
        return this;
    }

    /**
     * Stop what {@link #conclude()} started (the logon checker's thread).
     */
    public void close()
    {
        CloseHelper.close(logonAuthenticator);
    }

    /**
     * @return true once {@link #conclude()} has passed.
     */
    public boolean isConcluded()
    {
        return concluded;
    }

    /**
     * @return a new idle strategy of the configured kind ({@link IdleStrategies#of(String)}); each agent runner needs
     * its own.
     */
    public IdleStrategy idleStrategy()
    {
        return IdleStrategies.of(idleStrategyName);
    }

    /**
     * Add a user built in code.
     *
     * @param user the user.
     * @return this.
     */
    public GatewayContext addUser(final User user)
    {
        users.add(user);
        return this;
    }

    /**
     * Add a static instrument.
     *
     * @param instrumentId id.
     * @param symbol       FIX Symbol(55).
     * @param priceScale   0..8.
     * @return this.
     * @throws ConfigurationException naming the instrument's key if the symbol or scale is out of range.
     */
    public GatewayContext addInstrument(final int instrumentId, final String symbol, final int priceScale)
    {
        instruments.add(instrumentId, symbol, priceScale);
        return this;
    }

    /**
     * Fill a directory with the static instruments.
     *
     * @param directory to fill.
     */
    public void populate(final InstrumentDirectory directory)
    {
        instruments.populate(directory);
    }

    // ---------------------------------------------------------------- accessors

    /**
     * @return the users.
     */
    public UserDirectory users()
    {
        return users;
    }

    /**
     * @param users replace the users.
     * @return this.
     */
    public GatewayContext users(final UserDirectory users)
    {
        this.users = users;
        return this;
    }

    /**
     * @return gateway id.
     */
    public int gatewayId()
    {
        return gatewayId;
    }

    /**
     * @param gatewayId 1..65535.
     * @return this.
     */
    public GatewayContext gatewayId(final int gatewayId)
    {
        this.gatewayId = gatewayId;
        return this;
    }

    /**
     * @return Aeron directory.
     */
    public String aeronDirectoryName()
    {
        return aeronDirectoryName;
    }

    /**
     * @param aeronDirectoryName Aeron directory.
     * @return this.
     */
    public GatewayContext aeronDirectoryName(final String aeronDirectoryName)
    {
        this.aeronDirectoryName = aeronDirectoryName;
        return this;
    }

    /**
     * @return whether to embed a media driver.
     */
    public boolean embeddedDriver()
    {
        return embeddedDriver;
    }

    /**
     * @param embeddedDriver whether to embed a media driver.
     * @return this.
     */
    public GatewayContext embeddedDriver(final boolean embeddedDriver)
    {
        this.embeddedDriver = embeddedDriver;
        return this;
    }

    /**
     * @return client ingress channel.
     */
    public String clientChannel()
    {
        return clientChannel;
    }

    /**
     * @param channel client ingress channel.
     * @return this.
     */
    public GatewayContext clientChannel(final String channel)
    {
        this.clientChannel = channel;
        return this;
    }

    /**
     * @return client ingress stream.
     */
    public int clientStreamId()
    {
        return clientStreamId;
    }

    /**
     * @param streamId client ingress stream.
     * @return this.
     */
    public GatewayContext clientStreamId(final int streamId)
    {
        this.clientStreamId = streamId;
        return this;
    }

    /**
     * @return engine ingress channel.
     */
    public String engineIngressChannel()
    {
        return engineIngressChannel;
    }

    /**
     * @param channel engine ingress channel.
     * @return this.
     */
    public GatewayContext engineIngressChannel(final String channel)
    {
        this.engineIngressChannel = channel;
        return this;
    }

    /**
     * @return engine ingress stream.
     */
    public int engineIngressStreamId()
    {
        return engineIngressStreamId;
    }

    /**
     * @param streamId engine ingress stream.
     * @return this.
     */
    public GatewayContext engineIngressStreamId(final int streamId)
    {
        this.engineIngressStreamId = streamId;
        return this;
    }

    /**
     * @return engine egress channel.
     */
    public String engineEgressChannel()
    {
        return engineEgressChannel;
    }

    /**
     * @param channel engine egress channel.
     * @return this.
     */
    public GatewayContext engineEgressChannel(final String channel)
    {
        this.engineEgressChannel = channel;
        return this;
    }

    /**
     * @return engine egress stream.
     */
    public int engineEgressStreamId()
    {
        return engineEgressStreamId;
    }

    /**
     * @param streamId engine egress stream.
     * @return this.
     */
    public GatewayContext engineEgressStreamId(final int streamId)
    {
        this.engineEgressStreamId = streamId;
        return this;
    }

    /**
     * @return market-data channel (the egress channel unless set).
     */
    public String marketDataChannel()
    {
        return marketDataChannel == null ? engineEgressChannel : marketDataChannel;
    }

    /**
     * @param channel market-data channel.
     * @return this.
     */
    public GatewayContext marketDataChannel(final String channel)
    {
        this.marketDataChannel = channel;
        return this;
    }

    /**
     * @return market-data stream.
     */
    public int marketDataStreamId()
    {
        return marketDataStreamId;
    }

    /**
     * @param streamId market-data stream.
     * @return this.
     */
    public GatewayContext marketDataStreamId(final int streamId)
    {
        this.marketDataStreamId = streamId;
        return this;
    }

    /**
     * @return engine 1's market-data request channel (unnumbered keys).
     */
    public String marketDataRequestChannel()
    {
        return marketDataRequestChannel;
    }

    /**
     * @param channel engine 1's market-data request channel.
     * @return this.
     */
    public GatewayContext marketDataRequestChannel(final String channel)
    {
        this.marketDataRequestChannel = channel;
        return this;
    }

    /**
     * @return the gateway's own channel for the recovery services' answers.
     */
    public String marketDataRecoveryChannel()
    {
        return marketDataRecoveryChannel;
    }

    /**
     * @param channel the gateway's own channel for the recovery services' answers.
     * @return this.
     */
    public GatewayContext marketDataRecoveryChannel(final String channel)
    {
        this.marketDataRecoveryChannel = channel;
        return this;
    }

    /**
     * @return the stream of the response channel engine 1's recovery service answers on (engine n: + 100 x (n - 1)).
     */
    public int marketDataRecoveryStreamId()
    {
        return marketDataRecoveryStreamId;
    }

    /**
     * @param streamId the stream engine 1's recovery service answers the gateway on.
     * @return this.
     */
    public GatewayContext marketDataRecoveryStreamId(final int streamId)
    {
        this.marketDataRecoveryStreamId = streamId;
        return this;
    }

    /**
     * @return the engines' market-data request stream (on each one's market-data request channel).
     */
    public int marketDataRequestStreamId()
    {
        return marketDataRequestStreamId;
    }

    /**
     * @param streamId the engines' market-data request stream.
     * @return this.
     */
    public GatewayContext marketDataRequestStreamId(final int streamId)
    {
        this.marketDataRequestStreamId = streamId;
        return this;
    }

    /**
     * @return default heartbeat interval, in nanoseconds.
     */
    public long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    /**
     * @param intervalNs default heartbeat interval, in nanoseconds.
     * @return this.
     */
    public GatewayContext heartbeatIntervalNs(final long intervalNs)
    {
        this.heartbeatIntervalNs = intervalNs;
        return this;
    }

    /**
     * @return per-session messages per second.
     */
    public long throttleMessagesPerSecond()
    {
        return throttleMessagesPerSecond;
    }

    /**
     * @param rate per-session messages per second.
     * @return this.
     */
    public GatewayContext throttleMessagesPerSecond(final long rate)
    {
        this.throttleMessagesPerSecond = rate;
        return this;
    }

    /**
     * @return token bucket capacity (the rate unless set).
     */
    public long throttleBurst()
    {
        return throttleBurst == 0 ? throttleMessagesPerSecond : throttleBurst;
    }

    /**
     * @param burst token bucket capacity.
     * @return this.
     */
    public GatewayContext throttleBurst(final long burst)
    {
        this.throttleBurst = burst;
        return this;
    }

    /**
     * @return back-pressure bound before ENGINE_BUSY, in nanoseconds.
     */
    public long backPressureTimeoutNs()
    {
        return backPressureTimeoutNs;
    }

    /**
     * @param timeoutNs back-pressure bound before ENGINE_BUSY, in nanoseconds.
     * @return this.
     */
    public GatewayContext backPressureTimeoutNs(final long timeoutNs)
    {
        this.backPressureTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * @return how long a client may back-pressure the gateway before it is dropped, in nanoseconds.
     */
    public long slowClientTimeoutNs()
    {
        return slowClientTimeoutNs;
    }

    /**
     * @param timeoutNs how long a client may back-pressure the gateway before it is dropped, in nanoseconds.
     * @return this.
     */
    public GatewayContext slowClientTimeoutNs(final long timeoutNs)
    {
        this.slowClientTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * @return how long to wait for a client's response channel, in nanoseconds.
     */
    public long logonTimeoutNs()
    {
        return logonTimeoutNs;
    }

    /**
     * @param timeoutNs how long to wait for a client's response channel, in nanoseconds.
     * @return this.
     */
    public GatewayContext logonTimeoutNs(final long timeoutNs)
    {
        this.logonTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * @return longest client message.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * @param length longest client message.
     * @return this.
     */
    public GatewayContext maxMessageLength(final int length)
    {
        this.maxMessageLength = length;
        return this;
    }

    /**
     * @return the idle strategy's name, one of {@link IdleStrategies#NAMES}.
     */
    public String idleStrategyName()
    {
        return idleStrategyName;
    }

    /**
     * @param name one of {@link IdleStrategies#NAMES}.
     * @return this.
     */
    public GatewayContext idleStrategyName(final String name)
    {
        this.idleStrategyName = name;
        return this;
    }

    /**
     * @return whether the FIX acceptor runs.
     */
    public boolean fixEnabled()
    {
        return fixEnabled;
    }

    /**
     * @param enabled whether the FIX acceptor runs.
     * @return this.
     */
    public GatewayContext fixEnabled(final boolean enabled)
    {
        this.fixEnabled = enabled;
        return this;
    }

    /**
     * @return FIX bind host.
     */
    public String fixHost()
    {
        return fixHost;
    }

    /**
     * @param host FIX bind host.
     * @return this.
     */
    public GatewayContext fixHost(final String host)
    {
        this.fixHost = host;
        return this;
    }

    /**
     * @return whether the REST and WebSocket front end runs.
     */
    public boolean webEnabled()
    {
        return webEnabled;
    }

    /**
     * @param enabled whether the REST and WebSocket front end runs.
     * @return this.
     */
    public GatewayContext webEnabled(final boolean enabled)
    {
        this.webEnabled = enabled;
        return this;
    }

    /**
     * @return the web front end's bind address.
     */
    public String webHost()
    {
        return webHost;
    }

    /**
     * @param host the web front end's bind address.
     * @return this.
     */
    public GatewayContext webHost(final String host)
    {
        this.webHost = host;
        return this;
    }

    /**
     * @return the web front end's port (0 in tests: any free port, see the web server's bound port).
     */
    public int webPort()
    {
        return webPort;
    }

    /**
     * @param port the web front end's port.
     * @return this.
     */
    public GatewayContext webPort(final int port)
    {
        this.webPort = port;
        return this;
    }

    /**
     * @param file the API keys file, read by {@link #conclude()}.
     * @return this.
     */
    public GatewayContext webApiKeysFile(final String file)
    {
        this.webApiKeysFile = file;
        return this;
    }

    /**
     * @return the API keys file, or null.
     */
    public String webApiKeysFile()
    {
        return webApiKeysFile;
    }

    /**
     * @return the API keys (loaded by {@link #conclude()} when the web front end is enabled), or null.
     */
    public ApiKeys webApiKeys()
    {
        return webApiKeys;
    }

    /**
     * @return how far a signed request's timestamp may be from the gateway's clock, in nanoseconds.
     */
    public long webReceiveWindowNs()
    {
        return webReceiveWindowNs;
    }

    /**
     * @param windowNs how far a signed request's timestamp may be from the gateway's clock, in nanoseconds.
     * @return this.
     */
    public GatewayContext webReceiveWindowNs(final long windowNs)
    {
        this.webReceiveWindowNs = windowNs;
        return this;
    }

    /**
     * @return the largest REST request body, in bytes.
     */
    public int webMaxBody()
    {
        return webMaxBody;
    }

    /**
     * @param bytes the largest REST request body.
     * @return this.
     */
    public GatewayContext webMaxBody(final int bytes)
    {
        this.webMaxBody = bytes;
        return this;
    }

    /**
     * @return a web connection's kernel send buffer and the gateway's queue for it, each, in bytes.
     */
    public int webSlowClientBytes()
    {
        return webSlowClientBytes;
    }

    /**
     * @param bytes a web connection's kernel send buffer and the gateway's queue for it, each.
     * @return this.
     */
    public GatewayContext webSlowClientBytes(final int bytes)
    {
        this.webSlowClientBytes = bytes;
        return this;
    }

    /**
     * @return how long an order request waits for the engine's answer, in nanoseconds.
     */
    public long webAnswerTimeoutNs()
    {
        return webAnswerTimeoutNs;
    }

    /**
     * @param timeoutNs how long an order request waits for the engine's answer, in nanoseconds.
     * @return this.
     */
    public GatewayContext webAnswerTimeoutNs(final long timeoutNs)
    {
        this.webAnswerTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * @return the user stream's heartbeat interval, in nanoseconds.
     */
    public long webHeartbeatIntervalNs()
    {
        return webHeartbeatIntervalNs;
    }

    /**
     * @param intervalNs the user stream's heartbeat interval, in nanoseconds.
     * @return this.
     */
    public GatewayContext webHeartbeatIntervalNs(final long intervalNs)
    {
        this.webHeartbeatIntervalNs = intervalNs;
        return this;
    }

    /**
     * @return most open web connections.
     */
    public int webMaxConnections()
    {
        return webMaxConnections;
    }

    /**
     * @param connections most open web connections.
     * @return this.
     */
    public GatewayContext webMaxConnections(final int connections)
    {
        this.webMaxConnections = connections;
        return this;
    }

    /**
     * @return most open web connections from one address.
     */
    public int webMaxConnectionsPerAddress()
    {
        return webMaxConnectionsPerAddress;
    }

    /**
     * @param connections most open web connections from one address.
     * @return this.
     */
    public GatewayContext webMaxConnectionsPerAddress(final int connections)
    {
        this.webMaxConnectionsPerAddress = connections;
        return this;
    }

    /**
     * @return FIX bind port.
     */
    public int fixPort()
    {
        return fixPort;
    }

    /**
     * @param port FIX bind port.
     * @return this.
     */
    public GatewayContext fixPort(final int port)
    {
        this.fixPort = port;
        return this;
    }

    /**
     * @return Artio log directory.
     */
    public String fixLogDir()
    {
        return fixLogDir;
    }

    /**
     * Where Artio's engine and library keep their monitoring files (counters and error log, 4 MiB each): a directory
     * next to the Aeron directory (memory-backed: {@code /dev/shm} by default on Linux; hot counters in a mapped file
     * on a disk would take the file system's page faults), named after this gateway's FIX log directory. Artio's
     * defaults are one {@code fix-engine} path shared by every Artio engine on the host, and a new
     * {@code fix-library-<random id>} per start, which a crashed process leaves behind. This one is the same across
     * restarts of a gateway and differs between gateways (two cannot share a log directory).
     *
     * @return the directory (not created).
     */
    public Path fixMonitoringDir()
    {
        final String logDir = Path.of(fixLogDir).toAbsolutePath().normalize().toString();
        final Path aeronDir = Path.of(aeronDirectoryName()).toAbsolutePath().normalize();
        final Path parent = null == aeronDir.getParent() ? aeronDir : aeronDir.getParent();
        return parent.resolve("ringex-fix-" + Integer.toHexString(logDir.hashCode()));
    }

    /**
     * @param dir Artio log directory.
     * @return this.
     */
    public GatewayContext fixLogDir(final String dir)
    {
        this.fixLogDir = dir;
        return this;
    }

    /**
     * @return bytes of engine reports held per FIX session while its offline session is being acquired.
     */
    public int fixOfflineHoldBytes()
    {
        return fixOfflineHoldBytes;
    }

    /**
     * @param bytes bytes of engine reports held per FIX session while its offline session is being acquired (a power
     *              of two, 4096..2^30); reports beyond are counted as dropped.
     * @return this.
     */
    public GatewayContext fixOfflineHoldBytes(final int bytes)
    {
        this.fixOfflineHoldBytes = bytes;
        return this;
    }

    /**
     * @return the gateway's FIX CompID.
     */
    public String fixCompId()
    {
        return fixCompId;
    }

    /**
     * @param compId the gateway's FIX CompID.
     * @return this.
     */
    public GatewayContext fixCompId(final String compId)
    {
        this.fixCompId = compId;
        return this;
    }

    /**
     * @return Artio engine-library channel.
     */
    public String fixLibraryChannel()
    {
        return fixLibraryChannel;
    }

    /**
     * @param channel Artio engine-library channel.
     * @return this.
     */
    public GatewayContext fixLibraryChannel(final String channel)
    {
        this.fixLibraryChannel = channel;
        return this;
    }

    /**
     * @return archive control request channel.
     */
    public String fixArchiveControlChannel()
    {
        return fixArchiveControlChannel;
    }

    /**
     * @param channel archive control request channel.
     * @return this.
     */
    public GatewayContext fixArchiveControlChannel(final String channel)
    {
        this.fixArchiveControlChannel = channel;
        return this;
    }

    /**
     * @return archive control request stream.
     */
    public int fixArchiveControlStreamId()
    {
        return fixArchiveControlStreamId;
    }

    /**
     * @param streamId archive control request stream.
     * @return this.
     */
    public GatewayContext fixArchiveControlStreamId(final int streamId)
    {
        this.fixArchiveControlStreamId = streamId;
        return this;
    }

    /**
     * @return archive control response channel.
     */
    public String fixArchiveResponseChannel()
    {
        return fixArchiveResponseChannel;
    }

    /**
     * @param channel archive control response channel.
     * @return this.
     */
    public GatewayContext fixArchiveResponseChannel(final String channel)
    {
        this.fixArchiveResponseChannel = channel;
        return this;
    }

    /**
     * @return the key the gateway signs its offers of configured users with, or null: it offers none.
     */
    public io.ringex.client.AdminKey adminKey()
    {
        return adminKey;
    }

    /**
     * @param key the key the gateway signs its offers of configured users with, or null.
     * @return this.
     */
    public GatewayContext adminKey(final io.ringex.client.AdminKey key)
    {
        this.adminKey = key;
        return this;
    }

    /**
     * @return archive directory for an embedded archiving driver.
     */
    public String archiveDir()
    {
        return archiveDir;
    }

    /**
     * @param dir archive directory for an embedded archiving driver.
     * @return this.
     */
    public GatewayContext archiveDir(final String dir)
    {
        this.archiveDir = dir;
        return this;
    }

    /**
     * @return channel of engine 1's EngineStatus (its egress channel unless set).
     */
    public String engineStatusChannel()
    {
        return engineStatusChannel == null ? engineEgressChannel : engineStatusChannel;
    }

    /**
     * @param channel channel of engine 1's EngineStatus.
     * @return this.
     */
    public GatewayContext engineStatusChannel(final String channel)
    {
        this.engineStatusChannel = channel;
        return this;
    }

    /**
     * @return stream of the engines' EngineStatus.
     */
    public int engineStatusStreamId()
    {
        return engineStatusStreamId;
    }

    /**
     * @param streamId stream of the engines' EngineStatus (the engine's risk stream).
     * @return this.
     */
    public GatewayContext engineStatusStreamId(final int streamId)
    {
        this.engineStatusStreamId = streamId;
        return this;
    }

    /**
     * @return stream of the engines' report replay answers, on each engine's egress channel.
     */
    public int engineReplayStreamId()
    {
        return engineReplayStreamId;
    }

    /**
     * @param streamId stream of the engines' report replay answers.
     * @return this.
     */
    public GatewayContext engineReplayStreamId(final int streamId)
    {
        this.engineReplayStreamId = streamId;
        return this;
    }

    /**
     * @return stream of report replay requests, on each engine's ingress channel.
     */
    public int engineReplayRequestStreamId()
    {
        return engineReplayRequestStreamId;
    }

    /**
     * @param streamId stream of report replay requests.
     * @return this.
     */
    public GatewayContext engineReplayRequestStreamId(final int streamId)
    {
        this.engineReplayRequestStreamId = streamId;
        return this;
    }

    /**
     * @return with several engines, how long a silent node is still taken for the primary, in nanoseconds.
     */
    public long engineStatusTimeoutNs()
    {
        return engineStatusTimeoutNs;
    }

    /**
     * @param timeoutNs with several engines, how long a silent node is still taken for the primary, in nanoseconds.
     * @return this.
     */
    public GatewayContext engineStatusTimeoutNs(final long timeoutNs)
    {
        this.engineStatusTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * @return commands forwarded and not yet answered that the gateway keeps ({@link InFlightCommands}).
     */
    public int inFlightCapacity()
    {
        return inFlightCapacity;
    }

    /**
     * @param capacity commands forwarded and not yet answered that the gateway keeps.
     * @return this.
     */
    public GatewayContext inFlightCapacity(final int capacity)
    {
        this.inFlightCapacity = capacity;
        return this;
    }

    /**
     * Follow one more engine node, after engine 1 (the {@code engine.*} keys and setters) and any numbered in the
     * properties.
     *
     * @param endpoint the node.
     * @return this.
     */
    public GatewayContext addEngine(final EngineEndpoint endpoint)
    {
        engineList.add(endpoint);
        return this;
    }

    /**
     * @return the engine nodes the gateway follows, engine 1 first (after {@link #conclude()}).
     */
    public List<EngineEndpoint> engines()
    {
        return engines;
    }
}
