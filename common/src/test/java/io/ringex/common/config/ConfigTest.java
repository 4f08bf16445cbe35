package io.ringex.common.config;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.common.IdleStrategies;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class ConfigTest
{
    /** A component's keys, as a Configuration class declares them. */
    public static final class Sample
    {
        @ConfigOption("slots in the ring")
        public static final String RING_CAPACITY_PROP_NAME = "ringex.sample.ring.capacity";
        public static final int RING_CAPACITY_DEFAULT_BYTES = 16 * 1024;

        @ConfigOption("how often")
        public static final String INTERVAL_PROP_NAME = "ringex.sample.interval";
        public static final long INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);

        @ConfigOption("the mode")
        public static final String REPLICATION_MODE_PROP_NAME = "ringex.sample.replication.mode";
        public static final String REPLICATION_MODE_DEFAULT = "OFF";

        @ConfigOption(value = "optional peer", defaultText = "none")
        public static final String PEER_PROP_NAME = "ringex.sample.peer";

        /** Not a key: no annotation. */
        public static final String NOT_A_KEY = "ringex.sample.other";
    }

    enum Mode
    {
        OFF, ASYNC, SYNC
    }

    private static Config config(final String... keysAndValues)
    {
        final Properties p = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Config.of(p);
    }

    @Test
    void sizesAndDurationsTakeSuffixesAndAMalformedValueNamesTheKey()
    {
        assertEquals(16384, config("k", "16k").sizeAsInt("k", 1));
        assertEquals(64L << 20, config("k", " 64m ").sizeAsLong("k", 1));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), config("k", "100ms").durationNs("k", 1));
        assertEquals(5, config().intValue("k", 5));

        final ConfigurationException size = assertThrows(ConfigurationException.class,
            () -> config("ringex.x.ring.capacity", "16kb").sizeAsInt("ringex.x.ring.capacity", 1));
        assertTrue(size.getMessage().contains("ringex.x.ring.capacity") && size.getMessage().contains("16kb"),
            size.getMessage());
        assertThrows(ConfigurationException.class, () -> config("k", "16k").intValue("k", 1));
        assertThrows(ConfigurationException.class, () -> config("k", "1.5").longValue("k", 1));
        assertThrows(ConfigurationException.class, () -> config("k", "4g").sizeAsInt("k", 1));
        assertThrows(ConfigurationException.class, () -> config("k", "10 minutes").durationNs("k", 1));
        assertThrows(ConfigurationException.class, () -> config("k", "yes").bool("k", false));
        assertEquals(Mode.SYNC, config("k", "sync").enumValue("k", Mode.class, Mode.OFF));
        final ConfigurationException mode = assertThrows(ConfigurationException.class,
            () -> config("k", "SYN").enumValue("k", Mode.class, Mode.OFF));
        assertTrue(mode.getMessage().contains("[OFF, ASYNC, SYNC]"), mode.getMessage());
    }

    @Test
    void anUnknownKeyIsRefusedWithTheClosestKnownOneNamed()
    {
        final KnownKeys known = KnownKeys.of(Sample.class)
            .family("ringex\\.sample\\.user\\.[^.]+\\.accounts", "ringex.sample.user.<name>.accounts", "accounts");
        final Properties p = new Properties();
        p.setProperty("ringex.sample.ring.capacity", "16k");
        p.setProperty("ringex.sample.user.alice.accounts", "1,2");
        p.setProperty("ringex.jvm.flags", "-Xmx1g");
        p.setProperty("java.version", "17");
        known.check(p);

        p.setProperty("ringex.sample.replication.mod", "SYNC");
        final ConfigurationException typo = assertThrows(ConfigurationException.class, () -> known.check(p));
        assertTrue(typo.getMessage().endsWith(
            "ringex.sample.replication.mod: unknown key (did you mean ringex.sample.replication.mode?)"),
            typo.getMessage());

        p.remove("ringex.sample.replication.mod");
        p.setProperty("ringex.sample.user.alice.acounts", "1");
        final ConfigurationException family = assertThrows(ConfigurationException.class, () -> known.check(p));
        assertTrue(family.getMessage().contains("did you mean ringex.sample.user.<name>.accounts?"),
            family.getMessage());

        p.remove("ringex.sample.user.alice.acounts");
        p.setProperty("ringex.sample.user.alice.accounts.x", "1");
        assertThrows(ConfigurationException.class, () -> known.check(p), "a family matches whole keys");

        p.remove("ringex.sample.user.alice.accounts.x");
        p.setProperty("ringex.gateway.fix.port", "9880");
        assertThrows(ConfigurationException.class, () -> known.check(p), "another process's key is not this one's");
        assertNull(known.closest("ringex.something.else.entirely"));
        assertTrue(!known.isKnown(Sample.NOT_A_KEY));
    }

    @Test
    void aTypoAfterAFamilysPlaceholderNamesTheFamilyNotASingleKeyThatLooksAlike()
    {
        // Engine 1's keys are unnumbered; engine n's are numbered: a typo in engine 2's key is 3 edits from engine
        // 1's, and 1 from engine 2's.
        final KnownKeys known = KnownKeys.of(Sample.class)
            .family("ringex\\.sample\\.[0-9]+\\.ring\\.capacity", "ringex.sample.<n>.ring.capacity", "engine n's");
        assertEquals("ringex.sample.<n>.ring.capacity", known.closest("ringex.sample.2.ring.capacty"));
        assertEquals("ringex.sample.ring.capacity", known.closest("ringex.sample.ring.capacty"));
        assertEquals("ringex.sample.12.ring.capacity",
            KnownKeys.instance("ringex.sample.<n>.ring.capacity", "ringex.sample.12.ring.capacty"));
        assertEquals("ringex.sample.<n>.x", KnownKeys.instance("ringex.sample.<n>.x", "ringex.other.1.x"));
    }

    @Test
    void theReferenceTableComesFromTheConstants()
    {
        final String table = ConfigurationReference.table(KnownKeys.of(Sample.class)
            .family("x", "ringex.sample.user.<name>.accounts", "the user's accounts"));
        assertEquals("""
            | key | default | meaning |
            |---|---|---|
            | `ringex.sample.interval` | `100ms` | how often |
            | `ringex.sample.peer` | none | optional peer |
            | `ringex.sample.replication.mode` | `OFF` | the mode |
            | `ringex.sample.ring.capacity` | `16k` | slots in the ring |
            | `ringex.sample.user.<name>.accounts` | | the user's accounts |
            """, table);
    }

    @Test
    void idleStrategiesGoByAgronasAliases()
    {
        assertInstanceOf(BackoffIdleStrategy.class, IdleStrategies.of("backoff"));
        assertInstanceOf(BusySpinIdleStrategy.class, IdleStrategies.of("spin"));
        final ConfigurationException old = assertThrows(ConfigurationException.class,
            () -> IdleStrategies.check("ringex.sample.idle.strategy", "busy-spin"));
        assertTrue(old.getMessage().contains("backoff, spin, yield, sleep-ms, sleep-ns or noop"), old.getMessage());
    }
}
