package io.ringex.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.ringex.common.config.CommandLineOptions.UsageException;
import io.ringex.common.config.KnownKeys;

/**
 * What the all-in-one is told on its command line ({@code --name=value}; docs/operations.md, "All-in-one and load
 * generator options"), read strictly: an option it does not take, one without its value or with a malformed one, and
 * one given twice stop it with a message naming the option. The {@code --ringex.engine.*} and {@code
 * --ringex.gateway.*} keys are checked by {@link VenueKeys}; {@code --ringex.risk.*} and Spring Boot's own go to Spring
 * Boot.
 *
 * @param dataDirectory   the data directory, absolute.
 * @param demoFlow        whether the demo flow runs.
 * @param fixPort         the FIX acceptor's port.
 * @param sbePort         the SBE clients' UDP port.
 * @param webPort         the REST and WebSocket port (0: any free one).
 * @param httpPort        the dashboard's port.
 * @param ringexKeys      the {@code --ringex.*} options, key to value, in order.
 * @param springArgs      the arguments for Spring Boot.
 */
record VenueSettings(
    Path dataDirectory,
    boolean demoFlow,
    int fixPort,
    int sbePort,
    int webPort,
    int httpPort,
    Map<String, String> ringexKeys,
    List<String> springArgs)
{
    static final String DATA = "--data";
    static final String DEMO_FLOW = "--demo-flow";
    static final String FIX_PORT = "--fix-port";
    static final String SBE_PORT = "--sbe-port";
    static final String WEB_PORT = "--web-port";
    static final String SERVER_PORT = "--server.port";
    /** The options that are the all-in-one's own. */
    static final List<String> OPTIONS = List.of(DATA, DEMO_FLOW, FIX_PORT, SBE_PORT, WEB_PORT, SERVER_PORT);
    /** Spring Boot's switches (no value). */
    private static final Set<String> SPRING_SWITCHES = Set.of("--debug", "--trace");
    /** Spring Boot's keys the all-in-one passes on. */
    private static final List<String> SPRING_PREFIXES = List.of("--server.", "--spring.", "--logging.",
        "--management.", "--springdoc.", "--ringex.risk.");

    /**
     * @param args the command line.
     * @return the settings.
     * @throws UsageException naming the option that is not one, lacks its value, has a malformed one or is given
     *                        twice, or the argument that is not an option.
     */
    static VenueSettings parse(final String[] args)
    {
        Path data = Path.of("data");
        boolean demoFlow = false;
        int fixPort = 9880;
        int sbePort = 40200;
        int webPort = 8480;
        int httpPort = 8080;
        final Map<String, String> ringexKeys = new LinkedHashMap<>();
        final List<String> springArgs = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final String arg : args)
        {
            if (!arg.startsWith("--"))
            {
                throw new UsageException("'" + arg + "': not an option of ringex demo (it takes --name=value " +
                    "options: " + String.join(", ", OPTIONS) + ", --ringex.*, and Spring Boot's)");
            }
            final int equals = arg.indexOf('=');
            final String option = equals < 0 ? arg : arg.substring(0, equals);
            final String value = equals < 0 ? null : arg.substring(equals + 1);
            if (OPTIONS.contains(option) && !seen.add(option))
            {
                throw new UsageException(option + ": given twice");
            }
            switch (option)
            {
                case DEMO_FLOW:
                    if (null != value)
                    {
                        throw new UsageException(DEMO_FLOW + ": takes no value (was '" + value + "')");
                    }
                    demoFlow = true;
                    break;
                case DATA:
                    data = Path.of(required(option, value));
                    break;
                case FIX_PORT:
                    fixPort = port(option, value, 1);
                    break;
                case SBE_PORT:
                    sbePort = port(option, value, 1);
                    break;
                case WEB_PORT:
                    webPort = port(option, value, 0);
                    break;
                case SERVER_PORT:
                    // 0: Spring picks a free port (tests); the banner shows the one it took.
                    httpPort = port(option, value, 0);
                    springArgs.add(arg);
                    break;
                default:
                    if (option.startsWith("--ringex.") && !option.startsWith("--ringex.risk."))
                    {
                        if (null != ringexKeys.put(option.substring(2), required(option, value)))
                        {
                            throw new UsageException(option + ": given twice");
                        }
                    }
                    else if (SPRING_SWITCHES.contains(arg) || isSpringKey(option, value))
                    {
                        springArgs.add(arg);
                    }
                    else
                    {
                        final String closest = closest(option);
                        throw new UsageException(option + ": unknown option of ringex demo" +
                            (null == closest ? "" : " (did you mean " + closest + "?)") + "; it takes " +
                            String.join(", ", OPTIONS) + ", --ringex.*, and Spring Boot's --server.*, --spring.*, " +
                            "--logging.*, --management.*");
                    }
            }
        }
        return new VenueSettings(data.toAbsolutePath().normalize(), demoFlow, fixPort, sbePort, webPort, httpPort,
            Collections.unmodifiableMap(ringexKeys), List.copyOf(springArgs));
    }

    private static boolean isSpringKey(final String option, final String value)
    {
        for (final String prefix : SPRING_PREFIXES)
        {
            if (option.startsWith(prefix))
            {
                required(option, value);
                return true;
            }
        }
        return false;
    }

    private static String required(final String option, final String value)
    {
        if (null == value || value.isEmpty())
        {
            throw new UsageException(option + ": needs a value (" + option + "=...)");
        }
        return value;
    }

    private static int port(final String option, final String value, final int min)
    {
        final String text = required(option, value);
        final int port;
        try
        {
            port = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(option + ": must be a port, " + min + "..65535 (was '" + text + "')");
        }
        if (port < min || port > 65535)
        {
            throw new UsageException(option + ": must be a port, " + min + "..65535 (was '" + text + "')");
        }
        return port;
    }

    /** The all-in-one's own option nearest to a mistyped one, by {@link KnownKeys}' measure. */
    private static String closest(final String option)
    {
        final KnownKeys options = KnownKeys.of();
        for (final String known : OPTIONS)
        {
            options.family(Pattern.quote(known), known, known);
        }
        return options.closest(option);
    }
}
