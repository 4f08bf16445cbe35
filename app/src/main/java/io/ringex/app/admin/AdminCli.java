package io.ringex.app.admin;

import io.ringex.common.apikey.ApiKey;
import io.ringex.common.apikey.ApiKeys;
import io.ringex.common.apikey.ApiKeysFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.ringex.client.AdminClient;
import io.ringex.client.AdminKey;
import io.ringex.client.AdminKeys;
import io.ringex.client.CommandEncoder;
import io.ringex.common.config.CommandLineOptions;
import io.ringex.protocol.CommandText;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.UserRoles;
import io.ringex.protocol.codecs.AccountStatus;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;

import static io.ringex.app.admin.AdminOptions.accounts;
import static io.ringex.app.admin.AdminOptions.bandType;
import static io.ringex.app.admin.AdminOptions.codGraceMs;
import static io.ringex.app.admin.AdminOptions.firstRequestId;
import static io.ringex.app.admin.AdminOptions.instruments;
import static io.ringex.app.admin.AdminOptions.money;
import static io.ringex.app.admin.AdminOptions.operator;
import static io.ringex.app.admin.AdminOptions.parse;
import static io.ringex.app.admin.AdminOptions.price;
import static io.ringex.app.admin.AdminOptions.reason;
import static io.ringex.app.admin.AdminOptions.requiredLong;
import static io.ringex.app.admin.AdminOptions.requireOption;
import static io.ringex.app.admin.AdminOptions.symbol;
import static io.ringex.app.admin.AdminOptions.text;
import static io.ringex.app.admin.AdminOptions.union;
import static io.ringex.app.admin.AdminOptions.verb;

/**
 * The operator's {@code ./ringex admin} command: a venue's instruments, accounts and users, from a reference-data file
 * ({@code apply}) or one change at a time, for people and scripts (docs/operations.md, "Onboarding").
 * <p>
 * Every change waits for the engine's answer: exit 0 when it was accepted, 1 with the engine's reason when refused
 * (or the engine could not be reached), 2 for bad usage. Options are strict ({@link CommandLineOptions}): an unknown
 * option, one without its value or given twice, or a value that does not parse stops the command naming it, before
 * anything is sent. Changes name their operator ({@code --operator}, required) and may give a {@code --reason}; the
 * journal keeps both. A password is read from the console without echo, or from the first line of standard input
 * when there is none, never from an argument, and only its PBKDF2 hash leaves the tool. Connection options:
 * {@link AdminConnection}.
 * <p>
 * Thread safety: one thread (a command-line tool).
 */
