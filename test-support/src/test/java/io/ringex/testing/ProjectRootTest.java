package io.ringex.testing;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProjectRootTest
{
    @Test
    void theRootIsTheParentOfThisModule()
    {
        final Path root = ProjectRoot.find();
        assertTrue(Files.isRegularFile(root.resolve("docs/operations.md")));
        assertTrue(Files.isRegularFile(root.resolve("test-support/pom.xml")), root.toString());
        assertEquals(root, Path.of("").toAbsolutePath().getParent(), "tests run in their module's directory");
    }
}
