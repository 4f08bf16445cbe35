package io.ringex.engine.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;

/**
 * An engine node in the test's process, launched from a {@link NodeTestSupport#forTest} context with its journal and
 * snapshots in a directory of its own, which closing it deletes. The test gives the rest (media driver, streams,
 * rings, intervals) at the call site.
 * <pre>
 * try (TestNode engine = TestNode.launch((ctx) -&gt; ctx.aeronDirectoryName(driver.aeronDirectoryName())))
 * </pre>
 * Thread safety: the test's thread.
 */
public final class TestNode implements AutoCloseable
{
    private final Path directory;
    private final EngineNode node;

    private TestNode(final Path directory, final UnaryOperator<EngineContext> settings)
    {
        this.directory = directory;
        try
        {
            node = EngineNode.launch(settings.apply(NodeTestSupport.forTest(new EngineContext())
                .journalDirectory(journalDirectory())
                .snapshotDirectory(directory.resolve("snapshots"))));
        }
        catch (final RuntimeException | Error ex)
        {
            IoUtil.delete(directory.toFile(), true);
            throw ex;
        }
    }

    /**
     * Launch a node in a new temporary directory.
     *
     * @param settings what the test sets on the context besides its admin keys, journal and snapshots.
     * @return the running node.
     */
    public static TestNode launch(final UnaryOperator<EngineContext> settings)
    {
        try
        {
            return launch(Files.createTempDirectory("ringex-test-node-"), settings);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Launch a node in a directory the test chose (one it shares with another process, say), deleted on close as a
     * temporary one is.
     *
     * @param directory where its journal and snapshots go.
     * @param settings  what the test sets on the context besides its admin keys, journal and snapshots.
     * @return the running node.
     */
    public static TestNode launch(final Path directory, final UnaryOperator<EngineContext> settings)
    {
        return new TestNode(directory, settings);
    }

    /**
     * @return the running node (closing it leaves the directory, for a test that reads the journal afterwards).
     */
    public EngineNode node()
    {
        return node;
    }

    /**
     * @return the node's directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * @return where its journal is.
     */
    public Path journalDirectory()
    {
        return directory.resolve("journal");
    }

    /**
     * Close the node and delete its directory.
     */
    public void close()
    {
        CloseHelper.quietClose(node);
        IoUtil.delete(directory.toFile(), true);
    }
}
