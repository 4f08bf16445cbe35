package io.ringex.engine.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.ringex.common.config.Config;

/**
 * The members of an engine cluster as {@code ringex.engine.cluster.members} names them: {@code id=host:port,...}. Each
 * member's five endpoints are consecutive ports from its {@code port}, on its {@code host}:
 * <pre>
 *   port + 0  client ingress (the engines' own cluster clients)
 *   port + 1  consensus (elections, appended positions)
 *   port + 2  log (the leader's log publication to this member)
 *   port + 3  catch-up (a member behind the leader)
 *   port + 4  archive control (log replication between members)
 * </pre>
 * Member ids are the engine node ids. Immutable.
 */
public final class ClusterMembers
{
    /** The number of consecutive ports a member uses from its base port. */
    public static final int PORTS_PER_MEMBER = 5;
    static final int INGRESS_PORT_OFFSET = 0;
    static final int CONSENSUS_PORT_OFFSET = 1;
    static final int LOG_PORT_OFFSET = 2;
    static final int CATCHUP_PORT_OFFSET = 3;
    static final int ARCHIVE_PORT_OFFSET = 4;
    /** The most members a cluster is configured with here: Aeron Cluster's elections are meant for a handful. */
    static final int MAX_MEMBERS = 9;

    private final List<Member> members;

    private ClusterMembers(final List<Member> members)
    {
        this.members = Collections.unmodifiableList(members);
    }

    /**
     * @param key   the configuration key, named in any error.
     * @param value {@code id=host:port} separated by commas.
     * @return the members, in the order given.
     * @throws io.aeron.exceptions.ConfigurationException naming the key and what is wrong.
     */
    public static ClusterMembers parse(final String key, final String value)
    {
        final List<Member> members = new ArrayList<>();
        for (final String entry : value.split(",", -1))
        {
            final String trimmed = entry.trim();
            final int equals = trimmed.indexOf('=');
            final int colon = trimmed.lastIndexOf(':');
            Config.require(equals > 0 && colon > equals + 1 && colon < trimmed.length() - 1, key, value,
                "each member is id=host:port (\"" + trimmed + "\" is not)");
            final int id = parseInt(key, value, trimmed.substring(0, equals), "member id");
            final String host = trimmed.substring(equals + 1, colon);
            final int port = parseInt(key, value, trimmed.substring(colon + 1), "port");
            Config.require(id > 0, key, value, "member ids are engine node ids, positive (" + id + ")");
            Config.require(port > 0 && port + PORTS_PER_MEMBER - 1 <= 65535, key, value,
                "a member's port is the first of " + PORTS_PER_MEMBER + " consecutive ports, all <= 65535 (" + port +
                ")");
            Config.require(!host.isBlank() && host.indexOf(' ') < 0, key, value, "a member needs a host (" + trimmed +
                ")");
            for (final Member other : members)
            {
                Config.require(other.id != id, key, value, "member id " + id + " appears twice");
                Config.require(!other.host.equals(host) || Math.abs(other.port - port) >= PORTS_PER_MEMBER, key, value,
                    "members " + other.id + " and " + id + " share ports on " + host + " (each uses " +
                    PORTS_PER_MEMBER + " from its own)");
            }
            members.add(new Member(id, host, port));
        }
        Config.require(members.size() <= MAX_MEMBERS, key, value, "at most " + MAX_MEMBERS + " members");
        return new ClusterMembers(members);
    }

    private static int parseInt(final String key, final String value, final String text, final String what)
    {
        try
        {
            return Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw Config.bad(key, value, "the " + what + " \"" + text + "\" is not a number");
        }
    }

    /**
     * @param id a node id.
     * @return whether it is a member.
     */
    public boolean contains(final int id)
    {
        return null != member(id);
    }

    /**
     * @param id a node id.
     * @return its member, or null.
     */
    public Member member(final int id)
    {
        for (final Member member : members)
        {
            if (member.id == id)
            {
                return member;
            }
        }
        return null;
    }

    /**
     * @return the members in the order configured.
     */
    public List<Member> list()
    {
        return members;
    }

    /**
     * @return the members as Aeron's {@code ConsensusModule.Context.clusterMembers} spells them.
     */
    public String consensusModuleMembers()
    {
        final StringBuilder out = new StringBuilder();
        for (final Member member : members)
        {
            if (out.length() > 0)
            {
                out.append('|');
            }
            out.append(member.id)
                .append(',').append(member.endpoint(INGRESS_PORT_OFFSET))
                .append(',').append(member.endpoint(CONSENSUS_PORT_OFFSET))
                .append(',').append(member.endpoint(LOG_PORT_OFFSET))
                .append(',').append(member.endpoint(CATCHUP_PORT_OFFSET))
                .append(',').append(member.endpoint(ARCHIVE_PORT_OFFSET));
        }
        return out.toString();
    }

    /**
     * @return the members' client ingress endpoints as Aeron's {@code AeronCluster.Context.ingressEndpoints} spells
     * them.
     */
    public String ingressEndpoints()
    {
        final StringBuilder out = new StringBuilder();
        for (final Member member : members)
        {
            if (out.length() > 0)
            {
                out.append(',');
            }
            out.append(member.id).append('=').append(member.endpoint(INGRESS_PORT_OFFSET));
        }
        return out.toString();
    }

    /**
     * @return how many members.
     */
    public int size()
    {
        return members.size();
    }

    public String toString()
    {
        return ingressEndpoints();
    }

    /**
     * One member: its id (the engine's node id), host and base port.
     *
     * @param id   the node id.
     * @param host the host its endpoints bind and are reached on.
     * @param port the first of its {@link #PORTS_PER_MEMBER} ports.
     */
    public record Member(int id, String host, int port)
    {
        /**
         * @param offset one of the port offsets.
         * @return {@code host:port+offset}, IPv6 hosts in brackets.
         */
        public String endpoint(final int offset)
        {
            final String shown = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
            return shown + ':' + (port + offset);
        }

        /**
         * @return a UDP channel on this member's host with a port the OS chooses, for the responses it asks for.
         */
        public String ephemeralChannel()
        {
            return "aeron:udp?endpoint=" + endpoint(0).substring(0, endpoint(0).lastIndexOf(':')) + ":0";
        }
    }
}
