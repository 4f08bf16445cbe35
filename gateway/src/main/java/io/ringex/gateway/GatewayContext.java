package io.ringex.gateway;

import io.aeron.CommonContext;
import io.aeron.exceptions.ConfigurationException;
import io.ringex.gateway.auth.CredentialHash;
import io.ringex.gateway.auth.LogonAuthenticator;
import io.ringex.gateway.auth.LogonGuard;
import io.ringex.gateway.auth.LogonPolicy;
import io.ringex.gateway.auth.User;
import io.ringex.gateway.auth.UserDirectory;
import io.ringex.protocol.PrimarySelector;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Gateway configuration, in the style of Aeron's {@code MediaDriver.Context}: fluent setters whose defaults come
 * from system properties named {@code ringex.gateway.*} (the constants below), and one {@link #conclude()} that
 * validates everything and names the bad key.
 * <p>
 * Users and instruments are keyed families:
 * <pre>
 * ringex.gateway.user.alice.credential=pbkdf2-sha256:20000:...   (from io.ringex.gateway.auth.HashCredential)
 * ringex.gateway.user.alice.accounts=1001,1002                   (the first is the default account)
 * ringex.gateway.user.alice.fix.sender.comp.id=ALICE             (optional: enables FIX for the user)
 * ringex.gateway.user.alice.fix.target.comp.id=RINGEX            (optional, default ringex.gateway.fix.comp.id)
 * ringex.gateway.user.alice.fix.cancel.on.disconnect=true        (optional, default false)
 * ringex.gateway.instrument.1=BTC-USD,2                          (id=symbol,priceScale; static list)
 * </pre>
 * Engines: the unnumbered {@code ringex.gateway.engine.*} keys describe engine 1; a primary/standby pair adds
 * {@code ringex.gateway.engine.2.ingress.channel} and {@code .egress.channel} (and, optionally,
 * {@code .ingress.stream}, {@code .egress.stream}, {@code .marketdata.channel|stream},
 * {@code .status.channel|stream}; streams default to engine 1's, channels to the node's egress channel). The gateway
 * sends to the node claiming PRIMARY at the highest epoch in its EngineStatus ({@link PrimarySelector}).
 * <p>
 * {@link #load(Path)} reads the same keys from a properties file (system properties still give defaults for keys
 * the file omits). Not thread safe: configure on one thread, then hand to the gateway.
 */
public final class GatewayContext implements AutoCloseable
{
    /** Prefix of every key. */
    public static final String PREFIX = "ringex.gateway.";

    /** Gateway id stamped into every session id (1..65535). */
    public static final String GATEWAY_ID_PROP = PREFIX + "id";
    /** Aeron directory of the media driver to use. */
    public static final String AERON_DIR_PROP = PREFIX + "aeron.dir";
    /** Launch an embedded media driver (with an archive when FIX is enabled). */
    public static final String EMBEDDED_DRIVER_PROP = PREFIX + "embedded.driver";
    /** Channel SBE clients publish to. */
    public static final String CLIENT_CHANNEL_PROP = PREFIX + "client.channel";
    /** Stream SBE clients publish to. */
    public static final String CLIENT_STREAM_PROP = PREFIX + "client.stream";
    /** Engine ingress channel. */
    public static final String ENGINE_INGRESS_CHANNEL_PROP = PREFIX + "engine.ingress.channel";
    /** Engine ingress stream. */
    public static final String ENGINE_INGRESS_STREAM_PROP = PREFIX + "engine.ingress.stream";
    /** Engine egress channel (execution reports). */
    public static final String ENGINE_EGRESS_CHANNEL_PROP = PREFIX + "engine.egress.channel";
    /** Engine egress stream. */
    public static final String ENGINE_EGRESS_STREAM_PROP = PREFIX + "engine.egress.stream";
    /** Engine market-data channel (instrument definitions); defaults to the egress channel. */
    public static final String MARKET_DATA_CHANNEL_PROP = PREFIX + "engine.marketdata.channel";
    /** Engine market-data stream. */
    public static final String MARKET_DATA_STREAM_PROP = PREFIX + "engine.marketdata.stream";
    /** Channel of engine 1's EngineStatus (its risk stream); defaults to its egress channel. */
    public static final String ENGINE_STATUS_CHANNEL_PROP = PREFIX + "engine.status.channel";
    /** Stream of the engines' EngineStatus (the engine's risk stream). */
    public static final String ENGINE_STATUS_STREAM_PROP = PREFIX + "engine.status.stream";
    /** With several engines: a node not heard from for this long is no longer taken for the primary. */
    public static final String ENGINE_STATUS_TIMEOUT_MS_PROP = PREFIX + "engine.status.timeout.ms";
    /** Prefix of numbered engine keys, {@code ringex.gateway.engine.<n>.<key>}, n = 1..{@value #MAX_ENGINES}. */
    public static final String ENGINE_PREFIX = PREFIX + "engine.";
    /** Most engine nodes a gateway follows. */
    public static final int MAX_ENGINES = 8;
    /** Heartbeat interval used when a client's Logon asks for none or an out-of-range one. */
    public static final String HEARTBEAT_INTERVAL_MS_PROP = PREFIX + "heartbeat.interval.ms";
    /** Per-session order-entry messages per second. */
    public static final String THROTTLE_RATE_PROP = PREFIX + "throttle.messages.per.second";
    /** Per-session burst (token bucket capacity); defaults to the rate. */
    public static final String THROTTLE_BURST_PROP = PREFIX + "throttle.burst";
    /** How long a back-pressured command is retried before it is rejected ENGINE_BUSY. */
    public static final String BACK_PRESSURE_TIMEOUT_MS_PROP = PREFIX + "backpressure.timeout.ms";
    /** How long a client's response publication may stay back-pressured before the session is dropped. */
    public static final String SLOW_CLIENT_TIMEOUT_MS_PROP = PREFIX + "slow.client.timeout.ms";
    /** How long the gateway waits for a client's response channel to connect after Logon. */
    public static final String LOGON_TIMEOUT_MS_PROP = PREFIX + "logon.timeout.ms";
    /** Longest SBE message accepted from a client. */
    public static final String MAX_MESSAGE_LENGTH_PROP = PREFIX + "max.message.length";
    /** Idle strategy: backoff, sleeping, yielding or busyspin. */
    public static final String IDLE_STRATEGY_PROP = PREFIX + "idle.strategy";
    /** Run the FIX acceptor. */
    public static final String FIX_ENABLED_PROP = PREFIX + "fix.enabled";
    /** FIX bind host. */
    public static final String FIX_HOST_PROP = PREFIX + "fix.host";
    /** FIX bind port. */
    public static final String FIX_PORT_PROP = PREFIX + "fix.port";
    /** Artio's log directory: sequence numbers and message indexes persist here. */
    public static final String FIX_LOG_DIR_PROP = PREFIX + "fix.log.dir";
    /** The gateway's own FIX CompID (TargetCompID of clients unless a user says otherwise). */
    public static final String FIX_COMP_ID_PROP = PREFIX + "fix.comp.id";
    /** Bytes of engine reports held per FIX session while its offline session is being acquired (a power of two). */
    public static final String FIX_OFFLINE_HOLD_BYTES_PROP = PREFIX + "fix.offline.hold.bytes";
    /** Channel between Artio's engine and library. */
    public static final String FIX_LIBRARY_CHANNEL_PROP = PREFIX + "fix.library.channel";
    /** Aeron Archive control request channel Artio uses. */
    public static final String FIX_ARCHIVE_CONTROL_CHANNEL_PROP = PREFIX + "fix.archive.control.channel";
    /** Aeron Archive control request stream Artio uses. */
    public static final String FIX_ARCHIVE_CONTROL_STREAM_PROP = PREFIX + "fix.archive.control.stream";
    /** Aeron Archive control response channel Artio uses. */
    public static final String FIX_ARCHIVE_RESPONSE_CHANNEL_PROP = PREFIX + "fix.archive.response.channel";
    /** Archive directory when the gateway embeds its driver. */
    public static final String ARCHIVE_DIR_PROP = PREFIX + "archive.dir";
    /** Failed logons in a row that lock a user name out. */
    public static final String LOGON_MAX_FAILURES_PROP = PREFIX + "logon.max.failures";
    /** Failed logons in a row from one remote address that lock it out. */
    public static final String LOGON_MAX_ADDRESS_FAILURES_PROP = PREFIX + "logon.max.address.failures";
    /** The first lockout; each further one doubles up to {@link #LOGON_MAX_LOCKOUT_MS_PROP}. */
    public static final String LOGON_LOCKOUT_MS_PROP = PREFIX + "logon.lockout.ms";
    /** The longest lockout, and how long failures are remembered. */
    public static final String LOGON_MAX_LOCKOUT_MS_PROP = PREFIX + "logon.max.lockout.ms";
    /** A refused logon is answered this long after it arrived. */
    public static final String LOGON_FAILURE_DELAY_MS_PROP = PREFIX + "logon.failure.delay.ms";
    /** Logons being checked at once; beyond, refused at once. */
    public static final String LOGON_MAX_PENDING_PROP = PREFIX + "logon.max.pending";
    /** Term length of the publication answering an SBE session (the client cannot choose it). */
    public static final String SBE_RESPONSE_TERM_LENGTH_PROP = PREFIX + "sbe.response.term.length";
    /** Whether an SBE Logon's UDP response endpoint must be the address the Logon came from. */
    public static final String SBE_RESPONSE_SOURCE_CHECK_PROP = PREFIX + "sbe.response.source.check";
    /** Refused SBE Logons answered at once; beyond, a refusal is counted and not answered. */
    public static final String SBE_MAX_PENDING_REJECTS_PROP = PREFIX + "sbe.max.pending.rejects";
    /** Prefix of user keys. */
    public static final String USER_PREFIX = PREFIX + "user.";
    /** Prefix of static instrument keys. */
    public static final String INSTRUMENT_PREFIX = PREFIX + "instrument.";

    private Properties source;
    private int gatewayId;
    private String aeronDirectoryName;
    private boolean embeddedDriver;
    private String clientChannel;
    private int clientStreamId;
    private String engineIngressChannel;
    private int engineIngressStreamId;
    private String engineEgressChannel;
    private int engineEgressStreamId;
    private String marketDataChannel;
    private int marketDataStreamId;
    private String engineStatusChannel;
    private int engineStatusStreamId;
    private long engineStatusTimeoutMs;
    private final EngineList engineList = new EngineList();
    private List<EngineEndpoint> engines = List.of();
    private long heartbeatIntervalMs;
    private long throttleMessagesPerSecond;
    private long throttleBurst;
    private long backPressureTimeoutMs;
    private long slowClientTimeoutMs;
    private long logonTimeoutMs;
    private int maxMessageLength;
    private String idleStrategyName;
    private boolean fixEnabled;
    private String fixHost;
    private int fixPort;
    private String fixLogDir;
    private int fixOfflineHoldBytes;
    private String fixCompId;
    private String fixLibraryChannel;
    private String fixArchiveControlChannel;
    private int fixArchiveControlStreamId;
    private String fixArchiveResponseChannel;
    private String archiveDir;
    private int logonMaxFailures;
    private int logonMaxAddressFailures;
    private long logonLockoutMs;
    private long logonMaxLockoutMs;
    private long logonFailureDelayMs;
    private int logonMaxPending;
    private int sbeResponseTermLength;
    private boolean sbeResponseSourceCheck;
    private int sbeMaxPendingRejects;
    private LogonAuthenticator logonAuthenticator;
    private UserDirectory users = new UserDirectory();
    private final List<StaticInstrument> instruments = new ArrayList<>();
    private boolean concluded;

    /** A context with defaults from the system properties. */
    public GatewayContext()
    {
        this(System.getProperties());
    }

    private GatewayContext(final Properties properties)
    {
        source = properties;
        gatewayId = intValue(GATEWAY_ID_PROP, 1);
        aeronDirectoryName = value(AERON_DIR_PROP, CommonContext.getAeronDirectoryName());
        embeddedDriver = boolValue(EMBEDDED_DRIVER_PROP, false);
        clientChannel = value(CLIENT_CHANNEL_PROP, "aeron:udp?endpoint=localhost:40200");
        clientStreamId = intValue(CLIENT_STREAM_PROP, 2001);
        engineIngressChannel = value(ENGINE_INGRESS_CHANNEL_PROP, "aeron:udp?endpoint=localhost:40100");
        engineIngressStreamId = intValue(ENGINE_INGRESS_STREAM_PROP, 1001);
        // A multi-destination-cast subscriber: any number of gateways and risk services share the engine's outbound.
        engineEgressChannel = value(ENGINE_EGRESS_CHANNEL_PROP,
            "aeron:udp?endpoint=localhost:0|control=localhost:40101|control-mode=dynamic");
        engineEgressStreamId = intValue(ENGINE_EGRESS_STREAM_PROP, 1002);
        marketDataChannel = value(MARKET_DATA_CHANNEL_PROP, null);
        marketDataStreamId = intValue(MARKET_DATA_STREAM_PROP, 1003);
        engineStatusChannel = value(ENGINE_STATUS_CHANNEL_PROP, null);
        engineStatusStreamId = intValue(ENGINE_STATUS_STREAM_PROP, 1004);
        engineStatusTimeoutMs = longValue(ENGINE_STATUS_TIMEOUT_MS_PROP, 3000);
        heartbeatIntervalMs = longValue(HEARTBEAT_INTERVAL_MS_PROP, 1000);
        throttleMessagesPerSecond = longValue(THROTTLE_RATE_PROP, 1000);
        throttleBurst = longValue(THROTTLE_BURST_PROP, 0);
        backPressureTimeoutMs = longValue(BACK_PRESSURE_TIMEOUT_MS_PROP, 100);
        slowClientTimeoutMs = longValue(SLOW_CLIENT_TIMEOUT_MS_PROP, 1000);
        logonTimeoutMs = longValue(LOGON_TIMEOUT_MS_PROP, 5000);
        maxMessageLength = intValue(MAX_MESSAGE_LENGTH_PROP, 1024);
        idleStrategyName = value(IDLE_STRATEGY_PROP, "backoff");
        fixEnabled = boolValue(FIX_ENABLED_PROP, true);
        fixHost = value(FIX_HOST_PROP, "0.0.0.0");
        fixPort = intValue(FIX_PORT_PROP, 9880);
        fixLogDir = value(FIX_LOG_DIR_PROP, "ringex-fix-logs");
        fixCompId = value(FIX_COMP_ID_PROP, "RINGEX");
        fixOfflineHoldBytes = intValue(FIX_OFFLINE_HOLD_BYTES_PROP, 1 << 20);
        fixLibraryChannel = value(FIX_LIBRARY_CHANNEL_PROP, "aeron:ipc");
        fixArchiveControlChannel = value(FIX_ARCHIVE_CONTROL_CHANNEL_PROP, "aeron:ipc");
        fixArchiveControlStreamId = intValue(FIX_ARCHIVE_CONTROL_STREAM_PROP, 10);
        fixArchiveResponseChannel = value(FIX_ARCHIVE_RESPONSE_CHANNEL_PROP, "aeron:ipc");
        archiveDir = value(ARCHIVE_DIR_PROP, "ringex-gateway-archive");
        final LogonPolicy logonDefaults = LogonPolicy.DEFAULT;
        logonMaxFailures = intValue(LOGON_MAX_FAILURES_PROP, logonDefaults.maxFailures());
        logonMaxAddressFailures = intValue(LOGON_MAX_ADDRESS_FAILURES_PROP, logonDefaults.maxAddressFailures());
        logonLockoutMs = longValue(LOGON_LOCKOUT_MS_PROP, logonDefaults.lockoutMs());
        logonMaxLockoutMs = longValue(LOGON_MAX_LOCKOUT_MS_PROP, logonDefaults.maxLockoutMs());
        logonFailureDelayMs = longValue(LOGON_FAILURE_DELAY_MS_PROP, logonDefaults.failureDelayMs());
        logonMaxPending = intValue(LOGON_MAX_PENDING_PROP, logonDefaults.maxPending());
        sbeResponseTermLength = intValue(SBE_RESPONSE_TERM_LENGTH_PROP, 4 << 20);
        sbeResponseSourceCheck = boolValue(SBE_RESPONSE_SOURCE_CHECK_PROP, true);
        sbeMaxPendingRejects = intValue(SBE_MAX_PENDING_REJECTS_PROP, 16);
        readFamilies();
        source = null;
    }

    /**
     * Load a properties file; system properties give the defaults for keys it omits.
     *
     * @param file the file.
     * @return the context.
     * @throws IOException if the file cannot be read.
     */
    public static GatewayContext load(final Path file) throws IOException
    {
        final Properties properties = new Properties();
        properties.putAll(System.getProperties());
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        return new GatewayContext(properties);
    }

    /**
     * Build from properties (system properties are not consulted).
     *
     * @param properties the keys.
     * @return the context.
     */
    public static GatewayContext fromProperties(final Properties properties)
    {
        return new GatewayContext(properties);
    }

    /**
     * Validate; throws naming the first bad key.
     *
     * @return this.
     * @throws ConfigurationException on an invalid value.
     */
    public GatewayContext conclude()
    {
        check(gatewayId >= 1 && gatewayId <= 65535, GATEWAY_ID_PROP, "must be 1..65535", gatewayId);
        check(aeronDirectoryName != null && !aeronDirectoryName.isEmpty(), AERON_DIR_PROP, "must be set", "");
        checkChannel(CLIENT_CHANNEL_PROP, clientChannel);
        checkChannel(ENGINE_INGRESS_CHANNEL_PROP, engineIngressChannel);
        checkChannel(ENGINE_EGRESS_CHANNEL_PROP, engineEgressChannel);
        if (marketDataChannel == null)
        {
            marketDataChannel = engineEgressChannel;
        }
        checkChannel(MARKET_DATA_CHANNEL_PROP, marketDataChannel);
        check(clientStreamId != 0, CLIENT_STREAM_PROP, "must not be 0", clientStreamId);
        check(engineIngressStreamId != 0, ENGINE_INGRESS_STREAM_PROP, "must not be 0", engineIngressStreamId);
        check(engineEgressStreamId != 0, ENGINE_EGRESS_STREAM_PROP, "must not be 0", engineEgressStreamId);
        check(marketDataStreamId != 0, MARKET_DATA_STREAM_PROP, "must not be 0", marketDataStreamId);
        check(engineStatusStreamId != 0, ENGINE_STATUS_STREAM_PROP, "must not be 0", engineStatusStreamId);
        check(engineStatusTimeoutMs > 0, ENGINE_STATUS_TIMEOUT_MS_PROP, "must be > 0", engineStatusTimeoutMs);
        engines = engineList.conclude(new EngineEndpoint(engineIngressChannel, engineIngressStreamId,
            engineEgressChannel, engineEgressStreamId, marketDataChannel, marketDataStreamId, engineStatusChannel,
            engineStatusStreamId));
        check(heartbeatIntervalMs >= 10 && heartbeatIntervalMs <= 600_000, HEARTBEAT_INTERVAL_MS_PROP,
            "must be 10..600000", heartbeatIntervalMs);
        check(throttleMessagesPerSecond > 0, THROTTLE_RATE_PROP, "must be > 0", throttleMessagesPerSecond);
        if (throttleBurst == 0)
        {
            throttleBurst = throttleMessagesPerSecond;
        }
        check(throttleBurst > 0, THROTTLE_BURST_PROP, "must be > 0", throttleBurst);
        check(backPressureTimeoutMs >= 0, BACK_PRESSURE_TIMEOUT_MS_PROP, "must be >= 0", backPressureTimeoutMs);
        check(slowClientTimeoutMs >= 0, SLOW_CLIENT_TIMEOUT_MS_PROP, "must be >= 0", slowClientTimeoutMs);
        check(logonTimeoutMs > 0, LOGON_TIMEOUT_MS_PROP, "must be > 0", logonTimeoutMs);
        check(maxMessageLength >= 64 && maxMessageLength <= 65536, MAX_MESSAGE_LENGTH_PROP, "must be 64..65536",
            maxMessageLength);
        try
        {
            idleStrategy();
        }
        catch (final IllegalArgumentException ex)
        {
            throw bad(IDLE_STRATEGY_PROP, "must be backoff, sleeping, yielding or busyspin", idleStrategyName);
        }
        if (fixEnabled)
        {
            check(fixPort > 0 && fixPort < 65536, FIX_PORT_PROP, "must be 1..65535", fixPort);
            check(fixHost != null && !fixHost.isEmpty(), FIX_HOST_PROP, "must be set", "");
            check(fixLogDir != null && !fixLogDir.isEmpty(), FIX_LOG_DIR_PROP, "must be set", "");
            check(fixCompId != null && !fixCompId.isEmpty(), FIX_COMP_ID_PROP, "must be set", "");
            check(fixOfflineHoldBytes >= 4096 && fixOfflineHoldBytes <= 1 << 30 &&
                Integer.bitCount(fixOfflineHoldBytes) == 1, FIX_OFFLINE_HOLD_BYTES_PROP,
                "must be a power of two, 4096..2^30", fixOfflineHoldBytes);
            checkChannel(FIX_LIBRARY_CHANNEL_PROP, fixLibraryChannel);
            checkChannel(FIX_ARCHIVE_CONTROL_CHANNEL_PROP, fixArchiveControlChannel);
            checkChannel(FIX_ARCHIVE_RESPONSE_CHANNEL_PROP, fixArchiveResponseChannel);
        }
        check(logonMaxFailures >= 1, LOGON_MAX_FAILURES_PROP, "must be >= 1", logonMaxFailures);
        check(logonMaxAddressFailures >= 1, LOGON_MAX_ADDRESS_FAILURES_PROP, "must be >= 1", logonMaxAddressFailures);
        check(logonLockoutMs >= 0, LOGON_LOCKOUT_MS_PROP, "must be >= 0", logonLockoutMs);
        check(logonMaxLockoutMs >= logonLockoutMs, LOGON_MAX_LOCKOUT_MS_PROP, "must be >= " + LOGON_LOCKOUT_MS_PROP,
            logonMaxLockoutMs);
        check(logonFailureDelayMs >= 0 && logonFailureDelayMs <= 30_000, LOGON_FAILURE_DELAY_MS_PROP,
            "must be 0..30000", logonFailureDelayMs);
        check(logonMaxPending >= 1 && logonMaxPending <= 4096, LOGON_MAX_PENDING_PROP, "must be 1..4096",
            logonMaxPending);
        check(sbeResponseTermLength >= 64 * 1024 && sbeResponseTermLength <= 64 << 20 &&
            Integer.bitCount(sbeResponseTermLength) == 1, SBE_RESPONSE_TERM_LENGTH_PROP,
            "must be a power of two, 65536..67108864", sbeResponseTermLength);
        check(sbeMaxPendingRejects >= 0 && sbeMaxPendingRejects <= 1024, SBE_MAX_PENDING_REJECTS_PROP,
            "must be 0..1024", sbeMaxPendingRejects);
        for (final User user : users.users())
        {
            final String key = USER_PREFIX + user.username() + ".credential";
            check(CredentialHash.isWellFormed(user.credentialHash()), key,
                "must be a hash from io.ringex.gateway.auth.HashCredential", "<hidden>");
        }
        for (final StaticInstrument instrument : instruments)
        {
            final String key = INSTRUMENT_PREFIX + instrument.instrumentId;
            check(instrument.priceScale >= 0 && instrument.priceScale <= 8, key, "price scale must be 0..8",
                instrument.priceScale);
            check(!instrument.symbol.isEmpty() && instrument.symbol.length() <= 16, key,
                "symbol must be 1..16 characters", instrument.symbol);
        }
        if (null == logonAuthenticator)
        {
            logonAuthenticator = new LogonAuthenticator(users, new LogonGuard(logonPolicy()),
                SystemEpochClock.INSTANCE);
        }
        concluded = true;
        return this;
    }

    /**
     * @return the limits on logons.
     */
    public LogonPolicy logonPolicy()
    {
        return new LogonPolicy(logonMaxFailures, logonMaxAddressFailures, logonLockoutMs, logonMaxLockoutMs,
            logonFailureDelayMs, logonMaxPending, LogonPolicy.DEFAULT.maxTracked());
    }

    /**
     * @param policy the limits on logons.
     * @return this.
     */
    public GatewayContext logonPolicy(final LogonPolicy policy)
    {
        logonMaxFailures = policy.maxFailures();
        logonMaxAddressFailures = policy.maxAddressFailures();
        logonLockoutMs = policy.lockoutMs();
        logonMaxLockoutMs = policy.maxLockoutMs();
        logonFailureDelayMs = policy.failureDelayMs();
        logonMaxPending = policy.maxPending();
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
     * @return a new idle strategy of the configured kind.
     */
    public IdleStrategy idleStrategy()
    {
        switch (idleStrategyName)
        {
            case "backoff":
                // As the engine's: parks of at most 100 us, not Agrona's default 1 ms, which a message arriving at a
                // parked agent waits out (FIX p50 at 5K orders/s was 2 ms with it).
                return new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                    TimeUnit.MICROSECONDS.toNanos(100));
            case "sleeping":
                return new SleepingMillisIdleStrategy(1);
            case "yielding":
                return new YieldingIdleStrategy();
            case "busyspin":
                return new BusySpinIdleStrategy();
            default:
                throw new IllegalArgumentException(idleStrategyName);
        }
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
     */
    public GatewayContext addInstrument(final int instrumentId, final String symbol, final int priceScale)
    {
        instruments.add(new StaticInstrument(instrumentId, symbol, priceScale));
        return this;
    }

    /**
     * Fill a directory with the static instruments.
     *
     * @param directory to fill.
     */
    public void populate(final InstrumentDirectory directory)
    {
        for (final StaticInstrument instrument : instruments)
        {
            directory.put(instrument.instrumentId, instrument.symbol, instrument.priceScale);
        }
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
     * @return default heartbeat interval.
     */
    public long heartbeatIntervalMs()
    {
        return heartbeatIntervalMs;
    }

    /**
     * @param intervalMs default heartbeat interval.
     * @return this.
     */
    public GatewayContext heartbeatIntervalMs(final long intervalMs)
    {
        this.heartbeatIntervalMs = intervalMs;
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
     * @return back-pressure bound before ENGINE_BUSY.
     */
    public long backPressureTimeoutMs()
    {
        return backPressureTimeoutMs;
    }

    /**
     * @param timeoutMs back-pressure bound before ENGINE_BUSY.
     * @return this.
     */
    public GatewayContext backPressureTimeoutMs(final long timeoutMs)
    {
        this.backPressureTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * @return how long a client may back-pressure the gateway before it is dropped.
     */
    public long slowClientTimeoutMs()
    {
        return slowClientTimeoutMs;
    }

    /**
     * @param timeoutMs how long a client may back-pressure the gateway before it is dropped.
     * @return this.
     */
    public GatewayContext slowClientTimeoutMs(final long timeoutMs)
    {
        this.slowClientTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * @return how long to wait for a client's response channel.
     */
    public long logonTimeoutMs()
    {
        return logonTimeoutMs;
    }

    /**
     * @param timeoutMs how long to wait for a client's response channel.
     * @return this.
     */
    public GatewayContext logonTimeoutMs(final long timeoutMs)
    {
        this.logonTimeoutMs = timeoutMs;
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
     * @return idle strategy name.
     */
    public String idleStrategyName()
    {
        return idleStrategyName;
    }

    /**
     * @param name backoff, sleeping, yielding or busyspin.
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
     * @return with several engines, how long a silent node is still taken for the primary.
     */
    public long engineStatusTimeoutMs()
    {
        return engineStatusTimeoutMs;
    }

    /**
     * @param timeoutMs with several engines, how long a silent node is still taken for the primary.
     * @return this.
     */
    public GatewayContext engineStatusTimeoutMs(final long timeoutMs)
    {
        this.engineStatusTimeoutMs = timeoutMs;
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

    // ---------------------------------------------------------------- parsing

    private void readFamilies()
    {
        final TreeSet<String> userNames = new TreeSet<>();
        for (final String key : source.stringPropertyNames())
        {
            if (key.startsWith(USER_PREFIX))
            {
                final String rest = key.substring(USER_PREFIX.length());
                final int dot = rest.indexOf('.');
                if (dot > 0)
                {
                    userNames.add(rest.substring(0, dot));
                }
            }
            else if (EngineList.isNumberedKey(key))
            {
                engineList.put(key, source.getProperty(key).trim());
            }
            else if (key.startsWith(INSTRUMENT_PREFIX))
            {
                final String idText = key.substring(INSTRUMENT_PREFIX.length());
                final String value = source.getProperty(key).trim();
                final int comma = value.indexOf(',');
                try
                {
                    if (comma < 0)
                    {
                        throw new NumberFormatException();
                    }
                    instruments.add(new StaticInstrument(
                        Integer.parseInt(idText),
                        value.substring(0, comma).trim(),
                        Integer.parseInt(value.substring(comma + 1).trim())));
                }
                catch (final NumberFormatException ex)
                {
                    throw bad(key, "must be <id>=<symbol>,<priceScale>", value);
                }
            }
        }

        for (final String name : userNames)
        {
            final String base = USER_PREFIX + name + '.';
            final String credential = source.getProperty(base + "credential");
            if (credential == null)
            {
                throw bad(base + "credential", "must be set", "");
            }
            final String accountsText = source.getProperty(base + "accounts");
            if (accountsText == null || accountsText.isBlank())
            {
                throw bad(base + "accounts", "must list at least one account", "");
            }
            final String[] parts = accountsText.split(",");
            final long[] accounts = new long[parts.length];
            for (int i = 0; i < parts.length; i++)
            {
                try
                {
                    accounts[i] = Long.parseLong(parts[i].trim());
                }
                catch (final NumberFormatException ex)
                {
                    throw bad(base + "accounts", "must be comma separated account ids", accountsText);
                }
            }
            final String sender = source.getProperty(base + "fix.sender.comp.id");
            final String target = source.getProperty(base + "fix.target.comp.id", fixCompId);
            final String cod = source.getProperty(base + "fix.cancel.on.disconnect", "false").trim();
            if (!"true".equalsIgnoreCase(cod) && !"false".equalsIgnoreCase(cod))
            {
                throw bad(base + "fix.cancel.on.disconnect", "must be true or false", cod);
            }
            try
            {
                users.add(new User(name, credential.trim(), accounts, sender, target, Boolean.parseBoolean(cod)));
            }
            catch (final IllegalArgumentException ex)
            {
                throw bad(base + "fix.sender.comp.id", ex.getMessage(), sender);
            }
        }
    }

    private String value(final String key, final String defaultValue)
    {
        final String value = source.getProperty(key);
        return value == null ? defaultValue : value.trim();
    }

    private int intValue(final String key, final int defaultValue)
    {
        final String value = source.getProperty(key);
        if (value == null)
        {
            return defaultValue;
        }
        try
        {
            return Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, "must be an integer", value);
        }
    }

    private long longValue(final String key, final long defaultValue)
    {
        final String value = source.getProperty(key);
        if (value == null)
        {
            return defaultValue;
        }
        try
        {
            return Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw bad(key, "must be an integer", value);
        }
    }

    private boolean boolValue(final String key, final boolean defaultValue)
    {
        final String value = source.getProperty(key);
        if (value == null)
        {
            return defaultValue;
        }
        final String trimmed = value.trim();
        if ("true".equalsIgnoreCase(trimmed))
        {
            return true;
        }
        if ("false".equalsIgnoreCase(trimmed))
        {
            return false;
        }
        throw bad(key, "must be true or false", value);
    }

    static void checkChannel(final String key, final String channel)
    {
        check(channel != null && channel.startsWith("aeron:"), key, "must be an Aeron channel URI", channel);
    }

    static void check(final boolean ok, final String key, final String rule, final Object value)
    {
        if (!ok)
        {
            throw bad(key, rule, value);
        }
    }

    static ConfigurationException bad(final String key, final String rule, final Object value)
    {
        return new ConfigurationException(key + ": " + rule + " (was '" + value + "')");
    }

    private static final class StaticInstrument
    {
        final int instrumentId;
        final String symbol;
        final int priceScale;

        StaticInstrument(final int instrumentId, final String symbol, final int priceScale)
        {
            this.instrumentId = instrumentId;
            this.symbol = symbol;
            this.priceScale = priceScale;
        }
    }
}
