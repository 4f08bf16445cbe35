package io.ringex.journal;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Takes the page faults of the journal file ahead of its writer, so the journal thread never does: on ext4 the first
 * write to a page of the mapped queue file now and then blocks for 20-60 ms, and the whole pipeline behind the journal
 * stage with it (docs/architecture.md, "Threading"; docs/benchmarks-gateway.md, "The journal pretoucher").
 * <p>
 * It touches each page up to {@code aheadBytes} beyond the writer's published frontier with a compare-and-set of 0 to
 * 0, which cannot lose a byte the writer stores, and never grows the file. Run it on a thread of its own with a
 * sleeping idle strategy.
 * <p>
 * Threading: one thread (its agent runner's); reads the writer's frontier published at each end of batch.
 */
public final class JournalPretoucher implements Agent
{
    /** The page size faults are taken in. */
    public static final int PAGE_SIZE = 4096;
    /** At most this much is touched per duty cycle. */
    public static final int MAX_BYTES_PER_CYCLE = 1 << 20;
    /** The file is mapped in windows of this many bytes (fewer where the file ends). */
    public static final long WINDOW_BYTES = 64L << 20;

    private final JournalWriter writer;
    private final long aheadBytes;
    private final long windowBytes;
    private File file;
    private FileChannel channel;
    private long knownLength;
    private MappedByteBuffer window;
    private final UnsafeBuffer windowBuffer = new UnsafeBuffer(0, 0);
    private long windowStart;
    private long windowEnd;
    private long touchedTo;
    private long pagesTouched;
    private long windowsMapped;

    /**
     * @param writer     the journal writer to run ahead of.
     * @param aheadBytes how far beyond the writer's frontier pages are kept touched (a page multiple; say a few seconds
     *                   of journal at the peak rate).
     */
    public JournalPretoucher(final JournalWriter writer, final long aheadBytes)
    {
        this(writer, aheadBytes, WINDOW_BYTES);
    }

    /**
     * @param writer      the journal writer to run ahead of.
     * @param aheadBytes  as above.
     * @param windowBytes how much of the file one mapping covers (a page multiple; tests use small windows).
     */
    JournalPretoucher(final JournalWriter writer, final long aheadBytes, final long windowBytes)
    {
        if (aheadBytes < PAGE_SIZE || aheadBytes % PAGE_SIZE != 0)
        {
            throw new IllegalArgumentException("aheadBytes must be a positive multiple of " + PAGE_SIZE + ": " +
                aheadBytes);
        }
        if (windowBytes < PAGE_SIZE || windowBytes % PAGE_SIZE != 0 || windowBytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("windowBytes must be a page multiple below 2 GiB: " + windowBytes);
        }
        this.writer = writer;
        this.aheadBytes = aheadBytes;
        this.windowBytes = windowBytes;
    }

    @Override
    public int doWork() throws IOException
    {
        final File current = writer.frontierFile();
        if (null == current)
        {
            return 0;
        }
        if (current != file)
        {
            // A new cycle file (or the first): the writer publishes one File per cycle, so identity is enough and
            // no path is compared per duty cycle. Start again from the writer's frontier in it.
            closeFile();
            channel = FileChannel.open(current.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE);
            file = current;
            knownLength = channel.size();
            touchedTo = 0;
        }
        final long frontierPage = writer.frontierPosition() & ~(PAGE_SIZE - 1L);
        final long from = Math.max(touchedTo, frontierPage);
        final long wanted = Math.min(frontierPage + aheadBytes, from + MAX_BYTES_PER_CYCLE);
        if (wanted > knownLength)
        {
            knownLength = channel.size(); // Chronicle grows the file ahead of its writes, in large steps
        }
        final long to = Math.min(knownLength & ~(PAGE_SIZE - 1L), wanted);
        if (to <= from)
        {
            return 0;
        }
        for (long page = from; page < to; page += PAGE_SIZE)
        {
            if (page < windowStart || page >= windowEnd)
            {
                mapWindow(page);
            }
            windowBuffer.compareAndSetLong((int)(page - windowStart), 0L, 0L);
        }
        pagesTouched += (to - from) / PAGE_SIZE;
        touchedTo = to;
        return 1;
    }

    /** Map the file from {@code page} for up to the window's size, never beyond its known length. */
    private void mapWindow(final long page) throws IOException
    {
        unmapWindow();
        final long length = Math.min(windowBytes, (knownLength & ~(PAGE_SIZE - 1L)) - page);
        window = channel.map(FileChannel.MapMode.READ_WRITE, page, length);
        windowBuffer.wrap(window);
        windowStart = page;
        windowEnd = page + length;
        windowsMapped++;
    }

    private void unmapWindow()
    {
        if (null != window)
        {
            windowBuffer.wrap(0, 0);
            IoUtil.unmap(window);
            window = null;
            windowStart = 0;
            windowEnd = 0;
        }
    }

    private void closeFile()
    {
        unmapWindow();
        CloseHelper.quietClose(channel);
        channel = null;
    }

    /**
     * @return the file offset up to which pages have been touched in the current file.
     */
    public long touchedTo()
    {
        return touchedTo;
    }

    /**
     * @return pages touched since start, over all files.
     */
    public long pagesTouched()
    {
        return pagesTouched;
    }

    /**
     * @return windows of the file mapped since start (one per {@link #WINDOW_BYTES} of journal, not one per cycle).
     */
    public long windowsMapped()
    {
        return windowsMapped;
    }

    @Override
    public void onClose()
    {
        closeFile();
    }

    @Override
    public String roleName()
    {
        return "journal-pretouch";
    }
}
