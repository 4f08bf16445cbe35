package io.ringex.testing;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The child processes of one test, as a JUnit extension: when the test fails, the tail of each child's log is printed
 * (so the build's report shows why a venue or a client misbehaved, not only the assertion); after the test, whatever
 * still runs is stopped, so a failed test leaks no process into the next.
 * <pre>
 * &#64;RegisterExtension
 * final ChildProcesses children = new ChildProcesses();
 * ...
 * final ChildProcess venue = children.start(ChildProcess.builder("venue").command(List.of("./ringex", "demo")));
 * </pre>
 * Register it on an instance field (one per test); used from the test's thread.
 */
public final class ChildProcesses implements AfterTestExecutionCallback, AfterEachCallback
{
    private final List<ChildProcess> started = new ArrayList<>();
    private final PrintStream out;

    /**
     * Tails go to {@link System#out}, which the build's report keeps with the test.
     */
    public ChildProcesses()
    {
        this(System.out);
    }

    /**
     * @param out where the tails of a failed test's children go.
     */
    public ChildProcesses(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * @param builder what to start.
     * @return the started process, shown and stopped with the test.
     */
    public ChildProcess start(final ChildProcess.Builder builder)
    {
        final ChildProcess child = builder.start();
        started.add(child);
        return child;
    }

    /**
     * @return the processes started in this test, in order.
     */
    public List<ChildProcess> started()
    {
        return List.copyOf(started);
    }

    /**
     * Print each child's log tail when the test failed.
     *
     * @param context the test's context.
     */
    public void afterTestExecution(final ExtensionContext context)
    {
        if (context.getExecutionException().isPresent())
        {
            for (final ChildProcess child : started)
            {
                out.println(context.getDisplayName() + " failed; " + child.tail());
            }
        }
    }

    /**
     * Stop what still runs: SIGTERM, then SIGKILL after a minute.
     *
     * @param context the test's context.
     */
    public void afterEach(final ExtensionContext context)
    {
        AssertionError failure = null;
        for (final ChildProcess child : started)
        {
            try
            {
                child.close();
            }
            catch (final AssertionError ex)
            {
                if (null == failure)
                {
                    failure = ex;
                }
                else
                {
                    failure.addSuppressed(ex);
                }
            }
        }
        started.clear();
        if (null != failure)
        {
            throw failure;
        }
    }
}
