package io.ringex.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's root, for tests that read what the project ships (docker/, docs/): found by walking up from the
 * module's directory (the test's working directory) to the directory holding both the parent pom and docs/.
 */
public final class ProjectRoot
{
    private ProjectRoot()
    {
    }

    /**
     * @return the repository's root directory.
     * @throws AssertionError if the working directory is not inside the repository.
     */
    public static Path find()
    {
        for (Path dir = Path.of("").toAbsolutePath(); null != dir; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isRegularFile(dir.resolve("docs/operations.md")))
            {
                return dir;
            }
        }
        throw new AssertionError("no repository root (pom.xml and docs/operations.md) above " +
            Path.of("").toAbsolutePath());
    }
}
