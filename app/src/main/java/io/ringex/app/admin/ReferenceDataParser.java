package io.ringex.app.admin;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

import io.ringex.engine.book.Instrument;
import io.ringex.protocol.CredentialHash;
import io.ringex.protocol.FixedPoint;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.UserRoles;
import io.ringex.protocol.codecs.PriceBandType;
import io.ringex.protocol.codecs.SelfTradePrevention;
import io.ringex.protocol.codecs.UserRole;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a reference-data file (YAML, the schema in docs/operations.md, "Onboarding") and checks it by the engine's own
 * rules before anything is sent, so a file that would be refused halfway through an apply is refused whole, with
 * every problem named by file, line and key ({@code demo.yml:14: instruments[2].tick: ...}).
 * <p>
 * It reads the YAML node tree (SnakeYAML's composer: no objects are constructed from the text, and every value keeps
 * its line) rather than binding it, so an unknown or repeated key is an error, not silently dropped or overwritten, and
 * numbers are taken as written: {@code 0.01} is the decimal 0.01, never a binary float. Booleans are {@code true} or
 * {@code false} only (YAML 1.1's {@code yes}/{@code no}/{@code on}/{@code off} are refused).
 * <p>
 * Thread safety: each parse uses its own instance.
 */
public final class ReferenceDataParser
{
    /** The file format's version, the top-level {@code version} key. */
    public static final int VERSION = 1;

    /** Longest symbol (the wire's Symbol field). */
    static final int MAX_SYMBOL = 16;
    /** Longest user name, FIX CompID (the engine's Users). */
    static final int MAX_NAME = 32;
    /** Longest credential hash the engine keeps. */
    static final int MAX_CREDENTIAL = 160;
    /** Most accounts a user may trade. */
    static final int MAX_USER_ACCOUNTS = 8;
    /** Highest throttle the engine takes. */
    static final int MAX_THROTTLE = 1_000_000;

    private static final Set<String> TOP = Set.of("version", "instruments", "accounts", "users", "schedule");
    private static final Set<String> INSTRUMENT = Set.of("id", "symbol", "priceScale", "tick", "lot",
        "referencePrice", "bandType", "band");
    private static final Set<String> ACCOUNT = Set.of("id", "selfTradePrevention", "balance", "limits",
        "marketMakerProtection");
    private static final Set<String> PROTECTION = Set.of("group", "instruments", "intervalMs", "fillLimit",
        "quantityLimit", "notionalLimit", "freezeMs", "cancelOrders");
    /** As the engine takes them (SetMarketMakerProtection): instruments in a group, fills, interval and freeze. */
    static final int MAX_PROTECTION_INSTRUMENTS = 64;
    static final int MAX_FILL_LIMIT = 10_000;
    static final long MAX_PROTECTION_MS = 24L * 3600 * 1000;
    private static final Set<String> LIMITS = Set.of("maxOrderQuantity", "maxOrderNotional", "creditLimit",
        "positionLimit", "maxOpenOrders", "allowShort", "instrumentPositionLimits");
    private static final Set<String> USER = Set.of("username", "credential", "accounts", "fixSenderCompId",
        "cancelOnDisconnect", "cancelOnDisconnectGraceMs", "throttle", "enabled", "role");
    private static final Set<String> SCHEDULE = Set.of("timeZone", "days", "preOpen", "open", "close", "endOfDay",
        "holidays");
    /** As the engine takes them: one SetTradingSchedule must fit an input slot. */
    private static final int MAX_HOLIDAYS = 12;

    private final String source;
    private final YamlFields.Problems problems;
    /** Every symbol and account id the file declares, valid or not: a reference to an invalid one is not a second
     * problem. */
    private final Set<String> declaredSymbols = new HashSet<>();
    private final Set<Long> declaredAccounts = new HashSet<>();

    private ReferenceDataParser(final String source)
    {
        this.source = source;
        this.problems = new YamlFields.Problems(source);
    }

    /**
     * @param file a reference-data file.
     * @return its content, valid.
     * @throws ReferenceDataException naming every problem (or that the file cannot be read).
     */
    public static ReferenceData parse(final Path file) throws ReferenceDataException
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new ReferenceDataException(List.of(file + ": cannot be read: " + ex));
        }
        return parse(file.toString(), new StringReader(text));
    }

    /**
     * @param source the file's name, for messages.
     * @param reader its text.
     * @return its content, valid.
     * @throws ReferenceDataException naming every problem.
     */
    public static ReferenceData parse(final String source, final Reader reader) throws ReferenceDataException
    {
        final ReferenceDataParser parser = new ReferenceDataParser(source);
        final Node root;
        try
        {
            final LoaderOptions options = new LoaderOptions();
            options.setAllowRecursiveKeys(false);
            root = new Yaml(options).compose(reader);
        }
        catch (final MarkedYAMLException ex)
        {
            final Mark mark = null != ex.getProblemMark() ? ex.getProblemMark() : ex.getContextMark();
            throw new ReferenceDataException(List.of(source + ":" + (null == mark ? 1 : mark.getLine() + 1) +
                ": not valid YAML: " + (null == ex.getProblem() ? ex.getMessage() : ex.getProblem()) +
                (null == ex.getContext() ? "" : " (" + ex.getContext() + ")")));
        }
        catch (final YAMLException ex)
        {
            throw new ReferenceDataException(List.of(source + ": not valid YAML: " + ex.getMessage()));
        }
        if (null == root)
        {
            throw new ReferenceDataException(List.of(source + ":1: the file is empty"));
        }
        final ReferenceData data = parser.read(root);
        if (parser.problems.count() > 0)
        {
            throw new ReferenceDataException(parser.problems.list());
        }
        return data;
    }

    private ReferenceData read(final Node root)
    {
        final YamlFields top = new YamlFields(problems, "", root, TOP);
        final Long version = top.integer("version", 1, Integer.MAX_VALUE, null);
        if (null != version && version != VERSION)
        {
            problems.add(top.node("version"), "version", "this Ringex reads version " + VERSION + ", not " + version);
        }
        final List<ReferenceData.Instrument> instruments = new ArrayList<>();
        for (final YamlFields fields : top.list("instruments", INSTRUMENT))
        {
            final ReferenceData.Instrument instrument = instrument(fields);
            if (null != instrument)
            {
                instruments.add(instrument);
            }
        }
        checkUnique(instruments, ReferenceData.Instrument::id, "id", "instrument");
        checkUnique(instruments, ReferenceData.Instrument::symbol, "symbol", "instrument");

        final Map<String, ReferenceData.Instrument> bySymbol = new HashMap<>();
        instruments.forEach((i) -> bySymbol.put(i.symbol(), i));
        final List<ReferenceData.Account> accounts = new ArrayList<>();
        for (final YamlFields fields : top.list("accounts", ACCOUNT))
        {
            final ReferenceData.Account account = account(fields, bySymbol);
            if (null != account)
            {
                accounts.add(account);
            }
        }
        checkUnique(accounts, ReferenceData.Account::id, "id", "account");

        final Set<Long> accountIds = new HashSet<>();
        accounts.forEach((a) -> accountIds.add(a.id()));
        final List<ReferenceData.User> users = new ArrayList<>();
        for (final YamlFields fields : top.list("users", USER))
        {
            final ReferenceData.User user = user(fields, accountIds);
            if (null != user)
            {
                users.add(user);
            }
        }
        checkUnique(users, ReferenceData.User::username, "username", "user");
        final List<ReferenceData.User> withFix = new ArrayList<>();
        users.stream().filter((u) -> !u.fixSenderCompId().isEmpty()).forEach(withFix::add);
        checkUnique(withFix, ReferenceData.User::fixSenderCompId, "fixSenderCompId", "user");

        final Node scheduleNode = top.node("schedule");
        final ReferenceData.Schedule schedule = null == scheduleNode ? null :
            schedule(new YamlFields(problems, "schedule", scheduleNode, SCHEDULE));
        return new ReferenceData(List.copyOf(instruments), List.copyOf(accounts), List.copyOf(users), schedule);
    }

    private ReferenceData.Instrument instrument(final YamlFields f)
    {
        final int before = problems.count();
        final Long id = f.integer("id", 1, Integer.MAX_VALUE, null);
        final String symbol = f.token("symbol", MAX_SYMBOL, null);
        declaredSymbols.add(null == symbol ? f.raw("symbol") : symbol);
        final Long scale = f.integer("priceScale", 0, FixedPoint.MAX_PRICE_SCALE, null);
        final Long lot = f.integer("lot", 1, Long.MAX_VALUE, null);
        final String bandTypeText = f.text("bandType", true);
        PriceBandType bandType = null;
        if (null != bandTypeText)
        {
            bandType = switch (bandTypeText)
            {
                case "bps" -> PriceBandType.BASIS_POINTS;
                case "ticks" -> PriceBandType.TICKS;
                default ->
                {
                    problems.add(f.node("bandType"), f.path("bandType"), "must be bps or ticks, not '" + bandTypeText +
                        "'");
                    yield null;
                }
            };
        }
        final Long band = f.integer("band", 1, Long.MAX_VALUE, null);
        Long tick = null;
        Long reference = null;
        if (null != scale)
        {
            tick = f.decimal("tick", scale.intValue(), 1, "a price");
            reference = f.decimal("referencePrice", scale.intValue(), 1, "a price");
        }
        else
        {
            f.text("tick", true);
            f.text("referencePrice", true);
        }
        if (problems.count() != before)
        {
            return null;
        }
        if (reference % tick != 0)
        {
            problems.add(f.node("referencePrice"), f.path("referencePrice"),
                FixedPoint.format(reference, scale.intValue()) +
                " is not a multiple of the tick " + FixedPoint.format(tick, scale.intValue()));
            return null;
        }
        final byte rawBandType = (byte)bandType.value();
        final long ticks = Instrument.bandTicks(reference, tick, rawBandType, band);
        if (ticks < 0)
        {
            problems.add(f.node("band"), f.path("band"), "a band of " + band + " " + bandTypeText +
                " around " + FixedPoint.format(reference, scale.intValue()) + " is out of the engine's range");
            return null;
        }
        if (bandType == PriceBandType.BASIS_POINTS)
        {
            // The engine rounds a band that is not a whole number of ticks down; the file must say what it gets.
            final long bandPrice = reference / 10_000 * band + (reference % 10_000) * band / 10_000;
            final boolean exact = BigInteger.valueOf(reference).multiply(BigInteger.valueOf(band))
                .mod(BigInteger.valueOf(10_000)).signum() == 0;
            if (!exact || bandPrice % tick != 0 || ticks == 0)
            {
                problems.add(f.node("band"), f.path("band"), band + " bps of " +
                    FixedPoint.format(reference, scale.intValue()) + " is not a whole number of ticks of " +
                    FixedPoint.format(tick, scale.intValue()) + " (the band's edges must be prices that trade)");
                return null;
            }
        }
        return new ReferenceData.Instrument(id.intValue(), symbol, scale.intValue(), tick, lot, reference, bandType,
            band, f.line());
    }

    private ReferenceData.Account account(final YamlFields f, final Map<String, ReferenceData.Instrument> bySymbol)
    {
        final int before = problems.count();
        final Long id = f.integer("id", 1, Long.MAX_VALUE, null);
        declaredAccounts.add(id);
        final String stpText = f.text("selfTradePrevention", false);
        SelfTradePrevention stp = SelfTradePrevention.CANCEL_NEWEST;
        if (null != stpText)
        {
            stp = ReferenceData.stp(stpText);
            if (null == stp)
            {
                problems.add(f.node("selfTradePrevention"), f.path("selfTradePrevention"), "must be one of " +
                    String.join(", ", ReferenceData.stpNames()) + ", not '" + stpText + "'");
            }
        }
        final Long balance = f.has("balance") ? f.decimal("balance", FixedPoint.MONEY_SCALE, 0, "an amount") :
            Long.valueOf(0);
        final Node limitsNode = f.node("limits");
        ReferenceData.Limits limits = null;
        if (null == limitsNode)
        {
            f.missing("limits");
        }
        else
        {
            limits = limits(new YamlFields(problems, f.path("limits"), limitsNode, LIMITS), bySymbol);
        }
        final List<ReferenceData.Protection> protection = new ArrayList<>();
        final Map<Integer, Integer> groupOfInstrument = new HashMap<>();
        for (final YamlFields fields : f.list("marketMakerProtection", PROTECTION))
        {
            final ReferenceData.Protection group = protection(fields, bySymbol);
            if (null == group)
            {
                continue;
            }
            if (protection.stream().anyMatch((g) -> g.group() == group.group()))
            {
                problems.add(fields.node("group"), fields.path("group"), "group " + group.group() +
                    " is given twice for the account");
                continue;
            }
            for (final int instrumentId : group.instruments())
            {
                final Integer other = groupOfInstrument.putIfAbsent(instrumentId, group.group());
                if (null != other)
                {
                    problems.add(fields.node("instruments"), fields.path("instruments"), "instrument " +
                        instrumentId + " is in the account's group " + other + " already (an instrument is in one " +
                        "group of an account)");
                }
            }
            protection.add(group);
        }
        protection.sort(java.util.Comparator.comparingInt(ReferenceData.Protection::group));
        if (problems.count() != before)
        {
            return null;
        }
        return new ReferenceData.Account(id, stp, balance, limits, List.copyOf(protection), f.line());
    }

    private ReferenceData.Protection protection(
        final YamlFields f, final Map<String, ReferenceData.Instrument> bySymbol)
    {
        final int before = problems.count();
        final Long group = f.integer("group", 1, 65_535, null);
        final Long intervalMs = f.integer("intervalMs", 1, MAX_PROTECTION_MS, null);
        final Long fillLimit = f.integer("fillLimit", 1, MAX_FILL_LIMIT, null);
        final Long quantityLimit = f.integer("quantityLimit", 0, Long.MAX_VALUE, 0L);
        final Long notionalLimit = f.has("notionalLimit") ?
            f.decimal("notionalLimit", FixedPoint.MONEY_SCALE, 0, "an amount") : Long.valueOf(0);
        final Long freezeMs = f.integer("freezeMs", 0, MAX_PROTECTION_MS, 0L);
        final Boolean cancelOrders = f.bool("cancelOrders", Boolean.FALSE);
        final SortedSet<Integer> instruments = new TreeSet<>();
        final Node list = f.node("instruments");
        if (null == list)
        {
            f.missing("instruments");
        }
        else if (!(list instanceof SequenceNode sequence) || sequence.getValue().isEmpty() ||
            sequence.getValue().size() > MAX_PROTECTION_INSTRUMENTS)
        {
            problems.add(list, f.path("instruments"), "must be a list of 1 to " + MAX_PROTECTION_INSTRUMENTS +
                " symbols of the file's instruments");
        }
        else
        {
            final List<Node> items = sequence.getValue();
            for (int i = 0; i < items.size(); i++)
            {
                final String path = f.path("instruments") + "[" + (i + 1) + "]";
                final String symbol = items.get(i) instanceof ScalarNode scalar ? scalar.getValue() : null;
                final ReferenceData.Instrument instrument = null == symbol ? null : bySymbol.get(symbol);
                if (null == symbol)
                {
                    problems.add(items.get(i), path, "must be a symbol");
                }
                else if (null == instrument)
                {
                    // an instrument declared but invalid has its own problem already
                    if (!declaredSymbols.contains(symbol))
                    {
                        problems.add(items.get(i), path,
                            "unknown instrument: no instrument of the file has the symbol '" + symbol + "'");
                    }
                }
                else if (!instruments.add(instrument.id()))
                {
                    problems.add(items.get(i), path, symbol + " is listed twice");
                }
            }
        }
        if (problems.count() != before)
        {
            return null;
        }
        return new ReferenceData.Protection(group.intValue(), Collections.unmodifiableSortedSet(instruments),
            intervalMs, fillLimit.intValue(), quantityLimit, notionalLimit, freezeMs, cancelOrders, f.line());
    }

    private ReferenceData.Limits limits(final YamlFields f, final Map<String, ReferenceData.Instrument> bySymbol)
    {
        final int before = problems.count();
        final Long maxQuantity = f.integer("maxOrderQuantity", 0, Long.MAX_VALUE, null);
        final Long maxNotional = f.decimal("maxOrderNotional", FixedPoint.MONEY_SCALE, 0, "an amount");
        final Long credit = f.decimal("creditLimit", FixedPoint.MONEY_SCALE, 0, "an amount");
        final Long positionLimit = f.integer("positionLimit", 0, Long.MAX_VALUE, null);
        final Long maxOpen = f.integer("maxOpenOrders", 0, Integer.MAX_VALUE, null);
        final Boolean allowShort = f.bool("allowShort", Boolean.FALSE);
        final SortedMap<Integer, Long> overrides = new TreeMap<>();
        final Node overridesNode = f.node("instrumentPositionLimits");
        if (null != overridesNode)
        {
            final YamlFields byInstrument = new YamlFields(problems, f.path("instrumentPositionLimits"),
                overridesNode, null);
            for (final String symbol : byInstrument.keys())
            {
                final ReferenceData.Instrument instrument = bySymbol.get(symbol);
                final Long limit = byInstrument.integer(symbol, 0, Long.MAX_VALUE, null);
                if (null == instrument && !declaredSymbols.contains(symbol))
                {
                    problems.add(byInstrument.keyNode(symbol), byInstrument.path(symbol),
                        "unknown instrument: no instrument of the file has the symbol '" + symbol + "'");
                }
                else if (null != limit && null != instrument)
                {
                    overrides.put(instrument.id(), limit);
                }
            }
        }
        if (problems.count() != before)
        {
            return null;
        }
        return new ReferenceData.Limits(maxQuantity, maxNotional, credit, positionLimit, maxOpen.intValue(),
            allowShort, Collections.unmodifiableSortedMap(overrides));
    }

    private ReferenceData.User user(final YamlFields f, final Set<Long> accountIds)
    {
        final int before = problems.count();
        final String username = f.token("username", MAX_NAME, null);
        String credential = null;
        if (f.has("credential"))
        {
            credential = f.text("credential", true);
            if (null != credential && (credential.length() > MAX_CREDENTIAL ||
                !CredentialHash.isWellFormed(credential)))
            {
                problems.add(f.node("credential"), f.path("credential"), "is not a credential hash " +
                    "(pbkdf2-sha256:<iterations>:<salt>:<hash>, as ./ringex admin user passwd or the gateway's " +
                    "HashCredential prints; never a password)");
            }
        }
        final List<Long> accounts = new ArrayList<>();
        final Node accountsNode = f.node("accounts");
        if (null == accountsNode)
        {
            f.missing("accounts");
        }
        else if (!(accountsNode instanceof SequenceNode sequence) || sequence.getValue().isEmpty() ||
            sequence.getValue().size() > MAX_USER_ACCOUNTS)
        {
            problems.add(accountsNode, f.path("accounts"), "must be a list of 1 to " + MAX_USER_ACCOUNTS +
                " account ids, the default first");
        }
        else
        {
            final List<Node> items = sequence.getValue();
            for (int i = 0; i < items.size(); i++)
            {
                final String path = f.path("accounts") + "[" + (i + 1) + "]";
                final Long account = YamlFields.integer(problems, items.get(i), path, 1, Long.MAX_VALUE);
                if (null == account)
                {
                    continue;
                }
                if (accounts.contains(account))
                {
                    problems.add(items.get(i), path, "account " + account + " is listed twice");
                }
                else if (!accountIds.contains(account) && !declaredAccounts.contains(account))
                {
                    problems.add(items.get(i), path, "unknown account " + account + ": not in the file's accounts");
                }
                accounts.add(account);
            }
        }
        final String compId = f.has("fixSenderCompId") ? f.token("fixSenderCompId", MAX_NAME, null) : "";
        final Boolean cancelOnDisconnect = f.bool("cancelOnDisconnect", Boolean.FALSE);
        final Long codGraceMs = f.integer("cancelOnDisconnectGraceMs", 0,
            MessageCatalog.MAX_CANCEL_ON_DISCONNECT_GRACE_MS, 0L);
        final Long throttle = f.integer("throttle", 0, MAX_THROTTLE, 0L);
        final Boolean enabled = f.bool("enabled", Boolean.TRUE);
        final UserRole role = role(f);
        if (problems.count() != before)
        {
            return null;
        }
        return new ReferenceData.User(username, credential, List.copyOf(accounts), compId, cancelOnDisconnect,
            codGraceMs.intValue(), throttle.intValue(), enabled, role, f.line());
    }

    private UserRole role(final YamlFields f)
    {
        if (!f.has("role"))
        {
            return UserRole.TRADER;
        }
        final String text = f.text("role", true);
        if (null == text)
        {
            return null;
        }
        final UserRole role = UserRoles.parse(text);
        if (null == role)
        {
            problems.add(f.node("role"), f.path("role"), "must be " + UserRoles.SPELLINGS + ", not '" + text + "'");
        }
        return role;
    }

    private ReferenceData.Schedule schedule(final YamlFields f)
    {
        final int before = problems.count();
        final String zoneText = f.text("timeZone", true);
        ZoneId zone = null;
        if (null != zoneText)
        {
            try
            {
                zone = ZoneId.of(zoneText);
            }
            catch (final DateTimeException ex)
            {
                problems.add(f.node("timeZone"), f.path("timeZone"), "unknown time zone '" + zoneText +
                    "' (a region such as Europe/London, or UTC)");
            }
        }
        final Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        final Node daysNode = f.node("days");
        if (null == daysNode)
        {
            f.missing("days");
        }
        else if (!(daysNode instanceof SequenceNode sequence) || sequence.getValue().isEmpty())
        {
            problems.add(daysNode, f.path("days"), "must be a list of days (MON, TUE, ...)");
        }
        else
        {
            for (final Node item : sequence.getValue())
            {
                final String text = item instanceof ScalarNode scalar ? scalar.getValue() : "";
                final DayOfWeek day = DAYS.get(text.toUpperCase(Locale.ROOT));
                if (null == day)
                {
                    problems.add(item, f.path("days"), "'" + text +
                        "' is not a day (MON, TUE, WED, THU, FRI, SAT, SUN)");
                }
                else if (!days.add(day))
                {
                    problems.add(item, f.path("days"), text + " is listed twice");
                }
            }
        }
        final LocalTime preOpen = null == f.node("preOpen") ? null : f.time("preOpen");
        final LocalTime open = f.time("open");
        final LocalTime close = f.time("close");
        final LocalTime endOfDay = f.time("endOfDay");
        if (null != preOpen && null != open && !preOpen.isBefore(open))
        {
            problems.add(f.node("preOpen"), f.path("preOpen"), "the pre-open " + preOpen + " is not before the open " +
                open);
        }
        if (null != zoneText && zoneText.length() > 32)
        {
            problems.add(f.node("timeZone"), f.path("timeZone"), "a time zone id of at most 32 characters");
        }
        final List<LocalDate> holidays = holidays(f);
        if (null != open && null != close && !open.isBefore(close))
        {
            problems.add(f.node("close"), f.path("close"), "the close " + close + " is not after the open " + open);
        }
        if (null != close && null != endOfDay && endOfDay.isBefore(close))
        {
            problems.add(f.node("endOfDay"), f.path("endOfDay"), "the end of day " + endOfDay +
                " is before the close " +
                close);
        }
        if (problems.count() != before)
        {
            return null;
        }
        return new ReferenceData.Schedule(zone, Collections.unmodifiableSet(days), preOpen, open, close, endOfDay,
            holidays, f.line());
    }

    private List<LocalDate> holidays(final YamlFields f)
    {
        final Node node = f.node("holidays");
        if (null == node)
        {
            return List.of();
        }
        if (!(node instanceof SequenceNode sequence))
        {
            problems.add(node, f.path("holidays"), "must be a list of dates (YYYY-MM-DD)");
            return List.of();
        }
        if (sequence.getValue().size() > MAX_HOLIDAYS)
        {
            problems.add(node, f.path("holidays"), "at most " + MAX_HOLIDAYS + " dates (a year's closures: the " +
                "next year's go in with the next schedule)");
        }
        final TreeSet<LocalDate> dates = new TreeSet<>();
        for (final Node item : sequence.getValue())
        {
            final String text = item instanceof ScalarNode scalar ? scalar.getValue() : "";
            try
            {
                if (!dates.add(LocalDate.parse(text)))
                {
                    problems.add(item, f.path("holidays"), text + " is listed twice");
                }
            }
            catch (final DateTimeParseException ex)
            {
                problems.add(item, f.path("holidays"), "'" + text + "' is not a date YYYY-MM-DD");
            }
        }
        return List.copyOf(dates);
    }

    private static final Map<String, DayOfWeek> DAYS = new HashMap<>();

    static
    {
        for (final DayOfWeek day : DayOfWeek.values())
        {
            DAYS.put(day.name().substring(0, 3), day);
        }
    }

    private <T> void checkUnique(
        final List<T> items,
        final Function<T, Object> key,
        final String keyName,
        final String what)
    {
        final Map<Object, T> seen = new HashMap<>();
        for (final T item : items)
        {
            final T first = seen.putIfAbsent(key.apply(item), item);
            if (null != first)
            {
                problems.addLine(line(item) + ": " + keyName + ": duplicate " + what + " " + keyName +
                    " " + key.apply(item) + " (first on line " + line(first) + ")");
            }
        }
    }

    private static int line(final Object item)
    {
        if (item instanceof ReferenceData.Instrument i)
        {
            return i.line();
        }
        if (item instanceof ReferenceData.Account a)
        {
            return a.line();
        }
        return ((ReferenceData.User)item).line();
    }
}
