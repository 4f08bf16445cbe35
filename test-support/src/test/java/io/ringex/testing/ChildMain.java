package io.ringex.testing;

/**
 * The child the tests run: prints its arguments one per line (the first to stderr), then exits with the status
 * given as {@code exit=N}, or sleeps until killed when given {@code linger}.
 */
public final class ChildMain
{
    private ChildMain()
    {
    }

    /**
     * @param args lines to print, {@code exit=N}, {@code linger}.
     * @throws InterruptedException never: the process is killed while it sleeps.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        int status = 0;
        boolean linger = false;
        for (int i = 0; i < args.length; i++)
        {
            if (args[i].startsWith("exit="))
            {
                status = Integer.parseInt(args[i].substring("exit=".length()));
            }
            else if ("linger".equals(args[i]))
            {
                linger = true;
            }
            else
            {
                (i == 0 ? System.err : System.out).println(args[i]);
            }
        }
        System.out.flush();
        while (linger)
        {
            Thread.sleep(1000);
        }
        System.exit(status);
    }
}
