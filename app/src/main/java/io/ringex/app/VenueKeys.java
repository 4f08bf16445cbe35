package io.ringex.app;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.config.KnownKeys;
import io.ringex.engine.node.EngineContext;
import io.ringex.gateway.GatewayContext;
import io.ringex.gateway.GatewayMain;

/**
 * The {@code ringex.*} keys the all-in-one takes ({@code -D}, {@code RINGEX_JAVA_OPTS} or {@code --ringex.*=}): the
 * engine node's ({@link EngineContext.Configuration}), the gateway's ({@link GatewayContext.Configuration} and the
 * user and instrument families) and the risk dashboard's {@code ringex.risk.*}, which Spring binds and checks
 * itself ({@code io.ringex.risk.config.RiskKeys}). Refused, naming the key:
 * <ul>
 *     <li>a key none of them knows, with the closest known key named;</li>
 *     <li>a key the all-in-one sets itself (the venue's channels and streams, its directories, its ports: the
 *     venue would silently override it), with the option that sets it where there is one;</li>
 *     <li>a second engine for the gateway ({@code ringex.gateway.engine.<n>.*}): the venue runs one engine.</li>
 * </ul>
 * Thread safety: stateless.
 */
final class VenueKeys
{
    /** The dashboard's keys, bound by Spring from any of its forms. */
    static final String RISK_PREFIX = "ringex.risk.";

    /** Keys the venue sets itself, with how to set them instead (empty: fixed). */
    private static final Map<String, String> SET_BY_THE_VENUE = setByTheVenue();

    private VenueKeys()
    {
    }

    private static Map<String, String> setByTheVenue()
    {
        final Map<String, String> keys = new TreeMap<>();
        final String data = " (use --data=DIR)";
        keys.put(EngineContext.Configuration.AERON_DIR_PROP_NAME, "");
        keys.put(EngineContext.Configuration.INGRESS_CHANNEL_PROP_NAME, "");
        keys.put(EngineContext.Configuration.INGRESS_STREAM_PROP_NAME, "");
        keys.put(EngineContext.Configuration.OUTBOUND_CHANNEL_PROP_NAME, "");
        keys.put(EngineContext.Configuration.EGRESS_STREAM_PROP_NAME, "");
        keys.put(EngineContext.Configuration.MARKETDATA_STREAM_PROP_NAME, "");
        keys.put(EngineContext.Configuration.RISK_STREAM_PROP_NAME, "");
        keys.put(EngineContext.Configuration.REPLICATION_MODE_PROP_NAME, "");
        keys.put(EngineContext.Configuration.SNAPSHOT_EVERY_COMMANDS_PROP_NAME, "");
        keys.put(EngineContext.Configuration.JOURNAL_DIR_PROP_NAME, data);
        keys.put(EngineContext.Configuration.ADMIN_KEYS_FILE_PROP_NAME, " (the data directory's admin.keys: use " +
            "--data=DIR)");
        keys.put(EngineContext.Configuration.MARKETDATA_REQUEST_CHANNEL_PROP_NAME, "");
        keys.put(EngineContext.Configuration.SNAPSHOT_DIR_PROP_NAME, data);
        keys.put(GatewayContext.Configuration.ID_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.AERON_DIR_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.EMBEDDED_DRIVER_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.CLIENT_CHANNEL_PROP_NAME, " (use --sbe-port=N)");
        keys.put(GatewayContext.Configuration.CLIENT_STREAM_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_INGRESS_CHANNEL_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_INGRESS_STREAM_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_EGRESS_CHANNEL_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_EGRESS_STREAM_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_MARKETDATA_CHANNEL_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_MARKETDATA_STREAM_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.ENGINE_MARKETDATA_REQUEST_CHANNEL_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.MARKETDATA_RECOVERY_CHANNEL_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.FIX_ENABLED_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.FIX_PORT_PROP_NAME, " (use --fix-port=N)");
        keys.put(GatewayContext.Configuration.FIX_COMP_ID_PROP_NAME, "");
        keys.put(GatewayContext.Configuration.FIX_LOG_DIR_PROP_NAME, data);
        keys.put(GatewayContext.Configuration.ARCHIVE_DIR_PROP_NAME, data);
        // The dashboard reads the venue's own streams over IPC (RingexApplication sets these).
        for (final String key : RingexApplication.RISK_KEYS_SET_BY_THE_VENUE)
        {
            keys.put(relaxed(key), "");
        }
        return keys;
    }

    /**
     * @return the {@code ringex.*} keys the all-in-one understands (the ones it sets itself among them).
     */
    static KnownKeys knownKeys()
    {
        return GatewayMain.knownKeys()
            .add(EngineContext.Configuration.class)
            .family("ringex\\.risk\\..+", RISK_PREFIX + "*", "the risk dashboard's keys, bound and checked by Spring " +
                "([risk-api.md](risk-api.md))");
    }

    /**
     * Refuse what the all-in-one cannot take.
     *
     * @param keys the system properties, with the {@code --ringex.*} options over them.
     * @throws ConfigurationException naming the first key refused.
     */
    static void check(final Properties keys)
    {
        for (final String key : new TreeSet<>(keys.stringPropertyNames()))
        {
            if (!key.startsWith(KnownKeys.PREFIX) || key.startsWith(KnownKeys.IGNORED_PREFIX))
            {
                continue;
            }
            final String how = SET_BY_THE_VENUE.get(key.startsWith(RISK_PREFIX) ? relaxed(key) : key);
            if (null != how)
            {
                throw new ConfigurationException(key + ": the all-in-one sets this itself" + how);
            }
            if (key.matches("ringex\\.gateway\\.engine\\.[0-9]+\\..+"))
            {
                throw new ConfigurationException(key + ": the all-in-one runs one engine; a gateway following a " +
                    "cluster's members is ./ringex gateway's");
            }
        }
        knownKeys().check(keys);
    }

    /** A Spring key in one form whichever form it is given in: lower case, without dashes or underscores. */
    private static String relaxed(final String key)
    {
        return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }
}
