package io.ringex.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.ringex.common.config.KnownKeys;
import io.ringex.testing.FreePorts;

import static io.ringex.engine.node.EngineContext.Configuration.ADMIN_KEYS_FILE_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.AERON_DIR_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.AERON_EMBEDDED_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.CLUSTER_DIR_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.CLUSTER_MEMBERS_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.CLUSTER_SECRET_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.INGRESS_CHANNEL_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.JOURNAL_DIR_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.JOURNAL_PRETOUCH_BYTES_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.MARKETDATA_REQUEST_CHANNEL_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.NODE_ID_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.OUTBOUND_CHANNEL_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.REPLICATION_MODE_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.SNAPSHOT_DIR_PROP_NAME;
import static io.ringex.engine.node.EngineContext.Configuration.THREADING_PROP_NAME;

/**
 * An engine cluster's members as the tests define them, once: free ports, the member list and each member's
 * {@code ringex.engine.*} settings, run as a child process's properties file ({@link Member#writeProperties()}) or as
 * an in-process {@link EngineContext} read from that file by {@link EngineMain#configure} ({@link Member#context()}).
 * A setting one test alone needs it sets over these ({@link #set}, {@link Member#set}).
 * <p>
 * Thread safety: the test's thread.
 */
public final class TestClusterMembers
{
    /** The members' shared cluster secret. */
    public static final String SECRET = "the test cluster's secret";

    private final List<Member> members = new ArrayList<>();
    private final String memberList;

    /**
     * @param directory where the members keep their files, one directory each.
     * @param adminKeys the admin keys file every member takes.
     * @param hosts     each member's address, in node id order from 1: where it binds its endpoints and where the
     *                  others and its clients reach it.
     */
    public TestClusterMembers(final Path directory, final Path adminKeys, final List<String> hosts)
    {
        final StringBuilder list = new StringBuilder();
        for (int id = 1; id <= hosts.size(); id++)
        {
            final Member member = new Member(id, hosts.get(id - 1), directory.resolve("member" + id));
            members.add(member);
            list.append(list.length() == 0 ? "" : ",").append(id).append('=').append(member.host).append(':')
                .append(member.clusterBasePort);
        }
        memberList = list.toString();
        for (final Member member : members)
        {
            member.defaults(memberList, adminKeys);
        }
    }

    /**
     * Members all on localhost.
     *
     * @param size      how many members.
     * @param directory where the members keep their files, one directory each.
     * @param adminKeys the admin keys file every member takes.
     * @return the members.
     */
    public static TestClusterMembers onLocalhost(final int size, final Path directory, final Path adminKeys)
    {
        return new TestClusterMembers(directory, adminKeys, Collections.nCopies(size, "localhost"));
    }

    /**
     * @return how many members.
     */
    public int size()
    {
        return members.size();
    }

    /**
     * @return {@code ringex.engine.cluster.members}: {@code 1=host:port,2=host:port,...}.
     */
    public String memberList()
    {
        return memberList;
    }

    /**
     * @param id a member's node id, from 1.
     * @return it.
     */
    public Member member(final int id)
    {
        return members.get(id - 1);
    }

    /**
     * @return the members, in node id order.
     */
    public List<Member> members()
    {
        return Collections.unmodifiableList(members);
    }

    /**
     * Set a key on every member, over what this class sets.
     *
     * @param key   a {@code ringex.engine.*} key.
     * @param value its value, as a properties file gives it ({@code 100ms}, {@code 4m}).
     * @return this.
     */
    public TestClusterMembers set(final String key, final String value)
    {
        for (final Member member : members)
        {
            member.set(key, value);
        }
        return this;
    }

    /** One member: its address, ports, directory and settings. */
    public static final class Member
    {
        private final int id;
        private final String host;
        private final Path home;
        private final int clusterBasePort = FreePorts.udpRange(5);
        private final int ingressPort = FreePorts.udp();
        private final int outboundPort = FreePorts.udp();
        private final int requestPort = FreePorts.udp();
        private final Map<String, String> settings = new LinkedHashMap<>();

        private Member(final int id, final String host, final Path home)
        {
            this.id = id;
            this.host = host;
            this.home = home;
        }

