package io.ringex.engine.node;

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

import io.ringex.testing.ProjectRoot;
import io.ringex.testing.SystemPropertiesGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every engine configuration the project ships (each properties file in the repository with a
 * {@code ringex.engine.*} key: docker/config/engine-*.properties today) goes through what {@code ./ringex engine} does
 * with it ({@link EngineMain#configure}): the unknown-key check, the strict readers and {@code conclude()}. A typo'd,
 * renamed or malformed key there would otherwise only show when someone starts the compose venue.
 */
class ShippedConfigurationTest
{
    @RegisterExtension
    final SystemPropertiesGuard guard = new SystemPropertiesGuard();

    @org.junit.jupiter.api.io.TempDir
    Path temp;

    @Test
    void everyShippedEngineConfigurationIsKnownParsesAndConcludes() throws IOException
    {
        final Path root = ProjectRoot.find();
        final List<Path> files = engineConfigurations(root);
        assertFalse(files.isEmpty(), "no engine configuration found under " + root);
        assertTrue(files.contains(root.resolve("docker/config/engine-member-1.properties")), files.toString());

        for (final Path path : files)
        {
            final Properties file = load(path);
            final Properties before = (Properties)System.getProperties().clone();
            try
            {
                // The admin keys file is the deployment's secret, mounted where the configuration names it: a
                // node refuses to start without it, so the test gives it one there (a system property wins over
                // the file).
                final String keys = file.getProperty(EngineContext.Configuration.ADMIN_KEYS_FILE_PROP_NAME);
                if (null != keys)
                {
                    assertEquals("/etc/ringex/admin.keys", keys.trim(), path + ": where compose mounts it");
                    System.setProperty(EngineContext.Configuration.ADMIN_KEYS_FILE_PROP_NAME,
                        NodeTestSupport.writeAdminKeys(temp).toString());
                }
                // A cluster member's secret is in a file of its own, as compose mounts it.
                final EngineContext ctx = file.containsKey(EngineContext.Configuration.CLUSTER_SECRET_PROP_NAME) ||
                    !"CLUSTER".equals(file.getProperty(EngineContext.Configuration.REPLICATION_MODE_PROP_NAME)) ?
                    EngineMain.configure(path.toString()) : EngineMain.configure(path.toString(),
                    root.resolve("docker/config/cluster-secret.example.properties").toString());
                assertEquals(null == keys ? null : NodeTestSupport.ADMIN_KEYS.names(),
                    null == ctx.adminKeys() ? null : ctx.adminKeys().names());
                if (ctx.replicationMode() == EngineContext.ReplicationMode.CLUSTER)
                {
                    assertTrue(ctx.clusterMembers().contains(ctx.nodeId()),
                        path + ": a member is one of the cluster's members");
                }
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError(root.relativize(path) + ": " + ex.getMessage(), ex);
            }
            finally
            {
                System.setProperties(before);
            }
        }
    }

    /**
     * @return the properties files (build output, version control and node modules aside) with a ringex.engine.* key.
     */
    private static List<Path> engineConfigurations(final Path root) throws IOException
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
                if (file.toString().endsWith(".properties") &&
                    load(file).stringPropertyNames().stream().anyMatch((key) -> key.startsWith("ringex.engine.")))
                {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(files);
        return files;
    }

    private static Properties load(final Path path)
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path))
        {
            properties.load(reader);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(path + " cannot be read", ex);
        }
        return properties;
    }
}
