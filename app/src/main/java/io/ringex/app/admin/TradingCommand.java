package io.ringex.app.admin;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.ringex.common.config.CommandLineOptions;
import io.ringex.protocol.codecs.TradingStatus;

import static io.ringex.app.admin.AdminOptions.firstRequestId;
import static io.ringex.app.admin.AdminOptions.operator;
import static io.ringex.app.admin.AdminOptions.parse;
import static io.ringex.app.admin.AdminOptions.reason;
import static io.ringex.app.admin.AdminOptions.symbol;
import static io.ringex.app.admin.AdminOptions.verb;

/**
 * {@code ./ringex admin trading halt|resume|close|pre-open}: an instrument's trading status (SetTradingStatus), by
 * symbol, or every listed instrument's with {@code --all}. {@code pre-open --auction-seconds N} makes the call phase a
 * timed auction: the engine ends it N seconds later, on its clock, uncrossing into continuous trading.
 * <p>
 * With {@code --all} one command is sent per instrument, in id order, each waiting for its answer; delisted ones are
 * left out. Exit 0 when every one was accepted, 1 when the venue or an instrument refused (each refusal printed, the
 * rest still sent), 2 for bad usage: the same contract as every other admin command ({@link AdminCli}).
 * <p>
 * Thread safety: one thread.
 */
final class TradingCommand
{
    /** The longest timed auction: a trading day. */
    static final long MAX_AUCTION_SECONDS = 86_400;

    private final AdminCli cli;
    private final PrintStream out;
    private final PrintStream err;

    TradingCommand(final AdminCli cli, final PrintStream out, final PrintStream err)
    {
        this.cli = cli;
        this.out = out;
        this.err = err;
    }

    int run(final List<String> args)
    {
        final String verb = verb("trading", args, Set.of("halt", "resume", "close", "pre-open"));
        final String command = "trading " + verb;
        final CommandLineOptions options = parse(command, args.subList(1, args.size()),
            verb.equals("pre-open") ? Set.of("--symbol", "--auction-seconds") : Set.of("--symbol"), Set.of("--all"));
        options.requirePositionals(0, "options only");
        if (options.has("--symbol") == options.has("--all"))
        {
            throw new CommandLineOptions.UsageException(command + " takes --symbol S (one instrument) or --all " +
                "(every instrument not delisted), one of the two");
        }
        final String symbol = options.has("--symbol") ? symbol(options.required("--symbol")) : null;
        final long auctionSeconds = options.longValue("--auction-seconds", 0, 1);
        if (auctionSeconds > MAX_AUCTION_SECONDS)
        {
            throw new CommandLineOptions.UsageException("--auction-seconds: 1 to " + MAX_AUCTION_SECONDS +
                " (a day), was " + auctionSeconds);
        }
        final long phaseDurationNs = TimeUnit.SECONDS.toNanos(auctionSeconds);
        final TradingStatus status = switch (verb)
        {
            case "halt" -> TradingStatus.HALTED;
            case "resume" -> TradingStatus.OPEN;
            case "close" -> TradingStatus.CLOSED;
            default -> TradingStatus.PRE_OPEN;
        };
        final String operator = operator(options);
        reason(options);
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
        {
            final VenueState venue = link.reader().read(true);
            final List<VenueState.Instrument> targets = new ArrayList<>();
            for (final VenueState.Instrument instrument : venue.instruments.values())
            {
                if (null == symbol ? instrument.status() != TradingStatus.DELISTED : instrument.symbol().equals(symbol))
                {
                    targets.add(instrument);
                }
            }
            if (targets.isEmpty())
            {
                if (null != symbol)
                {
                    err.println("refused: " + verb + " " + symbol + ": no such instrument at the venue");
                    return 1;
                }
                out.println("nothing to change: the venue lists no instrument");
                return 0;
            }
            final long firstRequestId = firstRequestId();
            int result = 0;
            for (int i = 0; i < targets.size(); i++)
            {
                final VenueState.Instrument instrument = targets.get(i);
                final int id = instrument.id();
                final String what = verb + " " + instrument.symbol() + " (instrument " + id + "): " +
                    status.name() + (auctionSeconds > 0 ? " for " + auctionSeconds + " s, then OPEN" : "");
                result = Math.max(result, cli.send(link.admin(), what,
                    (c, r) -> c.setTradingStatus(r, id, status, phaseDurationNs), firstRequestId + i));
            }
            return result;
        }
    }
}