public final class AdminCli
{
    static final String USAGE = String.join("\n",
        "usage: ringex admin <command> [options]",
        "  validate FILE...                         check reference-data files",
        "  apply FILE [--dry-run]                   make the venue hold the file (prints what changes)",
        "  status                                   what the venue holds",
        "  instrument add --id N --symbol S --price-scale N --tick P --lot N --reference-price P",
        "                 --band-type bps|ticks --band N",
        "  instrument amend --id N [--symbol S] [--tick P] [--lot N] [--reference-price P] [--band-type T] [--band N]",
        "  instrument delist --id N",
        "  account open --id N [--stp cancel-newest|cancel-oldest|cancel-both|decrement-and-cancel]",
        "               [--max-order-quantity N --max-order-notional M --credit-limit M --position-limit N",
        "                --max-open-orders N [--allow-short] [--instrument-limits ID=N,...]]   (limits: all or none)",
        "  account deposit|withdraw --id N --amount M [--reference TEXT]",
        "  account limits --id N --max-order-quantity N --max-order-notional M --credit-limit M",
        "                 --position-limit N --max-open-orders N [--allow-short] [--instrument-limits ID=N,...]",
        "  account suspend|reactivate|close --id N",
        "  account protection --id N --group G --instruments ID,... --interval-ms N --fill-limit N",
        "                 [--quantity-limit N] [--notional-limit M] [--freeze-ms N] [--cancel-orders]",
        "                                                (market-maker protection; --interval-ms 0 removes the group)",
        "  trading halt|resume|close --symbol S | --all      an instrument's trading status, or every listed one's",
        "  trading pre-open --symbol S | --all [--auction-seconds N]",
        "                                           a call phase; timed: it uncrosses into continuous trading",
        "  user add --username U --accounts ID,... [--fix-sender-comp-id X] [--cancel-on-disconnect]",
        "           [--cod-grace-ms N] [--throttle N] [--disabled] [--role trader|drop-copy|clearing]",
        "                           (drop_copy is read too; the password is read from the console or stdin)",
        "  user cod-grace --username U --cod-grace-ms N  (a disconnected session that asked for cancel-on-",
        "                                           disconnect keeps its orders N ms, 0 to 600000, for its next logon)",
        "  user passwd --username U                  (likewise)",
        "  user disable|enable --username U",
        "  user grant --username U --accounts ID,...",
        "  user role --username U --role trader|drop-copy|clearing",
        "  apikey create --file FILE --key-id ID --username U [--trade] [--allow ADDR[/PREFIX],...]",
        "                           a new API key for the gateway's REST and WebSocket front end (read, or read and",
        "                           trade), in FILE (created readable by its owner only); its secret is printed once",
        "  apikey revoke --file FILE --key-id ID      (its number is never given again)",
        "  apikey list --file FILE                    numbers, key ids, users, permissions (never secrets)",
        "  keygen --file FILE --name NAME [--id N]    a new admin key (number N, default 1) in a new file, readable by",
        "                                           its owner only; add its line to the engine's admin keys file",
        "changes: --operator NAME (required) [--reason TEXT]",
        "connection: [--aeron-dir DIR | --data DIR | --embedded-driver] [--ingress CHANNEL] [--ingress-stream N]",
        "            [--outbound CHANNEL] [--egress-stream N] [--risk-stream N] [--timeout-ms N]",
        "admin key:  [--key-file FILE] [--key NAME]   (default: DATA/admin.keys, which the all-in-one writes; its",
        "            first key): changes are signed with it, and the engine takes none without a key it holds");


    private final PrintStream out;
    private final PrintStream err;
    private final InputStream in;

