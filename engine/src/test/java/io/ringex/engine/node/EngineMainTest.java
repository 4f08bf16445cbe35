package io.ringex.engine.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.aeron.exceptions.ConfigurationException;
import io.ringex.testing.SystemPropertiesGuard;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ./ringex engine file.properties} does with its configuration before a node starts
 * ({@link EngineMain#configure}): a typo'd key, a key renamed since, a malformed value and an out-of-range one each
 * stop it naming the key; sizes and durations take their suffixes; the command line wins over the files, and a later
 * file over an earlier one.
 */
class EngineMainTest
{
    @RegisterExtension
    final SystemPropertiesGuard guard = new SystemPropertiesGuard();

    @TempDir
    Path dir;

    @Test
    void aTypoedKeyStopsTheNodeNamingTheKeyAndTheOneMeant() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.engine.replication.mod=CLUSTER"));
        assertTrue(ex.getMessage().contains(
            "ringex.engine.replication.mod: unknown key (did you mean ringex.engine.replication.mode?)"),
            ex.getMessage());
    }

    @Test
    void aKeyRenamedToTakeADurationIsRefusedNamingItsNewName() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.engine.status.interval.ms=1000"));
        assertTrue(ex.getMessage().contains("did you mean ringex.engine.status.interval?"), ex.getMessage());
    }

    @Test
    void aMalformedValueStopsTheNodeNamingTheKeyAndTheValue() throws IOException
    {
        final ConfigurationException size = refused(file("ringex.engine.input.ring.capacity=16kb"));
        assertTrue(size.getMessage().contains("ringex.engine.input.ring.capacity: must be a size") &&
            size.getMessage().contains("'16kb'"), size.getMessage());

        final ConfigurationException mode = refused(file("ringex.engine.replication.mode=SYNC"));
        assertTrue(mode.getMessage().contains(
            "ringex.engine.replication.mode: must be one of [OFF, CLUSTER]"), mode.getMessage());

        final ConfigurationException duration = refused(file("ringex.engine.status.interval=2 seconds"));
        assertTrue(duration.getMessage().contains("ringex.engine.status.interval: must be a duration"),
            duration.getMessage());

        final ConfigurationException bool = refused(file("ringex.engine.journal.allow.gaps=yes"));
        assertTrue(bool.getMessage().contains("ringex.engine.journal.allow.gaps: must be true or false"),
            bool.getMessage());

        final ConfigurationException idle = refused(file("ringex.engine.idle.strategy=busy-spin"));
        assertTrue(idle.getMessage().contains("ringex.engine.idle.strategy: must be backoff, spin, yield"),
            idle.getMessage());
    }

    @Test
    void aValueOutOfRangeStopsTheNodeNamingTheKey() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.engine.input.ring.capacity=1000"));
        assertTrue(ex.getMessage().endsWith("ringex.engine.input.ring.capacity: must be a power of two (was '1000')"),
            ex.getMessage());
    }

    @Test
    void aClusterWhoseTimeoutsAeronClusterWouldRefuseStopsTheNodeNamingTheKey() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.engine.replication.mode=CLUSTER",
            "ringex.engine.cluster.members=1=localhost:20000,2=localhost:20010,3=localhost:20020",
            "ringex.engine.cluster.secret=a-secret-of-16-characters-or-more",
            "ringex.engine.cluster.leader.heartbeat.timeout=3s", "ringex.engine.cluster.startup.canvass.timeout=5s"));
        assertTrue(ex.getMessage().contains("ringex.engine.cluster.startup.canvass.timeout") &&
            ex.getMessage().contains("must be at least twice ringex.engine.cluster.leader.heartbeat.timeout"),
            ex.getMessage());
    }

    @Test
    void aDurationWithoutAUnitIsNanosecondsSoAnOldMillisecondValueIsRefused() throws IOException
    {
        final ConfigurationException ex = refused(file("ringex.engine.status.interval=2000"));
        assertTrue(ex.getMessage().endsWith("ringex.engine.status.interval: must be at least 1ms (a number " +
            "without a unit is nanoseconds) (was '2us')"), ex.getMessage());
    }

    @Test
    void sizesAndDurationsTakeTheirSuffixes() throws IOException
    {
        final EngineContext ctx = EngineMain.configure(file(
            "ringex.engine.input.ring.capacity=4k",
            "ringex.engine.input.slot.length=512",
            "ringex.engine.output.slot.length=2k",
            "ringex.engine.cluster.report.window.bytes=8m",
            "ringex.engine.journal.pretouch.bytes=0",
            "ringex.engine.status.interval=250ms",
            "ringex.engine.cluster.leader.heartbeat.timeout=2s",
            "ringex.engine.cluster.leader.heartbeat.interval=50ms",
            "ringex.engine.marketdata.snapshot.interval=10s",
            "ringex.engine.replication.mode=cluster",
            "ringex.engine.cluster.members=1=localhost:20000,2=localhost:20010,3=localhost:20020",
            "ringex.engine.cluster.secret=a-secret-of-16-characters-or-more",
            "ringex.engine.idle.strategy=spin"));
        assertEquals(4096, ctx.inputRingCapacity());
        assertEquals(512, ctx.inputSlotLength());
        assertEquals(2048, ctx.outputSlotLength());
        assertEquals(8 << 20, ctx.reportWindowBytes());
        assertEquals(0, ctx.journalPretouchBytes());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250), ctx.statusIntervalNs());
        assertEquals(TimeUnit.SECONDS.toNanos(2), ctx.clusterLeaderHeartbeatTimeoutNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(50), ctx.clusterLeaderHeartbeatIntervalNs());
        assertEquals(TimeUnit.SECONDS.toNanos(10), ctx.bookSnapshotIntervalNs());
        assertEquals(EngineContext.ReplicationMode.CLUSTER, ctx.replicationMode());
        assertInstanceOf(BusySpinIdleStrategy.class, ctx.newIdleStrategy());
    }

    @Test
    void theCommandLineWinsOverTheFilesAndALaterFileOverAnEarlierOne() throws IOException
    {
        final String first = file("ringex.engine.status.interval=1s", "ringex.engine.node.id=1",
            "ringex.engine.snapshot.kept=5");
        final String second = file("ringex.engine.node.id=2", "ringex.engine.snapshot.kept=7");
        System.setProperty("ringex.engine.status.interval", "2s");
        final EngineContext ctx = EngineMain.configure(first, second);
        assertEquals(TimeUnit.SECONDS.toNanos(2), ctx.statusIntervalNs(), "-D wins over every file");
        assertEquals(2, ctx.nodeId(), "the later file wins");
        assertEquals(7, ctx.snapshotsKept());
    }

    @Test
    void aMissingFileIsRefusedRatherThanStartingOnDefaults()
    {
        final String missing = dir.resolve("engnie.properties").toString();
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> EngineMain.configure(missing));
        assertTrue(ex.getMessage().contains(missing), ex.getMessage());
    }

    @Test
    void aKeySetOnTheCommandLineIsCheckedToo()
    {
        System.setProperty("ringex.engine.replication.mod", "CLUSTER");
        assertThrows(ConfigurationException.class, EngineMain::configure);
    }

    @Test
    void anAdminKeysFileItCannotUseStopsTheNodeNamingTheKeyAndTheLineNeverTheSecret() throws IOException
    {
        final String secret = java.util.Base64.getEncoder().encodeToString("sixteen bytes!!!".getBytes());
        final Path keys = dir.resolve("admin.keys");
        Files.writeString(keys, "# keys\n1 operator " + secret + "\n");
        final ConfigurationException tooShort = refused(file("ringex.engine.admin.keys.file=" + keys));
        assertTrue(tooShort.getMessage().contains("ringex.engine.admin.keys.file: " + keys + ": line 2: admin key " +
            "operator: its secret must be 32 to 64 bytes (was 16)"), tooShort.getMessage());
        assertFalse(tooShort.getMessage().contains(secret), tooShort.getMessage());

        final ConfigurationException absent = refused(file("ringex.engine.admin.keys.file=" + dir.resolve("none")));
        assertTrue(absent.getMessage().contains("ringex.engine.admin.keys.file") &&
            absent.getMessage().contains("cannot read the admin keys file"), absent.getMessage());

        NodeTestSupport.writeAdminKeys(dir.resolve("good"));
        final Properties before = (Properties)System.getProperties().clone();
        try
        {
            final EngineContext ctx = EngineMain.configure(file("ringex.engine.admin.keys.file=" +
                dir.resolve("good").resolve("admin.keys")));
            assertTrue(ctx.adminKeys().names().equals(NodeTestSupport.ADMIN_KEYS.names()));
        }
        finally
        {
            System.setProperties(before);
        }
    }

    @Test
    void marketDataRequestsNeedAChannelOfTheirOwnNotTheCommandIngress() throws IOException
    {
        final ConfigurationException same = refused(file(
            "ringex.engine.ingress.channel=aeron:udp?endpoint=localhost:40100",
            "ringex.engine.marketdata.request.channel=aeron:udp?endpoint=localhost:40100"));
        assertTrue(same.getMessage().contains("ringex.engine.marketdata.request.channel") &&
            same.getMessage().contains("must not be the command ingress"), same.getMessage());
        final ConfigurationException ipc = refused(file("ringex.engine.ingress.channel=aeron:ipc",
            "ringex.engine.marketdata.request.channel=aeron:ipc", "ringex.engine.marketdata.request.stream=1001"));
        assertTrue(ipc.getMessage().contains("must not be the command ingress"), ipc.getMessage());
        final ConfigurationException rate = refused(file("ringex.engine.marketdata.recovery.requester.rate=0"));
        assertTrue(rate.getMessage().contains("ringex.engine.marketdata.recovery.requester.rate"), rate.getMessage());
        final ConfigurationException term = refused(file("ringex.engine.marketdata.recovery.term.length=100k"));
        assertTrue(term.getMessage().contains("ringex.engine.marketdata.recovery.term.length"), term.getMessage());
    }

    /** Each refusal on its own: the files' keys stay in the system properties, as they would in the process. */
    private ConfigurationException refused(final String file)
    {
        final Properties before = (Properties)System.getProperties().clone();
        try
        {
            return assertThrows(ConfigurationException.class, () -> EngineMain.configure(file));
        }
        finally
        {
            System.setProperties(before);
        }
    }

    private String file(final String... lines) throws IOException
    {
        final Path file = Files.createTempFile(dir, "engine", ".properties");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file.toString();
    }
}
