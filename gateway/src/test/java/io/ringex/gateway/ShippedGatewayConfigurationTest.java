package io.ringex.gateway;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringex.testing.ProjectRoot;
import io.ringex.testing.SystemPropertiesGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every gateway configuration the project ships (each properties file in the repository with a
 * {@code ringex.gateway.*} key or a commented-out example of one: docker/config/gateway*.properties today) goes through
 * what {@code ./ringex gateway} does with it ({@link GatewayMain#configure}): the unknown-key check, the strict readers
 * and {@code conclude()}. A typo'd, renamed or malformed key there would otherwise only show when someone starts the
 * compose venue.
 */
class ShippedGatewayConfigurationTest
{
    /** A commented-out example key: {@code # ringex.gateway.user.alice.accounts=1001,1002   (comment)}. */
    private static final Pattern EXAMPLE = Pattern.compile("^#\\s*(ringex\\.gateway\\.[^=\\s]+)=");

    @RegisterExtension
    final SystemPropertiesGuard guard = new SystemPropertiesGuard();

    @org.junit.jupiter.api.io.TempDir
    Path temp;

    /**
     * The admin keys file is the deployment's secret, mounted where the configuration names it: the test puts one of
     * its own there (a system property wins over the files).
     */
    @org.junit.jupiter.api.BeforeEach
    void adminKeys()
    {
        System.setProperty(GatewayContext.Configuration.ADMIN_KEY_FILE_PROP_NAME,
            io.ringex.engine.node.NodeTestSupport.writeAdminKeys(temp).toString());
        System.setProperty(GatewayContext.Configuration.WEB_API_KEYS_FILE_PROP_NAME, webApiKeys().toString());
    }

    /** The web front end's keys, like the admin keys a deployment's secret: a file of the test's own. */
    private Path webApiKeys()
    {
        try
        {
            final Path keys = temp.resolve("api-keys");
            Files.createFile(keys, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            Files.writeString(keys, ApiKeys.line(new ApiKey(
                1, "rk-shipped-test", "alice", false, new byte[32])) + "\n");
            return keys;
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    @Test
    void everyShippedGatewayConfigurationIsKnownParsesAndConcludes() throws IOException
    {
        final Path root = ProjectRoot.find();
        final List<Path> files = gatewayConfigurations(root);
        assertTrue(files.contains(root.resolve("docker/config/gateway.properties")), files.toString());

        for (final Path path : files)
        {
            configure(root, path.toString());
        }
    }

    @Test
    void theComposeGatewaysFilesTogetherFollowTheClustersThreeMembers()
    {
        // As the container is configured (RINGEX_CONFIG in docker/compose.yml): the gateway file, then the users file.
        final Path root = ProjectRoot.find();
        final Properties before = (Properties)System.getProperties().clone();
        try (GatewayContext ctx = GatewayMain.configure(root.resolve("docker/config/gateway.properties").toString(),
            root.resolve("docker/config/gateway-users.example.properties").toString()))
        {
            assertEquals(3, ctx.engines().size());
            for (int i = 0; i < 3; i++)
            {
                assertTrue(ctx.engines().get(i).ingressChannel().contains("engine-" + (i + 1) + ":"),
                    ctx.engines().get(i).ingressChannel());
            }
        }
        finally
        {
            System.setProperties(before);
        }
    }

    @Test
    void theExampleKeysInCommentsAreGatewayKeys() throws IOException
    {
        // The users example ships its keys commented out (no credential is shipped): their names must still be keys.
        final Path root = ProjectRoot.find();
        final List<String> examples = new ArrayList<>();
        for (final Path path : gatewayConfigurations(root))
        {
            for (final String line : Files.readAllLines(path))
            {
                final Matcher matcher = EXAMPLE.matcher(line.trim());
                if (matcher.find())
                {
                    examples.add(matcher.group(1));
                }
            }
        }
        assertFalse(examples.isEmpty(), "no commented-out example keys found");
        for (final String key : examples)
        {
            assertTrue(GatewayMain.knownKeys().isKnown(key), key + " (an example in a shipped file) is not a key");
        }
    }

    private static void configure(final Path root, final String file)
    {
        final Properties before = (Properties)System.getProperties().clone();
        try (GatewayContext ignore = GatewayMain.configure(file))
        {
            // concluded
        }
        catch (final RuntimeException ex)
        {
            throw new AssertionError(root.relativize(Path.of(file)) + ": " + ex.getMessage(), ex);
        }
        finally
        {
            System.setProperties(before);
        }
    }

    /**
     * @return the properties files (build output, version control and node modules aside) with a ringex.gateway.* key,
     * set or given as a commented-out example.
     */
    private static List<Path> gatewayConfigurations(final Path root) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>()
        {
            public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attributes)
            {
                final String name = String.valueOf(dir.getFileName());
                return name.equals("target") || name.startsWith(".") || name.equals("node_modules") ?
                    FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
            {
                if (file.toString().endsWith(".properties") && mentionsGatewayKeys(file))
                {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(files);
        return files;
    }

    private static boolean mentionsGatewayKeys(final Path file)
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file))
        {
            properties.load(reader);
            return properties.stringPropertyNames().stream().anyMatch((key) -> key.startsWith("ringex.gateway.")) ||
                Files.readAllLines(file).stream().anyMatch((line) -> EXAMPLE.matcher(line.trim()).find());
        }
        catch (final IOException ex)
        {
            throw new AssertionError(file + " cannot be read", ex);
        }
    }
}
