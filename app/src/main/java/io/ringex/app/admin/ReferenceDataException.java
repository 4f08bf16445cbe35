package io.ringex.app.admin;

import java.util.List;

/**
 * A reference-data file that cannot be used: every problem found, each naming the file, the line and the key.
 */
public final class ReferenceDataException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * @param problems what is wrong, one line each; at least one.
     */
    public ReferenceDataException(final List<String> problems)
    {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * @return what is wrong, one line each, in file order.
     */
    public List<String> problems()
    {
        return problems;
    }
}
