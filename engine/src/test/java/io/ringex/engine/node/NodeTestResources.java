package io.ringex.engine.node;

import java.util.ArrayList;
import java.util.List;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What an in-process node test runs on: a real embedded media driver, launched before each test, and everything the
 * test opened ({@link #closing}), closed after it in reverse order, then the driver. Register it with
 * {@code @RegisterExtension final NodeTestResources env = new NodeTestResources();}.
 * <p>
 * Thread safety: the test's thread.
 */
public final class NodeTestResources implements BeforeEachCallback, AfterEachCallback
{
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private MediaDriver driver;

    public void beforeEach(final ExtensionContext context)
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
    }

    public void afterEach(final ExtensionContext context)
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(closeables.get(i));
        }
        closeables.clear();
        CloseHelper.quietClose(driver);
    }

    /**
     * @return the media driver's directory, for the nodes and clients of the test.
     */
    public String aeronDirectoryName()
    {
        return driver.aeronDirectoryName();
    }

    /**
     * Close this after the test, before anything opened earlier.
     *
     * @param closeable to close.
     * @param <T>       its type.
     * @return it.
     */
    public <T extends AutoCloseable> T closing(final T closeable)
    {
        closeables.add(closeable);
        return closeable;
    }
}