    /**
     * @param out where results go.
     * @param err where problems go.
     * @param in  where a password is read when there is no console.
     */
    public AdminCli(final PrintStream out, final PrintStream err, final InputStream in)
    {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    /**
     * @param args the command and its options.
     */
    public static void main(final String[] args)
    {
        System.exit(new AdminCli(System.out, System.err, System.in).run(args));
    }

    /**
     * Run one command (tests call this; {@link #main} exits with its result).
     *
     * @param args the command and its options.
     * @return 0 done, 1 refused or failed (the reason on err), 2 bad usage.
     */
    public int run(final String[] args)
    {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h"))
        {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        try
        {
            final List<String> rest = Arrays.asList(args).subList(1, args.length);
            return switch (args[0])
            {
                case "validate" -> ReferenceData.validate(rest.toArray(new String[0]), out, err);
                case "apply" -> apply(rest);
                case "status" -> status(rest);
                case "instrument" -> instrument(rest);
                case "account" -> account(rest);
                case "user" -> user(rest);
                case "trading" -> new TradingCommand(this, out, err).run(rest);
                case "keygen" -> keygen(rest);
                case "apikey" -> apikey(rest);
                default -> throw new CommandLineOptions.UsageException("unknown command '" + args[0] + "'");
            };
        }
        catch (final CommandLineOptions.UsageException ex)
        {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        catch (final IllegalStateException ex)
        {
            err.println("failed: " + ex.getMessage());
            return 1;
        }
        catch (final IllegalArgumentException ex)
        {
            // Aeron's refusal of a channel given as an option
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
    }

    /**
     * {@code keygen --file FILE --name NAME [--id N]}: a new admin key, from a {@link java.security.SecureRandom},
     * in a new file only its owner may read. The secret is written there and nowhere else (not printed).
     */
    private int keygen(final List<String> args)
    {
        final CommandLineOptions options = CommandLineOptions.parse("keygen", args, Set.of("--file", "--name",
            "--id"), Set.of());
        options.requirePositionals(0, "options only");
        final Path file = Path.of(options.required("--file"));
        final String name = options.required("--name");
        final int id = options.intValue("--id", 1, 1);
        if (!AdminKey.isName(name))
        {
            throw new CommandLineOptions.UsageException("--name: 1 to " + AdminKey.MAX_NAME_LENGTH +
                " characters of A-Z a-z 0-9 . _ - (was '" + name + "')");
        }
        if (java.nio.file.Files.exists(file))
        {
            err.println("failed: " + file + " exists: a key file is never overwritten");
            return 1;
        }
        AdminKeys.of(List.of(AdminKeys.generateKey(id, name))).writeTo(file);
        out.println("wrote admin key " + id + " " + name + " to " + file + " (readable by its owner only): give " +
            "the engine its line (ringex.engine.admin.keys.file), and the sender the file");
        return 0;
    }

    /**
     * {@code apikey create|revoke|list --file FILE ...}: the gateway's API keys file ({@link ApiKeysFile}). A new
     * key's secret is printed once, here, and kept nowhere but in the file.
     */
    private int apikey(final List<String> args)
    {
        if (args.isEmpty())
        {
            throw new CommandLineOptions.UsageException("apikey: create, revoke or list");
        }
        final String verb = args.get(0);
        final List<String> rest = args.subList(1, args.size());
        final CommandLineOptions options = switch (verb)
        {
            case "create" -> CommandLineOptions.parse("apikey create", rest,
                Set.of("--file", "--key-id", "--username", "--allow"), Set.of("--trade"));
            case "revoke" -> CommandLineOptions.parse("apikey revoke", rest, Set.of("--file", "--key-id"), Set.of());
            case "list" -> CommandLineOptions.parse("apikey list", rest, Set.of("--file"), Set.of());
            default -> throw new CommandLineOptions.UsageException("apikey: create, revoke or list (was '" + verb +
                "')");
        };
        options.requirePositionals(0, "options only");
        final Path file = Path.of(options.required("--file"));
        // Usage problems first (exit 2); a file or key the tool cannot use is a failure (exit 1).
        final String keyId = "list".equals(verb) ? null : options.required("--key-id");
        final String username = "create".equals(verb) ? options.required("--username") : null;
        try
        {
            switch (verb)
            {
                case "create" ->
                {
                    final String allow = options.string("--allow", null);
                    final ApiKey key = ApiKeysFile.create(file, keyId, username, options.has("--trade"),
                        null == allow ? List.of() : ApiKeys.addresses(allow));
                    out.println("created API key " + key + " in " + file);
                    out.println("secret (base64; shown this once): " +
                        java.util.Base64.getEncoder().encodeToString(key.secret()));
                    out.println("a running gateway reading this file takes it within a second " +
                        "(ringex.gateway.web.api.keys.file)");
                }
                case "revoke" ->
                {
                    final ApiKey key = ApiKeysFile.revoke(file, keyId);
                    out.println("revoked API key " + key + " in " + file +
                        ": a running gateway reading this file refuses it within a second");
                }
                default -> ApiKeysFile.list(file).forEach(out::println);
            }
            return 0;
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("failed: " + ex.getMessage());
            return 1;
        }
    }

    private int apply(final List<String> args)
    {
        final CommandLineOptions options = parse("apply", args, Set.of(), Set.of("--dry-run"));
        options.requirePositionals(1, "one FILE");
        final boolean dryRun = options.has("--dry-run");
        final String operator = dryRun ? options.string("--operator", null) : operator(options);
        final String reason = reason(options);
        final ReferenceData file;
        try
        {
            file = ReferenceDataParser.parse(Path.of(options.positionals().get(0)));
        }
        catch (final ReferenceDataException ex)
        {
            ex.problems().forEach(err::println);
            return 1;
        }
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
        {
            out.println("reading the venue (its users, instruments and accounts)...");
            final VenueState venue = link.reader().read(true);
            final ReferenceDataPlan plan = ReferenceDataPlan.compute(file, venue, reason);
            printPlan(file, plan);
            if (!plan.conflicts().isEmpty())
            {
                plan.conflicts().forEach((c) -> err.println("cannot apply: " + c));
                return 1;
            }
            if (plan.steps().isEmpty())
            {
                out.println("nothing to change");
                return 0;
            }
            if (dryRun)
            {
                out.println(plan.steps().size() + " changes (dry run: nothing sent)");
                return 0;
            }
            final String refusal = plan.apply(link.admin(), firstRequestId(), out::println);
            if (null != refusal)
            {
                err.println("refused: " + refusal);
                return 1;
            }
            out.println(plan.steps().size() + " changes applied");
            return 0;
        }
    }

    private void printPlan(final ReferenceData file, final ReferenceDataPlan plan)
    {
        for (final ReferenceDataPlan.Step step : plan.steps())
        {
            out.println("  " + step.description());
        }
        for (final String extra : plan.extras())
        {
            out.println("  (not in the file, left as it is: " + extra + ")");
        }
    }

    private int status(final List<String> args)
    {
        final CommandLineOptions options = parse("status", args, Set.of(), Set.of());
        options.requirePositionals(0, "no arguments");
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), null))
        {
            final VenueState venue = link.reader().read(true);
            out.println("instruments (" + venue.instruments.size() + "):");
            for (final VenueState.Instrument i : venue.instruments.values())
            {
                final int scale = i.priceScale();
                out.println("  " + i.id() + " " + i.symbol() + " scale " + scale + " tick " +
                    FixedPoint.format(i.tickSize(), scale) + " lot " + i.lotSize() + " reference " +
                    FixedPoint.format(i.referencePrice(), scale) + " band " +
                    ReferenceDataPlan.band(i.bandType(), i.band()) + " " + i.status());
            }
            out.println("accounts (" + venue.accounts.size() + "):");
            for (final VenueState.Account a : venue.accounts.values())
            {
                out.println("  " + a.id() + " balance " + ReferenceDataPlan.money(a.balance()) + " reserved " +
                    ReferenceDataPlan.money(a.reserved()) + " maxOrderQuantity " + a.maxOrderQuantity() +
                    " maxOrderNotional " + ReferenceDataPlan.money(a.maxOrderNotional()) + " creditLimit " +
                    ReferenceDataPlan.money(a.creditLimit()) + " openOrders " + a.openOrders() + "/" +
                    a.maxOpenOrders() + (a.maxOrderQuantity() == 0 ? " (no limits set: every order refused)" : "") +
                    (a.killSwitch() ? " KILLED" : "") + definition(a.definition()) +
                    (a.positions().isEmpty() ? "" : " positions " + a.positions()) +
                    (a.complete() ? "" : " (positions incomplete: no whole refresh of the account yet)"));
            }
            out.println("users (" + venue.users.size() + "):");
            for (final VenueState.User u : venue.users.values())
            {
                out.println("  " + u.username() + (u.enabled() ? " enabled" : " DISABLED") + " accounts " +
                    u.accounts() + (u.fixSenderCompId().isEmpty() ? " no FIX" : " FIX " + u.fixSenderCompId()) +
                    (u.cancelOnDisconnect() ? " cancel-on-disconnect" : "") +
                    (u.codGraceMs() == 0 ? "" : " cod-grace " + u.codGraceMs() + " ms") +
                    (u.throttle() == 0 ? "" : " throttle " + u.throttle()) +
                    " role " + roleName(u.role()) +
                    (u.credential().isEmpty() ? " no credential" : " credential set"));
            }
            return 0;
        }
    }

    private static String definition(final VenueState.Definition d)
    {
        return null == d ? " (standing and position limits not known yet)" : " " + d.status() +
            " positionLimit " + d.defaultPositionLimit() + (d.ownPositionLimits().isEmpty() ? "" :
            " instrumentLimits " + d.ownPositionLimits()) + " allowShort " + d.allowShort() + " stp " +
            ReferenceData.stpName(d.selfTradePrevention());
    }

    private int instrument(final List<String> args)
    {
        final String verb = verb("instrument", args, Set.of("add", "amend", "delist"));
        final List<String> rest = args.subList(1, args.size());
        final Set<String> pricing = Set.of("--symbol", "--tick", "--lot", "--reference-price", "--band-type",
            "--band");
        final CommandLineOptions options = switch (verb)
        {
            case "add" -> parse("instrument add", rest, union(pricing, Set.of("--id", "--price-scale")), Set.of());
            case "amend" -> parse("instrument amend", rest, union(pricing, Set.of("--id")), Set.of());
            default -> parse("instrument delist", rest, Set.of("--id"), Set.of());
        };
        options.requirePositionals(0, "options only");
        final int id = options.intValue("--id", 0, 1);
        requireOption(options, "--id");
        final String operator = operator(options);
        final String reason = reason(options);
        if (verb.equals("delist"))
        {
            return change(options, operator, "delist instrument " + id, (c, r) -> c.delistInstrument(r, id, reason));
        }
        if (verb.equals("add"))
        {
            final int scale = options.intValue("--price-scale", -1, 0);
            requireOption(options, "--price-scale");
            if (scale > FixedPoint.MAX_PRICE_SCALE)
            {
                throw new CommandLineOptions.UsageException("--price-scale: must be at most " +
                    FixedPoint.MAX_PRICE_SCALE);
            }
            final String symbol = symbol(options.required("--symbol"));
            final long tick = price(options, "--tick", scale);
            final long lot = options.longValue("--lot", 0, 1);
            requireOption(options, "--lot");
            final long reference = price(options, "--reference-price", scale);
            final PriceBandType bandType = bandType(options.required("--band-type"));
            final long band = options.longValue("--band", 0, 1);
            requireOption(options, "--band");
            return change(options, operator, "add instrument " + id + " " + symbol, (c, r) ->
                c.addInstrument(r, id, symbol, scale, tick, lot, reference, bandType, band));
        }
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
        {
            final VenueState.Instrument have = link.reader().read(true).instruments.get(id);
            if (null == have)
            {
                err.println("refused: amend instrument " + id + ": no such instrument at the venue");
                return 1;
            }
            final int scale = have.priceScale();
            final String symbol = options.has("--symbol") ? symbol(options.required("--symbol")) : have.symbol();
            final long tick = options.has("--tick") ? price(options, "--tick", scale) : have.tickSize();
            final long lot = options.longValue("--lot", have.lotSize(), 1);
            final long reference = options.has("--reference-price") ? price(options, "--reference-price", scale) :
                have.referencePrice();
            final PriceBandType bandType = options.has("--band-type") ? bandType(options.required("--band-type")) :
                have.bandType();
            final long band = options.longValue("--band", have.band(), 1);
            return send(link.admin(), "amend instrument " + id, (c, r) ->
                c.amendInstrument(r, id, symbol, tick, lot, reference, bandType, band, reason));
        }
    }

    private int account(final List<String> args)
    {
        final String verb = verb("account", args, Set.of("open", "deposit", "withdraw", "limits", "suspend",
            "reactivate", "close", "protection"));
        final List<String> rest = args.subList(1, args.size());
        final CommandLineOptions options = switch (verb)
        {
            case "open" -> parse("account open", rest, union(Set.of("--id", "--stp"), AdminOptions.LIMIT_OPTIONS),
                Set.of(AdminOptions.ALLOW_SHORT));
            case "deposit", "withdraw" -> parse("account " + verb, rest, Set.of("--id", "--amount", "--reference"),
                Set.of());
            case "limits" -> parse("account limits", rest, union(Set.of("--id"), AdminOptions.LIMIT_OPTIONS),
                Set.of(AdminOptions.ALLOW_SHORT));
            case "protection" -> parse("account protection", rest, Set.of("--id", "--group", "--instruments",
                "--interval-ms", "--fill-limit", "--quantity-limit", "--notional-limit", "--freeze-ms"),
                Set.of("--cancel-orders"));
            default -> parse("account " + verb, rest, Set.of("--id"), Set.of());
        };
        options.requirePositionals(0, "options only");
        final long id = options.longValue("--id", 0, 1);
        requireOption(options, "--id");
        final String operator = operator(options);
        final String reason = reason(options);
        switch (verb)
        {
            case "open" ->
            {
                final String name = options.string("--stp", "cancel-newest");
                final SelfTradePrevention stp = ReferenceData.stp(name);
                if (null == stp)
                {
                    throw new CommandLineOptions.UsageException("--stp: must be one of " +
                        String.join(", ", ReferenceData.stpNames()) + " (was '" + name + "')");
                }
                final AdminOptions.Limits limits = AdminOptions.limits(options, "account open", false);
                try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
                {
                    final int opened = send(link.admin(), "open account " + id, (c, r) -> c.addAccount(r, id, stp),
                        firstRequestId());
                    if (0 != opened)
                    {
                        return opened;
                    }
                    if (null == limits)
                    {
                        out.println("account " + id + " has no limits: every order of it is refused " +
                            "MAX_ORDER_QUANTITY until `account limits --id " + id + " ...` sets them (account open " +
                            "takes them too)");
                        return 0;
                    }
                    return send(link.admin(), "set limits of account " + id, setLimits(id, limits),
                        firstRequestId() + 1);
                }
            }
            case "deposit", "withdraw" ->
            {
                final long amount = money(options.required("--amount"), "--amount");
                final String reference = text(options, "--reference");
                final long signed = verb.equals("deposit") ? amount : -amount;
                return change(options, operator, verb + " " + ReferenceDataPlan.money(amount) + " " +
                    (verb.equals("deposit") ? "to" : "from") + " account " + id, (c, r) ->
                    c.adjustBalance(r, id, signed, reference, reason));
            }
            case "limits" ->
            {
                final AdminOptions.Limits limits = AdminOptions.limits(options, "account limits", true);
                return change(options, operator, "set limits of account " + id, setLimits(id, limits));
            }
            case "protection" ->
            {
                final int group = (int)Math.min(Integer.MAX_VALUE, requiredLong(options, "--group"));
                final long intervalMs = requiredLong(options, "--interval-ms");
                final int[] instruments = intervalMs == 0 && !options.has("--instruments") ? new int[0] :
                    instruments(options.required("--instruments"));
                final int fills = (int)Math.min(Integer.MAX_VALUE, options.longValue("--fill-limit", 0, 0));
                final long quantity = options.longValue("--quantity-limit", 0, 0);
                final long notional = money(options.string("--notional-limit", "0"), "--notional-limit");
                final long freezeMs = options.longValue("--freeze-ms", 0, 0);
                final boolean cancelOrders = options.has("--cancel-orders");
                final long ms = 1_000_000L;
                return change(options, operator, (intervalMs == 0 ? "remove" : "set") +
                    " market-maker protection of account " + id + " group " + group, (c, r) ->
                    c.setMarketMakerProtection(r, id, group, intervalMs * ms, quantity, notional, fills,
                    freezeMs * ms, cancelOrders, instruments, reason));
            }
            default ->
            {
                final AccountStatus status = switch (verb)
                {
                    case "suspend" -> AccountStatus.SUSPENDED;
                    case "reactivate" -> AccountStatus.ACTIVE;
                    default -> AccountStatus.CLOSED;
                };
                return change(options, operator, verb + " account " + id, (c, r) ->
                    c.setAccountStatus(r, id, status, reason));
            }
        }
    }

    private int user(final List<String> args)
    {
        final String verb = verb("user", args, Set.of("add", "passwd", "disable", "enable", "grant", "role",
            "cod-grace"));
        final List<String> rest = args.subList(1, args.size());
        final CommandLineOptions options = switch (verb)
        {
            case "add" -> parse("user add", rest, Set.of("--username", "--accounts", "--fix-sender-comp-id",
                "--throttle", "--role", "--cod-grace-ms"), Set.of("--cancel-on-disconnect", "--disabled"));
            case "cod-grace" -> parse("user cod-grace", rest, Set.of("--username", "--cod-grace-ms"), Set.of());
            case "grant" -> parse("user grant", rest, Set.of("--username", "--accounts"), Set.of());
            case "role" -> parse("user role", rest, Set.of("--username", "--role"), Set.of());
            default -> parse("user " + verb, rest, Set.of("--username"), Set.of());
        };
        options.requirePositionals(0, "options only");
        final String username = options.required("--username");
        if (!CommandText.isToken(username, ReferenceDataParser.MAX_NAME))
        {
            throw new CommandLineOptions.UsageException("--username: 1 to " + ReferenceDataParser.MAX_NAME +
                " printable characters without spaces");
        }
        final String operator = operator(options);
        final String reason = reason(options);
        if (verb.equals("add"))
        {
            final long[] accounts = accounts(options.required("--accounts"));
            final String compId = options.string("--fix-sender-comp-id", "");
            if (!compId.isEmpty() && !CommandText.isToken(compId, ReferenceDataParser.MAX_NAME))
            {
                throw new CommandLineOptions.UsageException("--fix-sender-comp-id: 1 to " +
                    ReferenceDataParser.MAX_NAME + " printable characters without spaces");
            }
            final int throttle = options.intValue("--throttle", 0, 0);
            final boolean cancelOnDisconnect = options.has("--cancel-on-disconnect");
            final int graceMs = codGraceMs(options, "--cod-grace-ms", 0);
            final boolean enabled = !options.has("--disabled");
            final UserRole role = role(options.string("--role", "trader"));
            final String credential = readCredential(username);
            if (null == credential)
            {
                return 1;
            }
            try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
            {
                final VenueState venue = link.reader().read(false);
                if (venue.users.containsKey(username))
                {
                    err.println("refused: add user " + username + ": the user exists (user enable, grant or " +
                        "passwd change it)");
                    return 1;
                }
                final int status = send(link.admin(), "add user " + username, (c, r) -> c.upsertUser(r, username,
                    enabled, accounts, compId, cancelOnDisconnect, throttle, role, graceMs, reason));
                return 0 != status ? status : send(link.admin(), "set the credential of user " + username,
                    (c, r) -> c.setUserCredential(r, username, credential, reason));
            }
        }
        if (verb.equals("passwd"))
        {
            final String credential = readCredential(username);
            if (null == credential)
            {
                return 1;
            }
            return change(options, operator, "set the credential of user " + username, (c, r) ->
                c.setUserCredential(r, username, credential, reason));
        }
        final long[] granted = verb.equals("grant") ? accounts(options.required("--accounts")) : null;
        final UserRole newRole = verb.equals("role") ? role(options.required("--role")) : null;
        final int newGraceMs = verb.equals("cod-grace") ? codGraceMs(options, "--cod-grace-ms", -1) : -1;
        if (verb.equals("cod-grace") && newGraceMs < 0)
        {
            requireOption(options, "--cod-grace-ms");
        }
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
        {
            final VenueState.User have = link.reader().read(false).users.get(username);
            if (null == have)
            {
                err.println("refused: " + verb + " user " + username + ": no such user at the venue");
                return 1;
            }
            boolean enabled = have.enabled();
            final List<Long> accounts = new ArrayList<>(have.accounts());
            final UserRole role = null == newRole ? have.role() : newRole;
            final long[] haveAccounts = accounts.stream().mapToLong(Long::longValue).toArray();
            if (verb.equals("role"))
            {
                if (role == have.role())
                {
                    out.println("nothing to change: user " + username + " is already " + roleName(role));
                    return 0;
                }
                return send(link.admin(), "user " + username + " role " + roleName(role), (c, r) -> c.upsertUser(r,
                    username, have.enabled(), haveAccounts, have.fixSenderCompId(), have.cancelOnDisconnect(),
                    have.throttle(), role, have.codGraceMs(), reason));
            }
            if (verb.equals("cod-grace"))
            {
                if (newGraceMs == have.codGraceMs())
                {
                    out.println("nothing to change: user " + username + " has a cancel-on-disconnect grace of " +
                        newGraceMs + " ms");
                    return 0;
                }
                return send(link.admin(), "user " + username + " cancel-on-disconnect grace " + newGraceMs + " ms",
                    (c, r) -> c.upsertUser(r, username, have.enabled(), haveAccounts, have.fixSenderCompId(),
                    have.cancelOnDisconnect(), have.throttle(), role, newGraceMs, reason));
            }
            if (verb.equals("grant"))
            {
                for (final long account : granted)
                {
                    if (!accounts.contains(account))
                    {
                        accounts.add(account);
                    }
                }
            }
            else
            {
                enabled = verb.equals("enable");
            }
            if (enabled == have.enabled() && accounts.equals(have.accounts()))
            {
                out.println("nothing to change: user " + username + " is already " + (verb.equals("grant") ?
                    "granted " + have.accounts() : verb + "d"));
                return 0;
            }
            final boolean newEnabled = enabled;
            final long[] newAccounts = accounts.stream().mapToLong(Long::longValue).toArray();
            return send(link.admin(), verb + " user " + username + (verb.equals("grant") ? " accounts " +
                accounts : ""), (c, r) -> c.upsertUser(r, username, newEnabled, newAccounts, have.fixSenderCompId(),
                have.cancelOnDisconnect(), have.throttle(), role, have.codGraceMs(), reason));
        }
    }

    /** {@code trader}, {@code drop-copy} or {@code clearing}: {@link UserRoles}'s spelling. */
    static String roleName(final UserRole role)
    {
        return UserRoles.name(role);
    }

    private static UserRole role(final String text)
    {
        final UserRole role = UserRoles.parse(text);
        if (null == role)
        {
            throw new CommandLineOptions.UsageException("--role: " + UserRoles.SPELLINGS + ", not '" + text + "'");
        }
        return role;
    }

    private static ReferenceDataPlan.Command setLimits(final long accountId, final AdminOptions.Limits l)
    {
        return (c, r) -> c.setLimits(r, accountId, l.maxOrderQuantity(), l.maxOrderNotional(), l.creditLimit(),
            l.positionLimit(), l.maxOpenOrders(), l.allowShort(), l.instruments(), l.positionLimits());
    }

    /** Connect, send one command, wait for its answer. */
    private int change(
        final CommandLineOptions options,
        final String operator,
        final String what,
        final ReferenceDataPlan.Command command)
    {
        try (AdminConnection link = AdminConnection.open(AdminConnection.settings(options), operator))
        {
            return send(link.admin(), what, command);
        }
    }

    private int send(final AdminClient admin, final String what, final ReferenceDataPlan.Command command)
    {
        return send(admin, what, command, firstRequestId());
    }

    /**
     * Send one command with the request id given (several sent within a millisecond need their own) and wait for
     * its answer.
     *
     * @return 0 accepted, 1 refused (the reason printed).
     */
    int send(final AdminClient admin, final String what, final ReferenceDataPlan.Command command, final long requestId)
    {
        final CommandEncoder commands = admin.commands();
        final AdminClient.Answer answer = admin.request(command.encode(commands, requestId));
        if (!answer.accepted())
        {
            err.println("refused: " + what + ": " + answer.reason());
            return 1;
        }
        out.println("done: " + what + " (journal sequence " + answer.commandSequence() + ")");
        return 0;
    }

    /**
     * Hash a password read from the console (twice, without echo) or the first line of standard input.
     *
     * @return the hash, or null (the reason printed).
     */
    private String readCredential(final String username)
    {
        final Console console = System.console();
        char[] password = null;
        char[] again = null;
        try
        {
            if (null != console)
            {
                password = console.readPassword("password for %s: ", username);
                again = console.readPassword("again: ");
                if (null != password && !Arrays.equals(password, again))
                {
                    err.println("the passwords differ: nothing sent");
                    return null;
                }
            }
            else
            {
                final String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
                password = null == line ? null : line.toCharArray();
            }
            if (null == password || password.length == 0)
            {
                err.println("no password given (the console, or the first line of standard input): nothing sent");
                return null;
            }
            return CredentialHash.hash(password);
        }
        catch (final IOException ex)
        {
            err.println("cannot read the password: " + ex.getMessage());
            return null;
        }
        finally
        {
            if (null != password)
            {
                Arrays.fill(password, '\0');
            }
            if (null != again)
            {
                Arrays.fill(again, '\0');
            }
        }
    }
}
