package io.ringex.journal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotStoreTest
{
    @TempDir
    Path dir;

    @Test
    void newestGoodSnapshotWinsAndBadOnesAreReported() throws IOException
    {
        final SnapshotStore store = new SnapshotStore(dir);
        write(store, 100, "state at 100");
        write(store, 200, "state at 200");
        final Path newest = write(store, 300, "state at 300");

        final List<String> problems = new ArrayList<>();
        SnapshotStore.Snapshot snapshot = store.loadNewest(1, problems::add);
        assertEquals(300, snapshot.sequence());
        assertEquals("state at 300", text(snapshot));
        assertEquals(0x300L, snapshot.stateHash());
        assertTrue(problems.isEmpty());

        try (RandomAccessFile raf = new RandomAccessFile(newest.toFile(), "rw"))
        {
            raf.seek(raf.length() - 1);
            raf.write('!');
        }
        snapshot = store.loadNewest(1, problems::add);
        assertEquals(200, snapshot.sequence());
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("state checksum"), problems.get(0));
    }

    @Test
    void otherStateVersionTruncatedFileAndLeftoverTemporaryAreIgnored() throws IOException
    {
        final SnapshotStore store = new SnapshotStore(dir);
        final Path file = write(store, 5, "abc");
        Files.write(dir.resolve(SnapshotFileDescriptor.fileName(9) + ".tmp"), new byte[]{ 1, 2, 3 });
        final List<String> problems = new ArrayList<>();

        assertNull(store.loadNewest(2, problems::add));
        assertTrue(problems.get(0).contains("state version 1"), problems.get(0));

        Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(file), 20));
        assertNull(store.loadNewest(1, problems::add));
        assertTrue(problems.get(1).contains("shorter than a header"), problems.get(1));
    }

    @Test
    void pruneKeepsTheNewest()
    {
        final SnapshotStore store = new SnapshotStore(dir);
        for (int s = 1; s <= 5; s++)
        {
            write(store, s * 10, "s" + s);
        }
        store.prune(2);
        assertEquals(2, store.list().size());
        assertEquals(50, store.loadNewest(1, (p) -> { }).sequence());
    }

    private static Path write(final SnapshotStore store, final long sequence, final String state)
    {
        final byte[] bytes = state.getBytes(StandardCharsets.US_ASCII);
        return store.write(sequence, sequence * 1000, Long.parseLong(Long.toString(sequence), 16), 1,
            new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private static String text(final SnapshotStore.Snapshot snapshot)
    {
        return snapshot.state().getStringWithoutLengthAscii(0, snapshot.state().capacity());
    }
}
