package io.ringex.app;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the all-in-one prints once it is up: where to connect and with what.
 */
final class Banner
{
    private Banner()
    {
    }

    static void print(final VenueSettings settings, final Venue venue, final ConfigurableApplicationContext context)
    {
        final String port = context.getEnvironment().getProperty("local.server.port",
            Integer.toString(settings.httpPort()));
        final StringBuilder out = new StringBuilder(1024);
        out.append('\n')
            .append("================================================================================\n")
            .append(" Ringex venue is up\n")
            .append(venue.isFresh() ?
                " state: new venue, demo instruments and accounts installed in " + settings.dataDirectory() + "\n" :
                " state: RECOVERED from " + settings.dataDirectory() + ": " + venue.engine().recoverySummary() +
                "\n")
            .append(" dashboard:   http://localhost:").append(port)
            .append("/   (viewer/viewer, officer/officer, admin/admin)\n")
            .append(" REST API:    http://localhost:").append(port).append("/api/accounts  (docs/risk-api.md)\n")
            .append(" FIX 4.4:     localhost:").append(settings.fixPort()).append("  TargetCompID=")
            .append(Venue.FIX_COMP_ID).append(", SenderCompID=<USER>, Username(553)/Password(554)\n")
            .append(" SBE/Aeron:   aeron:udp?endpoint=localhost:").append(settings.sbePort()).append(" stream ")
            .append(Venue.CLIENT_STREAM).append("  (ExchangeClient, docs/client.md)\n")
            .append(" REST:        http://localhost:").append(venue.webPort())
            .append("/api/v1  (signed; /api/v1/openapi.json, docs/client.md)\n")
            .append(" WebSocket:   ws://localhost:").append(venue.webPort())
            .append("/ws/v1/user, /ws/v1/market  (/api/v1/asyncapi.json)\n")
            .append(null == venue.generatedApiKey() ? " API keys:    " + venue.apiKeysFile() +
                "  (./ringex admin apikey list|create --file ...)\n" :
                " API key:     " + venue.generatedApiKey().keyId() + " secret " +
                java.util.Base64.getEncoder().encodeToString(venue.generatedApiKey().secret()) +
                "  (generated now for " + venue.generatedApiKey().username() + ", shown once; in " +
                venue.apiKeysFile() + ")\n")
            .append(settings.demoFlow() ? " demo flow:   market makers and takers trading through the gateway\n" : "")
            .append(" journal:     ./ringex journal stats ").append(settings.dataDirectory().resolve("journal"))
            .append('\n')
            .append(" aeron dir:   ").append(venue.aeronDirectoryName()).append('\n')
            .append(" admin key:   ").append(venue.adminKey().id()).append(' ').append(venue.adminKey().name())
            .append(" in ").append(venue.adminKeysFile())
            .append(venue.adminKeysGenerated() ? " (generated now: a new data directory)" : "")
            .append("\n              the engine takes admin commands signed with its keys only; the dashboard and " +
                "./ringex admin sign with it\n")
            .append(" instruments:");
        for (final DemoData.Instrument instrument : DemoData.INSTRUMENTS)
        {
            out.append(' ').append(instrument.id()).append('=').append(instrument.symbol());
        }
        out.append('\n').append(" accounts:   ");
        for (final DemoData.Account account : DemoData.ACCOUNTS)
        {
            out.append(' ').append(account.id()).append('=').append(account.user()).append('/')
                .append(account.password());
        }
        out.append('\n')
            .append("================================================================================\n")
            .append("RINGEX READY http://localhost:").append(port).append('\n');
        System.out.print(out);
        System.out.flush();
    }
}
