package io.ringex.app;

import java.nio.file.Path;

/**
 * What the all-in-one is told on its command line ({@code --name=value}); everything else goes to Spring Boot.
 * <ul>
 *     <li>{@code --data=DIR}: journal, snapshots and FIX session state (default {@code ./data}).</li>
 *     <li>{@code --demo-flow}: run a synthetic market of market makers and takers through the gateway.</li>
 *     <li>{@code --fix-port=N} (default 9880), {@code --sbe-port=N} (default 40200), {@code --server.port=N} (the
 *     dashboard, default 8080).</li>
 * </ul>
 */
record VenueSettings(Path dataDirectory, boolean demoFlow, int fixPort, int sbePort, int httpPort)
{
    static VenueSettings parse(final String[] args)
    {
        Path data = Path.of("data");
        boolean demoFlow = false;
        int fixPort = 9880;
        int sbePort = 40200;
        int httpPort = 8080;
        for (final String arg : args)
        {
            if (arg.equals("--demo-flow"))
            {
                demoFlow = true;
            }
            else if (arg.startsWith("--data="))
            {
                data = Path.of(arg.substring("--data=".length()));
            }
            else if (arg.startsWith("--fix-port="))
            {
                fixPort = Integer.parseInt(arg.substring("--fix-port=".length()));
            }
            else if (arg.startsWith("--sbe-port="))
            {
                sbePort = Integer.parseInt(arg.substring("--sbe-port=".length()));
            }
            else if (arg.startsWith("--server.port="))
            {
                httpPort = Integer.parseInt(arg.substring("--server.port=".length()));
            }
        }
        return new VenueSettings(data.toAbsolutePath().normalize(), demoFlow, fixPort, sbePort, httpPort);
    }
}
