package io.ringex.engine.replay;

import io.ringex.engine.processor.EngineState;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import io.ringex.protocol.codecs.TradeDecoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The post-trade files of a day of the demo flow (the journal starts ten minutes before midnight and runs into the
 * next day): the trade file holds exactly the trades the engine published that day, the statements' closing balances
 * are the engine's balances at the day's last command, and files generated twice are the same bytes.
 */
class PostTradeTest
{
    private static final long START_NS = Instant.parse("2026-01-05T23:50:00Z").getEpochSecond() * 1_000_000_000L;
    private static final long MIDNIGHT_NS = Instant.parse("2026-01-06T00:00:00Z").getEpochSecond() * 1_000_000_000L;

    @TempDir
    static Path temp;

    private static final List<String> LIVE_TRADES = new ArrayList<>();
    private static final Map<Long, Long> LIVE_BALANCES = new TreeMap<>();
    private static long lastSequenceOfDay;

    @BeforeAll
    static void writeTheDemoDay()
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final TradeDecoder trade = new TradeDecoder();
        DemoJournal.write(temp.resolve("journal"), temp.resolve("snapshots"), 60_000, 20_000, 7, START_NS,
            (sequence, timestampNs, events, processor) ->
            {
                if (timestampNs >= MIDNIGHT_NS)
                {
                    return;
                }
                lastSequenceOfDay = sequence;
                for (int i = 0; i < events.count(); i++)
                {
                    if (events.templateId(i) == TradeDecoder.TEMPLATE_ID)
                    {
                        header.wrap(events.events(), events.offset(i));
                        trade.wrap(events.events(), events.offset(i) + MessageHeaderDecoder.ENCODED_LENGTH,
                            header.blockLength(), header.version());
                        LIVE_TRADES.add(trade.tradeId() + "," + sequence + "," + trade.instrumentId() + "," +
                            trade.price() + "," + trade.quantity() + "," + trade.buyOrderId() + "," +
                            trade.sellOrderId());
                    }
                }
                final EngineState state = processor.state();
                for (int a = 0; a < state.accountCount(); a++)
                {
                    LIVE_BALANCES.put(state.accountAt(a).accountId(), state.accountAt(a).balance());
                }
            });
    }

    @Test
    void theTradeFileHoldsExactlyTheTradesTheEnginePublishedThatDay()
    {
        final String file = run("trades", "--day", "2026-01-05");
        final List<String> rows = file.lines().skip(1).toList();
        final List<String> fromFile = new ArrayList<>();
        for (final String row : rows)
        {
            final String[] c = row.split(",", -1);
            assertEquals("TRADE", c[0], row);
            final int scale = c[5].equals("EUR-USD") ? 4 : 2;
            fromFile.add(c[1] + "," + c[2] + "," + c[4] + "," + FixedPoint.parse(c[6], scale) + "," + c[7] + "," +
                c[10] + "," + c[13]);
        }
        assertTrue(LIVE_TRADES.size() > 100, "the day has trades: " + LIVE_TRADES.size());
        assertEquals(LIVE_TRADES, fromFile);
    }

    @Test
    void statementsCloseAtTheEnginesBalancesAndAddUp()
    {
        final String statements = run("statements", "--day", "2026-01-05");
        int accounts = 0;
        for (final String row : statements.lines().filter((l) -> l.startsWith("account,")).toList())
        {
            final String[] c = row.split(",");
            final long account = Long.parseLong(c[1]);
            assertEquals(lastSequenceOfDay, Long.parseLong(c[3]), row);
            final long opening = FixedPoint.parse(c[4], FixedPoint.MONEY_SCALE);
            final long tradeCash = FixedPoint.parse(c[5], FixedPoint.MONEY_SCALE);
            final long other = FixedPoint.parse(c[7], FixedPoint.MONEY_SCALE);
            final long closing = FixedPoint.parse(c[8], FixedPoint.MONEY_SCALE);
            assertEquals(LIVE_BALANCES.get(account).longValue(), closing, row);
            assertEquals(closing, opening + tradeCash + other, row);
            accounts++;
        }
        assertEquals(LIVE_BALANCES.size(), accounts);
        assertTrue(statements.contains("\nfill,1003,"), "the takers' fills are listed");
    }

    @Test
    void regeneratedFilesAreTheSameBytes() throws Exception
    {
        for (final String command : new String[]{ "trades", "statements" })
        {
            final Path first = temp.resolve(command + "-1.csv");
            final Path second = temp.resolve(command + "-2.csv");
            assertEquals(0, cli(command, temp.resolve("journal").toString(), "--day", "2026-01-05",
                "--snapshots", temp.resolve("snapshots").toString(), "--out", first.toString()));
            assertEquals(0, cli(command, temp.resolve("journal").toString(), "--day", "2026-01-05", "--out",
                second.toString()));
            assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second), command);
        }
    }

    private static String run(final String command, final String... options)
    {
        final List<String> args = new ArrayList<>(List.of(command, temp.resolve("journal").toString()));
        args.addAll(List.of(options));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, new ReplayCli(new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
            .run(args.toArray(new String[0])));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int cli(final String... args)
    {
        return new ReplayCli(System.out, System.err).run(args);
    }
}
