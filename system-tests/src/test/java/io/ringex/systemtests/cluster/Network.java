package io.ringex.systemtests.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Hosts for the members on this machine: a Linux network namespace each, linked by a bridge to the test's own
 * namespace, where the gateway and the test run and reach every member. A link between two members is cut one way
 * with a route, in the sender's namespace, through a neighbour that does not exist: what it sends to the other is
 * dropped silently, as a dead link drops it (a blackhole route would fail each send, and Aeron would log each
 * failure), while what the other sends still arrives. So a test makes symmetric, asymmetric and flapping partitions
 * while the gateway still reaches everyone.
 * Needs root and iproute2 ({@link #isAvailable()}).
 * <p>
 * The test's thread.
 */
final class Network implements AutoCloseable
{
    private final int subnet = ThreadLocalRandom.current().nextInt(2, 250);
    private final String bridge = "rxbr" + subnet;
    private final int size;
    private final List<String> cuts = new ArrayList<>();

    /**
     * Create the bridge and one namespace per member.
     *
     * @param size how many members.
     */
    Network(final int size)
    {
        this.size = size;
        run("ip", "link", "add", bridge, "type", "bridge");
        run("ip", "addr", "add", hostAddress() + "/24", "dev", bridge);
        run("ip", "link", "set", bridge, "up");
        for (int id = 1; id <= size; id++)
        {
            final String ns = namespace(id);
            final String outside = "rxv" + subnet + "m" + id;
            final String inside = inside(id);
            run("ip", "netns", "add", ns);
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside);
            run("ip", "link", "set", inside, "netns", ns);
            run("ip", "link", "set", outside, "master", bridge);
            run("ip", "link", "set", outside, "up");
            run("ip", "-n", ns, "addr", "add", address(id) + "/24", "dev", inside);
            run("ip", "-n", ns, "link", "set", inside, "up");
            run("ip", "-n", ns, "link", "set", "lo", "up");
        }
    }

    /**
     * @return whether this machine lets the test make namespaces (root, iproute2).
     */
    static boolean isAvailable()
    {
        final String name = "rxprobe" + ThreadLocalRandom.current().nextInt(1000);
        try
        {
            return exec("ip", "netns", "add", name) == 0 && exec("ip", "netns", "del", name) == 0;
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
    }

    /**
     * @return the test's (and gateway's) address on the members' network.
     */
    String hostAddress()
    {
        return "10.77." + subnet + ".1";
    }

    /**
     * @param id a member.
     * @return its address.
     */
    String address(final int id)
    {
        return "10.77." + subnet + "." + (10 + id);
    }

    /**
     * @param id a member.
     * @return the command prefix that runs a process in its namespace.
     */
    List<String> exec(final int id)
    {
        return List.of("ip", "netns", "exec", namespace(id));
    }

    /**
     * Drop what one member sends to another (one way).
     *
     * @param from the sender.
     * @param to   the receiver.
     */
    void cut(final int from, final int to)
    {
        final String cut = from + ">" + to;
        if (!cuts.contains(cut))
        {
            run("ip", "-n", namespace(from), "route", "add", address(to) + "/32", "via", nowhere(), "dev",
                inside(from));
            cuts.add(cut);
        }
    }

    /**
     * Cut a member off from every other member, both ways; the gateway still reaches it.
     *
     * @param id the member.
     */
    void isolate(final int id)
    {
        for (int other = 1; other <= size; other++)
        {
            if (other != id)
            {
                cut(id, other);
                cut(other, id);
            }
        }
    }

    /**
     * Restore every link.
     */
    void heal()
    {
        for (final String cut : cuts)
        {
            final int from = Integer.parseInt(cut.substring(0, cut.indexOf('>')));
            final int to = Integer.parseInt(cut.substring(cut.indexOf('>') + 1));
            run("ip", "-n", namespace(from), "route", "del", address(to) + "/32");
        }
        cuts.clear();
    }

    public void close()
    {
        for (int id = 1; id <= size; id++)
        {
            exec("ip", "netns", "del", namespace(id));
            exec("ip", "link", "del", "rxv" + subnet + "m" + id);
        }
        exec("ip", "link", "del", bridge);
    }

    private String inside(final int id)
    {
        return "rxp" + subnet + "m" + id;
    }

    /** An address on the members' network that nothing answers: packets routed through it go nowhere. */
    private String nowhere()
    {
        return "10.77." + subnet + ".250";
    }

    private String namespace(final int id)
    {
        return "rxdrill" + subnet + "m" + id;
    }

    private static void run(final String... command)
    {
        final int status = exec(command);
        if (status != 0)
        {
            throw new IllegalStateException(String.join(" ", command) + " exited " + status);
        }
    }

    private static int exec(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
        catch (final IOException ex)
        {
            return -1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
