package io.ringex.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ringex.common.config.ConfigurationReference;
import io.ringex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/operations.md's table of the gateway's keys is the one {@link ConfigurationReference} writes from
 * {@link GatewayContext.Configuration}'s constants and the families {@link GatewayMain#knownKeys()} declares, so a key
 * added, renamed or given another default in the code shows here until the document says the same. On a difference
 * the expected table is printed, to paste between the markers.
 */
class GatewayConfigurationReferenceTest
{
    static final String BEGIN = "<!-- config:gateway:begin -->\n";
    static final String END = "<!-- config:gateway:end -->";

    @Test
    void theOperationsGuideShowsTheGatewayKeysAsTheCodeDeclaresThem() throws IOException
    {
        final Path guide = ProjectRoot.find().resolve("docs/operations.md");
        final String text = Files.readString(guide);
        final int begin = text.indexOf(BEGIN);
        final int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, guide + " lacks the markers " + BEGIN.trim() + " ... " + END);

        final String expected = ConfigurationReference.table(GatewayMain.knownKeys());
        final String actual = text.substring(begin + BEGIN.length(), end);
        if (!expected.equals(actual))
        {
            System.out.println("The gateway's configuration table in " + guide + " differs from the code's. Paste " +
                "this between " + BEGIN.trim() + " and " + END + ":\n" + expected);
        }
        assertEquals(expected, actual, "docs/operations.md's gateway table (the expected one is printed above)");
    }
}
