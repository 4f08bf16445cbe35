package io.ringex.engine.replay;

import io.ringex.protocol.MessageValidator;
import io.ringex.protocol.codecs.MessageHeaderEncoder;
import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Questions the journal cannot answer get a message that says why and a non-zero exit: a time before the journal
 * starts or after it ends, a sequence outside it or in a gap, an unknown order id, a damaged record or file, a journal
 * written by a newer schema version, and a malformed command line.
 */
class BadInputTest
{
    @TempDir
    Path temp;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Path venue(final int orders)
    {
        try (JournalFixture venue = new JournalFixture(temp))
        {
            venue.send(JournalFixture.ADMIN, venue.encoder.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000,
                PriceBandType.TICKS, 40));
            venue.send(JournalFixture.ADMIN, venue.encoder.addAccount(2, 1, SelfTradePrevention.CANCEL_NEWEST));
            venue.send(JournalFixture.ADMIN, venue.encoder.setLimits(3, 1, 1000, Long.MAX_VALUE / 4, 0, 10_000, 100,
                true, new int[0], new long[0]));
            for (int i = 0; i < orders; i++)
            {
                venue.send(1L << 32 | 1, venue.encoder.newOrder(1L << 32 | 1, 1, 777_000 + i, 1, Side.SELL,
                    OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.ACCOUNT_DEFAULT, 10_000, 10));
            }
        }
        return temp.resolve("journal");
    }

    @Test
    void timesOutsideTheJournal()
    {
        final String journal = venue(5).toString();
        assertEquals(1, run("state", journal, "--at", "2026-01-04T00:00:00Z"));
        assertTrue(err().contains("2026-01-04T00:00:00Z is before the journal starts (its first command, " +
            "sequence 1, is at 2026-01-05T08:00:00.001Z)"), err());
        assertEquals(1, run("state", journal, "--at", "2026-01-05T09:00:00"));
        assertTrue(err().contains("is after the journal ends (its last command, sequence 8, is at " +
            "2026-01-05T08:00:00.008Z)"), err());
        assertEquals(1, run("audit", journal, "--account", "1", "--from", "2027-01-01T00:00:00Z"));
        assertTrue(err().contains("is after the journal ends"), err());
    }

    @Test
    void sequencesOutsideTheJournalOrInAGap() throws IOException
    {
        final String journal = venue(10).toString();
        assertEquals(1, run("state", journal, "--at", "19"));
        assertTrue(err().contains("sequence 19 is outside the journal, which holds sequences 1..13"), err());

        corrupt("777005"); // the record of sequence 9
        assertEquals(1, run("state", journal, "--at", "11"));
        assertTrue(err().contains("the journal has a gap after sequence 8 (sequence 10 follows 8"), err());
        assertTrue(err().contains("--allow-gaps"), err());
        assertEquals(1, run("state", journal, "--at", "9", "--allow-gaps"));
        assertTrue(err().contains("sequence 9 is in a gap of the journal: the last command before it is 8"), err());
        assertEquals(0, run("state", journal, "--at", "11", "--allow-gaps"), err());
        assertEquals(0, run("state", journal, "--at", "8"), err());
    }

    @Test
    void anUnknownOrderId()
    {
        final String journal = venue(3).toString();
        assertEquals(1, run("audit", journal, "--order", "42"));
        assertTrue(err().contains("unknown order id 42: no command or event of the journal up to sequence 6 " +
            "mentions it (order ids assigned so far: 1..3)"), err());
    }

    @Test
    void aDamagedFileOrNoJournal() throws IOException
    {
        final Path journal = venue(3);
        assertEquals(1, run("state", temp.resolve("nowhere").toString(), "--at", "1"));
        assertTrue(err().contains("no journal at " + temp.resolve("nowhere")), err());
        try (Stream<Path> files = Files.list(journal))
        {
            for (final Path file : (Iterable<Path>)files.filter((p) -> p.toString().endsWith(".cq4"))::iterator)
            {
                final byte[] garbage = new byte[64 * 1024];
                Arrays.fill(garbage, (byte)0x5A);
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
                {
                    raf.write(garbage);
                }
            }
        }
        final int status = run("state", journal.toString(), "--at", "2");
        assertTrue(status == 1, "exit " + status + ": " + err());
        assertTrue(err().startsWith("state: ") && (err().contains("cannot") || err().contains("no readable")),
            err());
    }

    @Test
    void aJournalOfANewerSchemaVersion()
    {
        final Path directory = temp.resolve("newer");
        try (JournalFixture venue = new JournalFixture(directory))
        {
            venue.send(JournalFixture.ADMIN, venue.encoder.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000,
                PriceBandType.TICKS, 40));
            final int length = venue.encoder.addAccount(2, 1, SelfTradePrevention.CANCEL_NEWEST);
            final UnsafeBuffer newer = new UnsafeBuffer(new byte[length]);
            newer.putBytes(0, venue.encoder.buffer(), 0, length);
            new MessageHeaderEncoder().wrap(newer, 0).version(MessageValidator.SCHEMA_VERSION + 1);
            venue.send(JournalFixture.ADMIN, newer, length);
        }
        assertEquals(1, run("state", directory.resolve("journal").toString(), "--at", "2"));
        assertTrue(err().contains("sequence 2 is a AddAccount of schema 7001 version " +
            (MessageValidator.SCHEMA_VERSION + 1) + "; this build reads schema 7001 versions 1.." +
            MessageValidator.SCHEMA_VERSION + ": replay this journal with the build that wrote it"), err());
    }

    @Test
    void aMalformedCommandLineStopsBeforeTheJournalIsOpened()
    {
        assertEquals(2, run("state", temp.toString(), "--at", "1", "--form", "2"));
        assertTrue(err().contains("--form: unknown option for state"), err());
        assertEquals(2, run("state", temp.toString(), "--at", "yesterday"));
        assertTrue(err().contains("--at: not a sequence or an ISO-8601 time: yesterday"), err());
        assertEquals(2, run("audit", temp.toString(), "--client-order", "7"));
        assertTrue(err().contains("--client-order needs --account"), err());
        assertEquals(2, run("trades", temp.toString(), "--day", "2026-13-01"));
        assertTrue(err().contains("--day: not a date"), err());
        assertEquals(2, run("state", temp.toString(), "--at", "1", "--format", "xml"));
        assertTrue(err().contains("--format: xml is not one of text, json, csv"), err());
    }

    private int run(final String... args)
    {
        err.reset();
        return new ReplayCli(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private void corrupt(final String marker) throws IOException
    {
        final byte[] needle = marker.getBytes(StandardCharsets.US_ASCII);
        try (Stream<Path> files = Files.list(temp.resolve("journal")))
        {
            for (final Path file : (Iterable<Path>)files.filter((p) -> p.toString().endsWith(".cq4"))::iterator)
            {
                final byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i + needle.length <= bytes.length; i++)
                {
                    if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length))
                    {
                        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
                        {
                            raf.seek(i);
                            raf.write('X');
                        }
                        return;
                    }
                }
            }
        }
        throw new AssertionError("marker not found: " + marker);
    }
}
