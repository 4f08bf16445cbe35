package io.ringex.engine.replay;

import io.ringex.protocol.codecs.OrderType;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.Side;
import io.ringex.protocol.codecs.TimeInForce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shadow replay finds a change in matching at the first command it affects: the "other build" is this one with one
 * line of the matcher changed (a taker no longer trades at exactly its limit price), compiled here and run in a child
 * JVM, as a venue would run yesterday's build against today's.
 */
class ShadowCompareTest
{
    private static final String RULE = "if (buy ? price > limitPrice : price < limitPrice)";
    private static final String CHANGED_RULE = "if (buy ? price >= limitPrice : price <= limitPrice)";

    @TempDir
    Path temp;

    @Test
    void findsAOneLineMatchingChangeAtTheFirstCommandItAffects() throws Exception
    {
        final long firstAffected;
        try (JournalFixture venue = new JournalFixture(temp))
        {
            venue.send(JournalFixture.ADMIN, venue.encoder.addInstrument(1, 1, "ACME", 2, 5, 10, 10_000,
                PriceBandType.TICKS, 40));
            for (long account = 1; account <= 2; account++)
            {
                venue.send(JournalFixture.ADMIN, venue.encoder.addAccount(10 + account, account,
                    SelfTradePrevention.CANCEL_NEWEST));
                venue.send(JournalFixture.ADMIN, venue.encoder.setLimits(20 + account, account, 1000,
                    Long.MAX_VALUE / 4, 0, 10_000, 100, true, new int[0], new long[0]));
                venue.send(JournalFixture.ADMIN, venue.encoder.adjustBalance(30 + account, account,
                    1_000_000_00000000L));
            }
            order(venue, 1, 100, Side.SELL, TimeInForce.GTC, 10_000, 50);
            order(venue, 2, 101, Side.BUY, TimeInForce.IOC, 10_010, 10); // through the resting price: no change
            order(venue, 2, 102, Side.BUY, TimeInForce.GTC, 9_990, 10);  // rests below it: no change
            order(venue, 2, 103, Side.BUY, TimeInForce.IOC, 10_000, 10); // at exactly the limit: affected
            firstAffected = venue.sequence;
            order(venue, 2, 104, Side.BUY, TimeInForce.IOC, 10_000, 10);
        }

        final String changedBuild = compileChangedMatcher();
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final ShadowCompare compare = new ShadowCompare(java(), changedBuild,
            new PrintStream(progress, true, StandardCharsets.UTF_8));
        final ShadowCompare.Outcome outcome = compare.compare(temp.resolve("journal"), 1000, false);

        assertFalse(outcome.same(), outcome.report());
        assertEquals(firstAffected, outcome.firstDifference(), outcome.report());
        assertTrue(outcome.report().contains("DIFFERENT at sequence " + firstAffected + " (after " +
            (firstAffected - 1) + " identical commands"), outcome.report());
        // side by side: this build's trade at 100.00, none in the other
        assertTrue(outcome.report().contains("< " + "    -> Trade instrumentId=1|"), outcome.report());
        assertTrue(outcome.report().contains("= #" + firstAffected + " "), outcome.report());

        final ShadowCompare.Outcome same = new ShadowCompare(java(), System.getProperty("java.class.path"),
            new PrintStream(progress, true, StandardCharsets.UTF_8)).compare(temp.resolve("journal"), 1000, false);
        assertTrue(same.same(), same.report());
        assertTrue(same.report().startsWith("SAME: " + (firstAffected + 1) + " commands"), same.report());
    }

    private String compileChangedMatcher() throws Exception
    {
        // the engine module's source, beside this module (tests run in the module's directory)
        final Path source = Path.of("../engine/src/main/java/io/ringex/engine/book/Matcher.java");
        final String text = Files.readString(source);
        assertTrue(text.contains(RULE), "the matcher's rule this test changes is still there");
        final Path changed = temp.resolve("src/io/ringex/engine/book/Matcher.java");
        Files.createDirectories(changed.getParent());
        Files.writeString(changed, text.replaceFirst(java.util.regex.Pattern.quote(RULE), CHANGED_RULE));
        final Path classes = temp.resolve("changed-build");
        Files.createDirectories(classes);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final int status = javac.run(null, null, errors, "-d", classes.toString(), "-cp",
            System.getProperty("java.class.path"), changed.toString());
        assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
        return classes + File.pathSeparator + System.getProperty("java.class.path");
    }

    private static String java()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void order(
        final JournalFixture venue,
        final long account,
        final long clientOrderId,
        final Side side,
        final TimeInForce tif,
        final long price,
        final long quantity)
    {
        final long session = 1L << 32 | account;
        venue.send(session, venue.encoder.newOrder(session, account, clientOrderId, 1, side, OrderType.LIMIT, tif,
            false, SelfTradePrevention.ACCOUNT_DEFAULT, price, quantity));
    }
}