        private void defaults(final String memberList, final Path adminKeys)
        {
            set(NODE_ID_PROP_NAME, Integer.toString(id));
            set(REPLICATION_MODE_PROP_NAME, EngineContext.ReplicationMode.CLUSTER.name());
            set(CLUSTER_MEMBERS_PROP_NAME, memberList);
            set(CLUSTER_SECRET_PROP_NAME, SECRET);
            set(CLUSTER_DIR_PROP_NAME, home.resolve("cluster").toString());
            set(JOURNAL_DIR_PROP_NAME, home.resolve("journal").toString());
            set(JOURNAL_PRETOUCH_BYTES_PROP_NAME, "0");
            set(SNAPSHOT_DIR_PROP_NAME, home.resolve("snapshots").toString());
            set(AERON_EMBEDDED_PROP_NAME, "true");
            set(AERON_DIR_PROP_NAME, home.resolve("aeron").toString());
            set(INGRESS_CHANNEL_PROP_NAME, ingressChannel());
            set(OUTBOUND_CHANNEL_PROP_NAME, "aeron:udp?control=" + host + ":" + outboundPort + "|control-mode=dynamic");
            set(MARKETDATA_REQUEST_CHANNEL_PROP_NAME, marketDataRequestChannel());
            set(ADMIN_KEYS_FILE_PROP_NAME, adminKeys.toString());
            // the build's threading profile for the system tests (-Dringex.it.threading, the parent pom): the
            // members run in the profile under test, in this process or a child
            final String threading = System.getProperty(THREADING_PROP_NAME);
            if (null != threading)
            {
                set(THREADING_PROP_NAME, threading);
            }
        }

        /**
         * @return its node id, from 1.
         */
        public int id()
        {
            return id;
        }

        /**
         * @return its address.
         */
        public String host()
        {
            return host;
        }

        /**
         * @return the directory it keeps its files in.
         */
        public Path home()
        {
            return home;
        }

        /**
         * @return where clients send it commands: {@code aeron:udp?endpoint=<host>:<port>}.
         */
        public String ingressChannel()
        {
            return "aeron:udp?endpoint=" + host + ":" + ingressPort;
        }

        /**
         * @return where market-data subscribers send it their requests.
         */
        public String marketDataRequestChannel()
        {
            return "aeron:udp?endpoint=" + host + ":" + requestPort;
        }

        /**
         * @param self the subscriber's own address, which the member sends to.
         * @return the channel a subscriber joins its outbound streams (egress, market data, risk, status) on.
         */
        public String subscriberChannel(final String self)
        {
            return "aeron:udp?endpoint=" + self + ":0|control=" + host + ":" + outboundPort + "|control-mode=dynamic";
        }

        /**
         * Set a key, over what {@link TestClusterMembers} sets.
         *
         * @param key   a {@code ringex.engine.*} key.
         * @param value its value, as a properties file gives it.
         * @return this.
         */
        public Member set(final String key, final String value)
        {
            settings.put(key, value);
            return this;
        }

        /**
         * @return its settings, key to value, as its properties file holds them.
         */
        public Map<String, String> settings()
        {
            return Collections.unmodifiableMap(settings);
        }

        /**
         * Write its settings to {@code <home>/member.properties}, for a process run as
         * {@code ./ringex engine <file>}.
         *
         * @return the file.
         */
        public Path writeProperties()
        {
            final Path file = home.resolve("member.properties");
            final StringBuilder text = new StringBuilder();
            settings.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
            try
            {
                Files.createDirectories(home);
                Files.writeString(file, text);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            return file;
        }

        /**
         * Its context for a node in this process, read from its properties file by {@link EngineMain#configure} as
         * a child process would read it. The test JVM's own {@code ringex.*} system properties are set aside
         * meanwhile, so that the settings alone make the member (the loader would keep a key already set, and refuse
         * another process's key), and the member's keys do not stay behind for the next.
         *
         * @return the concluded context.
         */
        public EngineContext context()
        {
            final Path file = writeProperties();
            synchronized (TestClusterMembers.class)
            {
                final Properties saved = takeRingexProperties();
                try
                {
                    return EngineMain.configure(file.toString());
                }
                finally
                {
                    takeRingexProperties();
                    System.getProperties().putAll(saved);
                }
            }
        }

        private static Properties takeRingexProperties()
        {
            final Properties taken = new Properties();
            for (final String key : System.getProperties().stringPropertyNames())
            {
                if (key.startsWith(KnownKeys.PREFIX))
                {
                    taken.setProperty(key, System.getProperty(key));
                    System.clearProperty(key);
                }
            }
            return taken;
        }
    }
}
